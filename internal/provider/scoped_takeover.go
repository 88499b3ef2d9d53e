package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// Taking over an account: eventnotify_account_subscriptions is authoritative, so its first
// apply deletes every subscription the account already holds that no entry matches. The plan
// of that create lists the account (a read; the client keeps the listing, so the apply that
// follows in the same provider process reads it again without a request) and warns, naming
// each subscription the apply will delete and how to keep them, and each one an entry takes
// over (it matches the entry's inputs), whoever made it, so that no second holder goes unnamed. A listing that fails is an
// error, which says whether planning again may help (plan_reads.go).

// takeoverListed is how many of the subscriptions to be deleted the warning names one by one.
const takeoverListed = 10

// takeoverValueMax bounds each value of the service that the warning quotes.
const takeoverValueMax = 80

// existingEntries keys the account's subscriptions by id, as Create holds them.
func existingEntries(list []client.Subscription) map[string]accountEntry {
	existing := make(map[string]accountEntry, len(list))
	for i := range list {
		existing[freeKey(existing, list[i].ID)] = accountEntryFromAPI(&list[i])
	}
	return existing
}

// takeoverScan lists the account for the plan that creates the resource of scope, and warns,
// naming the subscriptions of the scope that the apply deletes and those that planned entries
// take over. An entry of planned with an unknown input is moved to opaque (as are the keys
// opaque already holds: entries known only at apply). It returns what it found: the ids the
// apply deletes, and the ids of the subscriptions taken over, by entry key (the plan's
// takeover attribute, takeover_attribute.go, once no entry is opaque).
//
// What a destroy of this provider instance deleted counts as listed (destroyed,
// takeover_destroyed.go), so that the plan of a replacement's create, made again after the
// old object's destroy, is the plan made before it.
func takeoverScan(ctx context.Context, c *client.Client, destroyed *destroyedRegistry, acct string, scope subscriptionScope,
	planned map[string]accountEntry, opaque map[string]bool) (takeoverPlan, diag.Diagnostics) {
	var diags diag.Diagnostics
	list, err := c.AccountSubscriptions(ctx, acct)
	if err != nil {
		// No warning: the plan is where the user sees what the apply deletes, so it does not
		// go on without the listing.
		addPlanReadFailure(&diags, planRead{
			error:  "Unable to list the subscriptions of account " + acct,
			needed: "The plan lists the account to show which of its subscriptions the first apply deletes, and does not go on without it.",
		}, err)
		return takeoverPlan{}, diags
	}
	list = scope.filter(list)
	existing := existingEntries(list)
	destroyed.addTo(acct, scope, existing)
	for key, e := range planned {
		if _, ok := e.inputs(); !ok {
			delete(planned, key)
			opaque[key] = true
		}
	}
	// An entry holds no destination email; the warning names it all the same.
	emails := make(map[string]string, len(list))
	for i := range list {
		emails[strings.ToLower(list[i].ID)] = list[i].DestinationEmail
	}
	withEmail := func(key string) accountEntry {
		e := existing[key]
		e.DestinationEmail = optionalString(emails[strings.ToLower(e.ID.ValueString())])
		return e
	}
	match := matchEntries(planned, existing)
	var deleted []accountEntry
	found := takeoverPlan{takesOver: make(map[string]string)}
	for _, key := range match.delete {
		deleted = append(deleted, withEmail(key))
		found.deletes = append(found.deletes, existing[key].ID.ValueString())
	}
	if len(deleted) > 0 {
		diags.AddWarning(takeoverSummary(scope, acct, deleted, len(opaque) > 0), takeoverDetail(scope, acct, deleted, len(opaque) > 0))
	}
	var takenOver []entryTakeover
	for _, key := range sortedKeys(planned) {
		hk, kept := match.keep[key]
		if !kept {
			hk, kept = match.update[key]
		}
		if kept {
			takenOver = append(takenOver, entryTakeover{key: key, held: withEmail(hk)})
		}
	}
	if len(takenOver) > 0 {
		diags.AddWarning(takenOverSummary(scope, acct, takenOver), takenOverDetail(scope, acct, takenOver))
	}
	for _, a := range takenOver {
		found.takesOver[a.key] = a.held.ID.ValueString()
	}
	return found, diags
}

// entryTakeover is an entry of the plan that takes over a subscription the account already
// holds.
type entryTakeover struct {
	key  string       // the entry's key
	held accountEntry // the subscription, as the service lists it
}

// takenOverSummary is the summary of the warning that names the subscriptions the first apply
// takes over: their count, and the first with its entry (diagnostic_summaries.go).
func takenOverSummary(scope subscriptionScope, account string, takenOver []entryTakeover) string {
	n := len(takenOver)
	s := fmt.Sprintf("The first apply takes over %d %s that %s already holds: %s", n, plural(n, "subscription", "subscriptions"),
		scope.where(account), subscriptionNamed(takenOver[0].held.ID.ValueString(), takenOver[0].key))
	if n > 1 {
		s += fmt.Sprintf(" and %d more", n-1)
	}
	return s
}

// takenOverDetail names each subscription an entry takes over (the first takeoverListed, and
// how many more) and says what holding it means: whoever made it, its id is this resource's
// from then on, and another holder of it fights this one.
func takenOverDetail(scope subscriptionScope, account string, takenOver []entryTakeover) string {
	var b strings.Builder
	fmt.Fprintf(&b, "These entries of subscriptions match a subscription that %s already holds (%s). The first apply "+
		"creates nothing for them: each entry takes over the subscription, whoever made it, and holds its id from "+
		"then on:\n", scope.where(account), scope.sameWhat())
	for i, a := range takenOver {
		if i == takeoverListed {
			fmt.Fprintf(&b, "  ... and %d more\n", len(takenOver)-takeoverListed)
			break
		}
		fmt.Fprintf(&b, "  - entry %s takes over %s\n", quoteBounded(a.key), describeEntry(a.held))
	}
	b.WriteString("\nIf another configuration, or an eventnotify_subscription resource, manages one of them, both " +
		"then hold it, and each apply undoes the other's changes; destroying either deletes it. Remove it from the " +
		"other configuration (terraform state rm there, or a removed block) before applying this one.")
	return b.String()
}

// takeoverSummary is the warning's summary: the count of the subscriptions deleted, and the
// first of them (diagnostic_summaries.go).
func takeoverSummary(scope subscriptionScope, account string, deleted []accountEntry, uncertain bool) string {
	verb := "deletes"
	if uncertain {
		verb = "may delete"
	}
	ids := make([]string, len(deleted))
	for i, e := range deleted {
		ids[i] = e.ID.ValueString()
	}
	return fmt.Sprintf("The first apply %s %d %s that %s already holds: %s", verb, len(deleted),
		plural(len(deleted), "subscription", "subscriptions"), scope.where(account), idsNamed(ids))
}

// takeoverDetail names the subscriptions the apply deletes (the first takeoverListed, and how
// many more) and says how to keep them.
func takeoverDetail(scope subscriptionScope, account string, deleted []accountEntry, uncertain bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is authoritative: after apply, %s holds exactly the entries of subscriptions. %s already "+
		"holds %d subscriptions that no entry matches (%s), and the first apply deletes them:\n", scope.typeName(),
		scope.where(account), scope.holder(), len(deleted), scope.sameWhat())
	for i, e := range deleted {
		if i == takeoverListed {
			fmt.Fprintf(&b, "  ... and %d more\n", len(deleted)-takeoverListed)
			break
		}
		fmt.Fprintf(&b, "  - %s\n", describeEntry(e))
	}
	if uncertain {
		b.WriteString("\nSome entries are known only at apply; a subscription listed here that one of them matches is " +
			"kept instead.\n")
	} else {
		b.WriteString("\nThe plan holds these ids in takeover.deletes, which a saved plan shows (terraform show tfplan), " +
			"and the apply deletes no other: should the " + scope.noun() + " hold other subscriptions by then, Terraform " +
			"stops the apply before any change (\"Provider produced inconsistent final plan\" for takeover), and a new " +
			"plan names them.\n")
	}
	b.WriteString("\n" + takeoverAdvice(scope, account))
	return b.String()
}

// takeoverAdvice says how to keep what the scope of an account holds.
func takeoverAdvice(scope subscriptionScope, account string) string {
	id, word := scope.importID(account), scope.importID(account)
	if !strings.HasPrefix(account, "<") { // a placeholder stays as it is
		word = shellQuoted(id)
	}
	return fmt.Sprintf("To keep them, import the %s before the first apply:\n"+
		"  terraform import %s.NAME %s\n"+
		"or add an import block with to = %s.NAME and id = %q. The plan then shows each "+
		"subscription that no entry holds as a removal from the map, under its id; copy an entry into the "+
		"configuration to keep it.", scope.noun(), scope.typeName(), word, scope.typeName(), id)
}

// describeEntry names a subscription of the service in one line: id, event, destination and
// log level, each value quoted and bounded (what the service says is data).
func describeEntry(e accountEntry) string {
	destination := quoteBounded(e.DestinationType.ValueString())
	switch {
	case e.EventStreamsTopic.ValueString() != "":
		destination += " topic " + quoteBounded(e.EventStreamsTopic.ValueString())
	case e.DestinationEmail.ValueString() != "":
		destination += " " + quoteBounded(e.DestinationEmail.ValueString())
	}
	s := fmt.Sprintf("%s: event %s, destination %s, log level %s", quoteBounded(e.ID.ValueString()),
		quoteBounded(e.EventName.ValueString()), destination, quoteBounded(e.LogLevel.ValueString()))
	if !e.Enabled.IsNull() && !e.Enabled.ValueBool() {
		s += " (disabled)"
	}
	return s
}

// quoteBounded quotes a value of the service, control characters escaped, cut to
// takeoverValueMax runes.
func quoteBounded(s string) string {
	if r := []rune(s); len(r) > takeoverValueMax {
		return fmt.Sprintf("%q...", string(r[:takeoverValueMax]))
	}
	return fmt.Sprintf("%q", s)
}
