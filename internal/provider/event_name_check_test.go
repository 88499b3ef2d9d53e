package provider

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

func TestDidYouMean(t *testing.T) {
	catalogue := func(names ...string) []client.CatalogueEntry {
		out := make([]client.CatalogueEntry, len(names))
		for i, n := range names {
			out[i] = client.CatalogueEntry{Name: n}
		}
		return out
	}
	mock := catalogue("ATOM.STATUS", "ATOM.DEPLOYMENT", "PROCESS.EXECUTION", "ENVIRONMENT.ALERT")
	cases := []struct {
		name      string
		catalogue []client.CatalogueEntry
		want      string
	}{
		{"PROCES.EXECUTION", mock, `Did you mean "PROCESS.EXECUTION"?`},
		{"process.executon", mock, `Did you mean "PROCESS.EXECUTION"?`},
		{"Atom.Statu", mock, `Did you mean "ATOM.STATUS"?`},
		// Ties and near ties: up to three, closest first, then by name.
		{"ATOM.X", catalogue("ATOM.A", "ATOM.B", "ATOM.CC", "ATOM.D", "OTHER.EVENT"), `Did you mean "ATOM.A", "ATOM.B" or "ATOM.D"?`},
		{"ATOM.XY", catalogue("ATOM.XYZ", "ATOM.X", "ATOM.ABCD"), `Did you mean "ATOM.X" or "ATOM.XYZ"?`},
		// Nothing close: the closest all the same.
		{"zzz", mock, `Did you mean "ATOM.STATUS"`},
		// One spelling per name, the catalogue's first.
		{"ATOM.STATU", catalogue("Atom.Status", "ATOM.STATUS", "atom.status"), `Did you mean "Atom.Status"?`},
		// A name from the service is quoted and cut.
		{"E", catalogue("E\x1b[31m" + strings.Repeat("x", 100)), `Did you mean "E\x1b[31m` + strings.Repeat("x", 74) + `…"?`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := didYouMean(tc.name, tc.catalogue); !strings.HasPrefix(got, tc.want) {
				t.Errorf("didYouMean(%q) = %s, want %s", tc.name, got, tc.want)
			}
		})
	}
}

// planRequest is one PlanResourceChange of the event name tests.
type planRequest struct {
	typeName                string
	prior, proposed, config tftypes.Value
}

// eventNamePlans serves the provider configured for a mock and builds the values of
// eventnotify_subscription and eventnotify_account_subscriptions.
type eventNamePlans struct {
	t      *testing.T
	server *listServer
	sub    tftypes.Object
	acct   tftypes.Object
}

func newEventNamePlans(t *testing.T, m *testMock) *eventNamePlans {
	s := newConfiguredListServer(t, m)
	sub, _ := s.schemas.ResourceSchemas["eventnotify_subscription"].ValueType().(tftypes.Object)
	acct, _ := s.schemas.ResourceSchemas["eventnotify_account_subscriptions"].ValueType().(tftypes.Object)
	return &eventNamePlans{t: t, server: s, sub: sub, acct: acct}
}

// subscription is a value of eventnotify_subscription with the required arguments and event.
func (p *eventNamePlans) subscription(event any, computed bool) tftypes.Value {
	attrs := map[string]any{"event_name": event, "destination_type": "EVENT_STREAMS", "log_level": "ERROR",
		"event_streams_environment_id": "env-1", "event_streams_topic": "alerts"}
	if computed {
		attrs["id"], attrs["account_id"], attrs["enabled"] = "00000000-0000-4000-8000-000000000001", testAccount, true
	}
	return value(p.t, p.sub, attrs)
}

// account is a value of eventnotify_account_subscriptions whose entries have the given events.
func (p *eventNamePlans) account(events map[string]any, computed bool) tftypes.Value {
	entryType := p.acct.AttributeTypes["subscriptions"].(tftypes.Map).ElementType
	elems := make(map[string]tftypes.Value, len(events))
	i := 0
	for key, event := range events {
		attrs := map[string]any{"event_name": event, "destination_type": "EVENT_STREAMS", "log_level": "ERROR",
			"event_streams_environment_id": "env-1", "event_streams_topic": key}
		if computed {
			i++
			attrs["id"], attrs["enabled"] = "00000000-0000-4000-8000-00000000000"+string(rune('0'+i)), true
		}
		elems[key] = value(p.t, entryType, attrs)
	}
	top := map[string]any{"subscriptions": tftypes.NewValue(p.acct.AttributeTypes["subscriptions"], elems)}
	if computed {
		top["id"], top["account_id"] = testAccount, testAccount
	}
	return value(p.t, p.acct, top)
}

// plan sends PlanResourceChange and returns its diagnostics.
func (p *eventNamePlans) plan(r planRequest) []*tfprotov6.Diagnostic {
	p.t.Helper()
	p.server.forgetHolders() // each plan stands for another run
	typ := p.sub
	if r.typeName == "eventnotify_account_subscriptions" {
		typ = p.acct
	}
	if r.prior.Type() == nil {
		r.prior = tftypes.NewValue(typ, nil)
	}
	if r.proposed.Type() == nil {
		r.proposed = r.config
	}
	dv := func(v tftypes.Value) *tfprotov6.DynamicValue {
		d, err := tfprotov6.NewDynamicValue(typ, v)
		if err != nil {
			p.t.Fatal(err)
		}
		return &d
	}
	resp, err := p.server.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: r.typeName, PriorState: dv(r.prior), ProposedNewState: dv(r.proposed), Config: dv(r.config)})
	if err != nil {
		p.t.Fatal(err)
	}
	return resp.Diagnostics
}

// TestEventNameCheck_plans plans both subscription resources through the provider's server,
// configured for the mock: a name the catalogue lacks fails with the closest names, at its
// attribute; any case matches; a name the state holds, or one not known yet, reads nothing;
// the catalogue is read once per provider instance.
func TestEventNameCheck_plans(t *testing.T) {
	m := newTestMock(t)
	p := newEventNamePlans(t, m)
	type diagWant struct {
		severity  tfprotov6.DiagnosticSeverity
		summary   string
		attribute *tftypes.AttributePath
		detail    []string
	}
	unknownName := func(attribute *tftypes.AttributePath, name, suggestion string) diagWant {
		return diagWant{tfprotov6.DiagnosticSeverityError, "Unknown event name", attribute,
			[]string{`name "` + name + `" is not in the events catalogue`, `"list events"`, `Did you mean "` + suggestion + `"?`, "eventnotify_events"}}
	}
	subPath := tftypes.NewAttributePath().WithAttributeName("event_name")
	entryPath := func(key string) *tftypes.AttributePath {
		return tftypes.NewAttributePath().WithAttributeName("subscriptions").WithElementKeyString(key).WithAttributeName("event_name")
	}
	const sub, acct = "eventnotify_subscription", "eventnotify_account_subscriptions"
	cases := []struct {
		name string
		req  planRequest
		want []diagWant
	}{
		{name: "a misspelt name", req: planRequest{typeName: sub, config: p.subscription("PROCES.EXECUTION", false)},
			want: []diagWant{unknownName(subPath, "PROCES.EXECUTION", "PROCESS.EXECUTION")}},
		{name: "a name in another case", req: planRequest{typeName: sub, config: p.subscription("process.Execution", false)}},
		{name: "a name not known yet", req: planRequest{typeName: sub, config: p.subscription(unknown{}, false)}},
		{name: "a name the state holds", req: planRequest{typeName: sub, prior: p.subscription("flow.deployed", true),
			proposed: p.subscription("flow.deployed", true), config: p.subscription("flow.deployed", false)}},
		{name: "the state's name in another case", req: planRequest{typeName: sub, prior: p.subscription("flow.deployed", true),
			proposed: p.subscription("FLOW.DEPLOYED", true), config: p.subscription("FLOW.DEPLOYED", false)}},
		{name: "a name changed to a misspelt one", req: planRequest{typeName: sub, prior: p.subscription("ATOM.STATUS", true),
			proposed: p.subscription("Atom.Staus", true), config: p.subscription("Atom.Staus", false)},
			want: []diagWant{unknownName(subPath, "Atom.Staus", "ATOM.STATUS")}},
		{name: "entries, two misspelt", req: planRequest{typeName: acct, config: p.account(map[string]any{
			"a": "ATOM.STATUS", "b": "atom.stat", "c": unknown{}, "d": "environment.alerts"}, false)},
			want: []diagWant{unknownName(entryPath("b"), "atom.stat", "ATOM.STATUS"),
				unknownName(entryPath("d"), "environment.alerts", "ENVIRONMENT.ALERT")}},
		{name: "entries the state holds, under other keys and in another case", req: planRequest{typeName: acct,
			prior:    p.account(map[string]any{"x": "flow.deployed", "y": "ATOM.STATUS"}, true),
			proposed: p.account(map[string]any{"renamed": "Flow.Deployed", "y": "ATOM.STATUS"}, false),
			config:   p.account(map[string]any{"renamed": "Flow.Deployed", "y": "ATOM.STATUS"}, false)}},
	}
	reads := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			diags := p.plan(tc.req)
			if len(diags) != len(tc.want) {
				t.Fatalf("got %d diagnostics, want %d: %v", len(diags), len(tc.want), diagnosticSet(diags))
			}
			// Errors come in key order.
			for i, w := range tc.want {
				d := diags[i]
				if d.Severity != w.severity || d.Summary != w.summary || !d.Attribute.Equal(w.attribute) {
					t.Errorf("diagnostic %d: %s %q at %v, want %s %q at %v", i, d.Severity, d.Summary, d.Attribute, w.severity, w.summary, w.attribute)
				}
				for _, phrase := range w.detail {
					if !strings.Contains(d.Detail, phrase) {
						t.Errorf("diagnostic %d lacks %q: %s", i, phrase, d.Detail)
					}
				}
			}
			if len(tc.want) > 0 {
				reads = 1
			}
			if n := m.Count(http.MethodGet, mockserver.RouteEvents); n != reads {
				t.Errorf("the catalogue was read %d times so far, want %d", n, reads)
			}
		})
	}
	if m.writes().total() != 0 {
		t.Errorf("plans wrote to the service: %s", m.writes())
	}
}

// TestEventNameCheck_catalogueUnavailable: when the catalogue cannot be read for a reason that
// may pass, or is empty, the plan goes on with one warning that names the operation and the
// names not checked; when the service's answer is definite (no access, an address that does
// not serve the API), the plan fails with it. Either way one provider instance reads once.
func TestEventNameCheck_catalogueUnavailable(t *testing.T) {
	fault := func(f mockserver.Fault) func(m *testMock) {
		return func(m *testMock) {
			f.Method, f.Route = http.MethodGet, mockserver.RouteEvents
			m.InjectFault(f)
		}
	}
	const notChecked, cannotCheck = "Event names not checked", "Event names cannot be checked"
	cases := []struct {
		name     string
		setup    func(m *testMock)
		severity tfprotov6.DiagnosticSeverity
		summary  string
		detail   []string
	}{
		{name: "the service fails", setup: fault(mockserver.Fault{Status: http.StatusInternalServerError}),
			severity: tfprotov6.DiagnosticSeverityWarning, summary: notChecked,
			detail: []string{`"list events"`, "HTTP 500", `the event names "ATOM.STATUS", "PROCES.EXECUTION" were not checked`, "eventnotify_events", passingNote}},
		{name: "the catalogue is empty", setup: func(m *testMock) { m.SetEvents(nil) },
			severity: tfprotov6.DiagnosticSeverityWarning, summary: notChecked,
			detail: []string{`"list events"`, "lists no event", `"ATOM.STATUS", "PROCES.EXECUTION" were not checked`}},
		{name: "no access", setup: fault(mockserver.Fault{Status: http.StatusForbidden}),
			severity: tfprotov6.DiagnosticSeverityError, summary: cannotCheck,
			detail: []string{`the event names "ATOM.STATUS", "PROCES.EXECUTION" against the events catalogue`, "HTTP 403", envAccountID, definiteNote}},
		{name: "an address that does not serve the API", setup: fault(mockserver.Fault{Status: http.StatusNotFound,
			Body: "<html><h1>Not Found</h1></html>", ContentType: "text/html"}),
			severity: tfprotov6.DiagnosticSeverityError, summary: cannotCheck,
			detail: []string{"HTTP 404", "not the service's own answer", "base_url (" + envBaseURL + ")", definiteNote}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			tc.setup(m)
			p := newEventNamePlans(t, m)
			for range 2 {
				diags := p.plan(planRequest{typeName: "eventnotify_account_subscriptions",
					config: p.account(map[string]any{"a": "ATOM.STATUS", "b": "PROCES.EXECUTION"}, false)})
				if len(diags) != 1 || diags[0].Severity != tc.severity || !strings.HasPrefix(diags[0].Summary, tc.summary) {
					t.Fatalf("got %v, want one %s %q", diagnosticSet(diags), tc.severity, tc.summary)
				}
				for _, phrase := range tc.detail {
					if !strings.Contains(diags[0].Detail, phrase) {
						t.Errorf("the diagnostic lacks %q: %s", phrase, diags[0].Detail)
					}
				}
			}
			if n := m.Count(http.MethodGet, mockserver.RouteEvents); n != 1 {
				t.Errorf("the catalogue was read %d times by one provider instance, want 1", n)
			}
		})
	}
}

// TestAccSubscriptionResource_misspeltEventName: a name the catalogue lacks fails the plan
// with the closest names and writes nothing; a name known only at apply is checked when the
// apply plans it, before any write.
func TestAccSubscriptionResource_misspeltEventName(t *testing.T) {
	m := newTestMock(t)
	fromOutput := m.providerBlock() + `
resource "terraform_data" "event" {
  input = "PROCES.EXECUTION"
}
` + subscriptionConfig(`event_name = terraform_data.event.output`, `destination_type = "EVENT_STREAMS"`, `log_level = "INFO"`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config:      m.providerBlock() + subscriptionConfig(`event_name = "PROCES.EXECUTION"`, `destination_type = "EVENT_STREAMS"`, `log_level = "INFO"`),
				PlanOnly:    true,
				ExpectError: errorPattern("Unknown event name", `Event name "PROCES.EXECUTION" is not in the events catalogue`, `Did you mean "PROCESS.EXECUTION"?`),
			},
			{
				// Not known at plan: the plan goes on...
				Config:             fromOutput,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// ...and the apply checks it when it plans the subscription again.
				Config:      fromOutput,
				ExpectError: errorPattern("Unknown event name", `Event name "PROCES.EXECUTION" is not in the events catalogue`, `Did you mean "PROCESS.EXECUTION"?`),
			},
			{
				// The catalogue's spelling in another case.
				Config: strings.Replace(fromOutput, `"PROCES.EXECUTION"`, `"process.execution"`, 1),
				Check:  m.checkMockHolds(testAccount, 1),
			},
		},
	})
	if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions); n != 1 {
		t.Errorf("%d creates, want only the correct name's", n)
	}
}

// TestAccAccountSubscriptions_misspeltEventName: each entry whose name the catalogue lacks
// fails the plan at its key, and nothing is written.
func TestAccAccountSubscriptions_misspeltEventName(t *testing.T) {
	m := newTestMock(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config: m.providerBlock() + acctConfig(acctEntry{key: "ok", event: "atom.status", level: "INFO"},
					acctEntry{key: "typo", event: "ATOM.DEPLOYMNT", level: "INFO"}),
				ExpectError: errorPattern("Unknown event name",
					`Entry "typo" of subscriptions: event name "ATOM.DEPLOYMNT" is not in the events catalogue`, `Did you mean "ATOM.DEPLOYMENT"?`),
			},
			{
				Config: m.providerBlock() + acctConfig(acctEntry{key: "ok", event: "atom.status", level: "INFO"},
					acctEntry{key: "fixed", event: "ATOM.DEPLOYMENT", level: "INFO"}),
				Check: m.checkMockHolds(testAccount, 2),
			},
		},
	})
	if n := m.Count(http.MethodPost, mockserver.RouteSubscriptions); n != 1 {
		t.Errorf("%d create requests, want only the corrected configuration's", n)
	}
}

// TestAccSubscriptionResource_catalogueUnavailable runs the CLI while the catalogue cannot be
// read because the service fails (a 500, which may pass): the plan shows the warning, naming
// the operation and the name not checked, and the apply goes on; a plan that writes no name
// reads no catalogue and warns of nothing. A definite answer fails the plan instead
// (TestAccPlanReads_wrongAccount).
func TestAccSubscriptionResource_catalogueUnavailable(t *testing.T) {
	m := newTestMock(t)
	m.InjectFault(mockserver.Fault{Method: http.MethodGet, Route: mockserver.RouteEvents, Status: http.StatusInternalServerError})
	w := newCLIWorkspace(t, m)
	w.write("main.tf", requiredProviders+subscriptionConfig(`event_name = "PROCESS.EXECUTION"`, `destination_type = "EVENT_STREAMS"`, `log_level = "INFO"`))
	warning := errorPattern("Warning: Event names not checked: the events catalogue could not be read",
		`the event name "PROCESS.EXECUTION" was not checked`, `"list events"`, "HTTP 500")
	out := w.mustRun(nil, "plan", "-input=false", "-no-color", "-out=tfplan")
	if !warning.MatchString(out) || !strings.Contains(out, "1 to add") {
		t.Errorf("the plan does not show the warning and the creation:\n%s", out)
	}
	w.mustRun(nil, "apply", "-input=false", "-no-color", "tfplan")
	if got := len(m.Subscriptions(testAccount)); got != 1 {
		t.Fatalf("the account holds %d subscriptions after the apply, want 1", got)
	}
	reads := m.Count(http.MethodGet, mockserver.RouteEvents)
	out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if code != 0 || strings.Contains(out, "Event names not checked") {
		t.Errorf("the plan after the apply (exit %d) is not empty and quiet:\n%s", code, out)
	}
	if n := m.Count(http.MethodGet, mockserver.RouteEvents); n != reads {
		t.Errorf("a plan that writes no name read the catalogue %d times", n-reads)
	}
	w.mustRun(nil, "destroy", "-auto-approve", "-input=false", "-no-color")
}

// TestEventNameCheck_troubleshootingGuide checks that the error the troubleshooting guide
// quotes is the one a plan shows.
func TestEventNameCheck_troubleshootingGuide(t *testing.T) {
	page, err := os.ReadFile("../../docs/guides/troubleshooting.md")
	if err != nil {
		t.Fatal(err)
	}
	_, quoted, ok := strings.Cut(string(page), "Error: Unknown event name\n")
	quoted, _, _ = strings.Cut(quoted, "...")
	quoted = strings.Join(strings.Fields(quoted), " ")
	if !ok || len(quoted) < 100 {
		t.Fatalf("the guide quotes no Unknown event name error: %q", quoted)
	}
	p := newEventNamePlans(t, newTestMock(t))
	diags := p.plan(planRequest{typeName: "eventnotify_subscription", config: p.subscription("PROCES.EXECUTION", false)})
	if len(diags) != 1 || diags[0].Summary != "Unknown event name" || !strings.HasPrefix(diags[0].Detail, quoted) {
		t.Fatalf("the plan shows %v, the guide quotes:\n%s", diagnosticSet(diags), quoted)
	}
}
