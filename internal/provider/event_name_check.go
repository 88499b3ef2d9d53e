package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// The service accepts any event name and creates a subscription that a
// misspelt one never notifies, so the plan checks the names it writes against
// the events catalogue (listEvents), without regard to case. Only names the
// plan writes are checked: an entry new or changed to another event. A name
// the state already holds was checked when it was written (or was on the
// service before Terraform), and a plan that writes no name reads no
// catalogue, so the no-change plans that accountProtocol answers itself need
// none either. An unknown name is skipped at plan time and checked when the
// apply plans it again with its value. The catalogue is read at most once per
// provider instance (client.EventCatalogue); when it cannot be read, the plan
// goes on with a warning if the failure may pass, and fails if the answer is definite
// (plan_reads.go).

// eventNameCheck is an event name a plan writes, and where the configuration
// sets it.
type eventNameCheck struct {
	path path.Path
	name string
	key  string // the entry's key in eventnotify_account_subscriptions' map
}

// Bounds of what a diagnostic shows.
const (
	maxSuggestions    = 3  // closest catalogue names in "did you mean"
	suggestionSlack   = 2  // edits beyond the closest name's that still make a suggestion
	maxUncheckedNames = 5  // names listed in the warning when the catalogue cannot be read
	maxShownNameRunes = 80 // a catalogue name is cut to this in a diagnostic
)

// checkSubscriptionEventName is the check of eventnotify_subscription's
// ModifyPlan: its event_name, unless the state holds it already.
func checkSubscriptionEventName(ctx context.Context, data *providerData, req resource.ModifyPlanRequest) diag.Diagnostics {
	planned := eventNameOf(req.Plan.Raw)
	prior := eventNameOf(req.State.Raw)
	var checks []eventNameCheck
	if planned != nil && (prior == nil || !strings.EqualFold(*planned, *prior)) {
		checks = append(checks, eventNameCheck{path: path.Root("event_name"), name: *planned})
	}
	return checkEventNames(ctx, data, checks)
}

// checkAccountEventNames is the check of eventnotify_account_subscriptions'
// ModifyPlan: the event name of every entry, unless the state holds that name
// (under any key). The protocol fast path relies on that exception: it answers
// a no-change plan without ModifyPlan, so without a check (see ModifyPlan).
func checkAccountEventNames(ctx context.Context, data *providerData, req resource.ModifyPlanRequest) diag.Diagnostics {
	held := make(map[string]bool)
	for _, e := range mapElements(req.State.Raw, "subscriptions") {
		if name := eventNameOf(e); name != nil {
			held[strings.ToLower(*name)] = true
		}
	}
	planned := mapElements(req.Plan.Raw, "subscriptions")
	var checks []eventNameCheck
	for _, key := range sortedKeys(planned) {
		if name := eventNameOf(planned[key]); name != nil && !held[strings.ToLower(*name)] {
			checks = append(checks, eventNameCheck{path: path.Root("subscriptions").AtMapKey(key).AtName("event_name"), name: *name, key: key})
		}
	}
	return checkEventNames(ctx, data, checks)
}

// eventNameOf returns the known event_name of an object value; nil when the
// object or the name is null or unknown.
func eventNameOf(obj tftypes.Value) *string {
	var attrs map[string]tftypes.Value
	if !obj.IsKnown() || obj.IsNull() || obj.As(&attrs) != nil {
		return nil
	}
	v, ok := attrs["event_name"]
	var name string
	if !ok || !v.IsKnown() || v.IsNull() || v.As(&name) != nil {
		return nil
	}
	return &name
}

// mapElements returns the elements of an object's known map attribute.
func mapElements(obj tftypes.Value, attribute string) map[string]tftypes.Value {
	var attrs map[string]tftypes.Value
	if !obj.IsKnown() || obj.IsNull() || obj.As(&attrs) != nil {
		return nil
	}
	m, ok := attrs[attribute]
	var elems map[string]tftypes.Value
	if !ok || !m.IsKnown() || m.IsNull() || m.As(&elems) != nil {
		return nil
	}
	return elems
}

// checkEventNames checks names against the events catalogue: an error for
// each name the catalogue does not hold, with the closest names it does; a
// warning when the catalogue is empty, or cannot be read for a reason that may
// pass, and an error when the service's answer is definite
// (addPlanReadFailure). No names, no read.
func checkEventNames(ctx context.Context, data *providerData, checks []eventNameCheck) diag.Diagnostics {
	var diags diag.Diagnostics
	if len(checks) == 0 || data == nil || data.client == nil {
		return diags
	}
	catalogue, err := data.client.EventCatalogue(ctx)
	switch {
	case err != nil:
		addPlanReadFailure(&diags, planRead{
			warning: "Event names not checked: the events catalogue could not be read",
			error:   "Event names cannot be checked: the events catalogue could not be read",
			skipped: fmt.Sprintf("The plan goes on, but %s not checked against the events catalogue (operation \"list events\"). "+
				"The service accepts any event name, and a subscription to a name that is not in its catalogue is "+
				"never notified: compare the names with the eventnotify_events data source.", uncheckedNames(checks)),
			needed: fmt.Sprintf("The plan checks %s against the events catalogue (operation \"list events\"), which it reads "+
				"from base_url (%s) with a JWT of the provider's account_id (%s).", checkedNames(checks), envBaseURL, envAccountID),
		}, err)
		return diags
	case len(catalogue) == 0:
		diags.AddWarning("Event names not checked: the events catalogue is empty",
			fmt.Sprintf("The service's events catalogue (operation \"list events\") lists no event, so %s not checked. "+
				"The plan goes on.", uncheckedNames(checks)))
		return diags
	}
	known := make(map[string]bool, len(catalogue))
	for _, e := range catalogue {
		known[strings.ToLower(e.Name)] = true
	}
	for _, c := range checks {
		if known[strings.ToLower(c.name)] {
			continue
		}
		what := fmt.Sprintf("Event name %q", c.name)
		if c.key != "" {
			// The CLI shows the resource, not the entry.
			what = fmt.Sprintf("Entry %q of subscriptions: event name %q", c.key, c.name)
		}
		diags.AddAttributeError(c.path, "Unknown event name",
			fmt.Sprintf("%s is not in the events catalogue (operation \"list events\"), so a subscription to it would "+
				"never be notified; the service would accept it all the same. %s Event names are compared without "+
				"regard to case; the eventnotify_events data source lists the catalogue.",
				what, didYouMean(c.name, catalogue)))
	}
	return diags
}

// uncheckedNames names the unchecked event names for a warning: "the event
// name "A" was", "the event names "A", "B" and 3 more were".
func uncheckedNames(checks []eventNameCheck) string {
	if len(checks) == 1 {
		return checkedNames(checks) + " was"
	}
	return checkedNames(checks) + " were"
}

// checkedNames names the event names of checks: "the event name "A"", "the
// event names "A", "B" and 3 more".
func checkedNames(checks []eventNameCheck) string {
	if len(checks) == 1 {
		return fmt.Sprintf("the event name %q", checks[0].name)
	}
	var quoted []string
	for _, c := range checks[:min(len(checks), maxUncheckedNames)] {
		quoted = append(quoted, fmt.Sprintf("%q", c.name))
	}
	list := strings.Join(quoted, ", ")
	if more := len(checks) - len(quoted); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return "the event names " + list
}

// didYouMean suggests the catalogue names closest to name: by edit distance
// (Levenshtein, on lower-case names, as HCL's own suggestions use it), up to
// maxSuggestions of them, within suggestionSlack edits of the closest.
func didYouMean(name string, catalogue []client.CatalogueEntry) string {
	type candidate struct {
		name     string
		distance int
	}
	lower := strings.ToLower(name)
	seen := make(map[string]bool, len(catalogue))
	var candidates []candidate
	for _, e := range catalogue {
		key := strings.ToLower(e.Name)
		if seen[key] {
			continue
		}
		seen[key] = true
		candidates = append(candidates, candidate{e.Name, levenshtein.Distance(lower, key, nil)})
	}
	slices.SortFunc(candidates, func(a, b candidate) int {
		if a.distance != b.distance {
			return a.distance - b.distance
		}
		return strings.Compare(a.name, b.name)
	})
	var quoted []string
	for _, c := range candidates {
		if len(quoted) == maxSuggestions || c.distance > candidates[0].distance+suggestionSlack {
			break
		}
		quoted = append(quoted, fmt.Sprintf("%q", shortName(c.name)))
	}
	switch len(quoted) {
	case 1:
		return "Did you mean " + quoted[0] + "?"
	default:
		return "Did you mean " + strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1] + "?"
	}
}

// shortName cuts a name from the service to maxShownNameRunes.
func shortName(s string) string {
	if r := []rune(s); len(r) > maxShownNameRunes {
		return string(r[:maxShownNameRunes]) + "…"
	}
	return s
}
