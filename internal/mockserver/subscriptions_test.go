package mockserver_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

const (
	msgEventName = "Must provide a valid eventName"
	msgDestType  = "Must provide a valid destinationType"
	msgLogLevel  = "Must provide a valid logLevel"
	msgMissing   = "Required request body is missing"
)

func list(items ...any) map[string]any {
	if items == nil {
		items = []any{}
	}
	return map[string]any{"subscriptions": items}
}

// createListCases are the 400 rules of the SubscriptionCreateRequest body
// (updateSubscriptions and createSubscriptions, spec SERVICE.md rule 3).
func createListCases() []struct {
	name string
	body any
	want []string
} {
	managed := func(field string, v any) map[string]any { return withFields(map[string]any{field: v}) }
	return []struct {
		name string
		body any
		want []string
	}{
		{"no body", nil, []string{msgMissing}},
		{"null body", "null", []string{msgMissing}},
		{"blank body", "  \n", []string{msgMissing}},
		{"invalid JSON", `{"subscriptions": [`, []string{"Malformed JSON request body"}},
		{"array body", `[]`, []string{"Request body must be a JSON object"}},
		{"no subscriptions member", map[string]any{}, []string{"subscriptions is required"}},
		{"null subscriptions", map[string]any{"subscriptions": nil}, []string{"subscriptions is required"}},
		{"subscriptions not an array", map[string]any{"subscriptions": validItem()}, []string{"subscriptions must be an array"}},
		{"unknown wrapper member", map[string]any{"subscriptions": []any{validItem()}, "extra": 1}, []string{"Unknown field: extra"}},
		{"item not an object", list("ATOM.STATUS"), []string{"Each subscription must be a JSON object"}},
		{"missing eventName", list(withFields(map[string]any{"eventName": nil})), []string{msgEventName}},
		{"blank eventName", list(withFields(map[string]any{"eventName": "  "})), []string{msgEventName}},
		{"eventName not a string", list(withFields(map[string]any{"eventName": 42})), []string{msgEventName}},
		{"missing destinationType", list(withFields(map[string]any{"destinationType": nil})), []string{msgDestType}},
		{"unknown destinationType", list(withFields(map[string]any{"destinationType": "SMS"})), []string{msgDestType}},
		{"lower-case destinationType", list(withFields(map[string]any{"destinationType": "event_streams"})), []string{msgDestType}},
		{"missing logLevel", list(withFields(map[string]any{"logLevel": nil})), []string{msgLogLevel}},
		{"unknown logLevel", list(withFields(map[string]any{"logLevel": "DEBUG"})), []string{msgLogLevel}},
		{"all three missing", list(map[string]any{}), []string{msgEventName, msgDestType, msgLogLevel}},
		{"one message per item", list(withFields(map[string]any{"logLevel": nil}), validItem(), withFields(map[string]any{"eventName": ""})),
			[]string{msgLogLevel, msgEventName}},
		{"enabled not a boolean", list(withFields(map[string]any{"enabled": "yes"})), []string{"Invalid value for enabled: must be a boolean"}},
		{"topic not a string", list(withFields(map[string]any{"eventStreamsTopic": 5})), []string{"Invalid value for eventStreamsTopic: must be a string"}},
		{"subscriptionId given", list(managed("subscriptionId", "3f1c2a9e-8b7d-4c5e-9f01-23456789abcd")), []string{"subscriptionId is managed by the service and cannot be provided"}},
		{"accountId given", list(managed("accountId", testAccount)), []string{"accountId is managed by the service and cannot be provided"}},
		{"createdDate given", list(managed("createdDate", 1)), []string{"createdDate is managed by the service and cannot be provided"}},
		{"lastUpdatedDate given", list(managed("lastUpdatedDate", 1)), []string{"lastUpdatedDate is managed by the service and cannot be provided"}},
		{"createdBy given", list(managed("createdBy", "x")), []string{"createdBy is managed by the service and cannot be provided"}},
		{"lastUpdatedUserId given", list(managed("lastUpdatedUserId", "x")), []string{"lastUpdatedUserId is managed by the service and cannot be provided"}},
		{"destinationEmail given", list(managed("destinationEmail", "a@example.com")), []string{"Unknown field: destinationEmail"}},
		{"misspelt field", list(managed("eventStreamsEnvironmentId", "env")), []string{"Unknown field: eventStreamsEnvironmentId"}},
		{"messages in order", list(withFields(map[string]any{"eventName": nil, "createdBy": "x", "zzz": 1, "aaa": 2})),
			[]string{msgEventName, "createdBy is managed by the service and cannot be provided", "Unknown field: aaa", "Unknown field: zzz"}},
		{"type errors after the required fields", list(withFields(map[string]any{"enabled": 1, "eventStreamsEnvironment": true, "logLevel": 3, "eventName": nil})),
			[]string{msgEventName, msgLogLevel, "Invalid value for eventStreamsEnvironment: must be a string", "Invalid value for enabled: must be a boolean"}},
	}
}

func TestCreateAndReplaceValidation(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	path := subsPath(testAccount)
	for _, method := range []string{http.MethodPost, http.MethodPut} {
		for _, tt := range createListCases() {
			t.Run(method+" "+tt.name, func(t *testing.T) {
				e := e.with(t)
				e.do(method, path, token, tt.body).wantError(t, http.StatusBadRequest, "Bad Request", path, tt.want...)
				if n := len(e.srv.Subscriptions(testAccount)); n != 0 {
					t.Errorf("a rejected body stored %d subscriptions", n)
				}
			})
		}
	}
}

func TestCreateSubscriptions(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	path := subsPath(testAccount)
	before := time.Now().UnixMilli()
	disabled := withFields(map[string]any{"enabled": false, "eventName": "PROCESS.EXECUTION", "logLevel": "INFO", "destinationType": "EMAIL"})
	nulls := withFields(map[string]any{"subscriptionId": nil})
	nulls["eventStreamsTopic"] = nil
	r := e.do(http.MethodPost, path, token, list(validItem(), disabled, map[string]any{
		"eventName": "ENVIRONMENT.ALERT", "destinationType": "EVENT_STREAMS", "logLevel": "WARNING", "enabled": true,
	}))
	r.wantStatus(t, http.StatusCreated)
	var w wireWrapper
	decodeStrict(t, r.body, &w)
	if len(w.Subscriptions) != 3 || w.Subscription != nil || w.PaginationMetadata != nil {
		t.Fatalf("body = %s", r.body)
	}
	first := w.Subscriptions[0]
	if !uuidPattern.MatchString(first.SubscriptionID) {
		t.Errorf("subscriptionId = %q, want a uuid", first.SubscriptionID)
	}
	// What was sent, as stored (every member of validItem), and what the service sets.
	var want wireSubscription
	if b, err := json.Marshal(validItem()); err != nil || json.Unmarshal(b, &want) != nil {
		t.Fatalf("validItem as a subscription: %v", err)
	}
	want.SubscriptionID, want.AccountID, want.Enabled = first.SubscriptionID, testAccount, true
	want.CreatedDate, want.LastUpdatedDate, want.CreatedBy, want.LastUpdatedUserID = first.CreatedDate, first.CreatedDate, testUser, testUser
	if first != want {
		t.Errorf("created = %+v\nwant      %+v", first, want)
	}
	if first.CreatedDate < before || first.CreatedDate > time.Now().UnixMilli() {
		t.Errorf("createdDate = %d, want Unix milliseconds of now", first.CreatedDate)
	}
	if w.Subscriptions[1].Enabled || w.Subscriptions[1].DestinationType != "EMAIL" {
		t.Errorf("second = %+v, want enabled false and EMAIL", w.Subscriptions[1])
	}
	if !w.Subscriptions[2].Enabled || w.Subscriptions[2].EventStreamsTopic != "" {
		t.Errorf("third = %+v", w.Subscriptions[2])
	}
	if n := len(e.srv.Subscriptions(testAccount)); n != 3 {
		t.Errorf("stored %d, want 3", n)
	}

	// Null members count as absent; an empty list creates nothing (204).
	e.do(http.MethodPost, path, token, list(nulls)).wantStatus(t, http.StatusCreated)
	e.do(http.MethodPost, path, token, list()).wantNoBody(t, http.StatusNoContent)
	if n := len(e.srv.Subscriptions(testAccount)); n != 4 {
		t.Errorf("stored %d, want 4", n)
	}
	if n := len(e.srv.Subscriptions("acc-other")); n != 0 {
		t.Errorf("another account has %d", n)
	}
}

func TestReplaceSubscriptions(t *testing.T) {
	tests := []struct {
		name     string
		existing int
		supplied int
		want     int
	}{
		{"none had, none supplied", 0, 0, http.StatusNoContent},
		{"none had, some supplied", 0, 2, http.StatusCreated},
		{"some had, some supplied", 3, 1, http.StatusOK},
		{"some had, none supplied", 2, 0, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, mockserver.Config{})
			token := e.jwt(testAccount)
			var old []wireSubscription
			if tt.existing > 0 {
				old = e.createN(token, testAccount, tt.existing)
			}
			items := make([]any, tt.supplied)
			for i := range items {
				items[i] = withFields(map[string]any{"logLevel": "WARNING"})
			}
			r := e.do(http.MethodPut, subsPath(testAccount), token, list(items...))
			if tt.want == http.StatusNoContent {
				r.wantNoBody(t, tt.want)
			} else {
				r.wantStatus(t, tt.want)
				var w wireWrapper
				decodeStrict(t, r.body, &w)
				if len(w.Subscriptions) != tt.supplied || w.Subscriptions == nil {
					t.Fatalf("body = %s, want %d subscriptions", r.body, tt.supplied)
				}
			}
			stored := e.srv.Subscriptions(testAccount)
			if len(stored) != tt.supplied {
				t.Fatalf("stored %d, want %d (the whole set is replaced)", len(stored), tt.supplied)
			}
			for _, s := range stored {
				if s.LogLevel != "WARNING" {
					t.Errorf("stored %+v, want the supplied subscriptions", s)
				}
				for _, o := range old {
					if o.SubscriptionID == s.SubscriptionID {
						t.Errorf("old subscription %s survived the replacement", o.SubscriptionID)
					}
				}
			}
		})
	}
}

func TestDeleteAllSubscriptions(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	path := subsPath(testAccount)
	e.do(http.MethodDelete, path, token, nil).wantError(t, http.StatusNotFound, "Entity not found", path,
		"No subscriptions found for account "+testAccount)
	e.createN(token, testAccount, 3)
	e.srv.PutSubscription("acc-other", mockserver.Subscription{EventName: "X", DestinationType: "EMAIL", LogLevel: "INFO"})
	e.do(http.MethodDelete, path, token, nil).wantNoBody(t, http.StatusNoContent)
	if n := len(e.srv.Subscriptions(testAccount)); n != 0 {
		t.Errorf("%d left after delete all", n)
	}
	if n := len(e.srv.Subscriptions("acc-other")); n != 1 {
		t.Errorf("another account lost its subscriptions")
	}
	e.do(http.MethodGet, path, token, nil).wantNoBody(t, http.StatusNoContent)
	e.do(http.MethodDelete, path, token, nil).wantStatus(t, http.StatusNotFound)
}

func TestGetSubscription(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	missing := "3f1c2a9e-8b7d-4c5e-9f01-23456789abcd"
	path := subsPath(testAccount) + "/" + missing
	e.do(http.MethodGet, path, token, nil).wantError(t, http.StatusNotFound, "Entity not found", path,
		"No subscription found with id "+missing)

	created := e.createN(token, testAccount, 2)
	e.do(http.MethodGet, path, token, nil).wantError(t, http.StatusNotFound, "Entity not found", path,
		"No subscription found with id "+missing)

	id := created[1].SubscriptionID
	// Flat (default): the fields at the top level.
	r := e.do(http.MethodGet, subsPath(testAccount)+"/"+id, token, nil)
	r.wantStatus(t, http.StatusOK)
	var flat wireSubscription
	decodeStrict(t, r.body, &flat)
	if flat != created[1] {
		t.Errorf("got %+v, want %+v", flat, created[1])
	}
	// Wrapped: {"subscription": {...}}.
	e.srv.SetSingleShape(mockserver.SingleWrapped)
	r = e.do(http.MethodGet, subsPath(testAccount)+"/"+strings.ToUpper(id), token, nil)
	r.wantStatus(t, http.StatusOK)
	var w wireWrapper
	decodeStrict(t, r.body, &w)
	if w.Subscription == nil || *w.Subscription != created[1] || w.Subscriptions != nil {
		t.Errorf("wrapped body = %s", r.body)
	}
	e.srv.SetSingleShape(mockserver.SingleFlat)

	// Invalid uuid.
	bad := subsPath(testAccount) + "/not-a-uuid"
	e.do(http.MethodGet, bad, token, nil).wantError(t, http.StatusBadRequest, "Bad Request", bad,
		`Invalid subscriptionId "not-a-uuid": must be a uuid`)
	// Another account's subscription is not found.
	otherToken := e.jwt("acc-other")
	otherPath := subsPath("acc-other") + "/" + id
	e.do(http.MethodGet, otherPath, otherToken, nil).wantError(t, http.StatusNotFound, "Entity not found", otherPath,
		"No subscription found with id "+id)
}

func TestUpdateSubscription(t *testing.T) {
	e := newEnv(t, mockserver.Config{Users: []mockserver.User{
		{Username: testUser, Password: testPassword},
		{Username: "editor@example.com", Password: "pw"},
	}})
	token := e.jwt(testAccount)
	created := e.createN(token, testAccount, 1)[0]
	path := subsPath(testAccount) + "/" + created.SubscriptionID
	time.Sleep(2 * time.Millisecond) // let lastUpdatedDate move

	editor := e.jwtAs(testAccount, "editor@example.com", "pw", "")
	body := map[string]any{"subscription": map[string]any{
		"eventName": "PROCESS.EXECUTION", "destinationType": "EVENT_STREAMS", "logLevel": "WARNING",
		"eventStreamsTopic": "t2",
	}}
	r := e.do(http.MethodPut, path, editor, body)
	r.wantStatus(t, http.StatusOK)
	var got wireSubscription
	decodeStrict(t, r.body, &got)
	want := wireSubscription{
		SubscriptionID: created.SubscriptionID, EventName: "PROCESS.EXECUTION", DestinationType: "EVENT_STREAMS",
		LogLevel: "WARNING", AccountID: testAccount, EventStreamsTopic: "t2", Enabled: true,
		CreatedDate: created.CreatedDate, LastUpdatedDate: got.LastUpdatedDate, CreatedBy: testUser,
		LastUpdatedUserID: "editor@example.com",
	}
	if got != want {
		t.Errorf("updated = %+v\nwant      %+v", got, want)
	}
	if got.LastUpdatedDate <= created.LastUpdatedDate {
		t.Errorf("lastUpdatedDate %d did not move past %d", got.LastUpdatedDate, created.LastUpdatedDate)
	}
	stored, _ := e.srv.Subscription(testAccount, created.SubscriptionID)
	if stored.EventName != "PROCESS.EXECUTION" || stored.EventStreamsEnvironment != "" {
		t.Errorf("stored = %+v (a PUT replaces every settable field)", stored)
	}

	// enabled: false is kept, and the wrapped shape carries the update.
	e.srv.SetSingleShape(mockserver.SingleWrapped)
	r = e.do(http.MethodPut, path, token, map[string]any{"subscription": withFields(map[string]any{"enabled": false})})
	r.wantStatus(t, http.StatusOK)
	var w wireWrapper
	decodeStrict(t, r.body, &w)
	if w.Subscription == nil || w.Subscription.Enabled || w.Subscription.LastUpdatedUserID != testUser {
		t.Errorf("wrapped update = %s", r.body)
	}
}

func TestUpdateSubscriptionErrors(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	created := e.createN(token, testAccount, 1)[0]
	path := subsPath(testAccount) + "/" + created.SubscriptionID
	missing := "3f1c2a9e-8b7d-4c5e-9f01-23456789abcd"
	wrap := func(item any) map[string]any { return map[string]any{"subscription": item} }
	tests := []struct {
		name   string
		path   string
		body   any
		status int
		errVal string
		want   []string
	}{
		{"no body", path, nil, 400, "Bad Request", []string{msgMissing}},
		{"invalid JSON", path, "{", 400, "Bad Request", []string{"Malformed JSON request body"}},
		{"no subscription member", path, map[string]any{}, 400, "Bad Request", []string{"subscription is required"}},
		{"subscription not an object", path, wrap([]any{}), 400, "Bad Request", []string{"subscription must be a JSON object"}},
		{"flat body instead of wrapper", path, validItem(), 400, "Bad Request", append([]string{"subscription is required"}, unknownFields(validItem())...)},
		{"missing eventName", path, wrap(withFields(map[string]any{"eventName": nil})), 400, "Bad Request", []string{msgEventName}},
		{"invalid destinationType", path, wrap(withFields(map[string]any{"destinationType": "SMS"})), 400, "Bad Request", []string{msgDestType}},
		{"invalid logLevel", path, wrap(withFields(map[string]any{"logLevel": "info"})), 400, "Bad Request", []string{msgLogLevel}},
		{"all invalid", path, wrap(map[string]any{}), 400, "Bad Request", []string{msgEventName, msgDestType, msgLogLevel}},
		{"subscriptionId given", path, wrap(withFields(map[string]any{"subscriptionId": created.SubscriptionID})), 400, "Bad Request",
			[]string{"subscriptionId is managed by the service and cannot be provided"}},
		{"createdDate given", path, wrap(withFields(map[string]any{"createdDate": created.CreatedDate})), 400, "Bad Request",
			[]string{"createdDate is managed by the service and cannot be provided"}},
		{"invalid uuid", subsPath(testAccount) + "/123", wrap(validItem()), 400, "Bad Request",
			[]string{`Invalid subscriptionId "123": must be a uuid`}},
		{"not found", subsPath(testAccount) + "/" + missing, wrap(validItem()), 404, "Entity not found",
			[]string{"No subscription found with id " + missing}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := e.with(t)
			e.do(http.MethodPut, tt.path, token, tt.body).wantError(t, tt.status, tt.errVal, tt.path, tt.want...)
			if s, _ := e.srv.Subscription(testAccount, created.SubscriptionID); s.LastUpdatedDate != created.LastUpdatedDate {
				t.Errorf("a rejected update changed the subscription")
			}
		})
	}
}

func TestDeleteSubscription(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	created := e.createN(token, testAccount, 2)
	path := subsPath(testAccount) + "/" + created[0].SubscriptionID
	e.do(http.MethodDelete, path, token, nil).wantNoBody(t, http.StatusNoContent)
	e.do(http.MethodDelete, path, token, nil).wantError(t, http.StatusNotFound, "Entity not found", path,
		"No subscription found with id "+created[0].SubscriptionID)
	e.do(http.MethodGet, path, token, nil).wantStatus(t, http.StatusNotFound)
	if _, ok := e.srv.Subscription(testAccount, created[1].SubscriptionID); !ok {
		t.Errorf("the other subscription was deleted too")
	}
	bad := subsPath(testAccount) + "/xyz"
	e.do(http.MethodDelete, bad, token, nil).wantError(t, http.StatusBadRequest, "Bad Request", bad,
		`Invalid subscriptionId "xyz": must be a uuid`)
	// Deleting from an account without subscriptions names the id.
	otherToken := e.jwt("empty-account")
	otherPath := subsPath("empty-account") + "/" + created[1].SubscriptionID
	e.do(http.MethodDelete, otherPath, otherToken, nil).wantError(t, http.StatusNotFound, "Entity not found", otherPath,
		"No subscription found with id "+created[1].SubscriptionID)
}

func TestListEmptyAccount(t *testing.T) {
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	path := subsPath(testAccount)
	e.do(http.MethodGet, path, token, nil).wantNoBody(t, http.StatusNoContent)

	e.srv.SetEmptyListStatus(http.StatusNotFound)
	e.do(http.MethodGet, path, token, nil).wantError(t, http.StatusNotFound, "Entity not found", path,
		"No subscriptions found for account "+testAccount)

	e.srv.SetEmptyListStatus(http.StatusOK)
	r := e.do(http.MethodGet, path, token, nil)
	r.wantStatus(t, http.StatusOK)
	var w wireWrapper
	decodeStrict(t, r.body, &w)
	if w.Subscriptions == nil || len(w.Subscriptions) != 0 || w.PaginationMetadata == nil ||
		*w.PaginationMetadata != (wirePage{PageSize: 20, First: true, Last: true}) {
		t.Errorf("empty page = %s", r.body)
	}

	e.srv.SetEmptyListStatus(418) // unknown codes mean the default
	e.do(http.MethodGet, path, token, nil).wantNoBody(t, http.StatusNoContent)
}

// unknownFields are the mock's messages for the members of o at the top of a body that takes
// none of them, sorted.
func unknownFields(o map[string]any) []string {
	var msgs []string
	for name := range o {
		msgs = append(msgs, "Unknown field: "+name)
	}
	slices.Sort(msgs)
	return msgs
}
