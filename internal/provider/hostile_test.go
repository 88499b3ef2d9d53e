package provider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// A hostile service or configuration (issue 20, items 4 and 7): account ids that a proxy
// would resolve to another path are refused at plan time, what the service says reaches
// diagnostics escaped and bounded, and its answers cannot change the account in state.

const hostileUUID = "3fa85f64-5717-4562-b3fc-2c963f66afa6"

// refusedAccountIDs are account ids that must never reach a request path.
var refusedAccountIDs = []string{".", "..", "a/b", `a\b`, "acc\x1b[2J", "acc\r", "acc\u202e", "acc\u2066", "acc\u200f", "acc\u0085"}

func TestAccountIDValidator(t *testing.T) {
	for _, id := range refusedAccountIDs {
		var resp validator.StringResponse
		accountID().ValidateString(context.Background(), validator.StringRequest{Path: path.Root("account_id"), ConfigValue: types.StringValue(id)}, &resp)
		if !resp.Diagnostics.HasError() {
			t.Errorf("%q accepted", id)
			continue
		}
		if d := resp.Diagnostics.Errors()[0].Detail(); !strings.Contains(d, "the value must be an account id") || strings.ContainsAny(d, "\x1b\r\u202e\u2066\u200f\u0085") {
			t.Errorf("%q: detail %q", id, d)
		}
	}
	// Blank values are notBlank's to report; the rest are accounts.
	for _, id := range []string{"", "acc-test", "a b", "Konto-äöü", "a.b", "...", "acc%2e%2e"} {
		var resp validator.StringResponse
		accountID().ValidateString(context.Background(), validator.StringRequest{Path: path.Root("account_id"), ConfigValue: types.StringValue(id)}, &resp)
		if resp.Diagnostics.HasError() {
			t.Errorf("%q refused: %v", id, resp.Diagnostics)
		}
	}
}

func TestParseSubscriptionImportID_refusedAccount(t *testing.T) {
	for _, id := range refusedAccountIDs {
		if strings.Contains(id, "/") {
			continue // three parts: refused as such
		}
		if _, _, err := parseSubscriptionImportID(id+"/"+hostileUUID, testAccount); err == nil || !strings.Contains(err.Error(), "refused rather than sent") {
			t.Errorf("import id with account %q: %v", id, err)
		}
		if _, _, err := parseSubscriptionImportID(hostileUUID, id); err == nil {
			t.Errorf("import id with default account %q accepted", id)
		}
	}
	for _, id := range []string{"./" + hostileUUID, "../" + hostileUUID} {
		if _, _, err := parseSubscriptionImportID(id, testAccount); err == nil || !strings.Contains(err.Error(), "dot segment") {
			t.Errorf("%q: %v", id, err)
		}
	}
}

func TestSubscriptionFromIdentity_refusedAccount(t *testing.T) {
	ctx := context.Background()
	var r SubscriptionResource
	var schemaResp resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &schemaResp)
	identity := func(account string) *tfsdk.ResourceIdentity {
		return &tfsdk.ResourceIdentity{Schema: schemaResp.IdentitySchema, Raw: tftypes.NewValue(
			schemaResp.IdentitySchema.Type().TerraformType(ctx), map[string]tftypes.Value{
				"account_id": tftypes.NewValue(tftypes.String, account),
				"id":         tftypes.NewValue(tftypes.String, hostileUUID),
			})}
	}
	for _, id := range refusedAccountIDs {
		if _, _, diags := subscriptionFromIdentity(ctx, identity(id)); !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "account_id") {
			t.Errorf("identity with account %q: %v", id, diags)
		}
	}
	if account, _, diags := subscriptionFromIdentity(ctx, identity(testAccount)); diags.HasError() || account != testAccount {
		t.Errorf("identity with account %q: %q, %v", testAccount, account, diags)
	}
}

// TestResolveSettings_refusedAccount: an account id from the environment, which no schema
// validator sees, is refused at configure time, naming the variable.
func TestResolveSettings_refusedAccount(t *testing.T) {
	for _, id := range refusedAccountIDs {
		m := baseModel()
		m.AccountID = types.StringNull()
		_, diags := resolveSettings(m, envOf(map[string]string{envAccountID: id}))
		if !diags.HasError() {
			t.Errorf("%s=%q accepted", envAccountID, id)
			continue
		}
		if d := diags.Errors()[0].Detail(); !strings.Contains(d, envAccountID) || strings.ContainsAny(d, "\x1b\r\u202e") {
			t.Errorf("%q: detail %q", id, d)
		}
	}
}

// TestClientErrorDetail_omittedMessages: a diagnostic says how many of the service's messages
// it leaves out.
func TestClientErrorDetail_omittedMessages(t *testing.T) {
	got := clientErrorDetail(&httpapi.APIError{Operation: "create subscriptions", StatusCode: 400,
		Messages: []string{"first", "second"}, MessagesOmitted: 98})
	if !strings.Contains(got, "  - first\n  - second\n  - (98 more messages not shown)") {
		t.Errorf("detail:\n%s", got)
	}
}

// TestAccHostile_accountIDRefusedAtPlan: an account id that a proxy could resolve elsewhere is
// refused at plan time wherever it is set, before any request (a JWT fetch included).
func TestAccHostile_accountIDRefusedAtPlan(t *testing.T) {
	m := newTestMock(t)
	withProviderAccount := func(account string) string {
		p := m.providerConfig()
		p.accountID = account
		return p.String()
	}
	tests := []struct {
		name   string
		config string
	}{
		{"provider", withProviderAccount("..") + `data "eventnotify_log_levels" "all" {}`},
		{"subscription", m.providerBlock() + subscriptionConfig(append([]string{`account_id = ".."`}, minimalArgs...)...)},
		{"subscription, bidi override", m.providerBlock() + subscriptionConfig(append([]string{`account_id = "acc\u202e"`}, minimalArgs...)...)},
		{"account_subscriptions", m.providerBlock() + `resource "eventnotify_account_subscriptions" "all" {
  account_id    = "."
  subscriptions = {}
}`},
		{"event streams topic", m.providerBlock() + `resource "eventnotify_event_streams_topic" "t" {
  account_id        = "a/b"
  environment_id    = "env-1"
  subscription_name = "s"
  topic_name        = "t"
}`},
		{"subscription data source", m.providerBlock() + `data "eventnotify_subscription" "one" {
  account_id = ".."
  id         = "` + hostileUUID + `"
}`},
		{"subscriptions data source", m.providerBlock() + `data "eventnotify_subscriptions" "all" {
  account_id = "acc\r"
}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m.expectRejectedWithoutRequests(t, tc.config, errorPattern("Invalid", "account_id", "the value must be an account id"))
		})
	}
}

// TestAccHostile_forgedServiceText: a service whose error messages carry escape sequences and
// carriage returns (a fake "Apply complete!" over the real error), a message far too long and
// too many messages: the diagnostic shows every control character escaped, each message and
// the number of messages cut, saying so.
func TestAccHostile_forgedServiceText(t *testing.T) {
	m := newTestMock(t)
	forged := `\u001b[2K\r\u001b[1;32mApply complete! Resources: 1 added, 0 changed, 0 destroyed.\u001b[0m`
	messages := []string{`"` + forged + `"`, `"` + strings.Repeat("x", 100<<10) + `"`}
	for i := range 48 {
		messages = append(messages, fmt.Sprintf(`"message %d"`, i))
	}
	m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions, Status: http.StatusBadRequest,
		Body: `{"error":"Bad Request","messages":[` + strings.Join(messages, ",") + `],"errorId":"\u202eid"}`})
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []tfresource.TestStep{{
			Config: m.providerBlock() + subscriptionConfig(minimalArgs...),
			ExpectError: regexp.MustCompile(`(?s)` + regexp.QuoteMeta(`\x1b[2K\r\x1b[1;32mApply`) + `\s+complete!.*` +
				`more\s+bytes\s+not\s+shown.*message\s+17\s.*\(30\s+more\s+messages\s+not\s+shown\).*` + regexp.QuoteMeta(`\u202eid`)),
		}},
	})
}

// answerRewriter is a proxy in front of the mock that rewrites the bodies of the answers
// that match.
type answerRewriter struct {
	next    http.Handler
	match   func(r *http.Request) bool
	rewrite func(body string) string
}

// ServeHTTP implements http.Handler.
func (p *answerRewriter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	p.next.ServeHTTP(rec, r)
	body, _ := io.ReadAll(rec.Body)
	if p.match(r) {
		body = []byte(p.rewrite(string(body)))
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	_, _ = io.Copy(w, bytes.NewReader(body))
}

// TestAccHostile_createAnswerWithDotID: the service answers a create with the subscription id
// "." (a later delete would go to the collection's path: every subscription of the account).
// The id never enters state: the answer counts as unreadable, the account is read to settle
// the create, and the subscription it made is adopted under its real id, once.
func TestAccHostile_createAnswerWithDotID(t *testing.T) {
	m := newTestMock(t)
	idPattern := regexp.MustCompile(`"subscriptionId":"[^"]*"`)
	proxy := &answerRewriter{next: m.Server,
		match:   func(r *http.Request) bool { return r.Method == http.MethodPost },
		rewrite: func(body string) string { return idPattern.ReplaceAllString(body, `"subscriptionId":"."`) },
	}
	ts := httptest.NewServer(proxy)
	t.Cleanup(ts.Close)
	pm := &testMock{Server: m.Server, URL: ts.URL}
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []tfresource.TestStep{{
			Config: pm.providerBlock() + subscriptionConfig(minimalArgs...),
			Check: func(s *terraform.State) error {
				ids := m.mockIDs(testAccount)
				if len(ids) != 1 {
					return fmt.Errorf("the mock holds %d subscriptions, want 1", len(ids))
				}
				if got := stateIDs(s); len(got) != 1 || got[0] != ids[0] {
					return fmt.Errorf("state holds %v, want the mock's %v", got, ids)
				}
				return nil
			},
		}},
	})
}

// TestAccHostile_answerNamesAnotherAccount: reads answered with another account's
// subscription fail the refresh with an error that names both accounts; the state keeps the
// configured account, and the next refresh, answered honestly, plans nothing.
func TestAccHostile_answerNamesAnotherAccount(t *testing.T) {
	m := newTestMock(t)
	var hostile atomic.Bool
	proxy := &answerRewriter{next: m.Server,
		match: func(r *http.Request) bool { return hostile.Load() && r.Method == http.MethodGet },
		rewrite: func(body string) string {
			return strings.ReplaceAll(body, `"accountId":"`+testAccount+`"`, `"accountId":"other-account"`)
		},
	}
	ts := httptest.NewServer(proxy)
	t.Cleanup(ts.Close)
	pm := &testMock{Server: m.Server, URL: ts.URL}
	config := pm.providerBlock() + subscriptionConfig(minimalArgs...)
	checkAccount := tfresource.TestCheckResourceAttr("eventnotify_subscription.test", "account_id", testAccount)
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []tfresource.TestStep{
			{Config: config, Check: checkAccount},
			{
				PreConfig:   func() { hostile.Store(true) },
				Config:      config,
				ExpectError: errorPattern(`account "`+testAccount+`"`, `of account "other-account"`),
			},
			// Nothing was written: the state still names the configured account (another one
			// would plan a replacement).
			{PreConfig: func() { hostile.Store(false) }, Config: config, PlanOnly: true},
		},
	})
}

// TestAccHostile_endlessListing: a service that answers every page of a listing with new
// subscriptions and "last": false is listed up to the provider's bound (50,000
// subscriptions), and the read fails with an error that says what the service did.
func TestAccHostile_endlessListing(t *testing.T) {
	m := newTestMock(t)
	listPath := "/rest/v1/accounts/" + testAccount + "/subscriptions"
	var pages atomic.Int64
	endless := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != listPath {
			m.Server.ServeHTTP(w, r)
			return
		}
		n := pages.Add(1)
		items := make([]string, 100)
		for i := range items {
			items[i] = fmt.Sprintf(`{"subscriptionId":"00000000-0000-4000-8000-%012d","eventName":"ATOM.STATUS",`+
				`"destinationType":"EVENT_STREAMS","logLevel":"INFO"}`, int(n)*100+i)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"subscriptions":[`+strings.Join(items, ",")+`],"paginationMetadata":{"last":false}}`)
	})
	ts := httptest.NewServer(endless)
	t.Cleanup(ts.Close)
	pm := &testMock{Server: m.Server, URL: ts.URL}
	tfresource.ParallelTest(t, tfresource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps: []tfresource.TestStep{{
			Config:      pm.providerBlock() + `data "eventnotify_subscriptions" "all" {}`,
			ExpectError: errorPattern("the service answered more than 50000 subscriptions", "without marking a last page", "Nothing was changed"),
		}},
	})
	if got, want := pages.Load(), int64(client.MaxListedSubscriptions/100+1); got != want {
		t.Errorf("%d pages requested, want %d", got, want)
	}
}
