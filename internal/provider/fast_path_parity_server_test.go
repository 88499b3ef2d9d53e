package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// tamperedReference is a parity server's reference whose answers a test changes.
type tamperedReference struct {
	frameworkServer
	plan     func(*tfprotov6.PlanResourceChangeResponse)
	validate func(*tfprotov6.ValidateResourceConfigResponse)
	calls    int
}

func (r *tamperedReference) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	r.calls++
	resp, err := r.frameworkServer.PlanResourceChange(ctx, req)
	if err == nil && r.plan != nil {
		r.plan(resp)
	}
	return resp, err
}

func (r *tamperedReference) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	r.calls++
	resp, err := r.frameworkServer.ValidateResourceConfig(ctx, req)
	if err == nil && r.validate != nil {
		r.validate(resp)
	}
	return resp, err
}

// TestParityServer: a parity server answers as the fast path does where the framework agrees,
// and adds an error naming the difference, and records it, where the framework's answer
// differs in any part: the planned state, the replacement, private data, the identity, a deferral or the diagnostics,
// of a plan or a validation. A call the fast path leaves to the framework is not compared.
func TestParityServer(t *testing.T) {
	m := newTestMock(t)
	subs := seedKinds(m)
	tw := newTwinServers(t, m)
	top := map[string]any{"id": testAccount, "account_id": testAccount}
	prior := tw.dynamic(tw.account(top, byID(subs, stateEntry)))
	config := tw.dynamic(tw.account(map[string]any{"account_id": testAccount}, byID(subs, configEntry)))
	changed := byID(subs, stateEntry)
	changed[subs[1].SubscriptionID] = with(changed[subs[1].SubscriptionID], map[string]any{"log_level": "ERROR"})
	other := tw.dynamic(tw.account(top, changed))
	warning := &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityWarning, Summary: "a warning only the framework gives"}

	cases := []struct {
		name      string
		validate  bool // a ValidateResourceConfig, else a PlanResourceChange
		proposed  *tfprotov6.DynamicValue
		identity  *tfprotov6.ResourceIdentityData // the prior identity; none when nil
		plan      func(*tfprotov6.PlanResourceChangeResponse)
		check     func(*tfprotov6.ValidateResourceConfigResponse)
		wantDiff  string // in the error's detail; "" for none
		wantCalls int    // calls to the reference
	}{
		{name: "the framework agrees", proposed: prior, wantCalls: 1},
		{name: "another planned state", proposed: prior, plan: func(r *tfprotov6.PlanResourceChangeResponse) { r.PlannedState = other },
			wantDiff: "planned state:", wantCalls: 1},
		{name: "a replacement", proposed: prior, plan: func(r *tfprotov6.PlanResourceChangeResponse) {
			r.RequiresReplace = []*tftypes.AttributePath{tftypes.NewAttributePath().WithAttributeName("account_id")}
		}, wantDiff: "replacement:", wantCalls: 1},
		{name: "private data", proposed: prior, plan: func(r *tfprotov6.PlanResourceChangeResponse) { r.PlannedPrivate = []byte(`{"x":1}`) },
			wantDiff: "private data:", wantCalls: 1},
		{name: "a deferral", proposed: prior, plan: func(r *tfprotov6.PlanResourceChangeResponse) {
			r.Deferred = &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonProviderConfigUnknown}
		}, wantDiff: "deferral:", wantCalls: 1},
		{name: "another identity", proposed: prior, identity: tw.identity(testAccount), plan: func(r *tfprotov6.PlanResourceChangeResponse) {
			r.PlannedIdentity = tw.identity("other-account")
		}, wantDiff: "planned identity:", wantCalls: 1},
		{name: "no identity where a null one came", proposed: prior, plan: func(r *tfprotov6.PlanResourceChangeResponse) {
			r.PlannedIdentity = nil
		}, wantDiff: "planned identity:", wantCalls: 1},
		{name: "the framework agrees on the identity", proposed: prior, identity: tw.identity(testAccount), wantCalls: 1},
		{name: "a warning of the plan", proposed: prior, plan: func(r *tfprotov6.PlanResourceChangeResponse) {
			r.Diagnostics = append(r.Diagnostics, warning)
		}, wantDiff: "diagnostics:", wantCalls: 1},
		{name: "a change: the framework's alone", proposed: other, plan: func(r *tfprotov6.PlanResourceChangeResponse) {
			r.Diagnostics = append(r.Diagnostics, warning)
		}},
		{name: "the framework's validation agrees", validate: true, wantCalls: 1},
		{name: "a warning of the validation", validate: true, check: func(r *tfprotov6.ValidateResourceConfigResponse) {
			r.Diagnostics = append(r.Diagnostics, warning)
		}, wantDiff: "diagnostics:", wantCalls: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ls := configuredForMock(newListServerFrom(t, testProviderFactories["eventnotify"]), m)
			ps, ok := ls.server.(*parityServer)
			if !ok {
				t.Fatalf("testProviderFactories serve %T", ls.server)
			}
			ref := &tamperedReference{frameworkServer: ps.reference, plan: tc.plan, validate: tc.check}
			ps.reference, ps.log = ref, &disagreementLog{}
			var diags []*tfprotov6.Diagnostic
			if tc.validate {
				resp, err := ps.ValidateResourceConfig(context.Background(), &tfprotov6.ValidateResourceConfigRequest{
					TypeName: accountResourceTypeName, Config: config})
				if err != nil {
					t.Fatal(err)
				}
				diags = resp.Diagnostics
			} else {
				resp, err := ps.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
					TypeName: accountResourceTypeName, PriorState: prior, PriorIdentity: tc.identity, ProposedNewState: tc.proposed, Config: config})
				if err != nil {
					t.Fatal(err)
				}
				diags = resp.Diagnostics
			}
			if ref.calls != tc.wantCalls {
				t.Errorf("the reference answered %d calls, want %d", ref.calls, tc.wantCalls)
			}
			var found []string
			for _, d := range diags {
				if d.Summary == fastPathDisagrees && d.Severity == tfprotov6.DiagnosticSeverityError {
					found = append(found, d.Detail)
				}
			}
			switch {
			case tc.wantDiff == "" && (len(found) > 0 || len(ps.log.all()) > 0):
				t.Errorf("a disagreement where both agree: %q", found)
			case tc.wantDiff != "" && (len(found) != 1 || !strings.Contains(found[0], tc.wantDiff)):
				t.Errorf("errors %q, want one naming %q", found, tc.wantDiff)
			case tc.wantDiff != "" && len(ps.log.all()) != 1:
				t.Errorf("recorded %q, want the disagreement", ps.log.all())
			}
		})
	}
}
