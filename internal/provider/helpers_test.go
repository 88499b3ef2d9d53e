package provider

// The provider's test harness, in one place: the test credentials, the mock started for each test
// (through internal/testsupport), the provider blocks and configurations tests render, the checks
// of the mock's store, and the protocol harness. The Terraform CLI's harness is cli_test.go; the
// account resource's own helpers stay beside its tests (account_subscriptions_*_test.go).

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/testsupport"
)

// The provider under test and the mock it talks to.

// Credentials of the mock's test users: the shared harness's (internal/testsupport).
const (
	testAccount     = testsupport.Account
	testUser        = testsupport.User
	testPassword    = testsupport.Password
	testTokenUser   = testsupport.TokenUser
	testAPIToken    = testsupport.APIToken
	testOTPUser     = testsupport.OTPUser
	testOTPPassword = testsupport.OTPPassword
	testOTP         = testsupport.OTP
)

// testProviderFactories serves the provider in-process to the Terraform CLI, with the fast
// path's answers checked against the framework's (parityServer).
var testProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"eventnotify": parityServerFor(func() *EventNotifyProvider { return &EventNotifyProvider{version: "test"} }),
}

// testMock is a mock service started for one test.
type testMock struct {
	*mockserver.Server
	URL string
}

// newTestMock starts a fresh mock server for one test through the shared harness, with a
// password user, an API-token user and an OTP user, all allowed on testAccount.
func newTestMock(t testing.TB) *testMock {
	t.Helper()
	return fromHarness(t, testsupport.Start(t, mockserver.Config{}))
}

// fromHarness is the mock the shared harness started, as the provider's tests use it. A live
// run skips the test: it needs the in-process mock.
func fromHarness(t testing.TB, m *testsupport.Mock) *testMock {
	t.Helper()
	skipWhenLive(t)
	return &testMock{Server: m.Server, URL: m.URL}
}

// providerConfig is a test's provider block: the mock's account and
// addresses, the password user, no client-side rate limit and two retries,
// unless the test changes a field. String renders it as HCL; tests change
// the fields, never the rendered text.
type providerConfig struct {
	localName            string // the block's provider name; "" is eventnotify
	accountID            string
	baseURL, authURL     string
	credentials          string // HCL lines
	maxRequestsPerSecond string
	maxRetries           int
	extra                []string // more lines inside the block
}

// providerConfig returns the mock's default provider block, with extra lines.
func (m *testMock) providerConfig(extra ...string) providerConfig {
	return providerConfig{
		accountID:            testAccount,
		baseURL:              m.URL,
		authURL:              m.URL,
		credentials:          fmt.Sprintf("username = %q\n  password = %q", testUser, testPassword),
		maxRequestsPerSecond: "0",
		maxRetries:           2,
		extra:                extra,
	}
}

// String renders the provider block.
func (p providerConfig) String() string {
	return fmt.Sprintf(`
provider %q {
  account_id              = %q
  base_url                = %q
  auth_url                = %q
  max_requests_per_second = %s
  max_retries             = %d
  %s
  %s
}
`, cmp.Or(p.localName, "eventnotify"), p.accountID, p.baseURL, p.authURL, p.maxRequestsPerSecond, p.maxRetries, p.credentials, strings.Join(p.extra, "\n  "))
}

// providerBlock renders the mock's default provider block; extra lines are
// added inside the block.
func (m *testMock) providerBlock(extra ...string) string { return m.providerConfig(extra...).String() }

// providerBlockWith renders the mock's provider block with the given
// credential lines.
func (m *testMock) providerBlockWith(credentials string, extra ...string) string {
	p := m.providerConfig(extra...)
	p.credentials = credentials
	return p.String()
}

// expectRejectedWithoutRequests runs config, expects it to fail with expect,
// and checks that not a single request (not even a JWT fetch) reached the mock:
// what is rejected at plan or configure time must never reach the service.
func (m *testMock) expectRejectedWithoutRequests(t *testing.T, config string, expect *regexp.Regexp) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		Steps:                    []resource.TestStep{{Config: config, ExpectError: expect}},
	})
	if n := m.Count("", ""); n != 0 {
		t.Errorf("a rejected configuration sent %d requests to the service", n)
	}
}

// errorPattern matches a diagnostic that contains the phrases in order,
// whatever line wrapping Terraform applies between their words.
func errorPattern(phrases ...string) *regexp.Regexp {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		quoted[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(quoted, `.*`))
}

// setTestCatalogues gives the mock known catalogues.
func (m *testMock) setTestCatalogues() {
	m.SetEvents(testEvents)
	m.SetLogLevels(testLevels)
	m.SetDestinationTypes(testDestinationTypes)
}

// Configurations and checks of the mock's store.

// subscriptionConfig renders the test subscription with the given argument lines.
func subscriptionConfig(args ...string) string {
	return fmt.Sprintf(`
resource "eventnotify_subscription" "test" {
  %s
}
`, strings.Join(args, "\n  "))
}

// checkMockEmpty is a CheckDestroy that asserts the mock holds no subscription.
func (m *testMock) checkMockEmpty(accounts ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for _, a := range append(accounts, testAccount) {
			if subs := m.Subscriptions(a); len(subs) != 0 {
				return fmt.Errorf("account %s still holds %d subscriptions after destroy", a, len(subs))
			}
		}
		return nil
	}
}

// checkMockHolds asserts the mock holds exactly n subscriptions of the account.
func (m *testMock) checkMockHolds(account string, n int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := len(m.Subscriptions(account)); got != n {
			return fmt.Errorf("account %s holds %d subscriptions, want %d", account, got, n)
		}
		return nil
	}
}

// manyConfig renders n subscriptions with count, each on its own topic.
func manyConfig(n int) string {
	return fmt.Sprintf(`
resource "eventnotify_subscription" "many" {
  count               = %d
  event_name          = "ATOM.STATUS"
  destination_type    = "EVENT_STREAMS"
  log_level           = "ERROR"
  event_streams_topic = "topic-${count.index}"
}
`, n)
}

// providerBlockRetries is providerBlock with max_retries set to n.
func (m *testMock) providerBlockRetries(n int, extra ...string) string {
	p := m.providerConfig(extra...)
	p.maxRetries = n
	return p.String()
}

// statusCount counts the requests of the mock's log that matched method and
// route ("" matches any) and were answered with status (0: no answer).
func (m *testMock) statusCount(method, route string, status int) int {
	n := 0
	for _, r := range m.Requests() {
		if (method == "" || r.Method == method) && (route == "" || r.Route == route) && r.Status == status {
			n++
		}
	}
	return n
}

// mockIDs returns the ids of the account's subscriptions in the mock, sorted.
func (m *testMock) mockIDs(account string) []string {
	var ids []string
	for _, s := range m.Subscriptions(account) {
		ids = append(ids, s.SubscriptionID)
	}
	slices.Sort(ids)
	return ids
}

// stateIDs returns the ids of the subscriptions in state, sorted.
func stateIDs(s *terraform.State) []string {
	var ids []string
	for _, r := range s.RootModule().Resources {
		if r.Type == "eventnotify_subscription" {
			ids = append(ids, r.Primary.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// checkStateMatchesMock asserts that state and the mock hold the same n
// subscriptions: none lost, none duplicated, none orphaned.
func (m *testMock) checkStateMatchesMock(n int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		inState, inMock := stateIDs(s), m.mockIDs(testAccount)
		if len(inMock) != n || !slices.Equal(inState, inMock) {
			return fmt.Errorf("state holds %d subscriptions %v, the mock %d %v; want the same %d",
				len(inState), inState, len(inMock), inMock, n)
		}
		return nil
	}
}

// countActions is a plan check that counts the planned actions on the
// subscriptions.
type countActions struct{ creates, noops int }

// CheckPlan implements plancheck.PlanCheck.
func (c countActions) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	creates, noops := 0, 0
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Type != "eventnotify_subscription" {
			continue
		}
		switch {
		case rc.Change.Actions.Create():
			creates++
		case rc.Change.Actions.NoOp():
			noops++
		}
	}
	if creates != c.creates || noops != c.noops {
		resp.Error = fmt.Errorf("plan creates %d and keeps %d subscriptions, want %d and %d", creates, noops, c.creates, c.noops)
	}
}

// lostAnswers counts the requests with method whose answer the mock replaced
// after doing the work (a 5xx or a dropped connection).
func (m *testMock) lostAnswers(method string) int {
	n := 0
	for _, r := range m.Requests() {
		if r.Method == method && r.Route == mockserver.RouteSubscriptions && (r.Status >= 500 || r.Status == 0) {
			n++
		}
	}
	return n
}

// onlySubscription returns the one subscription the mock holds for testAccount.
func (m *testMock) onlySubscription(t *testing.T) mockserver.Subscription {
	t.Helper()
	subs := m.Subscriptions(testAccount)
	if len(subs) != 1 {
		t.Fatalf("mock holds %d subscriptions, want 1", len(subs))
	}
	return subs[0]
}

// lostAnswersOn counts single-subscription requests with method that were
// answered with a 5xx.
func (m *testMock) lostAnswersOn(method string) int {
	n := 0
	for _, r := range m.Requests() {
		if r.Method == method && r.Route == mockserver.RouteSubscription && r.Status >= 500 {
			n++
		}
	}
	return n
}

// writeRequests counts the mock's create and delete requests, single or bulk.
func (m *testMock) writeRequests() int {
	return m.Count(http.MethodPost, mockserver.RouteSubscriptions) + m.Count(http.MethodPatch, mockserver.RouteSubscriptions) +
		m.Count(http.MethodDelete, mockserver.RouteSubscription)
}

// noWrites asserts that the mock received no write (any method but GET).
func (m *testMock) noWrites(t *testing.T) {
	t.Helper()
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if n := m.Count(method, ""); n != 0 {
			t.Errorf("bad input sent %d %s requests to the service", n, method)
		}
	}
}

// listRequests counts the mock's list requests (listSubscribedEventsForAccount pages).
func (m *testMock) listRequests() int { return m.Count(http.MethodGet, mockserver.RouteSubscriptions) }

// subscriptionByTopic finds the mock's subscription with the given topic.
func (m *testMock) subscriptionByTopic(t *testing.T, topic string) mockserver.Subscription {
	t.Helper()
	for _, s := range m.Subscriptions(testAccount) {
		if s.EventStreamsTopic == topic {
			return s
		}
	}
	t.Fatalf("no subscription with topic %q", topic)
	return mockserver.Subscription{}
}

// checkMockTopics asserts the mock holds, for the account, exactly the topics
// given as "<environment_id>/<topic_name>" with the subscription names on each
// joined by commas.
func (m *testMock) checkMockTopics(account string, want ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var got []string
		for _, t := range m.Topics(account) {
			got = append(got, t.EnvironmentID+"/"+t.Name+" "+strings.Join(t.SubscriptionNames, ","))
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("account %s holds topics %q, want %q", account, got, want)
		}
		return nil
	}
}

// checkNoDeletes asserts that nothing asked the mock to delete anything.
func (m *testMock) checkNoDeletes() resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := m.Count(http.MethodDelete, ""); n != 0 {
			return fmt.Errorf("%d DELETE requests reached the service", n)
		}
		return nil
	}
}

// topicArgs are the arguments of the test topic.
var topicArgs = []string{
	`environment_id    = "env-1"`,
	`subscription_name = "ops-alerts"`,
	`topic_name        = "alerts"`,
	`topic_description = "Alerts for the operations team"`,
}

// topicConfig renders the test topic with the given argument lines.
func topicConfig(args ...string) string {
	return fmt.Sprintf(`
resource "eventnotify_event_streams_topic" "test" {
  %s
}
`, strings.Join(args, "\n  "))
}

// withTopicArg returns topicArgs with the argument named by line replaced by
// line (or added when topicArgs has no such argument); a line of only the
// name removes the argument.
func withTopicArg(line string) []string {
	name := strings.Fields(line)[0]
	out := make([]string, 0, len(topicArgs)+1)
	found := false
	for _, a := range topicArgs {
		if strings.Fields(a)[0] == name {
			found = true
			if line == name {
				continue
			}
			a = line
		}
		out = append(out, a)
	}
	if !found && line != name {
		out = append(out, line)
	}
	return out
}

// Providers whose batches of writes a test releases.

// batchGate sends a batch once it holds size writes or the rest of the step's
// expected writes.
type batchGate struct {
	mu       sync.Mutex
	size     int
	expected int // writes the current step makes
	sent     int
}

// expect starts a step that makes n writes.
func (g *batchGate) expect(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.expected, g.sent = n, 0
}

// ready is client.Config.BatchReady.
func (g *batchGate) ready(_ string, pending int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if pending >= g.size || g.sent+pending >= g.expected {
		g.sent += pending
		return true
	}
	return false
}

// factories serves the provider with the gate deciding when batches go out.
func (g *batchGate) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"eventnotify": parityServerFor(func() *EventNotifyProvider {
			return &EventNotifyProvider{version: "test", adjustClient: func(c *client.Config) { c.BatchReady = g.ready }}
		}),
	}
}

// settleFactories serves the provider with the grace period of lost create answers run
// without waiting (every read of it is still made), and, when gate is not nil, with the gate
// deciding when batches go out.
func settleFactories(gate *batchGate) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"eventnotify": parityServerFor(func() *EventNotifyProvider {
			return &EventNotifyProvider{version: "test", adjustClient: func(c *client.Config) {
				c.SettleWait = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
				if gate != nil {
					c.BatchReady = gate.ready
				}
			}}
		}),
	}
}

// The protocol harness: the provider served in-process and driven through its protocol
// (tfprotov6), without a CLI.

// listServer is a provider server configured against a mock, with the schemas it reports.
type listServer struct {
	t        testing.TB
	server   frameworkServer
	schemas  *tfprotov6.GetProviderSchemaResponse
	identity tftypes.Type // the identity's object type
}

// newListServer serves the provider and reads its schemas, without configuring it.
func newListServer(t testing.TB) *listServer {
	t.Helper()
	return newListServerFrom(t, ProtocolServer("test"))
}

// newListServerFrom is newListServer for the server that factory builds.
func newListServerFrom(t testing.TB, factory func() (tfprotov6.ProviderServer, error)) *listServer {
	t.Helper()
	plain, err := factory()
	if err != nil {
		t.Fatal(err)
	}
	server, ok := plain.(frameworkServer)
	if !ok {
		t.Fatalf("the provider server (%T) does not serve list resources", plain)
	}
	ctx := context.Background()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	requireNoDiagnostics(t, "GetProviderSchema", schemas.Diagnostics)
	identities, err := server.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	requireNoDiagnostics(t, "GetResourceIdentitySchemas", identities.Diagnostics)
	identity := identities.IdentitySchemas[listTypeName]
	if identity == nil {
		t.Fatalf("no identity schema for %s", listTypeName)
	}
	return &listServer{t: t, server: server, schemas: schemas, identity: identity.ValueType()}
}

// newConfiguredListServer serves the provider configured for the mock (testAccount, the
// password user, no rate limit, no retries), as Terraform 1.14 would.
func newConfiguredListServer(t testing.TB, m *testMock) *listServer {
	t.Helper()
	return configuredForMock(newListServer(t), m)
}

// configuredForMock configures s as newConfiguredListServer does.
func configuredForMock(s *listServer, m *testMock) *listServer {
	s.t.Helper()
	s.configure(mockProviderArgs(m))
	return s
}

// mockProviderArgs is the provider configuration of a protocol-level test against m: its
// account, addresses and credentials, with no rate limit and no retries.
func mockProviderArgs(m *testMock) map[string]tftypes.Value {
	return map[string]tftypes.Value{
		"account_id":              tftypes.NewValue(tftypes.String, testAccount),
		"base_url":                tftypes.NewValue(tftypes.String, m.URL),
		"auth_url":                tftypes.NewValue(tftypes.String, m.URL),
		"username":                tftypes.NewValue(tftypes.String, testUser),
		"password":                tftypes.NewValue(tftypes.String, testPassword),
		"max_requests_per_second": tftypes.NewValue(tftypes.Number, big.NewFloat(0)),
		"max_retries":             tftypes.NewValue(tftypes.Number, big.NewFloat(0)),
	}
}

// configure sends ConfigureProvider with the given arguments, the others null.
func (s *listServer) configure(args map[string]tftypes.Value) {
	s.t.Helper()
	config := s.dynamicValue(s.schemas.Provider.ValueType(), args)
	resp, err := s.server.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{
		TerraformVersion: "1.14.0", Config: &config,
	})
	if err != nil {
		s.t.Fatal(err)
	}
	requireNoDiagnostics(s.t, "ConfigureProvider", resp.Diagnostics)
}

// dynamicValue encodes an object of type typ whose attributes are args, and null where args
// has none, as Terraform sends configuration.
func (s *listServer) dynamicValue(typ tftypes.Type, args map[string]tftypes.Value) tfprotov6.DynamicValue {
	s.t.Helper()
	object, ok := typ.(tftypes.Object)
	if !ok {
		s.t.Fatalf("%s is not an object type", typ)
	}
	values := make(map[string]tftypes.Value, len(object.AttributeTypes))
	for name, attrType := range object.AttributeTypes {
		values[name] = tftypes.NewValue(attrType, nil)
	}
	for name, v := range args {
		if _, ok := values[name]; !ok {
			s.t.Fatalf("%s has no attribute %q", typ, name)
		}
		values[name] = v
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, values))
	if err != nil {
		s.t.Fatal(err)
	}
	return dv
}

// listConfig is the msgpack config of a list "eventnotify_subscription" block: its config
// block's arguments (strings, a bool for enabled, a map of strings for notified_for), the others null.
func (s *listServer) listConfig(args map[string]any) *tfprotov6.DynamicValue {
	s.t.Helper()
	listSchema := s.schemas.ListResourceSchemas[listTypeName]
	if listSchema == nil {
		s.t.Fatalf("the provider reports no list resource schema for %s", listTypeName)
	}
	values := map[string]tftypes.Value{}
	for name, v := range args {
		switch v := v.(type) {
		case string:
			values[name] = tftypes.NewValue(tftypes.String, v)
		case bool:
			values[name] = tftypes.NewValue(tftypes.Bool, v)
		case map[string]string: // a nested object of strings: notified_for
			object := map[string]tftypes.Value{}
			for k, str := range v {
				object[k] = tftypes.NewValue(tftypes.String, str)
			}
			values[name] = tftypes.NewValue(listSchema.ValueType().(tftypes.Object).AttributeTypes[name], object)
		default:
			s.t.Fatalf("argument %s: unsupported %T", name, v)
		}
	}
	dv := s.dynamicValue(listSchema.ValueType(), values)
	return &dv
}

// listResult is one decoded result of the stream.
type listResult struct {
	displayName string
	identity    map[string]any // nil when the result has none
	resource    map[string]any // nil when the result has none
	rawResource tftypes.Value
	diagnostics []*tfprotov6.Diagnostic
}

// list calls ListResource and reads the whole stream.
func (s *listServer) list(args map[string]any, includeResource bool, limit int64) []listResult {
	s.t.Helper()
	stream, err := s.server.ListResource(context.Background(), &tfprotov6.ListResourceRequest{
		TypeName: listTypeName, Config: s.listConfig(args), IncludeResource: includeResource, Limit: limit,
	})
	if err != nil {
		s.t.Fatal(err)
	}
	resourceType := s.schemas.ResourceSchemas[listTypeName].ValueType()
	var results []listResult
	for r := range stream.Results {
		got := listResult{displayName: r.DisplayName, diagnostics: r.Diagnostics}
		if r.Identity != nil && r.Identity.IdentityData != nil {
			v, err := r.Identity.IdentityData.Unmarshal(s.identity)
			if err != nil {
				s.t.Fatalf("identity of %q: %v", r.DisplayName, err)
			}
			got.identity = objectValues(s.t, v)
		}
		if r.Resource != nil {
			v, err := r.Resource.Unmarshal(resourceType)
			if err != nil {
				s.t.Fatalf("resource of %q: %v", r.DisplayName, err)
			}
			got.rawResource, got.resource = v, objectValues(s.t, v)
		}
		results = append(results, got)
	}
	return results
}

// listOK lists and fails the test on any diagnostic.
func (s *listServer) listOK(args map[string]any, includeResource bool) []listResult {
	s.t.Helper()
	results := s.list(args, includeResource, 0)
	for _, r := range results {
		requireNoDiagnostics(s.t, "ListResource result "+r.displayName, r.diagnostics)
	}
	return results
}

// validate calls ValidateListResourceConfig.
func (s *listServer) validate(args map[string]any) []*tfprotov6.Diagnostic {
	s.t.Helper()
	resp, err := s.server.ValidateListResourceConfig(context.Background(), &tfprotov6.ValidateListResourceConfigRequest{
		TypeName: listTypeName, Config: s.listConfig(args),
	})
	if err != nil {
		s.t.Fatal(err)
	}
	return resp.Diagnostics
}

// objectValues decodes an object of primitives: strings, bools, int64 numbers, nil for null.
func objectValues(t testing.TB, v tftypes.Value) map[string]any {
	t.Helper()
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]any, len(attrs))
	for name, a := range attrs {
		switch {
		case a.IsNull():
			out[name] = nil
		case a.Type().Is(tftypes.String):
			var s string
			_ = a.As(&s)
			out[name] = s
		case a.Type().Is(tftypes.Bool):
			var b bool
			_ = a.As(&b)
			out[name] = b
		case a.Type().Is(tftypes.Number):
			var n big.Float
			_ = a.As(&n)
			i, _ := n.Int64()
			out[name] = i
		default:
			t.Fatalf("attribute %s has unexpected type %s", name, a.Type())
		}
	}
	return out
}

// requireNoDiagnostics fails the test on any diagnostic.
func requireNoDiagnostics(t testing.TB, what string, diags []*tfprotov6.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		t.Fatalf("%s: unexpected diagnostic (%s) %q: %s", what, d.Severity, d.Summary, d.Detail)
	}
}

// importAndRead imports a subscription by identity and reads it, as Terraform does for an
// import block, and returns the state it ends with.
func (s *listServer) importAndRead(identity map[string]any) tftypes.Value {
	s.t.Helper()
	ctx := context.Background()
	id := s.dynamicValue(s.identity, map[string]tftypes.Value{
		"account_id": tftypes.NewValue(tftypes.String, identity["account_id"]),
		"id":         tftypes.NewValue(tftypes.String, identity["id"]),
	})
	imported, err := s.server.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{
		TypeName: listTypeName, Identity: &tfprotov6.ResourceIdentityData{IdentityData: &id},
	})
	if err != nil {
		s.t.Fatal(err)
	}
	requireNoDiagnostics(s.t, "ImportResourceState", imported.Diagnostics)
	if len(imported.ImportedResources) != 1 {
		s.t.Fatalf("import returned %d resources, want 1", len(imported.ImportedResources))
	}
	read, err := s.server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
		TypeName: listTypeName, CurrentState: imported.ImportedResources[0].State, CurrentIdentity: imported.ImportedResources[0].Identity,
	})
	if err != nil {
		s.t.Fatal(err)
	}
	requireNoDiagnostics(s.t, "ReadResource", read.Diagnostics)
	v, err := read.NewState.Unmarshal(s.schemas.ResourceSchemas[listTypeName].ValueType())
	if err != nil {
		s.t.Fatal(err)
	}
	return v
}
