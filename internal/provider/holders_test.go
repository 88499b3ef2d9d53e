package provider

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// forgetHolders empties the holder registry (holders.go) of the provider instance that s
// serves, for tests that send one server requests that stand for several runs rather than
// several resources of one configuration.
func (s *listServer) forgetHolders() {
	if ps, ok := s.server.(*protocolServer); ok {
		forgetProviderHolders(ps.account.provider)
	}
}

// forgetProviderHolders empties the holder registry of a configured provider.
func forgetProviderHolders(p *EventNotifyProvider) {
	if data := p.configured.Load(); data != nil {
		data.holders = newHolderRegistry()
	}
}

// TestHolderRegistry registers holdings as the plans of one provider instance would, and
// checks which warnings each sequence gives: two resources with one id (in any case) are
// warned about once; two account resources on one account too (one planned twice, with the
// same keys, is one); an account resource and
// single resources on one account are warned about once, naming the single resources' ids and
// the entry that holds one (an entry keyed by its id holds nothing); other accounts, other ids
// and subscriptions still to be created are no conflict.
func TestHolderRegistry(t *testing.T) {
	type step struct {
		account  bool              // an eventnotify_account_subscriptions, else an eventnotify_subscription
		acct, id string            // the account, and the subscription's id
		entries  map[string]string // the account resource's entries
		keys     []string          // the keys of its map
	}
	sub := func(acct, id string) step { return step{acct: acct, id: id} }
	acct := func(a string, entries map[string]string) step {
		return step{account: true, acct: a, entries: entries, keys: slices.Collect(maps.Keys(entries))}
	}
	cases := []struct {
		name  string
		steps []step
		want  []string // per warning: summary, then phrases of its detail
	}{
		{name: "two subscriptions, two ids", steps: []step{sub("a1", "id-1"), sub("a1", "id-2")}},
		{name: "one id in two accounts", steps: []step{sub("a1", "id-1"), sub("a2", "id-1")}},
		{name: "two subscriptions, one id", steps: []step{sub("a1", "id-1"), sub("a1", "ID-1"), sub("a1", "id-1")},
			want: []string{"Subscription ID-1 is held by two resources", `of account "a1" is held by two eventnotify_subscription resources`,
				"terraform state rm"}},
		{name: "two subscriptions to be created", steps: []step{sub("a1", ""), sub("a1", "")}},
		{name: "one account resource planned twice (-replace)", steps: []step{acct("a1", map[string]string{"k": "id-1"}),
			{account: true, acct: "a1", keys: []string{"k"}}}},
		{name: "two account resources", steps: []step{acct("a1", map[string]string{"k": "id-1"}), acct("a1", nil), acct("a1", nil)},
			want: []string{`Account "a1" is held by two eventnotify_account_subscriptions resources`, "each apply undoes the other"}},
		{name: "account resource, then single ones", steps: []step{
			acct("a1", map[string]string{"k": "id-1", "id-9": "id-9"}), sub("a1", "id-1"), sub("a1", "id-9")},
			want: []string{`Account "a1" is held by eventnotify_account_subscriptions and by eventnotify_subscription resources: subscription id-1`,
				`subscription "id-1", which entry "k" of the account resource holds too`}},
		{name: "single ones, then the account resource", steps: []step{sub("a1", ""), sub("a1", "id-9"),
			acct("a1", map[string]string{"k": "id-1", "id-9": "id-9"}), sub("a2", "id-3")},
			want: []string{`Account "a1" is held by eventnotify_account_subscriptions and by eventnotify_subscription resources: subscription id-9`,
				"one to be created, which no entry holds", `subscription "id-9", which no entry holds: the account resource deletes it`}},
		{name: "an account resource and a single one elsewhere", steps: []step{acct("a1", nil), sub("a2", "id-1")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newHolderRegistry()
			var got diag.Diagnostics
			for _, s := range tc.steps {
				if s.account {
					got.Append(r.holdAccount(s.acct, s.keys, s.entries)...)
				} else {
					got.Append(r.holdSubscription(s.acct, s.id)...)
				}
			}
			if len(tc.want) == 0 {
				if len(got) != 0 {
					t.Fatalf("warnings %v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Severity() != diag.SeverityWarning || got[0].Summary() != tc.want[0] {
				t.Fatalf("diagnostics %v, want one warning %q", got, tc.want[0])
			}
			for _, phrase := range tc.want[1:] {
				if !strings.Contains(got[0].Detail(), phrase) {
					t.Errorf("detail lacks %q:\n%s", phrase, got[0].Detail())
				}
			}
		})
	}
	var none *holderRegistry
	if d := none.holdSubscription("a1", "id-1"); d != nil {
		t.Errorf("a nil registry warns: %v", d)
	}
}
