package provider

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// recordedRestapiStates are the states that the REST provider wrote under each CLI
// (testdata/restapi/README.md).
var recordedRestapiStates = []string{"testdata/restapi/terraform-1.11.4.tfstate", "testdata/restapi/opentofu-1.12.6.tfstate"}

// recordedRestapiAttributes returns the attributes of a recorded restapi_object state.
func recordedRestapiAttributes(t *testing.T, file string) map[string]any {
	t.Helper()
	body, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := readFixtureState(t, body)
	if s.Resources[0].Type != restapiObjectType {
		t.Fatalf("%s holds a %s, not a restapi_object", file, s.Resources[0].Type)
	}
	_, attrs := s.instance()
	return attrs
}

// TestParseRestapiSubscriptionRecorded reads the states that the REST provider wrote.
func TestParseRestapiSubscriptionRecorded(t *testing.T) {
	for _, file := range recordedRestapiStates {
		t.Run(file, func(t *testing.T) {
			attrs := recordedRestapiAttributes(t, file)
			raw, _ := json.Marshal(attrs)
			got, err := parseRestapiSubscription(raw)
			if err != nil {
				t.Fatal(err)
			}
			if want := (restapiSubscription{AccountID: "demo-account", ID: attrs["id"].(string)}); got != want {
				t.Errorf("got %+v, want %+v", got, want)
			}
		})
	}
}

// TestParseRestapiSubscription covers each form of id, path and answer that a
// restapi_object's state may hold, and states that are not of one subscription.
func TestParseRestapiSubscription(t *testing.T) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	const other = "0b1c2d3e-5717-4562-b3fc-2c963f66afa6"
	answer := `{"subscriptions":[{"subscriptionId":"` + id + `","accountId":"acct-1"}]}`
	tests := []struct {
		name    string
		raw     string
		want    restapiSubscription
		wantErr string
	}{
		{name: "recorded form", raw: `{"id":"` + id + `","path":"/accounts/acct-1/subscriptions","api_response":` + quote(answer) + `}`,
			want: restapiSubscription{"acct-1", id}},
		{name: "full path", raw: `{"id":"` + id + `","path":"/rest/v1/accounts/acct-1/subscriptions"}`, want: restapiSubscription{"acct-1", id}},
		{name: "trailing slash and query", raw: `{"id":"` + id + `","path":"rest/v1/accounts/acct-1/subscriptions/?pageSize=5"}`,
			want: restapiSubscription{"acct-1", id}},
		{name: "escaped account", raw: `{"id":"` + id + `","path":"/accounts/acct%2D1/subscriptions"}`, want: restapiSubscription{"acct-1", id}},
		{name: "upper-case id", raw: `{"id":"` + strings.ToUpper(id) + `","path":"/accounts/acct-1/subscriptions"}`, want: restapiSubscription{"acct-1", id}},
		{name: "object_id", raw: `{"id":"","object_id":"` + id + `","path":"/accounts/acct-1/subscriptions"}`, want: restapiSubscription{"acct-1", id}},
		{name: "imported by the object's path", raw: `{"path":"/accounts/acct-1/subscriptions/` + id + `"}`, want: restapiSubscription{"acct-1", id}},
		{name: "id from api_response, single shape", raw: `{"path":"/accounts/acct-1/subscriptions","api_response":` + quote(`{"subscriptionId":"`+id+`"}`) + `}`,
			want: restapiSubscription{"acct-1", id}},
		{name: "id from create_response, wrapped", raw: `{"path":"/accounts/acct-1/subscriptions","api_response":"","create_response":` + quote(`{"subscription":{"subscriptionId":"`+id+`"}}`) + `}`,
			want: restapiSubscription{"acct-1", id}},
		{name: "id from api_data", raw: `{"path":"/accounts/acct-1/subscriptions","api_data":{"subscriptionId":"` + id + `","accountId":"acct-1"}}`,
			want: restapiSubscription{"acct-1", id}},
		{name: "data with one subscription", raw: `{"id":"` + id + `","path":"/accounts/acct-1/subscriptions","data":` + quote(`{"subscriptions":[{"eventName":"A"}]}`) + `}`,
			want: restapiSubscription{"acct-1", id}},

		{name: "another path", raw: `{"id":"` + id + `","path":"/accounts/acct-1/eventStreams/topic/subscription"}`, wantErr: "is not an account's subscriptions collection"},
		{name: "another collection", raw: `{"id":"` + id + `","path":"/api/objects"}`, wantErr: "is not an account's subscriptions collection"},
		{name: "no path", raw: `{"id":"` + id + `"}`, wantErr: "is not an account's subscriptions collection"},
		{name: "empty account", raw: `{"id":"` + id + `","path":"/accounts//subscriptions"}`, wantErr: "is not an account's subscriptions collection"},
		{name: "bad escape", raw: `{"id":"` + id + `","path":"/accounts/%zz/subscriptions"}`, wantErr: "is not an account's subscriptions collection"},
		{name: "no id", raw: `{"id":"","path":"/accounts/acct-1/subscriptions"}`, wantErr: "has no id"},
		{name: "deleted object", raw: `{"id":null,"path":"/accounts/acct-1/subscriptions","api_response":null,"create_response":null}`, wantErr: "has no id"},
		{name: "id not a uuid", raw: `{"id":"subscriptions","path":"/accounts/acct-1/subscriptions"}`, wantErr: "is not a subscription id"},
		{name: "id of another subscription", raw: `{"id":"` + other + `","path":"/accounts/acct-1/subscriptions","api_response":` + quote(answer) + `}`,
			wantErr: "is not the subscription"},
		// What the state holds of the service's answer is data: escaped and bounded in the error.
		{name: "answer's id with control characters", raw: `{"id":"` + id + `","path":"/accounts/acct-1/subscriptions","api_response":` +
			quote(`{"subscriptions":[{"subscriptionId":"\u001b[2J`+strings.Repeat("x", 200)+`"}]}`) + `}`,
			wantErr: `the subscription "\x1b[2J` + strings.Repeat("x", 76) + `"...`},
		{name: "answer of another account", raw: `{"id":"` + id + `","path":"/accounts/acct-2/subscriptions","api_response":` + quote(answer) + `}`,
			wantErr: `names account "acct-1"`},
		{name: "several subscriptions", raw: `{"id":"` + id + `","path":"/accounts/acct-1/subscriptions","data":` + quote(`{"subscriptions":[{},{}]}`) + `}`,
			wantErr: "holds 2 subscriptions"},

		{name: "not JSON", raw: `{`, wantErr: "not a JSON object"},
		{name: "null", raw: `null`, wantErr: "not a JSON object"},
		{name: "empty", raw: ``, wantErr: "not a JSON object"},
		{name: "array", raw: `[]`, wantErr: "not a JSON object"},
		{name: "wrong types", raw: `{"id":5,"path":["x"],"api_data":"x","api_response":7,"data":{}}`, wantErr: "is not an account's subscriptions collection"},
		{name: "long path", raw: `{"id":"` + id + `","path":"/` + strings.Repeat("a", 5000) + `"}`, wantErr: "..."},
		{name: "hostile answer", raw: `{"path":"/accounts/acct-1/subscriptions","api_response":"{\"subscriptions\":[1,2]}","api_data":{"subscriptionId":7}}`,
			wantErr: "has no id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseRestapiSubscription([]byte(tt.raw))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %+v, %v; want an error with %q", got, err, tt.wantErr)
				}
				if len(err.Error()) > 400 {
					t.Errorf("the error is %d characters long: %s", len(err.Error()), err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// quote is a JSON string of s.
func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestIsRestapiProviderAddress matches the REST provider's address in every form a CLI or a
// mirror may give it, and nothing else.
func TestIsRestapiProviderAddress(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"registry.terraform.io/mastercard/restapi", true},
		{"registry.opentofu.org/mastercard/restapi", true},
		{"registry.terraform.io/Mastercard/restapi", true},
		{"mirror.example.com/mastercard/restapi", true},
		{"mastercard/restapi", true},
		{"restapi", true},
		{" registry.terraform.io/mastercard/restapi ", true},
		{"registry.terraform.io/hashicorp/restapi", false},
		{"registry.terraform.io/mastercard/rest", false},
		{"/mastercard/restapi", false},
		{"a/b/mastercard/restapi", false},
		{"", false},
		{"registry.terraform.io/eventnotify/eventnotify", false},
	}
	for _, tt := range tests {
		if got := isRestapiProviderAddress(tt.addr); got != tt.want {
			t.Errorf("isRestapiProviderAddress(%q) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

// FuzzParseRestapiSubscription checks that no state makes the parser panic, and that what it
// accepts is a subscription id and an account.
func FuzzParseRestapiSubscription(f *testing.F) {
	f.Add([]byte(`{"id":"3fa85f64-5717-4562-b3fc-2c963f66afa6","path":"/accounts/a/subscriptions"}`))
	f.Add([]byte(`{"path":"/accounts/a/subscriptions/x","api_response":"{\"subscription\":null}"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := parseRestapiSubscription(raw)
		if err == nil && (!isUUID(got.ID) || got.AccountID == "") {
			t.Fatalf("accepted %+v from %q", got, raw)
		}
	})
}

// TestRecordedRestapiStatesHoldNoSecret checks that no credential reached the recorded
// states: no token, no Authorization header, no password or header attribute.
func TestRecordedRestapiStatesHoldNoSecret(t *testing.T) {
	for _, file := range recordedRestapiStates {
		body, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"eyJ", "Bearer", "Authorization", "password", "headers", "demo-password"} {
			if strings.Contains(string(body), secret) {
				t.Errorf("%s holds %q", file, secret)
			}
		}
	}
}
