package mockserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestParseProfile: every member maps to the mock's knob, "unknown", null and unknown members
// keep the defaults, and a bad value is refused with the member's name.
func TestParseProfile(t *testing.T) {
	shapeOf := func(s JWTShape) *JWTShape { return &s }
	tests := []struct {
		name    string
		profile string
		check   func(Profile) bool
		wantErr string // "" when it parses
	}{
		{"empty", `{}`, func(p Profile) bool { return p.JWTShape == nil && p.SortBy == nil && !p.NoDateHeader }, ""},
		{"unknown values", `{"jwtBody":"unknown","emptyList":"unknown","dateHeader":null,"other":[1]}`,
			func(p Profile) bool { return p.JWTShape == nil && p.EmptyList == 0 && !p.NoDateHeader }, ""},
		{"text", `{"jwtBody":"text"}`, func(p Profile) bool { return *p.JWTShape == JWTPlainText }, ""},
		{"object jwt", `{"jwtBody":"object","jwtMember":"jwt"}`, func(p Profile) bool { return *p.JWTShape == *shapeOf(JWTObjectJWT) }, ""},
		{"object without member", `{"jwtBody":"object","jwtMember":"unknown"}`, func(p Profile) bool { return *p.JWTShape == JWTObjectToken }, ""},
		{"every member", `{"singleShape":"wrapped","emptyList":404,"catalogShape":"strings","defaultPageSize":3,"maxPageSize":7,
			"bulkUpdate":"reject","dateHeader":false,"sortBy":["eventName"]}`, func(p Profile) bool {
			return *p.SingleShape == SingleWrapped && p.EmptyList == 404 && *p.CatalogueShape == CatalogueWrappedStrings &&
				p.DefaultPageSize == 3 && p.MaxPageSize == 7 && p.BulkUpdateRefused && p.NoDateHeader && len(p.SortBy) == 1
		}, ""},
		{"toplevel", `{"catalogShape":"toplevel"}`, func(p Profile) bool { return *p.CatalogueShape == CatalogueArrayObjects }, ""},
		{"not an object", `[]`, nil, "not a JSON object"},
		{"bad jwtBody", `{"jwtBody":"xml"}`, nil, `"jwtBody"`},
		{"bad emptyList", `{"emptyList":500}`, nil, `"emptyList"`},
		{"bad page size", `{"maxPageSize":0}`, nil, `"maxPageSize"`},
		{"page size string", `{"defaultPageSize":"20"}`, nil, `"defaultPageSize"`},
		{"default above max", `{"defaultPageSize":30,"maxPageSize":10}`, nil, `"defaultPageSize"`},
		{"bad dateHeader", `{"dateHeader":"yes"}`, nil, `"dateHeader"`},
		{"bad sortBy field", `{"sortBy":["nope"]}`, nil, `"sortBy"`},
		{"bad bulkUpdate", `{"bulkUpdate":"maybe"}`, nil, `"bulkUpdate"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseProfile([]byte(tt.profile))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want one naming %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseProfile: %v", err)
			}
			if !tt.check(p) {
				t.Errorf("ParseProfile(%s) = %+v", tt.profile, p)
			}
		})
	}
}

// TestApplyProfileServes: a profile's sortBy, page sizes and dateHeader change what the mock
// answers.
func TestApplyProfileServes(t *testing.T) {
	srv := New(Config{})
	for range 6 {
		srv.PutSubscription("acct", Subscription{EventName: "E", DestinationType: "EVENT_STREAMS", LogLevel: "INFO"})
	}
	p, err := ParseProfile([]byte(`{"defaultPageSize":2,"maxPageSize":4,"dateHeader":false,"sortBy":["logLevel"]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv.ApplyProfile(p)
	tok := bearerFor(t, srv, "acct")
	get := func(query string) (*httptest.ResponseRecorder, int) {
		req := httptest.NewRequest(http.MethodGet, "/rest/v1/accounts/acct/subscriptions"+query, nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec, strings.Count(rec.Body.String(), `"subscriptionId"`)
	}
	tests := []struct {
		query  string
		status int
		n      int
	}{
		{"", 200, 2},
		{"?pageSize=100", 200, 4},
		{"?sortBy=logLevel", 200, 2},
		{"?sortBy=eventName", 400, 0},
	}
	for _, tt := range tests {
		rec, n := get(tt.query)
		if rec.Code != tt.status || n != tt.n {
			t.Errorf("GET %q: %d with %d subscriptions, want %d with %d (%s)", tt.query, rec.Code, n, tt.status, tt.n, rec.Body)
		}
		if v, ok := rec.Header()["Date"]; !ok || v != nil {
			t.Errorf("GET %q: Date header %q, want the key held with no value (so that net/http adds none)", tt.query, v)
		}
	}
	if rec, _ := get("?sortBy=eventName"); !strings.Contains(rec.Body.String(), "Supported values are: logLevel") {
		t.Errorf("the refusal does not name the accepted fields: %s", rec.Body)
	}
}

// bearerFor is a JWT of the default user for account, from the server's JWT endpoint.
func bearerFor(t *testing.T, srv *Server, account string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/auth/jwt/generate/"+account, nil)
	req.SetBasicAuth(DefaultUsername, DefaultPassword)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	var body struct{ Token string }
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Token == "" {
		t.Fatalf("JWT: %d %s", rec.Code, rec.Body)
	}
	return body.Token
}
