package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// accountTypeName is the account resource's type name.
const accountTypeName = "eventnotify_account_subscriptions"

// accountBench is an account resource of n subscriptions, imported and read through the
// provider server as Terraform would, with the values a no-change plan sends.
type accountBench struct {
	s      *listServer
	state  *tfprotov6.DynamicValue // the state after import and read
	config *tfprotov6.DynamicValue // the configuration that matches it
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
	s := newConfiguredListServer(tb, m)
	ctx := context.Background()
	imported, err := s.server.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: accountTypeName, ID: testAccount})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "ImportResourceState", imported.Diagnostics)
	read, err := s.server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: accountTypeName,
		CurrentState: imported.ImportedResources[0].State})
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
	computedOnly := map[string]bool{"id": true, "destination_email": true, "created_date": true,
		"last_updated_date": true, "created_by": true, "last_updated_by": true}
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
	return &accountBench{s: s, state: read.NewState, config: &configValue}
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
		TypeName: accountTypeName, PriorState: a.state, ProposedNewState: a.state, Config: a.config})
	if err != nil {
		tb.Fatal(err)
	}
	requireNoDiagnostics(tb, "PlanResourceChange", resp.Diagnostics)
	return resp
}

// BenchmarkAccountSubscriptions1000 measures the provider's side of a no-change plan of one
// eventnotify_account_subscriptions resource holding 1000 subscriptions, call by call, at the
// protocol level (no Terraform, the mock in-process and unlimited).
func BenchmarkAccountSubscriptions1000(b *testing.B) {
	a := newAccountBench(b, 1000)
	ctx := context.Background()
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			resp, err := a.s.server.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{
				TypeName: accountTypeName, Config: a.config})
			if err != nil {
				b.Fatal(err)
			}
			requireNoDiagnostics(b, "ValidateResourceConfig", resp.Diagnostics)
		}
	})
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			resp, err := a.s.server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: accountTypeName, CurrentState: a.state})
			if err != nil {
				b.Fatal(err)
			}
			requireNoDiagnostics(b, "ReadResource", resp.Diagnostics)
		}
	})
	b.Run("upgrade", func(b *testing.B) {
		raw := a.rawState(b)
		b.ReportAllocs()
		for b.Loop() {
			resp, err := a.s.server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
				TypeName: accountTypeName, RawState: raw})
			if err != nil {
				b.Fatal(err)
			}
			requireNoDiagnostics(b, "UpgradeResourceState", resp.Diagnostics)
		}
	})
	b.Run("plan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			a.plan(b)
		}
	})
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
}
