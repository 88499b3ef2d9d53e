package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// A plan reads the service for two checks: the events catalogue, for the event names it
// writes (event_name_check.go), and the account's subscriptions, for those that the first
// apply of eventnotify_account_subscriptions deletes (scoped_takeover.go). Both
// treat a failed read the same way, through addPlanReadFailure:
//
//   - a definite answer (401, 403, the service's own 404, a 404 from an address that does not
//     serve the API, a redirect, an untrusted certificate, ...) is an error: the apply would
//     meet the same answer once per resource, and in CI the plan is the gate, so the plan
//     fails, with the reason and what to check;
//   - a failure that may pass (client.Transient: a timeout, the service failing or busy, a
//     network error another attempt may fix) is a warning when the plan can go on without the
//     check (the catalogue: the names go unchecked, and the warning says which), and an error
//     that says to plan again when it cannot (the listing: the plan is where the user sees what
//     the apply deletes).

// planRead describes one plan-time read for its diagnostics.
type planRead struct {
	// warning is the summary of the warning when the failure may pass; "" when the plan does
	// not go on without the read, and such a failure is an error too.
	warning string
	// error is the summary of the error.
	error string
	// skipped says, in the warning, what the plan does without the answer.
	skipped string
	// needed says, in the error, what the plan reads it for.
	needed string
}

// definiteNote says why a definite answer to a plan-time read stops the plan.
const definiteNote = "The answer is not one that passes (such as a timeout or the service failing for a moment), so " +
	"the plan stops here: planning again gives the same answer, and the apply would fail with it once per resource."

// passingNote says what to do about a failure of a plan-time read that may pass.
const passingNote = "The failure may pass: plan again to have the check made."

// addPlanReadFailure adds the diagnostic of a plan-time read that failed with err: an error
// when the answer is definite, and when the failure may pass a warning, or an error if the
// read has no warning.
func addPlanReadFailure(diags *diag.Diagnostics, r planRead, err error) {
	switch {
	case !client.Transient(err):
		diags.AddError(r.error, r.needed+" "+definiteNote+"\n\n"+clientErrorDetail(err))
	case r.warning != "":
		diags.AddWarning(r.warning, r.skipped+" "+passingNote+"\n\n"+clientErrorDetail(err))
	default:
		diags.AddError(r.error, r.needed+" "+passingNote+"\n\n"+clientErrorDetail(err))
	}
}
