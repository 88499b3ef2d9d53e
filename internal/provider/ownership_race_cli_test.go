package provider

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Two provider configurations on one account, as two Terraform runs with one user (issue 30):
// neither sees the other's claims or create gate, so a lost create of one can only be told
// from the other's create by the service's clock.

// twoRunsConfig renders two provider configurations of the mock's account, each served as its
// own provider instance (eventnotify, and eventnotify-b: see cli_inprocess_test.go), and in
// each an eventnotify_subscription of the same content: a with the first, b with the second.
func twoRunsConfig(m *testMock) string {
	second := m.providerConfig()
	second.localName = "eventnotify-b"
	return `
terraform {
  required_providers {
    eventnotify = {
      source = "eventnotify/eventnotify"
    }
    eventnotify-b = {
      source = "eventnotify/eventnotify-b"
    }
  }
}
` + m.providerBlock() + second.String() + twinConfig("a") + strings.Replace(twinConfig("b"), "{\n",
		"{\n  provider            = eventnotify-b\n", 1)
}

// createsAfter is a transport that sends no POST (a create) before ready is closed.
type createsAfter struct {
	ready <-chan struct{}
	base  http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (c createsAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost {
		if err := waitFor(r.Context(), c.ready); err != nil {
			return nil, err
		}
	}
	return c.base.RoundTrip(r)
}

// waitFor waits until ready is closed or ctx is done. A test whose order went wrong does not
// hang: after a minute it goes on, and its checks of what the mock saw fail.
func waitFor(ctx context.Context, ready <-chan struct{}) error {
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Minute):
		return nil
	}
}

// createWarnings returns the summaries of CLI output's warnings about who holds a created
// subscription: a create that succeeded with a doubt (createWarning), an id that two resources
// of one provider instance hold (holders.go).
func createWarnings(out string) []string {
	var got []string
	for _, w := range providerWarnings(out) {
		if strings.HasSuffix(w, lateAdoptionSuffix) || strings.HasSuffix(w, recreatedSuffix) ||
			strings.Contains(w, "is held by two resources") {
			got = append(got, w)
		}
	}
	return got
}

// TestAccOwnership_twoConfigurationsRace applies two provider configurations of one account
// (two provider instances, standing in for two Terraform runs with one user), each with a
// subscription of the same content. A's create is answered 502 before any work (nothing is
// created); B's create goes out only once A's answer has come back, and the service dates it
// two seconds later, past A's adoption window. A's grace period finds B's subscription, and
// adopts it only with the warning that names it, says when the service created it and how to
// check that no other state holds it (DESIGN.md#lost-answers-and-ownership). Afterwards the
// mock holds exactly the one subscription that both states hold, the id the warning named;
// following the warning (terraform state rm, apply) gives a its own subscription; destroy
// leaves nothing.
func TestAccOwnership_twoConfigurationsRace(t *testing.T) {
	m := newTestMock(t)
	w := newBareCLIWorkspace(t, m)
	w.write("main.tf", twoRunsConfig(m))

	bCreated := make(chan struct{})
	// The first wait of A's grace period (after the read at once) is when B creates. Two
	// seconds pass on the clock that dates subscriptions, not on the Date headers by which A
	// bounds the service's clock: to A, B's create comes two seconds after A's failed answer.
	providers, _ := racingProviders(func() {
		m.SetClockOffset(2 * time.Second)
		m.SetDateOffset(-2 * time.Second)
	}, bCreated)
	// The first create to reach the service is A's (B's waits for A's answer): answered 502
	// before any work. The first that succeeds is B's: A's grace period goes on once it is done.
	m.InjectFault(mockserver.Fault{Method: http.MethodPost, Route: mockserver.RouteSubscriptions,
		Status: http.StatusBadGateway, Count: 1})
	m.OnServed(http.MethodPost, mockserver.RouteSubscriptions, func() { close(bCreated) })

	out := w.mustRunInProcess(providers, "apply", "-auto-approve", "-input=false", "-json")
	if n := m.statusCount(http.MethodPost, mockserver.RouteSubscriptions, http.StatusBadGateway); n != 1 ||
		m.Count(http.MethodPost, mockserver.RouteSubscriptions) != 2 {
		t.Fatalf("%d creates, %d of them answered 502; want 2 and 1 (A's lost, B's):\n%s",
			m.Count(http.MethodPost, mockserver.RouteSubscriptions), n, out)
	}
	held := m.mockIDs(testAccount)
	if len(held) != 1 {
		t.Fatalf("the mock holds %v, want B's subscription only:\n%s", held, out)
	}
	id := held[0]
	if inState := w.stateSubscriptionIDs(); !slices.Equal(inState, []string{id, id}) {
		t.Fatalf("state holds %v, want a and b holding %s (the mock's only subscription):\n%s", inState, id, out)
	}
	sub, _ := m.Subscription(testAccount, id)
	created := time.UnixMilli(sub.CreatedDate).UTC().Format(time.RFC3339)
	// The -json output gives each warning with its resource: the plain output folds warnings of
	// one summary into the first ("and one more similar warning elsewhere").
	late, _, _ := createWarning(&client.LateAdoptionWarning{SubscriptionID: id}, "")
	got := createDiagnostics(out)
	if len(got) != 1 || got[0].Summary != late || got[0].Address != "eventnotify_subscription.a" {
		t.Fatalf("the apply's create warnings are %v, want %q once, on eventnotify_subscription.a:\n%s", got, late, out)
	}
	expectOutput(t, "the apply", out, true, "Apply complete! Resources: 2 added")
	expectOutput(t, "the late-adoption warning", got[0].Detail, true,
		fmt.Sprintf("took subscription %s in account %q as what the request created", id, testAccount),
		"the service dates it "+created+", after the failed answer came back",
		"another writer (another Terraform run or provider configuration with the same credentials)",
		"terraform state list and terraform state show",
		"looking for id "+id, "terraform state rm")

	if out, code := w.runInProcess(providers, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after the apply exited %d, want 0:\n%s", code, out)
	}

	// What the warning says to do when another state holds the id: a gets its own.
	w.mustRunInProcess(providers, "state", "rm", "-no-color", "eventnotify_subscription.a")
	out = w.mustRunInProcess(providers, "apply", "-auto-approve", "-input=false", "-json")
	if got := createDiagnostics(out); len(got) != 0 {
		t.Errorf("the apply after state rm warned %q, want no create warning", got)
	}
	inMock, inState := m.mockIDs(testAccount), w.stateSubscriptionIDs()
	if len(inMock) != 2 || !slices.Equal(inState, inMock) || !slices.Contains(inMock, id) {
		t.Fatalf("after state rm and apply the mock holds %v and state %v; want the same 2, %s one of them", inMock, inState, id)
	}

	w.mustRunInProcess(providers, "destroy", "-auto-approve", "-input=false", "-no-color")
	if left := m.mockIDs(testAccount); len(left) != 0 {
		t.Fatalf("destroy left %v on the service", left)
	}
}
