package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The fast path's parity, held by the whole suite. The account resource's protocol fast path
// (accountProtocol) answers ValidateResourceConfig and PlanResourceChange itself where it
// recognises a call as its own. TestAccountProtocol_* compare the cases their tables list;
// parityServer compares every call the acceptance tests' CLIs make: the acceptance tests serve
// the provider through parityServerFor, which sends each call the fast path answered to the
// framework alone as well, configured with the same provider data and holding a copy of the
// same holders, and turns any difference (values, replacement, private data, diagnostics) into
// an error diagnostic of the call, which fails the test step that made it. The framework is the
// reference; no call it answers writes (a plan and a validation only read).
//
// What it does not compare: ReadResource, which the framework would answer with a second
// listing of the account (the twin tests compare reads); and calls the fast path leaves to the
// framework, which have one implementation.

// fastPathDisagrees is the summary of the error a parityServer adds to a call on which the fast
// path and the framework differ.
const fastPathDisagrees = "The protocol fast path and the framework disagree"

// parityServerFor is protocolServerFor with the fast path's answers checked against the
// framework's (parityServer).
func parityServerFor(newProvider func() *EventNotifyProvider) func() (tfprotov6.ProviderServer, error) {
	fast := protocolServerFor(newProvider)
	return func() (tfprotov6.ProviderServer, error) {
		served, err := fast()
		if err != nil {
			return nil, err
		}
		ps, ok := served.(*protocolServer)
		if !ok {
			return nil, fmt.Errorf("protocolServerFor serves %T", served)
		}
		data := &providerData{}
		reference, err := providerserver.NewProtocol6WithError(&referenceProvider{EventNotifyProvider: newProvider(), data: data})()
		if err != nil {
			return nil, err
		}
		framework, ok := reference.(frameworkServer)
		if !ok {
			return nil, fmt.Errorf("the framework's provider server (%T) does not serve list resources and actions", reference)
		}
		return &parityServer{protocolServer: ps, reference: framework, data: data, log: &disagreements}, nil
	}
}

// referenceProvider is the provider of a parityServer's reference: the same provider, except
// that Configure hands every resource the data that the parityServer sets before each call.
type referenceProvider struct {
	*EventNotifyProvider
	data *providerData
}

// Configure hands out the parityServer's data instead of building a client: the reference
// reads through the client of the provider it checks, so that it sends no request of its own
// for the configuration (no second credential check, no second token).
func (p *referenceProvider) Configure(_ context.Context, _ provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	resp.DataSourceData = p.data
	resp.ResourceData = p.data
	resp.EphemeralResourceData = p.data
	resp.ListResourceData = p.data
	resp.ActionData = p.data
}

// parityServer is ProtocolServer whose fast path answers are compared with the framework's.
type parityServer struct {
	*protocolServer
	reference frameworkServer // the framework alone, over referenceProvider
	// mu makes each fast path answer and its reference one step: the holders are copied, the
	// fast path answers (and registers), then the reference answers with the copy.
	mu   sync.Mutex
	data *providerData    // what the reference's resources hold; set before each call
	log  *disagreementLog // where disagreements are recorded (the run's: disagreements)
	// compared counts the calls compared, by kind (tests read it).
	compared struct{ validate, plan atomic.Int64 }
}

// ConfigureProvider configures the provider, then the reference (which takes its data from
// the provider before each call).
func (s *parityServer) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	resp, err := s.protocolServer.ConfigureProvider(ctx, req)
	if err != nil || resp == nil || hasErrorDiagnostic(resp.Diagnostics) {
		return resp, err
	}
	if _, err := s.reference.ConfigureProvider(ctx, req); err != nil {
		return nil, fmt.Errorf("configuring the fast path's reference: %w", err)
	}
	return resp, nil
}

// ValidateResourceConfig is the fast path's answer where it gives one, compared with the
// framework's.
func (s *parityServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	fast, ok := s.fastValidate(ctx, req)
	if !ok {
		return s.frameworkServer.ValidateResourceConfig(ctx, req)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setReferenceData()
	s.compared.validate.Add(1)
	framework, err := s.reference.ValidateResourceConfig(ctx, req)
	if err != nil {
		return nil, err
	}
	if diff := diagnosticsDiffer(framework.Diagnostics, fast.Diagnostics); diff != "" {
		fast.Diagnostics = append(fast.Diagnostics, s.disagreement(req.TypeName, "ValidateResourceConfig", diff))
	}
	return fast, nil
}

// PlanResourceChange is the fast path's answer where it gives one, compared with the
// framework's made with the holders as they were before the fast path registered.
func (s *parityServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	s.mu.Lock()
	locked := true
	defer func() {
		if locked {
			s.mu.Unlock()
		}
	}()
	s.setReferenceData()
	fast, ok := s.fastPlan(ctx, req)
	if !ok {
		s.mu.Unlock() // the framework's plan may wait on the service: others go on meanwhile
		locked = false
		return s.frameworkServer.PlanResourceChange(ctx, req)
	}
	s.compared.plan.Add(1)
	framework, err := s.reference.PlanResourceChange(ctx, req)
	if err != nil {
		return nil, err
	}
	if diff := s.planDiffers(framework, fast); diff != "" {
		fast.Diagnostics = append(fast.Diagnostics, s.disagreement(req.TypeName, "PlanResourceChange", diff))
	}
	return fast, nil
}

// setReferenceData makes the reference's data the provider's, with a copy of its holders as
// they are now (the fast path's registration then goes to the provider's own registry only).
func (s *parityServer) setReferenceData() {
	live := s.account.provider.configured.Load()
	if live == nil {
		*s.data = providerData{}
		return
	}
	*s.data = *live
	s.data.holders = cloneHolders(live.holders)
}

// planDiffers describes how two plans differ; "" when they do not.
func (s *parityServer) planDiffers(framework, fast *tfprotov6.PlanResourceChangeResponse) string {
	var diffs []string
	if d := valuesDiffer(s.account, framework.PlannedState, fast.PlannedState); d != "" {
		diffs = append(diffs, "planned state: "+d)
	}
	if fmt.Sprint(framework.RequiresReplace) != fmt.Sprint(fast.RequiresReplace) {
		diffs = append(diffs, fmt.Sprintf("replacement: the framework plans %v, the fast path %v", framework.RequiresReplace, fast.RequiresReplace))
	}
	if string(framework.PlannedPrivate) != string(fast.PlannedPrivate) {
		diffs = append(diffs, fmt.Sprintf("private data: the framework plans %q, the fast path %q", framework.PlannedPrivate, fast.PlannedPrivate))
	}
	if d := identitiesDiffer(s.account, framework.PlannedIdentity, fast.PlannedIdentity); d != "" {
		diffs = append(diffs, "planned identity: "+d)
	}
	if !reflect.DeepEqual(framework.Deferred, fast.Deferred) {
		diffs = append(diffs, fmt.Sprintf("deferral: the framework answers %v, the fast path %v", framework.Deferred, fast.Deferred))
	}
	if d := diagnosticsDiffer(framework.Diagnostics, fast.Diagnostics); d != "" {
		diffs = append(diffs, d)
	}
	return strings.Join(diffs, "; ")
}

// valuesDiffer describes how two encoded values of the account resource differ; "" when they
// are equal.
func valuesDiffer(a *accountProtocol, framework, fast *tfprotov6.DynamicValue) string {
	if (framework == nil) != (fast == nil) {
		return fmt.Sprintf("the framework answers %v, the fast path %v", framework, fast)
	}
	if framework == nil {
		return ""
	}
	x, errX := framework.Unmarshal(a.typ)
	y, errY := fast.Unmarshal(a.typ)
	if errX != nil || errY != nil {
		return fmt.Sprintf("undecodable: %v, %v", errX, errY)
	}
	if x.Equal(y) {
		return ""
	}
	diffs, _ := x.Diff(y)
	return fmt.Sprint(diffs)
}

// identitiesDiffer describes how two identities of the account resource differ; "" when they
// are equal values (a missing identity differs from a null one: Terraform tells them apart).
func identitiesDiffer(a *accountProtocol, framework, fast *tfprotov6.ResourceIdentityData) string {
	decode := func(d *tfprotov6.ResourceIdentityData) (string, error) {
		if d == nil || d.IdentityData == nil {
			return "none", nil
		}
		v, err := d.IdentityData.Unmarshal(a.identity)
		return v.String(), err
	}
	x, errX := decode(framework)
	y, errY := decode(fast)
	if errX != nil || errY != nil {
		return fmt.Sprintf("undecodable: %v, %v", errX, errY)
	}
	if x != y {
		return fmt.Sprintf("the framework answers %s, the fast path %s", x, y)
	}
	return ""
}

// diagnosticsDiffer describes how two sets of diagnostics differ (in any order); "" when they
// are the same.
func diagnosticsDiffer(framework, fast []*tfprotov6.Diagnostic) string {
	x, y := diagnosticSet(framework), diagnosticSet(fast)
	if slices.Equal(x, y) {
		return ""
	}
	return fmt.Sprintf("diagnostics: the framework answers %q, the fast path %q", x, y)
}

// disagreement is the error a parityServer adds to a call on which the two differ, and
// records in its log.
func (s *parityServer) disagreement(typeName, call, diff string) *tfprotov6.Diagnostic {
	detail := fmt.Sprintf("%s of %s: %s. Make the fast path (account_subscriptions_protocol.go) answer as the framework does, or leave this call to the framework.", call, typeName, diff)
	s.log.add(detail)
	return &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: fastPathDisagrees, Detail: detail}
}

// disagreements are what the parity servers of the test run found. The error a call gets fails
// its test step, unless the step expects an error that the diagnostic happens to match;
// TestMain (parityRun) fails the run on any of them.
var disagreements disagreementLog

// disagreementLog collects the parity servers' findings.
type disagreementLog struct {
	mu    sync.Mutex
	found []string
}

// add records one finding.
func (l *disagreementLog) add(detail string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.found = append(l.found, detail)
}

// all returns the findings so far.
func (l *disagreementLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.found)
}

// parityRun runs the tests and fails the run when a parity server found a disagreement.
type parityRun struct{ m interface{ Run() int } }

// Run runs the tests, then reports the disagreements found.
func (r parityRun) Run() int {
	code := r.m.Run()
	if found := disagreements.all(); len(found) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: in %d calls the framework answered otherwise than the protocol fast path (fast_path_parity_test.go):\n", len(found))
		for _, d := range found {
			fmt.Fprintln(os.Stderr, "  - "+d)
		}
		if code == 0 {
			code = 1
		}
	}
	return code
}

// hasErrorDiagnostic reports whether diags hold an error.
func hasErrorDiagnostic(diags []*tfprotov6.Diagnostic) bool {
	return slices.ContainsFunc(diags, func(d *tfprotov6.Diagnostic) bool { return d.Severity == tfprotov6.DiagnosticSeverityError })
}

// cloneHolders copies a holder registry, so that the reference plans with the registrations
// made before the call without adding its own to the provider's. TestCloneHolders holds the
// copy to every field of the registry.
func cloneHolders(r *holderRegistry) *holderRegistry {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return &holderRegistry{ids: maps.Clone(r.ids), accounts: maps.Clone(r.accounts), entries: maps.Clone(r.entries),
		singles: cloneSlices(r.singles), warned: maps.Clone(r.warned), topics: maps.Clone(r.topics),
		topicSingles: cloneSlices(r.topicSingles), topicEntries: maps.Clone(r.topicEntries)}
}

// cloneSlices copies a map of slices, and the slices.
func cloneSlices[K comparable, V any](m map[K][]V) map[K][]V {
	out := make(map[K][]V, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}
