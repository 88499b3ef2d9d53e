package provider

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Batched writes, made deterministic: instead of a time window, a batch is
// sent once it holds `size` writes, or all the writes that are still to come
// (the test knows how many it expects per step).

// TestAccBatch_createAndDestroy100 creates and destroys 100 subscriptions at
// Terraform's default parallelism (10) in batches of at least 5: at most 30
// write requests each way, and state always equals the service.
func TestAccBatch_createAndDestroy100(t *testing.T) {
	const n = 100
	m := newTestMock(t)
	gate := &batchGate{size: 5}
	config := m.providerBlock() + manyConfig(n)
	var afterCreate int
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: gate.factories(),
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				PreConfig: func() { gate.expect(n) },
				Config:    config,
				Check: resource.ComposeTestCheckFunc(
					m.checkStateMatchesMock(n),
					func(*terraform.State) error {
						afterCreate = m.writeRequests()
						t.Logf("create of %d: %d write requests", n, afterCreate)
						if afterCreate > 30 {
							return fmt.Errorf("create of %d took %d write requests, want at most 30", n, afterCreate)
						}
						return nil
					},
				),
			},
			{Config: config, PlanOnly: true},
			{
				PreConfig: func() { gate.expect(n) },
				Config:    config,
				Destroy:   true,
				Check: func(*terraform.State) error {
					deletes := m.writeRequests() - afterCreate
					t.Logf("destroy of %d: %d write requests", n, deletes)
					if left := len(m.Subscriptions(testAccount)); left != 0 {
						return fmt.Errorf("destroy left %d subscriptions", left)
					}
					if deletes > 30 || m.Count(http.MethodPatch, mockserver.RouteSubscriptions) == 0 {
						return fmt.Errorf("destroy of %d took %d write requests (%d bulk), want at most 30, in bulk deletes",
							n, deletes, m.Count(http.MethodPatch, mockserver.RouteSubscriptions))
					}
					return nil
				},
			},
		},
	})
}

// rejectingService answers a create request that carries the event name
// "REJECTED.EVENT" with the service's 400, as the service rejects an invalid
// subscription, and passes every other request to the mock.
func rejectingService(t *testing.T, m *testMock) *testMock {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/subscriptions") {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"REJECTED.EVENT"`)) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = fmt.Fprintf(w, `{"error":"Bad Request","messages":["Must provide a valid eventName"],"path":%q}`, r.URL.Path)
				return
			}
		}
		m.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return &testMock{Server: m.Server, URL: ts.URL}
}

// TestAccBatch_oneRejectedAmong20: the service refuses a batch because of one
// subscription; the batch is split so that the 19 others are created, only
// the rejected one fails with the service's message, and the next apply
// creates no duplicate.
func TestAccBatch_oneRejectedAmong20(t *testing.T) {
	m := rejectingService(t, newTestMock(t))
	// The catalogue lists both odd events, so that the plan's check lets them through.
	m.SetEvents([]mockserver.CatalogueEntry{{Name: "ATOM.STATUS"}, {Name: "REJECTED.EVENT"}, {Name: "ATOM.STATUS.ODD"}})
	gate := &batchGate{size: 10}
	config := func(rejected string) string {
		return m.providerBlock() + manyConfig(19) + fmt.Sprintf(`
resource "eventnotify_subscription" "odd" {
  event_name          = %q
  destination_type    = "EVENT_STREAMS"
  log_level           = "ERROR"
  event_streams_topic = "odd"
}
`, rejected)
	}
	expect := errorPattern("Unable to create subscription", "HTTP 400", "Must provide a valid eventName")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: gate.factories(),
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{PreConfig: func() { gate.expect(20) }, Config: config("REJECTED.EVENT"), ExpectError: expect},
			{
				PreConfig: func() {
					if n := len(m.Subscriptions(testAccount)); n != 19 {
						t.Errorf("after the first apply the mock holds %d subscriptions, want 19", n)
					}
					gate.expect(1)
				},
				Config: config("REJECTED.EVENT"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					countActions{creates: 1, noops: 19},
				}},
				ExpectError: expect,
			},
			{
				PreConfig: func() {
					if n := len(m.Subscriptions(testAccount)); n != 19 {
						t.Errorf("after the second apply the mock holds %d subscriptions, want 19", n)
					}
					gate.expect(1)
				},
				Config: config("ATOM.STATUS.ODD"),
				Check:  m.checkStateMatchesMock(20),
			},
			{PreConfig: func() { gate.expect(20) }, Config: config("ATOM.STATUS.ODD"), Destroy: true},
		},
	})
}
