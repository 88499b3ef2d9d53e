package mockserver

import (
	"net/http"
	"net/url"
	"strings"
)

// Route patterns, used for fault matching and request counters.
const (
	RouteJWT              = "/auth/jwt/generate/{accountId}"
	RouteSubscriptions    = "/rest/v1/accounts/{accountId}/subscriptions"
	RouteSubscription     = "/rest/v1/accounts/{accountId}/subscriptions/{subscriptionId}"
	RouteTopic            = "/rest/v1/accounts/{accountId}/eventStreams/topic/subscription"
	RouteLogLevels        = "/rest/v1/log-levels"
	RouteEvents           = "/rest/v1/events"
	RouteDestinationTypes = "/rest/v1/destination-types"
)

// routeMatch is a request path resolved to one of the Route* patterns
// and its path variables (unescaped).
type routeMatch struct {
	route          string
	accountID      string
	subscriptionID string
}

// matchRoute resolves an escaped request path. Path variables must be
// non-empty; anything else does not match (route "").
func matchRoute(escapedPath string) (routeMatch, bool) {
	seg := strings.Split(strings.TrimPrefix(escapedPath, "/"), "/")
	vars := func(idx ...int) ([]string, bool) {
		out := make([]string, 0, len(idx))
		for _, i := range idx {
			v, err := url.PathUnescape(seg[i])
			if err != nil || v == "" {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	}
	switch {
	case len(seg) == 4 && seg[0] == "auth" && seg[1] == "jwt" && seg[2] == "generate":
		if v, ok := vars(3); ok {
			return routeMatch{route: RouteJWT, accountID: v[0]}, true
		}
	case len(seg) == 3 && seg[0] == "rest" && seg[1] == "v1":
		switch seg[2] {
		case "log-levels":
			return routeMatch{route: RouteLogLevels}, true
		case "events":
			return routeMatch{route: RouteEvents}, true
		case "destination-types":
			return routeMatch{route: RouteDestinationTypes}, true
		}
	case len(seg) >= 5 && seg[0] == "rest" && seg[1] == "v1" && seg[2] == "accounts":
		switch {
		case len(seg) == 5 && seg[4] == "subscriptions":
			if v, ok := vars(3); ok {
				return routeMatch{route: RouteSubscriptions, accountID: v[0]}, true
			}
		case len(seg) == 6 && seg[4] == "subscriptions":
			if v, ok := vars(3, 5); ok {
				return routeMatch{route: RouteSubscription, accountID: v[0], subscriptionID: v[1]}, true
			}
		case len(seg) == 7 && seg[4] == "eventStreams" && seg[5] == "topic" && seg[6] == "subscription":
			if v, ok := vars(3); ok {
				return routeMatch{route: RouteTopic, accountID: v[0]}, true
			}
		}
	}
	return routeMatch{}, false
}

// allowedMethods lists the methods each route serves.
func allowedMethods(route string) []string {
	switch route {
	case RouteSubscriptions:
		return []string{http.MethodGet, http.MethodPut, http.MethodPost, http.MethodDelete, http.MethodPatch}
	case RouteSubscription:
		return []string{http.MethodGet, http.MethodPut, http.MethodDelete}
	case RouteTopic:
		return []string{http.MethodPost}
	case RouteJWT, RouteLogLevels, RouteEvents, RouteDestinationTypes:
		return []string{http.MethodGet}
	}
	return nil
}

// call carries what a service handler needs beyond the request: the path
// variables and the authenticated user name.
type call struct {
	accountID      string
	subscriptionID string
	username       string
}

// handlerFunc serves one operation of the service.
type handlerFunc func(w http.ResponseWriter, r *http.Request, c call)

// handlerFor returns the operation for route and method, or nil when the
// route does not serve the method.
func (s *Server) handlerFor(route, method string) handlerFunc {
	switch route + " " + method {
	case RouteSubscriptions + " GET":
		return s.listSubscriptions
	case RouteSubscriptions + " PUT":
		return s.replaceSubscriptions
	case RouteSubscriptions + " POST":
		return s.createSubscriptions
	case RouteSubscriptions + " DELETE":
		return s.deleteAllSubscriptions
	case RouteSubscriptions + " PATCH":
		return s.bulkSubscriptions
	case RouteSubscription + " GET":
		return s.getSubscription
	case RouteSubscription + " PUT":
		return s.updateSubscription
	case RouteSubscription + " DELETE":
		return s.deleteSubscription
	case RouteTopic + " POST":
		return s.createTopicSubscription
	case RouteLogLevels + " GET":
		return s.catalogueHandler(catalogueLogLevels)
	case RouteEvents + " GET":
		return s.catalogueHandler(catalogueEvents)
	case RouteDestinationTypes + " GET":
		return s.catalogueHandler(catalogueDestinationTypes)
	}
	return nil
}
