package provider

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The list resource at the protocol level: the provider server that Terraform 1.14 and later
// talks to for `terraform query`, driven here directly (no CLI that runs list resources can be
// built from the module proxy, so CI's Terraform has none). The CLI runs are in
// TestAccSubscriptionList_*, which skip below Terraform 1.14 and under OpenTofu.

// listTypeName is the list resource's type name, the managed resource's.
const listTypeName = "eventnotify_subscription"

// seedListSubscriptions gives the mock's testAccount five subscriptions of every kind, and
// another account one, and returns testAccount's in the order the list resource streams them
// (event name without regard to case, then id).
func seedListSubscriptions(m *testMock) []mockserver.Subscription {
	full := mockserver.Subscription{SubscriptionID: "00000000-0000-4000-8000-000000000003",
		EventName: "PROCESS.EXECUTION", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR",
		EventStreamsEnvironment: "env-1", EventStreamsEnvironmentName: "Production", EventStreamsTopic: "process-alerts",
		Enabled: true, CreatedBy: "ops@example.com", LastUpdatedUserID: "ops@example.com"}
	fillInputs(&full, 3) // every input set
	subs := []mockserver.Subscription{
		m.PutSubscription(testAccount, full),
		m.PutSubscription(testAccount, mockserver.Subscription{SubscriptionID: "00000000-0000-4000-8000-000000000002",
			EventName: "atom.status", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
			EventStreamsEnvironment: "env-2", EventStreamsTopic: "platform-events", Enabled: true}),
		m.PutSubscription(testAccount, mockserver.Subscription{SubscriptionID: "00000000-0000-4000-8000-000000000001",
			EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "INFO",
			EventStreamsTopic: "platform-events", Enabled: false}),
		m.PutSubscription(testAccount, mockserver.Subscription{SubscriptionID: "00000000-0000-4000-8000-000000000004",
			EventName: "ENVIRONMENT.ALERT", DestinationType: "EMAIL", LogLevel: "ERROR",
			DestinationEmail: "alerts@example.com", Enabled: true}),
		m.PutSubscription(testAccount, mockserver.Subscription{SubscriptionID: "00000000-0000-4000-8000-000000000005",
			EventName: "ATOM.DEPLOYMENT", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", Enabled: true}),
	}
	m.PutSubscription("acc-other", mockserver.Subscription{SubscriptionID: "00000000-0000-4000-8000-0000000000aa",
		EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", EventStreamsTopic: "other", Enabled: true})
	order := []string{"5", "1", "2", "4", "3"} // ATOM.DEPLOYMENT, ATOM.STATUS (…1, …2), ENVIRONMENT.ALERT, PROCESS.EXECUTION
	sorted := make([]mockserver.Subscription, 0, len(subs))
	for _, suffix := range order {
		i := slices.IndexFunc(subs, func(s mockserver.Subscription) bool { return strings.HasSuffix(s.SubscriptionID, suffix) })
		sorted = append(sorted, subs[i])
	}
	return sorted
}

// resultIDs is the id of each result's identity.
func resultIDs(results []listResult) []string {
	ids := make([]string, len(results))
	for i, r := range results {
		if r.identity != nil {
			ids[i], _ = r.identity["id"].(string)
		}
	}
	return ids
}

// subscriptionIDs is the id of each subscription.
func subscriptionIDs(subs []mockserver.Subscription) []string {
	ids := make([]string, len(subs))
	for i, s := range subs {
		ids[i] = s.SubscriptionID
	}
	return ids
}

// TestListResource_metadataAndSchema checks that the provider announces the list resource
// under the managed resource's name, with the data source's filters, all optional, and an
// identity schema for its results.
func TestListResource_metadataAndSchema(t *testing.T) {
	s := newListServer(t)
	meta, err := s.server.GetMetadata(context.Background(), &tfprotov6.GetMetadataRequest{})
	if err != nil {
		t.Fatal(err)
	}
	requireNoDiagnostics(t, "GetMetadata", meta.Diagnostics)
	if !slices.ContainsFunc(meta.ListResources, func(l tfprotov6.ListResourceMetadata) bool { return l.TypeName == listTypeName }) {
		t.Errorf("GetMetadata lists list resources %+v, want %s", meta.ListResources, listTypeName)
	}
	listSchema := s.schemas.ListResourceSchemas[listTypeName]
	if listSchema == nil {
		t.Fatalf("no list resource schema for %s; list resource schemas: %v", listTypeName, s.schemas.ListResourceSchemas)
	}
	var names []string
	for _, a := range listSchema.Block.Attributes {
		names = append(names, a.Name)
		if !a.Optional || a.Required || a.Computed {
			t.Errorf("list attribute %s: optional %v, required %v, computed %v; want optional only", a.Name, a.Optional, a.Required, a.Computed)
		}
		if a.Description == "" {
			t.Errorf("list attribute %s has no description", a.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"account_id", "destination_type", "enabled", "event_name", "log_level", "notified_for"}; !slices.Equal(names, want) {
		t.Errorf("list attributes %v, want %v", names, want)
	}
	if _, ok := s.identity.(tftypes.Object).AttributeTypes["account_id"]; !ok {
		t.Errorf("identity type %s has no account_id", s.identity)
	}
}

// TestListResource_listsAccount lists the provider's account without filters: every
// subscription of it (not another account's), in the data source's order, each with its
// identity and a display name that tells the subscriptions apart, and no resource object when
// the request does not ask for one.
func TestListResource_listsAccount(t *testing.T) {
	m := newTestMock(t)
	seeded := seedListSubscriptions(m)
	s := newConfiguredListServer(t, m)

	results := s.listOK(nil, false)
	if got, want := resultIDs(results), subscriptionIDs(seeded); !slices.Equal(got, want) {
		t.Fatalf("listed ids %v, want %v", got, want)
	}
	wantNames := []string{
		"ATOM.DEPLOYMENT -> EVENT_STREAMS (INFO) [00000000-0000-4000-8000-000000000005]",
		"ATOM.STATUS -> EVENT_STREAMS platform-events (INFO, disabled) [00000000-0000-4000-8000-000000000001]",
		"atom.status -> EVENT_STREAMS env-2/platform-events (WARNING) [00000000-0000-4000-8000-000000000002]",
		"ENVIRONMENT.ALERT -> EMAIL alerts@example.com (ERROR) [00000000-0000-4000-8000-000000000004]",
		"PROCESS.EXECUTION -> EVENT_STREAMS Production/process-alerts (ERROR) [00000000-0000-4000-8000-000000000003]",
	}
	for i, r := range results {
		if r.displayName != wantNames[i] {
			t.Errorf("result %d: display name %q, want %q", i, r.displayName, wantNames[i])
		}
		if want := map[string]any{"account_id": testAccount, "id": seeded[i].SubscriptionID}; fmt.Sprint(r.identity) != fmt.Sprint(want) {
			t.Errorf("result %d: identity %v, want %v", i, r.identity, want)
		}
		if r.resource != nil {
			t.Errorf("result %d: a resource object (%v) although the request did not ask for one", i, r.resource)
		}
	}
	if n := m.Count(http.MethodGet, mockserver.RouteSubscriptions); n != 1 {
		t.Errorf("listing 5 subscriptions took %d listing requests, want 1", n)
	}
}

// TestListResource_includeResource asks for the resource objects: each holds every attribute
// as the service reports it, and equals what the resource's own Read stores after an import of
// the same identity, so that `terraform query -generate-config-out` followed by the import it
// writes plans no change.
func TestListResource_includeResource(t *testing.T) {
	m := newTestMock(t)
	seeded := seedListSubscriptions(m)
	s := newConfiguredListServer(t, m)

	results := s.listOK(nil, true)
	if len(results) != len(seeded) {
		t.Fatalf("%d results, want %d", len(results), len(seeded))
	}
	for i, r := range results {
		want := attributesOf(seeded[i]) // every attribute as the service reports it
		want["account_id"] = testAccount
		want["timeouts"] = nil // no block, as after an import
		if fmt.Sprint(r.resource) != fmt.Sprint(want) {
			t.Errorf("result %d: resource\n got %v\nwant %v", i, r.resource, want)
		}
		if imported := s.importAndRead(r.identity); !imported.Equal(r.rawResource) {
			t.Errorf("result %d: the listed object differs from what import and Read store:\nlisted   %v\nimported %v", i, r.rawResource, imported)
		}
	}
}

// TestListResource_filters applies each filter of the eventnotify_subscriptions data source,
// alone and together, with its semantics: the event name without regard to case, the others
// exactly; account_id lists another account.
func TestListResource_filters(t *testing.T) {
	m := newTestMock(t)
	seeded := seedListSubscriptions(m)
	s := newConfiguredListServer(t, m)
	ids := func(suffixes ...string) []string {
		var out []string
		for _, sub := range seeded { // in list order
			for _, suffix := range suffixes {
				if strings.HasSuffix(sub.SubscriptionID, suffix) {
					out = append(out, sub.SubscriptionID)
				}
			}
		}
		return out
	}
	cases := []struct {
		name string
		args map[string]any
		want []string
	}{
		{"event_name in another case", map[string]any{"event_name": "Atom.Status"}, ids("1", "2")},
		{"event_name that no subscription has", map[string]any{"event_name": "NO.SUCH.EVENT"}, nil},
		{"destination_type EMAIL", map[string]any{"destination_type": "EMAIL"}, ids("4")},
		{"destination_type EVENT_STREAMS", map[string]any{"destination_type": "EVENT_STREAMS"}, ids("5", "1", "2", "3")},
		{"log_level ERROR", map[string]any{"log_level": "ERROR"}, ids("4", "3")},
		{"enabled false", map[string]any{"enabled": false}, ids("1")},
		{"enabled true", map[string]any{"enabled": true}, ids("5", "2", "4", "3")},
		{"all together", map[string]any{"event_name": "atom.status", "destination_type": "EVENT_STREAMS", "log_level": "WARNING", "enabled": true}, ids("2")},
		{"account_id of another account", map[string]any{"account_id": "acc-other"}, []string{"00000000-0000-4000-8000-0000000000aa"}},
		{"account_id and a filter that excludes its subscription", map[string]any{"account_id": "acc-other", "log_level": "INFO"}, nil},
		// notified_for: enabled subscriptions to the event whose minimum level is at or below the fired one.
		{"notified_for below every minimum", map[string]any{"notified_for": notifiedFor("ATOM.STATUS", "INFO")}, nil},
		{"notified_for at a minimum, another case", map[string]any{"notified_for": notifiedFor("Atom.Status", "WARNING")}, ids("2")},
		{"notified_for above a minimum, the disabled one left out", map[string]any{"notified_for": notifiedFor("ATOM.STATUS", "ERROR")}, ids("2")},
		{"notified_for below ERROR", map[string]any{"notified_for": notifiedFor("PROCESS.EXECUTION", "WARNING")}, nil},
		{"notified_for at ERROR", map[string]any{"notified_for": notifiedFor("PROCESS.EXECUTION", "ERROR")}, ids("3")},
		{"notified_for and destination_type", map[string]any{"notified_for": notifiedFor("ATOM.STATUS", "ERROR"), "destination_type": "EMAIL"}, nil},
		{"notified_for on another account", map[string]any{"notified_for": notifiedFor("atom.status", "ERROR"), "account_id": "acc-other"}, []string{"00000000-0000-4000-8000-0000000000aa"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s.t = t
			results := s.listOK(tc.args, false)
			if got := resultIDs(results); !slices.Equal(got, tc.want) {
				t.Errorf("ids %v, want %v", got, tc.want)
			}
			account := testAccount
			if a, ok := tc.args["account_id"].(string); ok {
				account = a
			}
			for _, r := range results {
				if r.identity["account_id"] != account {
					t.Errorf("%s: identity account %v, want %s", r.displayName, r.identity["account_id"], account)
				}
			}
		})
	}
}

// TestListResource_emptyAccount lists an account without subscriptions, whether the service
// answers 204 (its documented answer) or 404 (rule 2): no result and no diagnostic.
func TestListResource_emptyAccount(t *testing.T) {
	for _, status := range []int{http.StatusNoContent, http.StatusNotFound} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			m := newTestMock(t)
			m.SetEmptyListStatus(status)
			s := newConfiguredListServer(t, m)
			if results := s.listOK(nil, true); len(results) != 0 {
				t.Errorf("an empty account gave %d results: %+v", len(results), results)
			}
		})
	}
}

// TestListResource_everyPage lists an account larger than one page of the service.
func TestListResource_everyPage(t *testing.T) {
	m := newTestMock(t)
	for i := range 45 {
		m.PutSubscription(testAccount, mockserver.Subscription{EventName: fmt.Sprintf("EVENT.%02d", i),
			DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "t", Enabled: true})
	}
	s := newConfiguredListServer(t, m)
	results := s.listOK(nil, false)
	if len(results) != 45 {
		t.Fatalf("%d results, want 45", len(results))
	}
	for i, r := range results {
		if want := fmt.Sprintf("EVENT.%02d -> ", i); !strings.HasPrefix(r.displayName, want) {
			t.Errorf("result %d is %q, want it to start with %q", i, r.displayName, want)
		}
	}
}

// TestListResource_limit stops the stream at the request's limit (Terraform sends the list
// block's limit, 100 by default).
func TestListResource_limit(t *testing.T) {
	m := newTestMock(t)
	seeded := seedListSubscriptions(m)
	s := newConfiguredListServer(t, m)
	results := s.list(nil, false, 2)
	if got, want := resultIDs(results), subscriptionIDs(seeded[:2]); !slices.Equal(got, want) {
		t.Errorf("with limit 2: ids %v, want %v", got, want)
	}
}

// TestListResource_serviceError turns a failed listing into one result that holds an error
// diagnostic naming the account, the operation and the status, and no object.
func TestListResource_serviceError(t *testing.T) {
	m := newTestMock(t)
	seedListSubscriptions(m)
	m.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteSubscriptions, Status: http.StatusInternalServerError})
	s := newConfiguredListServer(t, m)

	results := s.list(nil, true, 0)
	if len(results) != 1 {
		t.Fatalf("%d results, want one that holds the error: %+v", len(results), results)
	}
	r := results[0]
	if r.identity != nil || r.resource != nil || r.displayName != "" {
		t.Errorf("the error result carries a subscription: %+v", r)
	}
	if len(r.diagnostics) != 1 || r.diagnostics[0].Severity != tfprotov6.DiagnosticSeverityError {
		t.Fatalf("diagnostics %+v, want one error", r.diagnostics)
	}
	d := r.diagnostics[0]
	if d.Summary != "Unable to list the subscriptions of account "+testAccount {
		t.Errorf("summary %q", d.Summary)
	}
	for _, want := range []string{`"list subscriptions"`, "HTTP 500", "acc-test/subscriptions"} {
		if !strings.Contains(d.Detail, want) {
			t.Errorf("detail does not name %q:\n%s", want, d.Detail)
		}
	}
}

// TestListResource_notConfigured reports a listing before ConfigureProvider as an error
// result, not a panic.
func TestListResource_notConfigured(t *testing.T) {
	s := newListServer(t)
	results := s.list(nil, false, 0)
	if len(results) != 1 || len(results[0].diagnostics) != 1 || results[0].diagnostics[0].Summary != "Provider not configured" {
		t.Fatalf("results %+v, want one \"Provider not configured\" error", results)
	}
}

// TestListResource_validation rejects, before any request, the filter values that the
// eventnotify_subscriptions data source rejects, naming the attribute.
func TestListResource_validation(t *testing.T) {
	m := newTestMock(t)
	s := newConfiguredListServer(t, m)
	configured := m.Count("", "") // the credential check of ConfigureProvider
	cases := []struct {
		args map[string]any
		attr string
		want string
	}{
		{map[string]any{"log_level": "DEBUG"}, "log_level", `value must be one of: ["INFO" "WARNING" "ERROR"]`},
		{map[string]any{"destination_type": "WEBHOOK"}, "destination_type", `value must be one of: ["EVENT_STREAMS" "EMAIL"]`},
		{map[string]any{"event_name": "  "}, "event_name", "must not be empty or only white space"},
		{map[string]any{"account_id": ""}, "account_id", "must not be empty or only white space"},
	}
	for _, tc := range cases {
		diags := s.validate(tc.args)
		if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError {
			t.Errorf("%v: diagnostics %+v, want one error", tc.args, diags)
			continue
		}
		d := diags[0]
		if d.Attribute == nil || d.Attribute.String() != tftypes.NewAttributePath().WithAttributeName(tc.attr).String() {
			t.Errorf("%v: the error is about %v, want %s", tc.args, d.Attribute, tc.attr)
		}
		if !strings.Contains(d.Detail, tc.want) {
			t.Errorf("%v: detail %q does not say %q", tc.args, d.Detail, tc.want)
		}
	}
	valid := map[string]any{"account_id": "acc-other", "event_name": "ATOM.STATUS", "destination_type": "EMAIL", "log_level": "INFO", "enabled": false}
	requireNoDiagnostics(t, "ValidateListResourceConfig of a valid config", s.validate(valid))
	if n := m.Count("", "") - configured; n != 0 {
		t.Errorf("validation sent %d requests to the service, want none", n)
	}
}

// TestListResource_displayName pins the display name of subscriptions the seeded ones do not
// cover.
func TestListResource_displayName(t *testing.T) {
	for _, tc := range []struct {
		sub  client.Subscription
		want string
	}{
		{client.Subscription{ID: "id-1", EventName: "A", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsEnvironment: "env-9", Enabled: true},
			"A -> EVENT_STREAMS env-9 (INFO) [id-1]"},
		{client.Subscription{ID: "id-2", EventName: "B", DestinationType: "EMAIL", LogLevel: "ERROR", Enabled: false},
			"B -> EMAIL (ERROR, disabled) [id-2]"},
		{client.Subscription{ID: "id-3", EventName: "C", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
			EventStreamsEnvironment: "env-9", EventStreamsEnvironmentName: "Staging", EventStreamsTopic: "t", Enabled: true},
			"C -> EVENT_STREAMS Staging/t (WARNING) [id-3]"},
	} {
		if got := subscriptionDisplayName(subscriptionFromAPI(testAccount, &tc.sub)); got != tc.want {
			t.Errorf("display name %q, want %q", got, tc.want)
		}
	}
}

// notifiedFor is a notified_for filter for listConfig.
func notifiedFor(event, level string) map[string]string {
	return map[string]string{"event_name": event, "log_level": level}
}

// TestListResource_notifiedForValidation rejects, before any request, a notified_for whose
// level is not one, naming notified_for.log_level, and one whose event is blank.
func TestListResource_notifiedForValidation(t *testing.T) {
	m := newTestMock(t)
	s := newConfiguredListServer(t, m)
	configured := m.Count("", "")
	cases := []struct {
		filter map[string]string
		attr   string
		want   string
	}{
		{notifiedFor("ATOM.STATUS", "error"), "log_level", `value must be one of: ["INFO" "WARNING" "ERROR"]`},
		{notifiedFor(" ", "ERROR"), "event_name", "must not be empty or only white space"},
	}
	for _, tc := range cases {
		diags := s.validate(map[string]any{"notified_for": tc.filter})
		if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError {
			t.Errorf("%v: diagnostics %+v, want one error", tc.filter, diags)
			continue
		}
		want := tftypes.NewAttributePath().WithAttributeName("notified_for").WithAttributeName(tc.attr)
		if d := diags[0]; d.Attribute == nil || !d.Attribute.Equal(want) || !strings.Contains(d.Detail, tc.want) {
			t.Errorf("%v: error about %v saying %q, want %v saying %q", tc.filter, d.Attribute, d.Detail, want, tc.want)
		}
	}
	if n := m.Count("", "") - configured; n != 0 {
		t.Errorf("validation sent %d requests to the service, want none", n)
	}
}
