package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// accountTypeName is the account resource's type name.
const accountTypeName = "eventnotify_account_subscriptions"

// accountBench is an account resource of n subscriptions, imported and read through the
// provider server as Terraform would, with the values a no-change plan sends (Terraform 1.12
// and later send the identity too).
type accountBench struct {
	s        *listServer
	state    *tfprotov6.DynamicValue         // the state after import and read
	identity *tfprotov6.ResourceIdentityData // the identity after import and read
	config   *tfprotov6.DynamicValue         // the configuration that matches it
}

// newAccountBench seeds the mock's testAccount with n subscriptions and imports them.
func newAccountBench(tb testing.TB, n int) *accountBench {
	tb.Helper()
	m := newTestMock(tb)
	for i := range n {
		m.PutSubscription(testAccount, mockserver.Subscription{EventName: fmt.Sprintf("bench.event.%05d", i),
			DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", EventStreamsEnvironment: "env-1",
			EventStreamsTopic: "bench", Enabled: true, CreatedBy: testUser})
	}
	// Every read lists the account, as the first read of a plan's provider process does: the
	// client's listing cache would serve the reads after the first from memory.
	uncached := protocolServerFor(func() *EventNotifyProvider {
		return &EventNotifyProvider{version: "test", adjustClient: func(c *client.Config) { c.ListCacheTTL = -1 }}
	})
	s := configuredForMock(newListServerFrom(tb, uncached), m)
	ctx := context.Background()
	imported, err := s.server.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: accountTypeName, ID: testAccount})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "ImportResourceState", imported.Diagnostics)
	read, err := s.server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: accountTypeName,
		CurrentState: imported.ImportedResources[0].State, CurrentIdentity: imported.ImportedResources[0].Identity})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "ReadResource", read.Diagnostics)
	typ := s.schemas.ResourceSchemas[accountTypeName].ValueType()
	state, err := read.NewState.Unmarshal(typ)
	if err != nil {
		tb.Fatal(err)
	}
	// The configuration is the state without what the provider computes.
	computedOnly := map[string]bool{"id": true}
	for name, a := range accountEntryAttributes() {
		computedOnly[name] = a.IsComputed() && !a.IsOptional()
	}
	config, err := tftypes.Transform(state, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		steps := p.Steps()
		if len(steps) == 0 {
			return v, nil
		}
		name, ok := steps[len(steps)-1].(tftypes.AttributeName)
		if ok && computedOnly[string(name)] && (len(steps) == 1 || len(steps) == 3) {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	configValue, err := tfprotov6.NewDynamicValue(typ, config)
	if err != nil {
		tb.Fatal(err)
	}
	var entries map[string]tftypes.Value
	var top map[string]tftypes.Value
	if err := state.As(&top); err != nil {
		tb.Fatal(err)
	}
	if err := top["subscriptions"].As(&entries); err != nil || len(entries) != n {
		tb.Fatalf("the read state holds %d subscriptions (%v), want %d", len(entries), err, n)
	}
	if read.NewIdentity == nil {
		tb.Fatal("the read answered no identity")
	}
	return &accountBench{s: s, state: read.NewState, identity: read.NewIdentity, config: &configValue}
}

// rawState is the state as Terraform stores it: JSON.
func (a *accountBench) rawState(tb testing.TB) *tfprotov6.RawState {
	tb.Helper()
	v, err := a.state.Unmarshal(a.s.schemas.ResourceSchemas[accountTypeName].ValueType())
	if err != nil {
		tb.Fatal(err)
	}
	j, err := json.Marshal(jsonValue(v))
	if err != nil {
		tb.Fatal(err)
	}
	return &tfprotov6.RawState{JSON: j}
}

// jsonValue converts a value of strings, numbers, bools, maps and objects for json.Marshal.
func jsonValue(v tftypes.Value) any {
	switch {
	case v.IsNull():
		return nil
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	case v.Type().Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		i, _ := f.Int64()
		return i
	}
	var m map[string]tftypes.Value
	_ = v.As(&m)
	out := make(map[string]any, len(m))
	for k, e := range m {
		out[k] = jsonValue(e)
	}
	return out
}

// plan plans with nothing changed, as `terraform plan` does after a refresh.
func (a *accountBench) plan(tb testing.TB) *tfprotov6.PlanResourceChangeResponse {
	resp, err := a.s.server.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: accountTypeName, PriorState: a.state, PriorIdentity: a.identity, ProposedNewState: a.state, Config: a.config})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "PlanResourceChange", resp.Diagnostics)
	return resp
}

// BenchmarkAccountSubscriptions1000 measures the provider's side of a no-change plan of one
// eventnotify_account_subscriptions resource holding 1000 subscriptions, call by call, at the
// protocol level (no Terraform, the mock in-process and unlimited), through the framework's
// server alone and through ProtocolServer's fast path (accountProtocol), on the same state:
// the figures that say when the fast path can go (see accountProtocol). A fast run that the
// framework answered fails.
func BenchmarkAccountSubscriptions1000(b *testing.B) {
	a := newAccountBench(b, 1000)
	ctx := context.Background()
	ps, ok := a.s.server.(*protocolServer)
	if !ok {
		b.Fatalf("ProtocolServer serves %T", a.s.server)
	}
	raw := a.rawState(b)
	calls := []struct {
		name     string
		answered *atomic.Int64 // the fast path's count of the call; nil when it has none
		call     func(tfprotov6.ProviderServer) []*tfprotov6.Diagnostic
	}{
		{"validate", &ps.account.answered.validate, func(s tfprotov6.ProviderServer) []*tfprotov6.Diagnostic {
			resp, err := s.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: accountTypeName, Config: a.config})
			if err != nil {
				b.Fatal(err)
			}
			return resp.Diagnostics
		}},
		{"read", &ps.account.answered.read, func(s tfprotov6.ProviderServer) []*tfprotov6.Diagnostic {
			resp, err := s.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: accountTypeName, CurrentState: a.state,
				CurrentIdentity: a.identity})
			if err != nil {
				b.Fatal(err)
			}
			return resp.Diagnostics
		}},
		// The framework alone upgrades: a fast path saved about 0.16 s of 0.2 s here, and went.
		{"upgrade", nil, func(s tfprotov6.ProviderServer) []*tfprotov6.Diagnostic {
			resp, err := s.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{TypeName: accountTypeName, RawState: raw})
			if err != nil {
				b.Fatal(err)
			}
			return resp.Diagnostics
		}},
		{"plan", &ps.account.answered.plan, func(s tfprotov6.ProviderServer) []*tfprotov6.Diagnostic {
			resp, err := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: accountTypeName,
				PriorState: a.state, PriorIdentity: a.identity, ProposedNewState: a.state, Config: a.config})
			if err != nil {
				b.Fatal(err)
			}
			return resp.Diagnostics
		}},
	}
	servers := []struct {
		name   string
		server tfprotov6.ProviderServer
	}{{"framework", ps.frameworkServer}, {"fast", ps}}
	for _, c := range calls {
		for _, s := range servers {
			b.Run(c.name+"/"+s.name, func(b *testing.B) {
				if s.name == "fast" && c.answered == nil {
					b.Skip("the fast path does not answer this call")
				}
				before := int64(0)
				if c.answered != nil {
					before = c.answered.Load()
				}
				b.ReportAllocs()
				n := int64(0)
				for b.Loop() {
					requireNoDiagnostics(b, c.name, c.call(s.server))
					n++
				}
				if c.answered != nil {
					if got := c.answered.Load() - before; s.name == "fast" && got != n || s.name == "framework" && got != 0 {
						b.Fatalf("the fast path answered %d of %d calls through %s", got, n, s.name)
					}
				}
			})
		}
	}
}

// TestAccountSubscriptions_noChangePlanAtProtocolLevel checks what the benchmark measures: a
// plan of the state just read, with the matching configuration, plans no change.
func TestAccountSubscriptions_noChangePlanAtProtocolLevel(t *testing.T) {
	a := newAccountBench(t, 50)
	resp := a.plan(t)
	typ := a.s.schemas.ResourceSchemas[accountTypeName].ValueType()
	planned, err := resp.PlannedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	state, err := a.state.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	if diffs, err := state.Diff(planned); err != nil || len(diffs) > 0 {
		t.Fatalf("a plan with nothing changed differs from the state (%v): %v", err, diffs)
	}
	if len(resp.RequiresReplace) > 0 {
		t.Fatalf("a plan with nothing changed requires replacement of %v", resp.RequiresReplace)
	}
	ps, ok := a.s.server.(*protocolServer)
	if !ok {
		t.Fatalf("ProtocolServer serves %T", a.s.server)
	}
	if got := identityAccountOf(t, ps.account, resp.PlannedIdentity); got != testAccount {
		t.Fatalf("a plan with nothing changed plans the identity %q, want the account's, %q", got, testAccount)
	}
}
