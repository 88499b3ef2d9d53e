package provider

// Reporting updates whose answer did not tell their outcome (client.ReadBackError): the client
// reads them back together (one GET for one update, one listing of the account for more), so a
// bulk update whose answers were all lost or unreadable is reported once, with counts, and
// not once per subscription: one error for the updates the service does not hold, one for
// those whose read-back failed too. Updates the read-back found applied are successes; the
// caller says so in its progress or log, with no warning: the read-back is the service's own
// record after the write, the same evidence a readable answer gives, and leaves the user
// nothing to do.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// maxNamedInReport is the number of subscriptions a grouped error names; the rest are counted.
const maxNamedInReport = 20

// updateReport groups the read-back failures of one bulk write of an account's subscriptions.
type updateReport struct {
	// verb is what the write does to a subscription: "update", "disable", "enable".
	verb    string
	account string
	// total is the number of updates the write sent.
	total int
	// readBack counts the updates whose outcome was read back, confirmed ones included.
	readBack              int
	notUpdated, unknown   []readBackFailure
	notUpdatedCauses      []string
	unknownCauses, readOf []string
}

// readBackFailure is one update the read-back did not find applied, named by label (its id and
// event name).
type readBackFailure struct {
	label string
	err   *client.ReadBackError
}

// add records the result of one update; label names its subscription. A read-back failure is
// grouped and add returns true; any other error is the caller's to report (add returns false).
func (r *updateReport) add(label string, res client.BulkUpdateResult) bool {
	if res.ReadBack {
		r.readBack++
	}
	var rb *client.ReadBackError
	if !errors.As(res.Err, &rb) {
		return false
	}
	f := readBackFailure{label: label, err: rb}
	if rb.ReadErr != nil {
		r.unknown = append(r.unknown, f)
		r.unknownCauses = appendDistinct(r.unknownCauses, rb.Reason())
		r.readOf = appendDistinct(r.readOf, rb.ReadErr.Error())
	} else {
		r.notUpdated = append(r.notUpdated, f)
		r.notUpdatedCauses = appendDistinct(r.notUpdatedCauses, rb.Reason())
	}
	return true
}

// confirmed is the number of updates the read-back found applied.
func (r *updateReport) confirmed() int { return r.readBack - len(r.notUpdated) - len(r.unknown) }

// report adds one error per group; advice ends each (what to do next, for the caller's kind
// of write).
func (r *updateReport) report(diags *diag.Diagnostics, advice string) {
	if n := len(r.notUpdated); n > 0 {
		detail := fmt.Sprintf("The service's answer did not tell whether it applied the update of %s: %s.\n\nRead back (%s), %s "+
			"settings other than the update's, so the update did not take effect: %s.\n\n%s",
			subscriptionCount(n), strings.Join(r.notUpdatedCauses, "; "), how(r.notUpdated), plural(n, "it holds", "they hold"), names(r.notUpdated), advice)
		diags.AddError(fmt.Sprintf("Unable to %s %d of %d subscriptions of account %s: not updated", r.verb, n, r.total, r.account), detail)
	}
	if n := len(r.unknown); n > 0 {
		detail := fmt.Sprintf("The service's answer did not tell whether it applied the update of %s: %s.\n\nReading %s back to "+
			"find out (%s) failed too: %s. The service may or may not have applied the update to %s: %s.\n\n%s",
			subscriptionCount(n), strings.Join(r.unknownCauses, "; "), plural(n, "it", "them"), how(r.unknown), strings.Join(r.readOf, "; "),
			plural(n, "it", "them"), names(r.unknown), advice)
		diags.AddError(fmt.Sprintf("Unable to %s %d of %d subscriptions of account %s: the outcome is unknown", r.verb, n, r.total, r.account), detail)
	}
}

// subscriptionCount is "1 subscription" or "N subscriptions".
func subscriptionCount(n int) string {
	return fmt.Sprintf("%d %s", n, plural(n, "subscription", "subscriptions"))
}

// how says how the failures were read back.
func how(fs []readBackFailure) string {
	for _, f := range fs {
		if f.err.Listed {
			return "one listing of the account"
		}
	}
	return "one read each"
}

// names lists the failures' labels, at most maxNamedInReport of them.
func names(fs []readBackFailure) string {
	var labels []string
	for i, f := range fs {
		if i == maxNamedInReport {
			labels = append(labels, fmt.Sprintf("and %d more", len(fs)-i))
			break
		}
		labels = append(labels, f.label)
	}
	return strings.Join(labels, ", ")
}

// appendDistinct appends s unless list holds it.
func appendDistinct(list []string, s string) []string {
	for _, have := range list {
		if have == s {
			return list
		}
	}
	return append(list, s)
}

// readBackDetail explains one update whose answer did not tell its outcome and that the
// read-back did not find applied (the subscription resource's update).
func readBackDetail(e *client.ReadBackError) string {
	if e.ReadErr != nil {
		return fmt.Sprintf("The service's answer to the update of subscription %s did not tell whether it was applied (%s). "+
			"Reading the subscription back to find out failed too: %v.\n\nThe service may or may not hold the new settings; state "+
			"keeps the previous ones, so the next plan reads the subscription and shows what is left to change. Updates are "+
			"idempotent: applying again is safe.", e.SubscriptionID, e.Reason(), e.ReadErr)
	}
	return fmt.Sprintf("The service's answer to the update of subscription %s did not tell whether it was applied (%s). "+
		"Reading the subscription back shows that the service still holds other settings than the update's, so the update did "+
		"not take effect; state keeps the previous settings.\n\nUpdates are idempotent: applying again sends it again "+
		"(terraform plan shows the difference).", e.SubscriptionID, e.Reason())
}
