package provider

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// accountProtocol answers some calls of eventnotify_account_subscriptions without the
// framework. These tests send the same requests to the framework's server alone and to
// ProtocolServer, both configured against one mock, and require the same answers: the
// framework is the reference. Each case also says whether accountProtocol answers it itself,
// so that a case meant for the fast path cannot pass by going to the framework.

// unknown stands for an unknown value in the attribute maps of these tests.
type unknown struct{}

// twinServers are the framework's server and ProtocolServer, configured for one mock.
type twinServers struct {
	t         *testing.T
	framework *listServer
	fast      *listServer
	protocol  *accountProtocol
	reference *EventNotifyProvider // the framework server's provider
}

// forgetHolders empties both servers' holder registries (holders.go): each request of these
// tests stands for another run, not another resource of one configuration.
func (tw *twinServers) forgetHolders() {
	forgetProviderHolders(tw.reference)
	forgetProviderHolders(tw.protocol.provider)
}

func newTwinServers(t *testing.T, m *testMock) *twinServers {
	t.Helper()
	reference, ok := New("test")().(*EventNotifyProvider)
	if !ok {
		t.Fatal("New does not return an *EventNotifyProvider")
	}
	framework := configuredForMock(newListServerFrom(t, providerserver.NewProtocol6WithError(reference)), m)
	fast := newConfiguredListServer(t, m)
	ps, ok := fast.server.(*protocolServer)
	if !ok {
		t.Fatalf("ProtocolServer serves %T", fast.server)
	}
	return &twinServers{t: t, framework: framework, fast: fast, protocol: ps.account, reference: reference}
}

// value builds a value of type typ from Go values: string, bool, int64, nil (null),
// unknown{}, a tftypes.Value as it is, or for an object a map of them (attributes left out
// are null).
func value(t *testing.T, typ tftypes.Type, v any) tftypes.Value {
	t.Helper()
	switch v := v.(type) {
	case nil:
		return tftypes.NewValue(typ, nil)
	case unknown:
		return tftypes.NewValue(typ, tftypes.UnknownValue)
	case tftypes.Value:
		return v
	case int64:
		return tftypes.NewValue(typ, new(big.Float).SetInt64(v))
	case map[string]any:
		object, ok := typ.(tftypes.Object)
		if !ok {
			t.Fatalf("a map of attributes for %s", typ)
		}
		attrs := make(map[string]tftypes.Value, len(object.AttributeTypes))
		for name, attrType := range object.AttributeTypes {
			attrs[name] = value(t, attrType, v[name])
		}
		for name := range v {
			if _, ok := object.AttributeTypes[name]; !ok {
				t.Fatalf("%s has no attribute %q", typ, name)
			}
		}
		return tftypes.NewValue(typ, attrs)
	}
	return tftypes.NewValue(typ, v)
}

// account builds a value of the resource: top-level attributes, and subscriptions as given
// (a map of entries, or a map[string]any whose entries may be nil or unknown{}; nil for a null
// map, unknown{} for an unknown one).
func (tw *twinServers) account(top map[string]any, subscriptions any) tftypes.Value {
	mapType := tftypes.Map{ElementType: tw.protocol.entry}
	var subs tftypes.Value
	switch s := subscriptions.(type) {
	case map[string]map[string]any:
		elems := make(map[string]tftypes.Value, len(s))
		for key, e := range s {
			elems[key] = value(tw.t, tw.protocol.entry, e)
			if e == nil {
				elems[key] = tftypes.NewValue(tw.protocol.entry, nil)
			}
		}
		subs = tftypes.NewValue(mapType, elems)
	case map[string]any:
		elems := make(map[string]tftypes.Value, len(s))
		for key, e := range s {
			elems[key] = value(tw.t, tw.protocol.entry, e)
		}
		subs = tftypes.NewValue(mapType, elems)
	default:
		subs = value(tw.t, mapType, s)
	}
	attrs := map[string]any{"subscriptions": subs}
	for k, v := range top {
		attrs[k] = v
	}
	return value(tw.t, tw.protocol.typ, attrs)
}

// dynamic encodes a value of the resource.
func (tw *twinServers) dynamic(v tftypes.Value) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(tw.protocol.typ, v)
	if err != nil {
		tw.t.Fatal(err)
	}
	return &dv
}

// identity encodes an identity of the resource: account's, or a null one for "".
func (tw *twinServers) identity(account string) *tfprotov6.ResourceIdentityData {
	tw.t.Helper()
	v := tftypes.NewValue(tw.protocol.identity, nil)
	if account != "" {
		v = tftypes.NewValue(tw.protocol.identity, map[string]tftypes.Value{"account_id": tftypes.NewValue(tftypes.String, account)})
	}
	dv, err := tfprotov6.NewDynamicValue(tw.protocol.identity, v)
	if err != nil {
		tw.t.Fatal(err)
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &dv}
}

// sameIdentity fails unless both servers answered the same identity (identitiesDiffer), and
// returns its account_id (identityAccountOf).
func (tw *twinServers) sameIdentity(what string, framework, fast *tfprotov6.ResourceIdentityData) string {
	tw.t.Helper()
	if d := identitiesDiffer(tw.protocol, framework, fast); d != "" {
		tw.t.Fatalf("%s: %s", what, d)
	}
	return identityAccountOf(tw.t, tw.protocol, fast)
}

// sameValue fails unless two encoded values of the resource are equal.
func (tw *twinServers) sameValue(what string, framework, fast *tfprotov6.DynamicValue) {
	tw.t.Helper()
	if (framework == nil) != (fast == nil) {
		tw.t.Fatalf("%s: the framework answers %v, ProtocolServer %v", what, framework, fast)
	}
	if framework == nil {
		return
	}
	a, errA := framework.Unmarshal(tw.protocol.typ)
	b, errB := fast.Unmarshal(tw.protocol.typ)
	if errA != nil || errB != nil {
		tw.t.Fatalf("%s: %v, %v", what, errA, errB)
	}
	if !a.Equal(b) {
		diffs, _ := a.Diff(b)
		tw.t.Fatalf("%s differs from the framework's: %v", what, diffs)
	}
}

// diagnosticSet renders diagnostics in an order of their own (the framework's follows Go
// map iteration).
func diagnosticSet(diags []*tfprotov6.Diagnostic) []string {
	out := make([]string, 0, len(diags))
	for _, d := range diags {
		out = append(out, fmt.Sprintf("%s|%s|%s|%s", d.Severity, d.Summary, d.Detail, d.Attribute))
	}
	slices.Sort(out)
	return out
}

// sameDiagnostics fails unless both servers gave the same diagnostics.
func (tw *twinServers) sameDiagnostics(what string, framework, fast []*tfprotov6.Diagnostic) {
	tw.t.Helper()
	a, b := diagnosticSet(framework), diagnosticSet(fast)
	if !slices.Equal(a, b) {
		tw.t.Fatalf("%s: diagnostics differ\nframework:       %q\nProtocolServer:  %q", what, a, b)
	}
}

// answerBoth sends a request (newReq makes a fresh one for each call) to accountProtocol
// directly, through answeredHere, and requires that it answers it itself exactly when
// wantFast; then it sends it to the framework's server and to ProtocolServer through call,
// and returns their answers.
func answerBoth[Req, Resp any](tw *twinServers, wantFast bool, newReq func() Req, answeredHere func(Req) bool,
	call func(frameworkServer, context.Context, Req) (Resp, error)) (framework, fast Resp) {
	tw.t.Helper()
	if got := answeredHere(newReq()); got != wantFast {
		tw.t.Fatalf("accountProtocol answers it itself: %t, want %t", got, wantFast)
	}
	tw.forgetHolders()
	framework, err := call(tw.framework.server, context.Background(), newReq())
	if err != nil {
		tw.t.Fatal(err)
	}
	tw.forgetHolders()
	fast, err = call(tw.fast.server, context.Background(), newReq())
	if err != nil {
		tw.t.Fatal(err)
	}
	return framework, fast
}

// withTakeover returns top with a recorded takeover attribute: the ids deleted and, by entry
// key, those taken over.
func withTakeover(tw *twinServers, top map[string]any, deletes []string, takesOver map[string]string) map[string]any {
	tw.t.Helper()
	typ, ok := tw.protocol.typ.AttributeTypes[takeoverAttribute].(tftypes.Object)
	if !ok {
		tw.t.Fatalf("the takeover attribute is %T", tw.protocol.typ.AttributeTypes[takeoverAttribute])
	}
	ids := make([]tftypes.Value, len(deletes))
	for i, id := range deletes {
		ids[i] = tftypes.NewValue(tftypes.String, id)
	}
	keys := make(map[string]tftypes.Value, len(takesOver))
	for key, id := range takesOver {
		keys[key] = tftypes.NewValue(tftypes.String, id)
	}
	return with(top, map[string]any{takeoverAttribute: tftypes.NewValue(typ, map[string]tftypes.Value{
		"deletes":    tftypes.NewValue(typ.AttributeTypes["deletes"], ids),
		"takes_over": tftypes.NewValue(typ.AttributeTypes["takes_over"], keys),
	})})
}

// seedKinds gives the mock's testAccount subscriptions of several kinds, one disabled.
func seedKinds(m *testMock) []mockserver.Subscription {
	var subs []mockserver.Subscription
	for i, s := range []mockserver.Subscription{
		{EventName: "Atom.Status", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", EventStreamsEnvironment: "env-1",
			EventStreamsEnvironmentName: "Production", EventStreamsTopic: "atoms", Enabled: true},
		{EventName: "PROCESS.EXECUTION", DestinationType: "EVENT_STREAMS", LogLevel: "WARNING", EventStreamsTopic: "procs", Enabled: true},
		{EventName: "flow.deployed", DestinationType: "EMAIL", LogLevel: "INFO", DestinationEmail: "ops@example.com", Enabled: true},
		{EventName: "queue.depth", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", Enabled: false},
		{EventName: "Atom.Status", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "atoms-info", Enabled: true},
	} {
		if i == 0 {
			fillInputs(&s, i) // the first has every input set
		}
		s.SubscriptionID = fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1)
		s.CreatedBy, s.LastUpdatedUserID = testUser, testUser
		s.CreatedDate, s.LastUpdatedDate = int64(1_700_000_000_000+i), int64(1_700_000_100_000+i)
		subs = append(subs, m.PutSubscription(testAccount, s))
	}
	return subs
}

// stateEntry is a subscription as an entry of the state holds it: its id and every input
// (inputsOf), an empty string null.
func stateEntry(s mockserver.Subscription) map[string]any {
	e := map[string]any{"id": s.SubscriptionID}
	for name, v := range inputsOf(s) {
		if v == "" {
			v = nil
		}
		e[name] = v
	}
	return e
}

// configEntry is a subscription as the configuration sets it: the state entry without what
// the provider computes.
func configEntry(s mockserver.Subscription) map[string]any {
	e := stateEntry(s)
	delete(e, "id")
	return e
}

// with returns a copy of an entry with some attributes changed.
func with(e map[string]any, changes map[string]any) map[string]any {
	out := make(map[string]any, len(e))
	for k, v := range e {
		out[k] = v
	}
	for k, v := range changes {
		out[k] = v
	}
	return out
}

// byID keys entries by subscription id, as an import does.
func byID(subs []mockserver.Subscription, entry func(mockserver.Subscription) map[string]any) map[string]map[string]any {
	out := make(map[string]map[string]any, len(subs))
	for _, s := range subs {
		out[s.SubscriptionID] = entry(s)
	}
	return out
}

func TestAccountProtocol_readMatchesFramework(t *testing.T) {
	m := newTestMock(t)
	subs := seedKinds(m)
	tw := newTwinServers(t, m)
	top := map[string]any{"id": testAccount, "account_id": testAccount}
	imported, err := tw.framework.server.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{
		TypeName: tw.protocol.typeName, ID: testAccount})
	if err != nil || len(imported.ImportedResources) != 1 || len(imported.ImportedResources[0].Private) == 0 {
		t.Fatalf("import: %v %+v", err, imported)
	}
	gone := "00000000-0000-4000-8000-0000000000ff"
	cases := []struct {
		name     string
		state    tftypes.Value
		private  []byte
		identity *tfprotov6.ResourceIdentityData // none when nil
		fault    *mockserver.Fault
		wantFast bool
		// failsBeforeIdentity: the Read fails before it records the identity.
		failsBeforeIdentity bool
	}{
		{name: "keys are ids, as imported", state: tw.account(top, byID(subs, stateEntry)), wantFast: true},
		// Terraform 1.12 and later send the identity; a state written before it had one sends a null one.
		{name: "the state's identity", state: tw.account(top, byID(subs, stateEntry)), identity: tw.identity(testAccount), wantFast: true},
		{name: "a null identity", state: tw.account(top, byID(subs, stateEntry)), identity: tw.identity(""), wantFast: true},
		{name: "account id only, the state's identity", state: tw.account(map[string]any{"id": testAccount}, nil),
			identity: tw.identity(testAccount), wantFast: true},
		// The framework refuses a Read that changes a stored identity.
		{name: "an identity of another account", state: tw.account(top, byID(subs, stateEntry)), identity: tw.identity("other-account")},
		{name: "the listing fails, with the state's identity", state: tw.account(top, byID(subs, stateEntry)), identity: tw.identity(testAccount),
			wantFast: true, failsBeforeIdentity: true, fault: &mockserver.Fault{Method: "GET", Route: mockserver.RouteSubscriptions, Status: 403, Count: 1}},
		{name: "named keys, stale values, other spellings", wantFast: true, state: tw.account(top, map[string]map[string]any{
			"atoms":  with(stateEntry(subs[0]), map[string]any{"event_name": "atom.status", "log_level": "INFO"}),
			"procs":  with(stateEntry(subs[1]), map[string]any{"event_name": "Process.Execution", "enabled": false}),
			"flows":  stateEntry(subs[2]),
			"queue":  stateEntry(subs[3]),
			"atoms2": with(stateEntry(subs[4]), map[string]any{"event_streams_topic": "renamed", "event_name": "ATOM.STATUS"}),
		})},
		{name: "a subscription gone and one not held", wantFast: true, state: tw.account(top, map[string]map[string]any{
			"gone": with(stateEntry(subs[0]), map[string]any{"id": gone}), "atoms": stateEntry(subs[0]),
			"procs": stateEntry(subs[1]), "flows": stateEntry(subs[2]),
		})},
		{name: "two keys hold one subscription", wantFast: true, state: tw.account(top, map[string]map[string]any{
			"a": stateEntry(subs[0]), "b": stateEntry(subs[0]), "c": stateEntry(subs[1]),
		})},
		{name: "a key named as an unheld subscription's id", wantFast: true, state: tw.account(top, map[string]map[string]any{
			subs[1].SubscriptionID: with(stateEntry(subs[0]), map[string]any{"id": gone, "event_name": "process.execution"}),
		})},
		{name: "null map, as after an import", state: tw.account(top, nil), wantFast: true},
		{name: "a timeouts block", wantFast: true, state: tw.account(withTimeouts(top, map[string]any{"read": "10m", "create": "1h"}),
			byID(subs, stateEntry))},
		// Both fail the same way, naming the read and its timeout.
		{name: "the read timeout passes", wantFast: true, failsBeforeIdentity: true, state: tw.account(withTimeouts(top, map[string]any{"read": "1ns"}),
			byID(subs, stateEntry))},
		{name: "empty map", state: tw.account(top, map[string]map[string]any{}), wantFast: true},
		{name: "a takeover recorded", wantFast: true, state: tw.account(withTakeover(tw, top, []string{gone},
			map[string]string{subs[0].SubscriptionID: subs[0].SubscriptionID}), byID(subs, stateEntry))},
		{name: "account id only", state: tw.account(map[string]any{"id": testAccount}, nil), wantFast: true},
		{name: "private data from an import", state: tw.account(top, nil), private: imported.ImportedResources[0].Private},
		{name: "the listing fails", state: tw.account(top, byID(subs, stateEntry)), wantFast: true, failsBeforeIdentity: true,
			fault: &mockserver.Fault{Method: "GET", Route: mockserver.RouteSubscriptions, Status: 403, Count: 1}},
		// Each held entry is read on its own, and the refresh warns.
		{name: "the listing disagrees with its metadata every time", state: tw.account(top, map[string]map[string]any{
			"gone": with(stateEntry(subs[0]), map[string]any{"id": gone}), "atoms": stateEntry(subs[0]),
		}), wantFast: true, fault: &mockserver.Fault{Method: "GET", Route: mockserver.RouteSubscriptions, Status: 200, Count: 3,
			Body: `{"subscriptions":[],"paginationMetadata":{"pageNumber":0,"totalElements":5,"numberOfElements":0,"last":true}}`}},
		{name: "a held entry missing from the listing cannot be read", wantFast: true, failsBeforeIdentity: true, state: tw.account(top, map[string]map[string]any{
			"gone": with(stateEntry(subs[0]), map[string]any{"id": gone}), "atoms": stateEntry(subs[0]),
		}), fault: &mockserver.Fault{Method: "GET", Route: mockserver.RouteSubscription, Status: 403, Count: 1}},
	}
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Servers of their own: each case's reads are the first of a provider process, as a
			// plan's refresh is (a listing of an earlier case would serve them from the cache).
			tw := newTwinServers(t, m)
			req := func() *tfprotov6.ReadResourceRequest {
				if tc.fault != nil {
					m.InjectFault(*tc.fault)
				}
				return &tfprotov6.ReadResourceRequest{TypeName: tw.protocol.typeName, CurrentState: tw.dynamic(tc.state), Private: tc.private,
					CurrentIdentity: tc.identity}
			}
			t.Cleanup(m.ClearFaults)
			framework, fast := answerBoth(tw, tc.wantFast, req, func(r *tfprotov6.ReadResourceRequest) bool {
				_, ok := tw.protocol.readResource(ctx, r)
				return ok
			}, frameworkServer.ReadResource)
			tw.sameDiagnostics("ReadResource", framework.Diagnostics, fast.Diagnostics)
			tw.sameValue("the new state", framework.NewState, fast.NewState)
			// The resource's Read records the state's account; a Read that fails before that
			// keeps what came (a null identity when none came).
			want := testAccount
			if tc.failsBeforeIdentity {
				want = identityAccountOf(t, tw.protocol, tc.identity)
				if tc.identity == nil {
					want = "<null>"
				}
			}
			if got := tw.sameIdentity("the new identity", framework.NewIdentity, fast.NewIdentity); got != want {
				t.Fatalf("the new identity is %q, want %q", got, want)
			}
			if string(framework.Private) != string(fast.Private) {
				t.Fatalf("private data: the framework answers %q, ProtocolServer %q", framework.Private, fast.Private)
			}
			if tc.fault != nil && len(fast.Diagnostics) == 0 {
				t.Fatal("a failed listing gave no diagnostic")
			}
			if strings.Contains(tc.name, "timeout passes") && !slices.ContainsFunc(fast.Diagnostics, func(d *tfprotov6.Diagnostic) bool {
				return d.Summary == "The read of eventnotify_account_subscriptions timed out after 1ns"
			}) {
				t.Fatalf("diagnostics %q, want the read's timeout", diagnosticSet(fast.Diagnostics))
			}
		})
	}
}

func TestAccountProtocol_planMatchesFramework(t *testing.T) {
	m := newTestMock(t)
	subs := seedKinds(m)
	tw := newTwinServers(t, m)
	top := map[string]any{"id": testAccount, "account_id": testAccount}
	prior := tw.account(top, byID(subs, stateEntry))
	configTop := map[string]any{"account_id": testAccount}
	enabledLeftOut := func(s mockserver.Subscription) map[string]any {
		e := configEntry(s)
		if s.Enabled {
			delete(e, "enabled")
		}
		return e
	}
	changed := byID(subs, stateEntry)
	changed[subs[1].SubscriptionID] = with(changed[subs[1].SubscriptionID], map[string]any{"log_level": "ERROR"})
	added := byID(subs, stateEntry)
	added["new"] = with(configEntry(subs[0]), map[string]any{"event_streams_topic": "new"})
	addedConfig := byID(subs, configEntry)
	addedConfig["new"] = added["new"]
	otherTop := map[string]any{"id": "other-account", "account_id": "other-account"}
	renamedConfig := byID(subs, configEntry)
	renamedConfig["renamed"] = renamedConfig[subs[0].SubscriptionID]
	delete(renamedConfig, subs[0].SubscriptionID)
	// subs[2] is the EMAIL one: renamed, moved to a new key, and subs[0] made EMAIL.
	emailRenamedConfig := byID(subs, configEntry)
	emailRenamedConfig["mail"] = emailRenamedConfig[subs[2].SubscriptionID]
	delete(emailRenamedConfig, subs[2].SubscriptionID)
	toEmail := func(e map[string]any) map[string]any {
		return with(e, map[string]any{"destination_type": "EMAIL", "event_streams_topic": nil,
			"event_streams_environment_id": nil, "event_streams_environment_name": nil})
	}
	becomesEmail := byID(subs, stateEntry)
	becomesEmail[subs[0].SubscriptionID] = toEmail(becomesEmail[subs[0].SubscriptionID])
	becomesEmailConfig := byID(subs, configEntry)
	becomesEmailConfig[subs[0].SubscriptionID] = toEmail(becomesEmailConfig[subs[0].SubscriptionID])
	emailAdded := byID(subs, stateEntry)
	emailAdded["new"] = toEmail(configEntry(subs[0]))
	emailAddedConfig := byID(subs, configEntry)
	emailAddedConfig["new"] = emailAdded["new"]
	// Event names in another case only: the framework plans the prior state.
	recased, recasedConfig := byID(subs, stateEntry), byID(subs, configEntry)
	for _, entries := range []map[string]map[string]any{recased, recasedConfig} {
		for id, e := range entries {
			entries[id] = with(e, map[string]any{"event_name": strings.ToUpper(e["event_name"].(string))})
		}
	}
	misspelt, misspeltConfig := byID(subs, stateEntry), byID(subs, configEntry)
	misspelt["new"] = with(configEntry(subs[0]), map[string]any{"event_name": "ATOM.STATUSS", "event_streams_topic": "new"})
	misspeltConfig["new"] = misspelt["new"]
	block := map[string]any{"create": "1h", "read": "5m"}
	timed := tw.account(withTimeouts(top, block), byID(subs, stateEntry))
	retimed := tw.account(withTimeouts(top, map[string]any{"update": "2h"}), byID(subs, stateEntry))
	takenTop := withTakeover(tw, top, []string{"00000000-0000-4000-8000-0000000000ff"},
		map[string]string{subs[0].SubscriptionID: subs[0].SubscriptionID})
	taken := tw.account(takenTop, byID(subs, stateEntry))
	// The framework marks the read-only takeover unknown in a plan that changes something;
	// ModifyPlan keeps the state's.
	takenChangedProposed := tw.account(with(takenTop, map[string]any{takeoverAttribute: unknown{}}), changed)
	takenChanged := tw.account(takenTop, changed)
	cases := []struct {
		name                      string
		prior, proposed, config   tftypes.Value
		private                   []byte
		identity                  *tfprotov6.ResourceIdentityData // the prior identity; none when nil
		wantFast, wantReplacement bool
		wantWarnings              int
		wantPrior                 bool          // the framework plans the prior state
		wantProposed              bool          // the framework plans the proposed state
		wantPlanned               tftypes.Value // when set, what both plan
		wantError                 string        // the summary of the one diagnostic both give
	}{
		{name: "nothing changes", prior: prior, proposed: prior, config: tw.account(configTop, byID(subs, configEntry)), wantFast: true},
		// Both plan the prior identity as it came: none is a null one.
		{name: "nothing changes, with the identity", prior: prior, proposed: prior, config: tw.account(configTop, byID(subs, configEntry)),
			identity: tw.identity(testAccount), wantFast: true},
		{name: "nothing changes, a null identity", prior: prior, proposed: prior, config: tw.account(configTop, byID(subs, configEntry)),
			identity: tw.identity(""), wantFast: true},
		{name: "nothing changes, an identity of another account", prior: prior, proposed: prior,
			config: tw.account(configTop, byID(subs, configEntry)), identity: tw.identity("other-account"), wantFast: true},
		{name: "an entry changes, with the identity", prior: prior, proposed: tw.account(top, changed),
			config: tw.account(configTop, byID(subs, configEntry)), identity: tw.identity(testAccount)},
		{name: "nothing changes, a timeouts block set", prior: timed, proposed: timed, config: tw.account(withTimeouts(configTop, block),
			byID(subs, configEntry)), wantFast: true},
		{name: "a timeouts block added", prior: prior, proposed: timed, config: tw.account(withTimeouts(configTop, block),
			byID(subs, configEntry)), wantProposed: true},
		{name: "a timeouts block changed", prior: timed, proposed: retimed, config: tw.account(withTimeouts(configTop, map[string]any{"update": "2h"}),
			byID(subs, configEntry)), wantProposed: true},
		{name: "a timeouts block removed", prior: timed, proposed: prior, config: tw.account(configTop, byID(subs, configEntry)),
			wantProposed: true},
		{name: "nothing changes, a takeover recorded", prior: taken, proposed: taken,
			config: tw.account(configTop, byID(subs, configEntry)), wantFast: true},
		{name: "an entry changes, a takeover recorded", prior: taken, proposed: takenChangedProposed,
			config: tw.account(configTop, byID(subs, configEntry)), wantPlanned: takenChanged},
		{name: "account_id left out: the provider's", prior: prior, proposed: prior,
			config: tw.account(nil, byID(subs, configEntry)), wantFast: true},
		{name: "enabled left out where it is true", prior: prior, proposed: prior,
			config: tw.account(configTop, byID(subs, enabledLeftOut)), wantFast: true},
		{name: "enabled left out where it is false", prior: prior, proposed: prior,
			config: tw.account(configTop, byID(subs, func(s mockserver.Subscription) map[string]any {
				e := configEntry(s)
				delete(e, "enabled")
				return e
			}))},
		{name: "account_id left out, the state's is another", prior: tw.account(otherTop, byID(subs, stateEntry)),
			proposed: tw.account(otherTop, byID(subs, stateEntry)), config: tw.account(nil, byID(subs, configEntry)), wantReplacement: true},
		{name: "an entry changes", prior: prior, proposed: tw.account(top, changed), config: tw.account(configTop, byID(subs, configEntry))},
		{name: "an entry is added", prior: prior, proposed: tw.account(top, added), config: tw.account(configTop, addedConfig)},
		{name: "the configuration's keys are not the state's", prior: prior, proposed: prior,
			config: tw.account(configTop, renamedConfig)},
		{name: "private data", prior: prior, proposed: prior, config: tw.account(configTop, byID(subs, configEntry)),
			private: []byte(`{"provider":"e30="}`)},
		// The EMAIL warning appears where the configuration sets EMAIL, not for a subscription that is EMAIL already.
		{name: "an entry becomes EMAIL", prior: prior, proposed: tw.account(top, becomesEmail),
			config: tw.account(configTop, becomesEmailConfig), wantWarnings: 1},
		{name: "an EMAIL entry is added", prior: prior, proposed: tw.account(top, emailAdded),
			config: tw.account(configTop, emailAddedConfig), wantWarnings: 1},
		{name: "the EMAIL entry's key renamed", prior: prior, proposed: prior, config: tw.account(configTop, emailRenamedConfig)},
		{name: "event names in another case only", prior: prior, proposed: tw.account(top, recased),
			config: tw.account(configTop, recasedConfig), wantPrior: true},
		{name: "an entry added with a misspelt event name", prior: prior, proposed: tw.account(top, misspelt),
			config: tw.account(configTop, misspeltConfig), wantError: "Unknown event name"},
	}
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tw.t = t
			req := &tfprotov6.PlanResourceChangeRequest{TypeName: tw.protocol.typeName, PriorState: tw.dynamic(tc.prior),
				ProposedNewState: tw.dynamic(tc.proposed), Config: tw.dynamic(tc.config), PriorPrivate: tc.private,
				PriorIdentity: tc.identity}
			framework, fast := answerBoth(tw, tc.wantFast, func() *tfprotov6.PlanResourceChangeRequest { return req },
				func(r *tfprotov6.PlanResourceChangeRequest) bool {
					_, ok := tw.protocol.planResourceChange(ctx, r)
					return ok
				}, frameworkServer.PlanResourceChange)
			tw.sameDiagnostics("PlanResourceChange", framework.Diagnostics, fast.Diagnostics)
			if got := diagnosticSet(fast.Diagnostics); tc.wantError != "" && (len(got) != 1 || !strings.HasPrefix(got[0], "ERROR|"+tc.wantError+"|")) {
				t.Fatalf("diagnostics %q, want one error %q", got, tc.wantError)
			}
			if tc.wantError == "" && len(fast.Diagnostics) != tc.wantWarnings {
				t.Fatalf("diagnostics %q, want %d warnings", diagnosticSet(fast.Diagnostics), tc.wantWarnings)
			}
			for _, d := range fast.Diagnostics {
				if tc.wantError == "" && (d.Severity != tfprotov6.DiagnosticSeverityWarning || !strings.HasSuffix(d.Summary, "]: EMAIL destinations are not delivered yet")) {
					t.Fatalf("diagnostic %q, want the EMAIL warning", diagnosticSet([]*tfprotov6.Diagnostic{d}))
				}
			}
			tw.sameValue("the planned state", framework.PlannedState, fast.PlannedState)
			if fmt.Sprint(framework.RequiresReplace) != fmt.Sprint(fast.RequiresReplace) || (len(fast.RequiresReplace) > 0) != tc.wantReplacement {
				t.Fatalf("replacement: the framework plans %v, ProtocolServer %v", framework.RequiresReplace, fast.RequiresReplace)
			}
			if string(framework.PlannedPrivate) != string(fast.PlannedPrivate) {
				t.Fatalf("private data: the framework plans %q, ProtocolServer %q", framework.PlannedPrivate, fast.PlannedPrivate)
			}
			want := identityAccountOf(t, tw.protocol, tc.identity)
			if tc.identity == nil || want == "<null>" && !hasErrorDiagnostic(fast.Diagnostics) {
				want = "<null>"
			}
			if got := tw.sameIdentity("the planned identity", framework.PlannedIdentity, fast.PlannedIdentity); got != want {
				t.Fatalf("the planned identity is %q, want the prior one, %q", got, want)
			}
			if tc.wantFast {
				tw.sameValue("a plan that changes nothing", req.PriorState, fast.PlannedState)
			}
			if tc.wantPrior {
				tw.sameValue("the framework's plan that changes nothing", req.PriorState, framework.PlannedState)
			}
			if tc.wantProposed {
				tw.sameValue("the framework's plan of the configuration's timeouts block", req.ProposedNewState, framework.PlannedState)
			}
			if tc.wantPlanned.Type() != nil {
				tw.sameValue("the plan that keeps the recorded takeover", tw.dynamic(tc.wantPlanned), framework.PlannedState)
			}
		})
	}
}

func TestAccountProtocol_validateMatchesFramework(t *testing.T) {
	m := newTestMock(t)
	subs := slices.DeleteFunc(seedKinds(m), func(s mockserver.Subscription) bool { return s.DestinationType == "EMAIL" })
	tw := newTwinServers(t, m)
	base := byID(subs, configEntry)
	first := subs[0].SubscriptionID
	one := func(changes map[string]any) map[string]map[string]any {
		out := byID(subs, configEntry)
		out[first] = with(out[first], changes)
		return out
	}
	top := map[string]any{"account_id": testAccount}
	cases := []struct {
		name      string
		config    tftypes.Value
		wantFast  bool
		wantDiags int
	}{
		{name: "valid", config: tw.account(top, base), wantFast: true},
		{name: "account_id left out", config: tw.account(nil, base), wantFast: true},
		// The EMAIL warning is ModifyPlan's, made where the configuration changes the state.
		{name: "an EMAIL destination", config: tw.account(top, one(map[string]any{"destination_type": "EMAIL"})), wantFast: true},
		{name: "a blank event name", config: tw.account(top, one(map[string]any{"event_name": "  "})), wantFast: true, wantDiags: 1},
		{name: "a control character", config: tw.account(top, one(map[string]any{"event_streams_topic": "a\tb"})), wantFast: true, wantDiags: 1},
		{name: "an unknown destination type", config: tw.account(top, one(map[string]any{"destination_type": "SMS"})), wantFast: true, wantDiags: 1},
		{name: "an unknown log level", config: tw.account(top, one(map[string]any{"log_level": "DEBUG"})), wantFast: true, wantDiags: 1},
		{name: "an event name too long", config: tw.account(top, one(map[string]any{"event_name": strings.Repeat("e", 257)})), wantFast: true, wantDiags: 1},
		{name: "unknown values", config: tw.account(map[string]any{"account_id": unknown{}},
			one(map[string]any{"event_name": unknown{}, "enabled": unknown{}})), wantFast: true},
		{name: "a blank account_id", config: tw.account(map[string]any{"account_id": ""}, base), wantFast: true, wantDiags: 1},
		{name: "several at once", config: tw.account(top, one(map[string]any{"event_name": "", "log_level": "x", "destination_type": "EMAIL"})),
			wantFast: true, wantDiags: 2},
		{name: "a read-only attribute set", config: tw.account(top, one(map[string]any{"id": "x"})), wantDiags: 1},
		{name: "a required attribute left out", config: tw.account(top, one(map[string]any{"event_name": nil})), wantDiags: 1},
		{name: "a null entry", config: tw.account(top, map[string]any{"a": nil}), wantDiags: 3},
		{name: "an unknown entry", config: tw.account(top, map[string]any{"a": unknown{}}), wantDiags: 3},
		{name: "an unknown map", config: tw.account(top, unknown{})},
		{name: "a null map", config: tw.account(top, nil), wantDiags: 1},
		{name: "a timeouts block", config: tw.account(withTimeouts(top, map[string]any{"create": "1h", "delete": "90s"}), base), wantFast: true},
		{name: "a timeout that is not a duration", config: tw.account(withTimeouts(top, map[string]any{"create": "soon"}), base),
			wantFast: true, wantDiags: 1},
		{name: "a timeout that is not positive", config: tw.account(withTimeouts(top, map[string]any{"read": "0s", "update": "-1m"}), base),
			wantFast: true, wantDiags: 2},
		{name: "an unknown timeout", config: tw.account(withTimeouts(top, map[string]any{"create": unknown{}}), base), wantFast: true},
		{name: "an unknown timeouts block", config: tw.account(withTimeouts(top, unknown{}), base)},
	}
	ctx := context.Background()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tw.t = t
			req := &tfprotov6.ValidateResourceConfigRequest{TypeName: tw.protocol.typeName, Config: tw.dynamic(tc.config)}
			framework, fast := answerBoth(tw, tc.wantFast, func() *tfprotov6.ValidateResourceConfigRequest { return req },
				func(r *tfprotov6.ValidateResourceConfigRequest) bool {
					_, ok := tw.protocol.validateResourceConfig(ctx, r)
					return ok
				}, frameworkServer.ValidateResourceConfig)
			tw.sameDiagnostics("ValidateResourceConfig", framework.Diagnostics, fast.Diagnostics)
			if len(fast.Diagnostics) != tc.wantDiags {
				t.Fatalf("%d diagnostics, want %d: %q", len(fast.Diagnostics), tc.wantDiags, diagnosticSet(fast.Diagnostics))
			}
		})
	}
}

// TestAccAccountSubscriptions_protocolPath runs the CLI over an account of 40 entries, some
// disabled and some leaving enabled out, and requires that the plans that change nothing are
// empty and were answered by accountProtocol, call by call.
func TestAccAccountSubscriptions_protocolPath(t *testing.T) {
	m := newTestMock(t)
	counter := &fastPathCounter{}
	answered := counter.counts
	var entries []acctEntry
	for i := range 40 {
		entries = append(entries, acctEntry{key: fmt.Sprintf("s%02d", i), event: "ATOM.STATUS", level: logLevels[i%3],
			topic: fmt.Sprintf("topic-%02d", i), disabled: i%4 == 0})
	}
	config := m.providerBlock() + acctConfig(entries...)
	var before, after [5]int64
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: counter.factories(),
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{Config: config, Check: m.checkAcctStateMatchesMock(40)},
			{PreConfig: func() { before = answered() }, Config: config, PlanOnly: true},
			{PreConfig: func() { after = answered() }, Config: config, PlanOnly: true},
		},
	})
	for i, call := range []string{"ValidateResourceConfig", "ReadResource", "PlanResourceChange"} {
		if after[i] <= before[i] {
			t.Errorf("a plan that changes nothing made no %s that accountProtocol answered (%d before, %d after)", call, before[i], after[i])
		}
	}
	// Every Validate and Plan answered here was also answered by the framework alone.
	if after[3] != after[0] || after[4] != after[2] {
		t.Errorf("the parity server compared %d of %d validations and %d of %d plans that accountProtocol answered",
			after[3], after[0], after[4], after[2])
	}
}

// fastPathCounter serves the provider as testProviderFactories does and counts, over every
// server it made, the calls that accountProtocol answered and those of them that the parity
// server also sent to the framework (fast_path_parity_test.go).
type fastPathCounter struct {
	mu      sync.Mutex
	servers []*parityServer
}

// factories are testProviderFactories, with each server counted.
func (c *fastPathCounter) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"eventnotify": func() (tfprotov6.ProviderServer, error) {
			s, err := testProviderFactories["eventnotify"]()
			if ps, ok := s.(*parityServer); ok {
				c.mu.Lock()
				c.servers = append(c.servers, ps)
				c.mu.Unlock()
			}
			return s, err
		},
	}
}

// counts are the calls answered by accountProtocol (validations, reads, plans), then those
// compared (validations, plans).
func (c *fastPathCounter) counts() (counts [5]int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.servers {
		counts[0] += s.account.answered.validate.Load()
		counts[1] += s.account.answered.read.Load()
		counts[2] += s.account.answered.plan.Load()
		counts[3] += s.compared.validate.Load()
		counts[4] += s.compared.plan.Load()
	}
	return counts
}

// withTimeouts returns a copy of top-level attributes with a timeouts block (a map of its
// attributes, or unknown{}).
func withTimeouts(top map[string]any, block any) map[string]any {
	out := map[string]any{timeoutsAttribute: block}
	for k, v := range top {
		out[k] = v
	}
	return out
}

// TestAccountProtocol_planPreIssuedJWTOtherAccount: a provider with a pre-issued JWT refuses,
// at plan time, a resource of another account (planDefaultAccount), also when nothing
// changes and the state names that account: the fast path leaves that plan to the framework,
// so both answer the one error. (The fast path answered it with no diagnostic before: a plan
// with -refresh=false passed where the framework fails.)
func TestAccountProtocol_planPreIssuedJWTOtherAccount(t *testing.T) {
	m := newTestMock(t)
	subs := seedKinds(m)
	reference, ok := New("test")().(*EventNotifyProvider)
	if !ok {
		t.Fatal("New does not return an *EventNotifyProvider")
	}
	args := mockProviderArgs(m)
	delete(args, "username")
	delete(args, "password")
	args["jwt"] = tftypes.NewValue(tftypes.String, m.IssueJWT(testAccount, testUser, time.Now().Add(time.Hour)))
	framework := newListServerFrom(t, providerserver.NewProtocol6WithError(reference))
	framework.configure(args)
	fast := newListServer(t)
	fast.configure(args)
	ps, ok := fast.server.(*protocolServer)
	if !ok {
		t.Fatalf("ProtocolServer serves %T", fast.server)
	}
	tw := &twinServers{t: t, framework: framework, fast: fast, protocol: ps.account, reference: reference}
	for _, account := range []string{"other-account", testAccount} {
		t.Run(account, func(t *testing.T) {
			tw.t = t
			prior := tw.account(map[string]any{"id": account, "account_id": account}, byID(subs, stateEntry))
			config := tw.account(map[string]any{"account_id": account}, byID(subs, configEntry))
			req := &tfprotov6.PlanResourceChangeRequest{TypeName: tw.protocol.typeName, PriorState: tw.dynamic(prior),
				ProposedNewState: tw.dynamic(prior), Config: tw.dynamic(config)}
			wantFast := account == testAccount
			frameworkResp, fastResp := answerBoth(tw, wantFast, func() *tfprotov6.PlanResourceChangeRequest { return req },
				func(r *tfprotov6.PlanResourceChangeRequest) bool {
					_, ok := tw.protocol.planResourceChange(context.Background(), r)
					return ok
				}, frameworkServer.PlanResourceChange)
			tw.sameDiagnostics("PlanResourceChange", frameworkResp.Diagnostics, fastResp.Diagnostics)
			got := diagnosticSet(fastResp.Diagnostics)
			if wantError := !wantFast; wantError != (len(got) == 1 && strings.HasPrefix(got[0], "ERROR|No JWT for this account|")) {
				t.Fatalf("diagnostics %q; want the pre-issued JWT's error: %t", got, wantError)
			}
		})
	}
}

// identityAccountOf is the account_id of an identity of the account resource as an answer
// carries it: "<none>" for no identity, "<null>" for a null one (or a null account_id).
func identityAccountOf(t *testing.T, a *accountProtocol, d *tfprotov6.ResourceIdentityData) string {
	t.Helper()
	if d == nil || d.IdentityData == nil {
		return "<none>"
	}
	v, err := d.IdentityData.Unmarshal(a.identity)
	if err != nil {
		t.Fatalf("decoding the identity: %v", err)
	}
	var attrs map[string]tftypes.Value
	if v.IsNull() || v.As(&attrs) != nil || attrs["account_id"].IsNull() {
		return "<null>"
	}
	var account string
	if err := attrs["account_id"].As(&account); err != nil {
		t.Fatal(err)
	}
	return account
}
