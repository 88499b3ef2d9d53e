package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// A plan reads the service for two checks that it can plan without: the events catalogue,
// for the event names it writes (event_name_check.go), and the account's subscriptions, for
// those that the first apply of eventnotify_account_subscriptions deletes
// (account_subscriptions_takeover.go). Both treat a failed read the same way, through
// addPlanReadFailure:
//
//   - a failure that may pass (client.Transient: a timeout, the service failing or busy, a
//     network error another attempt may fix) is a warning: the plan goes on without the
//     check, and says what was not checked;
//   - a definite answer (401, 403, the service's own 404, a 404 from an address that does not
//     serve the API, a redirect, an untrusted certificate, ...) is an error: the apply would
//     meet the same answer once per resource, and in CI the plan is the gate, so the plan
//     fails, with the reason and what to check.

// planRead describes one plan-time read for its diagnostics.
type planRead struct {
	// warning is the summary of the warning when the failure may pass.
	warning string
	// error is the summary of the error when the answer is definite.
	error string
	// skipped says, in the warning, what the plan does without the answer.
	skipped string
	// needed says, in the error, what the plan reads it for.
	needed string
}

// definiteNote says why a plan-time read's failure stops the plan.
const definiteNote = "The answer is not one that passes (such as a timeout or the service failing for a moment), so " +
	"the plan stops here: planning again gives the same answer, and the apply would fail with it once per resource."

// passingNote says why a plan-time read's failure is a warning only.
const passingNote = "The failure may pass: plan again to have the check made."

// addPlanReadFailure adds the diagnostic of a plan-time read that failed with err: a warning
// when the failure may pass, an error when the answer is definite.
func addPlanReadFailure(diags *diag.Diagnostics, r planRead, err error) {
	if client.Transient(err) {
		diags.AddWarning(r.warning, r.skipped+" "+passingNote+"\n\n"+clientErrorDetail(err))
		return
	}
	diags.AddError(r.error, r.needed+" "+definiteNote+"\n\n"+clientErrorDetail(err))
}
