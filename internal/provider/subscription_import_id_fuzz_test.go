package provider

import (
	"strings"
	"testing"
)

// FuzzParseSubscriptionImportID parses any import id with and without a
// provider account. It never panics; an accepted id yields a non-blank account
// without "/" and a subscription id in lower-case canonical UUID form, equal
// to the id's last part but for case; joining the two again parses to the same
// pair; and a rejected id is explained with the accepted forms. `go test` runs
// the seeds (f.Add and testdata/fuzz/FuzzParseSubscriptionImportID):
//
//	go test -run '^$' -fuzz '^FuzzParseSubscriptionImportID$' -fuzztime 5s ./internal/provider/
func FuzzParseSubscriptionImportID(f *testing.F) {
	const id = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
	for _, seed := range []struct{ id, account string }{
		{id, "acc-test"}, {id, ""}, {"acc-other/" + id, "acc-test"}, {strings.ToUpper(id), "acc"},
		{"", "acc"}, {"/", "acc"}, {"a/b/" + id, "acc"}, {" /" + id, ""}, {"{" + id + "}", "acc"},
		{"urn:uuid:" + id, "acc"}, {strings.ReplaceAll(id, "-", ""), "acc"}, {"acc/" + id + "\n", "acc"},
		{"\u00a0/" + id, "acc"}, {"ä/" + id, ""}, {"３fa85f64-5717-4562-b3fc-2c963f66afa6", "acc"}, {"\xff/" + id, ""},
	} {
		f.Add(seed.id, seed.account)
	}
	f.Fuzz(func(t *testing.T, importID, defaultAccount string) {
		if strings.Contains(defaultAccount, "/") || (defaultAccount != "" && strings.TrimSpace(defaultAccount) == "") {
			// Configure rejects a blank account_id, and an account with a "/"
			// cannot be written in an import id: not the provider's account.
			t.Skip()
		}
		account, subscription, err := parseSubscriptionImportID(importID, defaultAccount)
		if err != nil {
			if account != "" || subscription != "" {
				t.Fatalf("%q: %q, %q with error %v", importID, account, subscription, err)
			}
			if !strings.Contains(err.Error(), "<account_id>/<subscription_id>") {
				t.Fatalf("%q: error %q does not name the accepted forms", importID, err)
			}
			return
		}
		if !uuidPattern.MatchString(subscription) {
			t.Fatalf("%q: subscription id %q is not a lower-case canonical UUID", importID, subscription)
		}
		parts := strings.Split(importID, "/")
		if !strings.EqualFold(parts[len(parts)-1], subscription) {
			t.Fatalf("%q: subscription id %q is not the id's last part", importID, subscription)
		}
		if strings.TrimSpace(account) == "" || strings.Contains(account, "/") {
			t.Fatalf("%q: account %q", importID, account)
		}
		if len(parts) == 1 && account != defaultAccount {
			t.Fatalf("%q: account %q, want the provider's %q", importID, account, defaultAccount)
		}
		a2, s2, err := parseSubscriptionImportID(account+"/"+subscription, "")
		if err != nil || a2 != account || s2 != subscription {
			t.Fatalf("%q: rejoined %q parses to %q, %q, %v", importID, account+"/"+subscription, a2, s2, err)
		}
	})
}
