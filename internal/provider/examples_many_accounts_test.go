package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAccExampleManyAccounts applies the provider page's many-accounts examples
// (examples/many-accounts): the same module on three accounts, once through OpenTofu's provider
// for_each (an instance per account) and once through one provider block and the module's
// account_id (both CLIs). Each account holds exactly its module's two subscriptions on its own
// topic, a second plan is empty, and destroy empties every account. Under OpenTofu, a plan that
// drops an account from the map while its resources exist is refused, as the page says.
func TestAccExampleManyAccounts(t *testing.T) {
	accounts := map[string]string{"payments": "acc-payments", "audit": "acc-audit", "search": testAccount}
	for _, tc := range []struct {
		name    string
		feature *cliFeature
	}{
		{"opentofu", &featureProviderForEach},
		{"terraform", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := newTestMock(t)
			w := newCLIWorkspace(t, m)
			if tc.feature != nil {
				w.require(*tc.feature)
			}
			for _, file := range []string{tc.name + "/main.tf", "alerts/main.tf"} {
				body, err := os.ReadFile(filepath.Join("../../examples/many-accounts", file))
				if err != nil {
					t.Fatal(err)
				}
				w.write(file, string(body))
			}
			w.dir = filepath.Join(w.dir, tc.name)
			vars := []string{`TF_VAR_accounts={"payments":"acc-payments","audit":"acc-audit","search":"` + testAccount + `"}`}
			w.mustRun(vars, "get", "-no-color") // installs the local module; dev_overrides serve the provider without init (OpenTofu evaluates the provider for_each already here)
			w.applyPlanDestroy(vars, func() {
				if tc.feature != nil {
					// An account left out of the map while its module's resources exist: OpenTofu
					// refuses to plan without its provider instance, and says to destroy first.
					out, code := w.run([]string{`TF_VAR_accounts={"payments":"acc-payments","search":"` + testAccount + `"}`}, "plan", "-input=false", "-no-color")
					if code == 0 || !strings.Contains(out, "-target") {
						t.Errorf("plan without the audit account: exit %d, want a refusal that suggests a targeted destroy:\n%s", code, out)
					}
				}
				for name, account := range accounts {
					subs := m.Subscriptions(account)
					if len(subs) != 2 {
						t.Errorf("account %s holds %d subscriptions, want the module's 2: %+v", account, len(subs), subs)
					}
					for _, s := range subs {
						if s.EventStreamsTopic != "alerts-"+name {
							t.Errorf("account %s: subscription %s (%s) is on topic %q, want %q", account, s.SubscriptionID, s.EventName, s.EventStreamsTopic, "alerts-"+name)
						}
					}
				}
			})
			for _, account := range accounts {
				if subs := m.Subscriptions(account); len(subs) != 0 {
					t.Errorf("after destroy, account %s still holds %+v", account, subs)
				}
			}
		})
	}
}
