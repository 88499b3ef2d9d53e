package provider

import "testing"

// TestAccExampleMultipleAccounts applies the provider page's two-account example: the default
// provider block writes to its account, the aliased one to the audit account, a second plan is
// empty, and destroy empties both.
func TestAccExampleMultipleAccounts(t *testing.T) {
	m := newTestMock(t)
	w := newCLIWorkspace(t, m)
	w.copyFile("../../examples/provider/multiple-accounts.tf", "main.tf")
	const audit = "acc-audit"
	events := func(account string) []string {
		var names []string
		for _, s := range m.Subscriptions(account) {
			names = append(names, s.EventName)
		}
		return names
	}
	w.applyPlanDestroy([]string{"TF_VAR_audit_account_id=" + audit}, func() {
		if got := events(testAccount); len(got) != 1 || got[0] != "PROCESS.EXECUTION" {
			t.Errorf("the default account holds %v, want the example's PROCESS.EXECUTION subscription", got)
		}
		if got := events(audit); len(got) != 1 || got[0] != "ATOM.STATUS" {
			t.Errorf("the audit account holds %v, want the example's ATOM.STATUS subscription", got)
		}
	})
	for _, account := range []string{testAccount, audit} {
		if got := events(account); len(got) != 0 {
			t.Errorf("after destroy, account %s still holds %v", account, got)
		}
	}
}
