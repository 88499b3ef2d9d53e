package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// subscriptionIDShaped is an account id shaped like a subscription id: what a user pastes into
// the import of eventnotify_account_subscriptions by mistake.
const subscriptionIDShaped = "3fa85f64-5717-4562-b3fc-2c963f66afa6"

// TestImportOrigin imports and reads, as Terraform does, with import ids whose account the
// user has no access to (403) or that hold nothing: the advice names the import id the account
// came from (not EVENTNOTIFY_ACCOUNT_ID alone), and a subscription id imported as an account
// gets "did you mean eventnotify_subscription". A successful import leaves no private state.
func TestImportOrigin(t *testing.T) {
	const other = "acc-other"
	cases := []struct {
		name       string
		restricted bool // the user may use testAccount only
		typeName   string
		id         func(existing string) string
		identity   bool                         // import by identity (account_id and id); id gives "<account_id>/<id>"
		severity   tfprotov6.DiagnosticSeverity // 0: no diagnostic
		summary    string
		detail     []string
		not        []string
	}{
		{name: "a subscription id as the account, no access", restricted: true, typeName: accountSubscriptionsType,
			id:       func(string) string { return subscriptionIDShaped },
			severity: tfprotov6.DiagnosticSeverityError, summary: "Unable to list the subscriptions of account " + subscriptionIDShaped,
			detail: []string{"HTTP 403", `The account "` + subscriptionIDShaped + `" comes from the import id "` + subscriptionIDShaped + `"; check it.`,
				"did you mean to import it into eventnotify_subscription", "terraform import eventnotify_subscription.NAME " + subscriptionIDShaped},
			not: []string{"Check account_id"}},
		{name: "another account, no access", restricted: true, typeName: accountSubscriptionsType,
			id:       func(string) string { return other },
			severity: tfprotov6.DiagnosticSeverityError, summary: "Unable to list the subscriptions of account " + other,
			detail: []string{"HTTP 403", `The account "acc-other" comes from the import id "acc-other"; check it.`},
			not:    []string{"did you mean", "Check account_id"}},
		{name: "a subscription id as the account, empty", typeName: accountSubscriptionsType,
			id:       func(string) string { return subscriptionIDShaped },
			severity: tfprotov6.DiagnosticSeverityWarning, summary: "Account " + subscriptionIDShaped + " holds no subscriptions",
			detail: []string{"did you mean to import it into eventnotify_subscription"}},
		{name: "the account", typeName: accountSubscriptionsType, id: func(string) string { return testAccount }},
		{name: "a subscription of another account, no access", restricted: true, typeName: subscriptionType,
			id:       func(string) string { return other + "/" + subscriptionIDShaped },
			severity: tfprotov6.DiagnosticSeverityError, summary: "Unable to read subscription " + subscriptionIDShaped,
			detail: []string{"HTTP 403", `The account "acc-other" comes from the import id "acc-other/` + subscriptionIDShaped + `"; check it.`},
			not:    []string{"Check account_id", "did you mean"}},
		{name: "a subscription of another account by identity, no access", restricted: true, typeName: subscriptionType, identity: true,
			id:       func(string) string { return other + "/" + subscriptionIDShaped },
			severity: tfprotov6.DiagnosticSeverityError, summary: "Unable to read subscription " + subscriptionIDShaped,
			detail: []string{"HTTP 403", `The account "acc-other" comes from the import block's identity (account_id); check it.`},
			not:    []string{"Check account_id (" + envAccountID}},
		{name: "a subscription the provider's account does not hold", typeName: subscriptionType,
			id:       func(string) string { return subscriptionIDShaped },
			severity: tfprotov6.DiagnosticSeverityError, summary: "Cannot import subscription " + subscriptionIDShaped,
			detail: []string{`Account "` + testAccount + `" holds no subscription ` + subscriptionIDShaped,
				`The import id "` + subscriptionIDShaped + `" names no account, so the provider's account_id (` + envAccountID + `) was used`,
				"<account_id>/" + subscriptionIDShaped}},
		{name: "a subscription", typeName: subscriptionType, id: func(existing string) string { return testAccount + "/" + existing }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMock(t)
			if tc.restricted {
				m = restrictedMock(t)
			}
			existing := m.PutSubscription(testAccount, mockserver.Subscription{EventName: "ATOM.STATUS",
				DestinationType: "EVENT_STREAMS", LogLevel: "ERROR"}).SubscriptionID
			s := newConfiguredListServer(t, m)
			ctx := context.Background()
			req := &tfprotov6.ImportResourceStateRequest{TypeName: tc.typeName, ID: tc.id(existing)}
			if tc.identity {
				account, id, _ := strings.Cut(req.ID, "/")
				identity := s.dynamicValue(s.identity, map[string]tftypes.Value{
					"account_id": tftypes.NewValue(tftypes.String, account), "id": tftypes.NewValue(tftypes.String, id)})
				req.ID, req.Identity = "", &tfprotov6.ResourceIdentityData{IdentityData: &identity}
			}
			imported, err := s.server.ImportResourceState(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			requireNoDiagnostics(t, "ImportResourceState", imported.Diagnostics)
			if len(imported.ImportedResources) != 1 || len(imported.ImportedResources[0].Private) == 0 {
				t.Fatalf("the import returned %d resources, or no private state", len(imported.ImportedResources))
			}
			r := imported.ImportedResources[0]
			read, err := s.server.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: tc.typeName,
				CurrentState: r.State, CurrentIdentity: r.Identity, Private: r.Private})
			if err != nil {
				t.Fatal(err)
			}
			if tc.severity == 0 {
				requireNoDiagnostics(t, "ReadResource", read.Diagnostics)
			} else if len(read.Diagnostics) != 1 || read.Diagnostics[0].Severity != tc.severity || read.Diagnostics[0].Summary != tc.summary {
				t.Fatalf("got %v, want one %s %q", diagnosticSet(read.Diagnostics), tc.severity, tc.summary)
			}
			for _, d := range read.Diagnostics {
				for _, phrase := range tc.detail {
					if !strings.Contains(d.Detail, phrase) {
						t.Errorf("the detail lacks %q:\n%s", phrase, d.Detail)
					}
				}
				for _, phrase := range tc.not {
					if strings.Contains(d.Detail, phrase) {
						t.Errorf("the detail says %q:\n%s", phrase, d.Detail)
					}
				}
			}
			if tc.severity != tfprotov6.DiagnosticSeverityError && len(read.Private) != 0 {
				t.Errorf("the read keeps private state %s: a later refresh would take the account for an imported one", read.Private)
			}
		})
	}
}

// TestAccImportOrigin runs imports with the CLI: `terraform import` of a subscription id into
// eventnotify_account_subscriptions, for an account the user has no access to, and an import
// block for a subscription of such an account. Terraform hands the import's private state to
// the Read that follows, so the errors name the import id, not EVENTNOTIFY_ACCOUNT_ID.
func TestAccImportOrigin(t *testing.T) {
	m := restrictedMock(t)
	w := newCLIWorkspace(t, m)
	w.write("main.tf", requiredProviders+acctConfig(acctEntry{key: "a", event: "ATOM.STATUS", level: "INFO"}))
	out, code := w.run(nil, "import", "-input=false", "-no-color", "eventnotify_account_subscriptions.all", subscriptionIDShaped)
	text := diagnosticText(out)
	for _, phrase := range []string{
		"HTTP 403", `comes from the import id "` + subscriptionIDShaped + `"`,
		"did you mean to import it into eventnotify_subscription",
	} {
		if code == 0 || !strings.Contains(text, phrase) {
			t.Errorf("terraform import (exit %d) does not say %q:\n%s", code, phrase, out)
		}
	}

	w.remove("main.tf")
	w.write("main.tf", requiredProviders+`
import {
  to = eventnotify_subscription.test
  id = "acc-other/`+subscriptionIDShaped+`"
}
`+subscriptionConfig(minimalArgs...))
	out, code = w.run(nil, "plan", "-input=false", "-no-color")
	text = diagnosticText(out)
	for _, phrase := range []string{"Unable to read subscription", "HTTP 403", `comes from the import id "acc-other/` + subscriptionIDShaped + `"`} {
		if code != 1 || !strings.Contains(text, phrase) {
			t.Errorf("the plan (exit %d) does not say %q:\n%s", code, phrase, out)
		}
	}
	if n := m.writeRequests(); n != 0 {
		t.Errorf("the imports sent %d writes", n)
	}
}
