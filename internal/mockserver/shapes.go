package mockserver

import "net/http"

// SingleShape is the body shape of getSubscribedEventForAccount and updateSubscription (one subscription).
type SingleShape int

// Single-subscription shapes (spec SERVICE.md rule 5: a client must accept both).
const (
	SingleFlat    SingleShape = iota // Subscription fields at the top level (default)
	SingleWrapped                    // {"subscription": {...}}
)

// JWTShape is the body shape of the JWT endpoint.
type JWTShape int

// JWT endpoint body shapes.
const (
	JWTObjectToken            JWTShape = iota // {"token":"..."} (default)
	JWTPlainText                              // the token as a text/plain body
	JWTJSONString                             // "..." (a JSON string)
	JWTObjectJWT                              // {"jwt":"..."}
	JWTObjectAccessToken                      // {"access_token":"..."}
	JWTObjectAccessTokenCamel                 // {"accessToken":"..."}
)

// CatalogueShape is the body shape of getLogLevels, listEvents and getDestinationTypes.
type CatalogueShape int

// Catalogue body shapes.
const (
	CatalogueWrappedObjects CatalogueShape = iota // {"events":[{"name":..,"description":..}]}, {"logLevels":[...]}, {"destinationTypes":[...]} (default)
	CatalogueArrayObjects                         // [{"name":..,"description":..}]
	CatalogueArrayStrings                         // ["INFO","WARNING",...]
	CatalogueWrappedStrings                       // {"events":["..."]} etc.
	CatalogueEventNameKey                         // like the default, but event records carry "eventName" instead of "name"
)

// SetSingleShape sets the body shape of getSubscribedEventForAccount and updateSubscription.
func (s *Server) SetSingleShape(shape SingleShape) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.singleShape = shape
}

// SetEmptyListStatus sets the answer of listSubscribedEventsForAccount on an account with no
// subscriptions: 204 (the default, also for any unknown code), 404 (an
// "Entity not found" body naming the account) or 200 (an empty page).
func (s *Server) SetEmptyListStatus(code int) {
	switch code {
	case http.StatusNotFound, http.StatusOK:
	default:
		code = http.StatusNoContent
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.emptyListStatus = code
}

// SetJWTShape sets the body shape of the JWT endpoint.
func (s *Server) SetJWTShape(shape JWTShape) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.jwtShape = shape
}

// SetCatalogueShape sets the body shape of the catalogue operations.
func (s *Server) SetCatalogueShape(shape CatalogueShape) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catalogueShape = shape
}

// SetResponseTransform sets fn to be applied to a copy of every
// subscription the API returns (listSubscribedEventsForAccount, updateSubscriptions, createSubscriptions, getSubscribedEventForAccount and updateSubscription), for example
// to produce spelling variants; nil clears it. The store is not changed,
// and fn runs without the server's lock held.
func (s *Server) SetResponseTransform(fn func(*Subscription)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.transform = fn
}

// applyTransform applies fn to each element of subs in place (subs are
// already copies).
func applyTransform(fn func(*Subscription), subs []Subscription) {
	if fn == nil {
		return
	}
	for i := range subs {
		fn(&subs[i])
	}
}

// msgBulkUpdateShape is the message of a bulk update refused by SetBulkUpdateRefused.
const msgBulkUpdateShape = "Invalid subscriptions: unsupported item shape"

// SetBulkUpdateRefused makes the server refuse every bulkOperationsOnSubscriptionsForAccount
// request of operation "update" as a whole, with 400 "Invalid subscriptions: unsupported
// item shape", as a service whose item shape differs from the one a client sends would (the
// description leaves the shape open); nothing is changed. Bulk deletes are served as usual.
func (s *Server) SetBulkUpdateRefused(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bulkUpdateRefused = on
}

// msgBulkUpdateItemRefused is the message of an item refused by RefuseBulkUpdateItems.
const msgBulkUpdateItemRefused = "Unable to update subscription: refused by the service"

// RefuseBulkUpdateItems makes the server answer the item of each of ids in a bulk update
// (operation "update") with a 400 status and "Unable to update subscription: refused by the
// service", leaving its subscription unchanged, as a service that refuses some items of a
// request does; the other items are served as usual. No ids ends it.
func (s *Server) RefuseBulkUpdateItems(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusedUpdateItems = make(map[string]bool, len(ids))
	for _, id := range ids {
		if key, ok := canonicalID(id); ok {
			s.refusedUpdateItems[key] = true
		}
	}
}
