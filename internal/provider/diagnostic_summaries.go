package provider

import (
	"errors"
	"fmt"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// The summaries of diagnostics that name subscriptions. Terraform prints the warnings of a run
// that share a summary as the first of them, "(and 7 more similar warnings elsewhere)", and
// drops the others' details; each resource's address is its own only in -json output. So every
// diagnostic that names a subscription carries the subscription's id in its summary (the
// provider does not know resource addresses), with the key of the account or topic resource's
// entry where it knows it, and each is printed. One that names several subscriptions carries
// their count, the first id and how many more (idsNamed), and lists them all, or the first
// takeoverListed of them, in its detail: one diagnostic per id would print a page per
// subscription for a takeover of hundreds. Two such summaries are equal only when they name the
// same first subscription and as many others, which, within one run, is two diagnostics about
// the same subscriptions.
//
// TestDiagnosticSummariesNameSubscriptions holds the rule for each constructor: a new
// diagnostic that names subscriptions gets a row there.

// summaryIDMax bounds an id quoted in a summary.
const summaryIDMax = 64

// summaryID renders a subscription id for a summary: as it is when it has only the characters
// of the service's ids (letters, digits, '-', '_', '.'), quoted and bounded otherwise (what the
// service says is data).
func summaryID(id string) string {
	if id == "" || len(id) > summaryIDMax {
		return quoteBounded(id)
	}
	for _, r := range id {
		if !serviceIDRune(r) {
			return quoteBounded(id)
		}
	}
	return id
}

// serviceIDRune reports whether r is one of the characters of the service's ids: an ASCII letter
// or digit, '-', '_' or '.'.
func serviceIDRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.'
}

// subscriptionNamed names one subscription for a summary: "subscription <id>", and for an entry
// of the account or topic resource (key not empty) `subscription <id> (entry "<key>")`.
func subscriptionNamed(id, key string) string {
	s := "subscription " + summaryID(id)
	if key != "" {
		s += " (entry " + quoteBounded(key) + ")"
	}
	return s
}

// idsNamed names ids for a summary: the first, and how many more ("<id> and 4 more").
func idsNamed(ids []string) string {
	switch len(ids) {
	case 0:
		return ""
	case 1:
		return summaryID(ids[0])
	}
	return fmt.Sprintf("%s and %d more", summaryID(ids[0]), len(ids)-1)
}

// subscriptionsNamed names ids for a summary with their noun: "subscription <id>", or
// "subscriptions <id> and 4 more".
func subscriptionsNamed(ids []string) string {
	return plural(len(ids), "subscription", "subscriptions") + " " + idsNamed(ids)
}

// createErrorSummary is the summary of a failed create, base ("Unable to create subscription"),
// followed by the subscriptions the error names: those a create made whose answer was refused
// for its text, or the candidates of an outcome that could not be settled.
func createErrorSummary(base string, err error) string {
	var unreadable *client.CreatedUnreadableError
	if errors.As(err, &unreadable) && len(unreadable.IDs) > 0 {
		return base + " (created " + subscriptionsNamed(unreadable.IDs) + ", not in state)"
	}
	var unknown *client.UnknownOutcomeError
	if errors.As(err, &unknown) && len(unknown.Candidates) > 0 {
		if len(unknown.Candidates) == 1 {
			return base + " (outcome unknown: it may be " + subscriptionsNamed(unknown.Candidates) + ")"
		}
		return base + " (outcome unknown: it may be one of " + subscriptionsNamed(unknown.Candidates) + ")"
	}
	return base
}

// warnedID is the subscription a create's warning names (createWarning), "" for another error.
func warnedID(err error) string {
	var late *client.LateAdoptionWarning
	if errors.As(err, &late) {
		return late.SubscriptionID
	}
	var again *client.RecreatedWarning
	if errors.As(err, &again) {
		return again.SubscriptionID
	}
	return ""
}
