package provider

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// topicBench is a topic resource of n subscriptions in an account of total, imported and read
// through the provider server as Terraform would.
type topicBench struct {
	s     *listServer
	m     *testMock
	typ   tftypes.Type
	state *tfprotov6.DynamicValue // the state after import and read
}

// newTopicBench seeds the mock's testAccount with total subscriptions, n of them on topic
// "bench" of topicTestEnv (every tenth, so that the topic's pages are spread over the
// account's), and imports the topic.
func newTopicBench(tb testing.TB, n, total int) *topicBench {
	tb.Helper()
	m := newTestMock(tb)
	events := []string{"ATOM.STATUS", "ATOM.DEPLOYMENT", "PROCESS.EXECUTION", "ENVIRONMENT.ALERT"}
	step := total / n
	for i := range total {
		s := onTopic(fmt.Sprintf("other-%d", i%97), events[i%4], "ERROR")
		if i%step == 0 && i/step < n {
			s.EventStreamsTopic = "bench"
		}
		m.PutSubscription(testAccount, s)
	}
	s := newConfiguredListServer(tb, m)
	ctx := context.Background()
	imported, err := s.server.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: topicResourceTypeName,
		ID: testAccount + "/" + topicTestEnv + "/bench"})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "ImportResourceState", imported.Diagnostics)
	read, err := s.server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: topicResourceTypeName,
		CurrentState: imported.ImportedResources[0].State, Private: imported.ImportedResources[0].Private})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "ReadResource", read.Diagnostics)
	t := &topicBench{s: s, m: m, typ: s.schemas.ResourceSchemas[topicResourceTypeName].ValueType(), state: read.NewState}
	if got := len(t.entries(tb, t.state)); got != n {
		tb.Fatalf("the read state holds %d subscriptions, want %d", got, n)
	}
	return t
}

// entries returns the subscriptions map of a state value.
func (t *topicBench) entries(tb testing.TB, dv *tfprotov6.DynamicValue) map[string]tftypes.Value {
	tb.Helper()
	v, err := dv.Unmarshal(t.typ)
	if err != nil {
		tb.Fatal(err)
	}
	var top map[string]tftypes.Value
	var entries map[string]tftypes.Value
	if err := v.As(&top); err != nil {
		tb.Fatal(err)
	}
	if err := top["subscriptions"].As(&entries); err != nil {
		tb.Fatal(err)
	}
	return entries
}

// config returns the configuration that matches state, with the log level of the first
// changed entries (in key order) set to level: the state without what the provider computes.
func (t *topicBench) config(tb testing.TB, state *tfprotov6.DynamicValue, changed int, level string) *tfprotov6.DynamicValue {
	tb.Helper()
	v, err := state.Unmarshal(t.typ)
	if err != nil {
		tb.Fatal(err)
	}
	toChange := map[string]bool{}
	for _, key := range sortedKeys(t.entries(tb, state))[:changed] {
		toChange[key] = true
	}
	config, err := tftypes.Transform(v, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		steps := p.Steps()
		name, ok := tftypes.AttributeName(""), false
		if len(steps) > 0 {
			name, ok = steps[len(steps)-1].(tftypes.AttributeName)
		}
		switch {
		case ok && name == "id" && (len(steps) == 1 || len(steps) == 3):
			return tftypes.NewValue(v.Type(), nil), nil
		case ok && name == "log_level" && len(steps) == 3:
			if key, isKey := steps[1].(tftypes.ElementKeyString); isKey && toChange[string(key)] {
				return tftypes.NewValue(tftypes.String, level), nil
			}
		}
		return v, nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	dv, err := tfprotov6.NewDynamicValue(t.typ, config)
	if err != nil {
		tb.Fatal(err)
	}
	return &dv
}

// fresh serves the provider anew on the same mock, as each Terraform command starts its
// provider afresh: its client has no listing of the account yet.
func (t *topicBench) fresh(tb testing.TB) {
	tb.Helper()
	if b, ok := tb.(*testing.B); ok {
		b.StopTimer()
		defer b.StartTimer()
	}
	t.s = newConfiguredListServer(tb, t.m)
}

// read refreshes the state, as every plan does first, in a provider of its own (a plan's).
func (t *topicBench) read(tb testing.TB) {
	t.fresh(tb)
	resp, err := t.s.server.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: topicResourceTypeName,
		CurrentState: t.state})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "ReadResource", resp.Diagnostics)
	t.state = resp.NewState
}

// plan plans config against the state.
func (t *topicBench) plan(tb testing.TB, config *tfprotov6.DynamicValue) *tfprotov6.PlanResourceChangeResponse {
	resp, err := t.s.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: topicResourceTypeName, PriorState: t.state, ProposedNewState: config, Config: config})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "PlanResourceChange", resp.Diagnostics)
	return resp
}

// apply plans config and applies the plan, and keeps the new state: the apply in a provider
// of its own, as Terraform's apply walk starts one.
func (t *topicBench) apply(tb testing.TB, config *tfprotov6.DynamicValue) {
	planned := t.plan(tb, config)
	t.fresh(tb)
	resp, err := t.s.server.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: topicResourceTypeName, PriorState: t.state, PlannedState: planned.PlannedState, Config: config,
		PlannedPrivate: planned.PlannedPrivate})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "ApplyResourceChange", resp.Diagnostics)
	t.state = resp.NewState
}

// requests are the mock's requests since its counters were reset, by kind.
type requests struct{ pages, reads, writes int }

// requestsSince returns the mock's requests since ResetCounters.
func (t *topicBench) requests() requests {
	return requests{pages: t.m.Count(http.MethodGet, mockserver.RouteSubscriptions),
		reads:  t.m.Count(http.MethodGet, mockserver.RouteSubscription),
		writes: t.m.writes().total()}
}

// BenchmarkTopicSubscriptions500In5000 measures the provider's side of one
// eventnotify_topic_subscriptions holding 500 subscriptions of an account of 5000, at the
// protocol level (no Terraform, the mock in-process and unlimited), through ProtocolServer:
//   - read: the refresh of every plan, one listing of the account (50 pages of 100);
//   - plan: a plan with nothing changed (after its refresh, which read measures);
//   - apply: the refresh, plan and apply of a change of 50 entries' log level (one bulk update).
//
// Each reports the requests it made per operation (pages, reads of single subscriptions,
// writes) and fails when it made one per entry. On 2 shared cores under load (load average
// about 13), 5 runs each: read 0.34 s (50 pages, no other request), plan 0.28 s (none), apply
// 1.15 s (50 pages and one bulk update). Beside it, BenchmarkAccountSubscriptions1000 in the same
// run: read 1.04 s through the framework (0.18 s fast path), plan 3.29 s (0.03 s fast path),
// validate 0.95 s (0.19 s). An entry of the topic holds 4 values where the account's holds 8,
// so the framework plans the topic's 500 entries in a twelfth of the account's 1000: the topic
// resource has no fast path (accountProtocol's rule, a tenth of the no-change plan, is not met).
func BenchmarkTopicSubscriptions500In5000(b *testing.B) {
	t := newTopicBench(b, 500, 5000)
	unchanged := t.config(b, t.state, 0, "")
	levels := []string{"INFO", "ERROR"}
	steps := []struct {
		name string
		run  func(i int)
		want requests // per operation
	}{
		{"read", func(int) { t.read(b) }, requests{pages: 50}},
		{"plan", func(int) { t.plan(b, unchanged) }, requests{}},
		// The apply's update lists the account too (heldAsListed): its state may be stale.
		{"apply", func(i int) { t.read(b); t.apply(b, t.config(b, t.state, 50, levels[i%2])) }, requests{pages: 100, writes: 1}},
	}
	for _, s := range steps {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			t.m.ResetCounters()
			n := 0
			for b.Loop() {
				s.run(n)
				n++
			}
			got := t.requests()
			b.ReportMetric(float64(got.pages)/float64(n), "pages/op")
			b.ReportMetric(float64(got.reads)/float64(n), "reads/op")
			b.ReportMetric(float64(got.writes)/float64(n), "writes/op")
			if want := (requests{s.want.pages * n, s.want.reads * n, s.want.writes * n}); got != want {
				b.Fatalf("%d operations made %+v requests, want %+v", n, got, want)
			}
		})
	}
}

// TestTopicSubscriptions_requestsAtScale checks what the benchmark measures, on a smaller
// account: a topic of 50 subscriptions in an account of 450 refreshes with the account's
// listing (5 pages of 100) and no read of a single subscription, plans no change with no
// request, and applies a change of 20 entries with one listing of the account (the update
// starts from what the service holds: heldAsListed) and one bulk update.
func TestTopicSubscriptions_requestsAtScale(t *testing.T) {
	b := newTopicBench(t, 50, 450)
	b.m.ResetCounters()
	b.read(t)
	if got := b.requests(); got != (requests{pages: 5}) {
		t.Errorf("the refresh made %+v requests, want 5 pages", got)
	}
	b.m.ResetCounters()
	resp := b.plan(t, b.config(t, b.state, 0, ""))
	planned, err := resp.PlannedState.Unmarshal(b.typ)
	if err != nil {
		t.Fatal(err)
	}
	state, err := b.state.Unmarshal(b.typ)
	if err != nil {
		t.Fatal(err)
	}
	if diffs, err := state.Diff(planned); err != nil || len(diffs) > 0 {
		t.Errorf("a plan with nothing changed differs from the state (%v): %v", err, diffs)
	}
	b.apply(t, b.config(t, b.state, 20, "INFO"))
	if got := b.requests(); got != (requests{pages: 5, writes: 1}) {
		t.Errorf("the plan and the apply of 20 changed entries made %+v requests, want one listing (5 pages) and one write", got)
	}
	changed := 0
	for _, s := range b.m.Subscriptions(testAccount) {
		if s.EventStreamsTopic == "bench" && s.LogLevel == "INFO" {
			changed++
		}
	}
	if changed != 20 {
		t.Errorf("%d subscriptions of the topic are at INFO after the apply, want 20", changed)
	}
}
