package client_test

import (
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

const (
	msgEventName = "Must provide a valid eventName"
	msgDestType  = "Must provide a valid destinationType"
	msgLogLevel  = "Must provide a valid logLevel"
)

// Rule 3: updateSubscriptions, createSubscriptions and updateSubscription answer 400 with one message per missing or invalid item,
// and store nothing.
func TestMockValidationMessages(t *testing.T) {
	t.Parallel()
	inputs := []struct {
		name string
		in   []client.SubscriptionInput
		msgs []string
	}{
		{"all missing", []client.SubscriptionInput{{}}, []string{msgEventName, msgDestType, msgLogLevel}},
		{"unknown destination type", []client.SubscriptionInput{{EventName: "E", DestinationType: "SMS", LogLevel: "INFO"}}, []string{msgDestType}},
		{"blank event, unknown level", []client.SubscriptionInput{{EventName: "   ", DestinationType: "EMAIL", LogLevel: "DEBUG"}}, []string{msgEventName, msgLogLevel}},
		{"lower-case enums", []client.SubscriptionInput{{EventName: "E", DestinationType: "event_streams", LogLevel: "info"}}, []string{msgDestType, msgLogLevel}},
		{"several items", []client.SubscriptionInput{{LogLevel: "ERROR"}, validInput("OK"), {EventName: "Y"}}, []string{msgEventName, msgDestType, msgDestType, msgLogLevel}},
	}
	ops := []struct {
		name   string
		method string
		route  string
		multi  bool
		call   func(c *client.Client, id string, in []client.SubscriptionInput) error
	}{
		{"replace (2)", http.MethodPut, mockserver.RouteSubscriptions, true, func(c *client.Client, _ string, in []client.SubscriptionInput) error {
			_, err := c.ReplaceSubscriptions(t.Context(), itAccount, in)
			return err
		}},
		{"create (3)", http.MethodPost, mockserver.RouteSubscriptions, true, func(c *client.Client, _ string, in []client.SubscriptionInput) error {
			_, err := c.CreateSubscriptions(t.Context(), itAccount, in)
			return err
		}},
		{"update (7)", http.MethodPut, mockserver.RouteSubscription, false, func(c *client.Client, id string, in []client.SubscriptionInput) error {
			_, err := c.UpdateSubscription(t.Context(), itAccount, id, in[0])
			return err
		}},
	}
	for _, op := range ops {
		for _, tt := range inputs {
			if len(tt.in) > 1 && !op.multi {
				continue
			}
			t.Run(op.name+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				e, c := newMockClient(t)
				before := e.seed(itAccount, 2)
				err := op.call(c, before[0].SubscriptionID, tt.in)
				path := subsPath(itAccount)
				if op.route == mockserver.RouteSubscription {
					path = subPath(itAccount, before[0].SubscriptionID)
				}
				wantErrorBody(t, wantAPIError(t, err, http.StatusBadRequest, tt.msgs...), "Bad Request", path)
				after := e.mock.Subscriptions(itAccount)
				if len(after) != len(before) || after[0] != before[0] || after[1] != before[1] {
					t.Errorf("a rejected request changed the store:\n before %+v\n after  %+v", before, after)
				}
				e.wantCount(op.method, op.route, 1)
			})
		}
	}
}

// Rule 3: a missing or invalid body is a 400 for updateSubscriptions, createSubscriptions and updateSubscription (the messages are the
// mock's own; the spec gives only the status). The bodies are rewritten in transit.
func TestMockInvalidBodies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		method     string
		single     bool
		body       string
		msgs       []string
		wantStored int
	}{
		{"replace, no body", http.MethodPut, false, "", []string{"Required request body is missing"}, 1},
		{"replace, null", http.MethodPut, false, "null", []string{"Required request body is missing"}, 1},
		{"replace, not JSON", http.MethodPut, false, "subscriptions=[]", []string{"Malformed JSON request body"}, 1},
		{"replace, array", http.MethodPut, false, "[]", []string{"Request body must be a JSON object"}, 1},
		{"replace, no subscriptions", http.MethodPut, false, "{}", []string{"subscriptions is required"}, 1},
		{"create, no body", http.MethodPost, false, "", []string{"Required request body is missing"}, 1},
		{"create, subscriptions not an array", http.MethodPost, false, `{"subscriptions":{}}`, []string{"subscriptions must be an array"}, 1},
		{"create, server-managed field", http.MethodPost, false, `{"subscriptions":[{"eventName":"E","destinationType":"EMAIL","logLevel":"INFO","createdDate":1}]}`, []string{"createdDate is managed by the service and cannot be provided"}, 1},
		{"update, no body", http.MethodPut, true, "", []string{"Required request body is missing"}, 1},
		{"update, no subscription", http.MethodPut, true, "{}", []string{"subscription is required"}, 1},
		{"update, flat subscription", http.MethodPut, true, `{"eventName":"E","destinationType":"EMAIL","logLevel":"INFO"}`, []string{"subscription is required", "Unknown field: destinationType", "Unknown field: eventName", "Unknown field: logLevel"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, c := newMockClient(t, rewriteBodies(tt.method, tt.body))
			subs := e.seed(itAccount, 1)
			var err error
			path := subsPath(itAccount)
			route := mockserver.RouteSubscriptions
			switch {
			case tt.single:
				path, route = subPath(itAccount, subs[0].SubscriptionID), mockserver.RouteSubscription
				_, err = c.UpdateSubscription(ctx(t), itAccount, subs[0].SubscriptionID, validInput("E"))
			case tt.method == http.MethodPut:
				_, err = c.ReplaceSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{validInput("E")})
			default:
				_, err = c.CreateSubscriptions(ctx(t), itAccount, []client.SubscriptionInput{validInput("E")})
			}
			wantErrorBody(t, wantAPIError(t, err, http.StatusBadRequest, tt.msgs...), "Bad Request", path)
			if n := len(e.mock.Subscriptions(itAccount)); n != tt.wantStored {
				t.Errorf("mock holds %d subscriptions, want %d", n, tt.wantStored)
			}
			e.wantCount(tt.method, route, 1)
		})
	}
}

// A {subscriptionId} that is not a uuid is a 400 on getSubscribedEventForAccount, updateSubscription and deleteSubscription.
func TestMockInvalidSubscriptionID(t *testing.T) {
	t.Parallel()
	e, c := newMockClient(t)
	e.seed(itAccount, 1)
	const id = "not-a-uuid"
	msg := `Invalid subscriptionId "not-a-uuid": must be a uuid`
	_, err := c.GetSubscription(ctx(t), itAccount, id)
	wantErrorBody(t, wantAPIError(t, err, http.StatusBadRequest, msg), "Bad Request", subPath(itAccount, id))
	_, err = c.UpdateSubscription(ctx(t), itAccount, id, validInput("E"))
	wantErrorBody(t, wantAPIError(t, err, http.StatusBadRequest, msg), "Bad Request", subPath(itAccount, id))
	err = c.DeleteSubscription(ctx(t), itAccount, id)
	wantErrorBody(t, wantAPIError(t, err, http.StatusBadRequest, msg), "Bad Request", subPath(itAccount, id))
	e.wantCount("", mockserver.RouteSubscription, 3)
}

// Rule 2 and the Errors table: 404 "Entity not found" naming the id or the account, on
// deleteSubscriptionForAccount, getSubscribedEventForAccount, updateSubscription and deleteSubscription, also for an account that has no subscription at all.
func TestMockNotFound(t *testing.T) {
	t.Parallel()
	missing := uuid.NewString()
	msgID := "No subscription found with id " + missing
	tests := []struct {
		name string
		seed int
		call func(*client.Client) error
		path string
		msg  string
	}{
		{"get, empty account", 0, func(c *client.Client) error { _, err := c.GetSubscription(t.Context(), itAccount, missing); return err }, subPath(itAccount, missing), msgID},
		{"get, other ids exist", 2, func(c *client.Client) error { _, err := c.GetSubscription(t.Context(), itAccount, missing); return err }, subPath(itAccount, missing), msgID},
		{"update", 2, func(c *client.Client) error {
			_, err := c.UpdateSubscription(t.Context(), itAccount, missing, validInput("E"))
			return err
		}, subPath(itAccount, missing), msgID},
		{"delete", 2, func(c *client.Client) error { return c.DeleteSubscription(t.Context(), itAccount, missing) }, subPath(itAccount, missing), msgID},
		{"delete, empty account", 0, func(c *client.Client) error { return c.DeleteSubscription(t.Context(), itAccount, missing) }, subPath(itAccount, missing), msgID},
		{"delete all, empty account", 0, func(c *client.Client) error { return c.DeleteAllSubscriptions(t.Context(), itAccount) }, subsPath(itAccount), "No subscriptions found for account " + itAccount},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			e.seed(itAccount, tt.seed)
			err := tt.call(e.client())
			wantErrorBody(t, wantAPIError(t, err, http.StatusNotFound, tt.msg), "Entity not found", tt.path)
			if n := e.mock.Count("", ""); n != 2 { // one JWT, one call: a 404 is not retried
				t.Errorf("mock saw %d requests, want 2:\n%s", n, e.requestLog())
			}
		})
	}
}

// 500: the spec's body with an errorId; never retried, not even for GET.
func TestMockInternalServerError(t *testing.T) {
	t.Parallel()
	e := newMockEnv(t, mockserver.Config{})
	subs := e.seed(itAccount, 1)
	e.mock.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscription, Status: http.StatusInternalServerError, Count: 1})
	c := e.client()

	_, err := c.GetSubscription(ctx(t), itAccount, subs[0].SubscriptionID)
	apiErr := wantAPIError(t, err, http.StatusInternalServerError, "An unexpected error occurred")
	if apiErr.ErrorText != "Internal server error" || apiErr.Path != subPath(itAccount, subs[0].SubscriptionID) {
		t.Errorf("error %q, path %q", apiErr.ErrorText, apiErr.Path)
	}
	if _, perr := uuid.Parse(apiErr.ErrorID); perr != nil {
		t.Errorf("ErrorID = %q, want a uuid", apiErr.ErrorID)
	}
	if !strings.Contains(err.Error(), apiErr.ErrorID) {
		t.Errorf("error text %q does not name the error ID", err)
	}
	e.wantCount(http.MethodGet, mockserver.RouteSubscription, 1)

	// The fault is spent: the same call now succeeds.
	if _, err := c.GetSubscription(ctx(t), itAccount, subs[0].SubscriptionID); err != nil {
		t.Fatalf("GetSubscription after the fault: %v", err)
	}
}

// SERVICE.md authentication SERVICE.md rule 5: a missing or invalid credential is a 401 with no body, from the JWT
// endpoint and from the service.
func TestMockUnauthorized(t *testing.T) {
	t.Parallel()
	users := []mockserver.User{
		{Username: itUser, Password: itPassword},
		{Username: "tokenonly@example.com", APIToken: itAPIToken},
		{Username: "otp@example.com", Password: itPassword, OTP: itOTP},
	}
	tests := []struct {
		name string
		mod  func(*client.Config)
	}{
		{"wrong password", func(c *client.Config) { c.Password = "wrong" }},
		{"unknown user", func(c *client.Config) { c.Username = "mallory@example.com" }},
		{"API token as password of a token-only user", func(c *client.Config) {
			c.Username, c.Password = "tokenonly@example.com", itAPIToken
		}},
		{"wrong API token", func(c *client.Config) { c.Password, c.APIToken = "", "wrong-token" }},
		{"password user given an API token", func(c *client.Config) { c.Password, c.APIToken = "", itPassword }},
		{"OTP missing", func(c *client.Config) { c.Username = "otp@example.com" }},
		{"OTP wrong", func(c *client.Config) { c.Username, c.OTP = "otp@example.com", "000000" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{Users: users})
			c := e.client(tt.mod)
			_, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
			apiErr := wantAPIError(t, err, http.StatusUnauthorized)
			if apiErr.Operation != "generate JWT" || apiErr.ErrorText != "" || apiErr.Path != "" {
				t.Errorf("APIError = %+v, want a bodiless 401 of generate JWT", apiErr)
			}
			if apiErr.URLPath != "/auth/jwt/generate/"+itAccount {
				t.Errorf("URLPath = %q", apiErr.URLPath)
			}
			e.wantJWTFetches(0)
			e.wantCount(http.MethodGet, mockserver.RouteJWT, 1) // a 401 is not retried
			e.wantCount("", mockserver.RouteSubscriptions, 0)
		})
	}
}

// A JWT the service rejects (expired, or signed by someone else) gives a bodiless 401 from
// the service; a pre-issued JWT is never refreshed.
func TestMockUnauthorizedServiceCall(t *testing.T) {
	t.Parallel()
	stranger := mockserver.New(mockserver.Config{})
	tests := []struct {
		name  string
		token func(*mockserver.Server) string
	}{
		{"expired", func(m *mockserver.Server) string { return m.IssueJWT(itAccount, itUser, time.Now().Add(-time.Minute)) }},
		{"foreign signature", func(*mockserver.Server) string {
			return stranger.IssueJWT(itAccount, itUser, time.Now().Add(time.Hour))
		}},
		{"not a JWT", func(*mockserver.Server) string { return "opaque-token" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			c := e.client(func(c *client.Config) {
				c.JWT, c.AuthURL, c.Username, c.Password = tt.token(e.mock), "", "", ""
			})
			_, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{})
			apiErr := wantAPIError(t, err, http.StatusUnauthorized)
			if apiErr.Operation != "list subscriptions" || apiErr.ErrorText != "" {
				t.Errorf("APIError = %+v", apiErr)
			}
			if !strings.Contains(err.Error(), "JWT") {
				t.Errorf("error %q does not say the JWT was rejected", err)
			}
			_, err = c.ListEvents(ctx(t))
			wantAPIError(t, err, http.StatusUnauthorized)
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 1)
			e.wantCount(http.MethodGet, mockserver.RouteEvents, 1)
			e.wantCount("", mockserver.RouteJWT, 0)
		})
	}
}

// SERVICE.md authentication SERVICE.md rule 5: an authenticated caller without access to the account gets 403
// "Access Denied", from the JWT endpoint (user limited to other accounts) or from the
// service (a JWT of another account).
func TestMockForbidden(t *testing.T) {
	t.Parallel()
	t.Run("JWT endpoint", func(t *testing.T) {
		t.Parallel()
		e := newMockEnv(t, mockserver.Config{Users: []mockserver.User{{Username: itUser, Password: itPassword, Accounts: []string{itAccount}}}})
		c := e.client()
		if _, err := c.ListSubscriptions(ctx(t), itAccount, client.ListOptions{}); err != nil {
			t.Fatalf("own account: %v", err)
		}
		_, err := c.ListSubscriptions(ctx(t), itOther, client.ListOptions{})
		apiErr := wantAPIError(t, err, http.StatusForbidden, "Access Denied")
		wantForbiddenBody(t, apiErr, "/auth/jwt/generate/"+itOther)
		if !strings.Contains(err.Error(), itOther) {
			t.Errorf("error %q does not name the account", err)
		}
		e.wantJWTFetches(1)
		e.wantCount(http.MethodGet, mockserver.RouteJWT, 2)
		e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 1)
	})
	t.Run("service", func(t *testing.T) {
		t.Parallel()
		e := newMockEnv(t, mockserver.Config{})
		e.seed(itOther, 1)
		token := e.mock.IssueJWT(itAccount, itUser, time.Now().Add(time.Hour))
		// The client is told the token is itOther's (it sends a pre-issued JWT for its own
		// account only), so the mock's own check answers.
		c := e.client(func(c *client.Config) {
			c.JWT, c.AccountID, c.AuthURL, c.Username, c.Password = token, itOther, "", "", ""
		})
		calls := []struct {
			name string
			path string
			call func() error
		}{
			{"list", subsPath(itOther), func() error {
				_, err := c.ListSubscriptions(ctx(t), itOther, client.ListOptions{})
				return err
			}},
			{"create", subsPath(itOther), func() error {
				_, err := c.CreateSubscriptions(ctx(t), itOther, []client.SubscriptionInput{validInput("E")})
				return err
			}},
			{"delete all", subsPath(itOther), func() error { return c.DeleteAllSubscriptions(ctx(t), itOther) }},
			{"get", subPath(itOther, "2a1f1c1e-0000-4000-8000-000000000001"), func() error {
				_, err := c.GetSubscription(ctx(t), itOther, "2a1f1c1e-0000-4000-8000-000000000001")
				return err
			}},
			{"topic", "/rest/v1/accounts/" + itOther + "/eventStreams/topic/subscription", func() error {
				_, err := c.CreateEventStreamTopic(ctx(t), itOther, client.TopicInput{EnvironmentID: "e", SubscriptionName: "s", TopicName: "t"})
				return err
			}},
		}
		for _, call := range calls {
			err := call.call()
			wantForbiddenBody(t, wantAPIError(t, err, http.StatusForbidden, "Access Denied"), call.path)
		}
		if n := len(e.mock.Subscriptions(itOther)); n != 1 {
			t.Errorf("the other account holds %d subscriptions, want 1", n)
		}
		// The catalogues take any valid token.
		if _, err := c.ListLogLevels(ctx(t)); err != nil {
			t.Errorf("ListLogLevels: %v", err)
		}
		e.wantCount("", "", len(calls)+1) // no retry, no refresh
	})
}

func wantForbiddenBody(t *testing.T, apiErr *httpapi.APIError, path string) {
	t.Helper()
	if apiErr.ErrorText != "Forbidden" || apiErr.Path != path {
		t.Errorf("error %q, path %q; want Forbidden, %q", apiErr.ErrorText, apiErr.Path, path)
	}
	if !errors.Is(apiErr, httpapi.ErrForbidden) {
		t.Errorf("errors.Is(%v, ErrForbidden) = false", apiErr)
	}
}

// listSubscribedEventsForAccount's query parameters reach the mock as the client passes them through; values
// the mock does not accept come back as its 400 messages.
func TestMockListInvalidSort(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts client.ListOptions
		msg  string
	}{
		{"unknown sortBy", client.ListOptions{SortBy: "colour"}, `Invalid sortBy "colour". Supported values are: ` + strings.Join(mockJSONNames(), ", ")},
		{"unknown sortDirection", client.ListOptions{SortBy: "eventName", SortDirection: "UP"}, `Invalid sortDirection "UP". Supported values are: ASC, DESC`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newMockEnv(t, mockserver.Config{})
			e.seed(itAccount, 1)
			_, err := e.client().ListSubscriptions(ctx(t), itAccount, tt.opts)
			wantErrorBody(t, wantAPIError(t, err, http.StatusBadRequest, tt.msg), "Bad Request", subsPath(itAccount))
			e.wantCount(http.MethodGet, mockserver.RouteSubscriptions, 1)
		})
	}
}

// mockJSONNames are the JSON names of the mock's Subscription, in its order: the sortBy values it
// accepts.
func mockJSONNames() []string {
	typ := reflect.TypeFor[mockserver.Subscription]()
	names := make([]string, typ.NumField())
	for i := range typ.NumField() {
		names[i], _, _ = strings.Cut(typ.Field(i).Tag.Get("json"), ",")
	}
	return names
}
