package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Two holders of one subscription. Terraform gives each provider configuration of a run its
// own provider process, and plans (or imports) the resources of that configuration in
// parallel through it; the provider sees a resource only through its own calls (ReadResource,
// PlanResourceChange), never its address or the rest of the state. So the provider instance
// keeps a registry of what each call it served holds, keyed by account and subscription id,
// and warns when a call finds another holder already there:
//
//   - two eventnotify_subscription resources with one id (an import of an id another resource
//     holds);
//   - eventnotify_account_subscriptions and eventnotify_subscription resources on one account:
//     the account resource deletes every subscription no entry holds, so each apply deletes the
//     single resources' subscriptions and the next apply creates them again;
//   - two eventnotify_account_subscriptions on one account.
//
// One resource instance is read once and planned once per walk (a provider process serves one
// walk), so two registrations of one id by the same kind of call and the same resource type
// are two holders; a Read and a plan of one resource are not. Each conflict is warned about
// once per provider instance. What the registry cannot see: holders in other configurations
// or other states, and a resource that is neither read nor planned in the walk (-target).

// holderCall is the kind of call that registers a holding.
type holderCall string

const (
	holderRead holderCall = "read" // ReadResource, also the Read that follows an import
	holderPlan holderCall = "plan" // PlanResourceChange of a resource that is not being destroyed
)

// holding is one resource's claim, as a warning names it.
type holding struct {
	typeName string     // the resource type
	call     holderCall // the call that registered it
	label    string     // how a warning names the holder
}

// holderKey is a subscription of an account.
type holderKey struct{ account, id string }

// holderRegistry is the registry of one provider instance. The zero value is not used; a nil
// registry records nothing and never warns.
type holderRegistry struct {
	mu       sync.Mutex
	ids      map[holderKey][]holding // subscription -> the eventnotify_subscription resources that hold it
	accounts map[string][]holding    // account -> the eventnotify_account_subscriptions that hold it
	entries  map[holderKey]string    // subscription -> the key of the account resource's entry that holds it
	singles  map[string][]string     // account -> ids (or "" while unknown) of its eventnotify_subscription resources
	warned   map[string]bool         // conflicts already warned about
}

// newHolderRegistry returns an empty registry.
func newHolderRegistry() *holderRegistry {
	return &holderRegistry{ids: map[holderKey][]holding{}, accounts: map[string][]holding{},
		entries: map[holderKey]string{}, singles: map[string][]string{}, warned: map[string]bool{}}
}

// twoHolders reports whether two holdings of one key are two resources: of different types,
// or of one type and registered by the same kind of call.
func twoHolders(a, b holding) bool {
	return a.typeName != b.typeName || a.call == b.call
}

// holdSubscription records that an eventnotify_subscription resource holds subscription id of
// account (id "" while the plan does not know it yet), and returns a warning for a holder it
// finds: another eventnotify_subscription with the id, or an eventnotify_account_subscriptions
// of the account. imported tells a resource being imported.
func (r *holderRegistry) holdSubscription(account, id string, call holderCall, imported bool) diag.Diagnostics {
	if r == nil || account == "" {
		return nil
	}
	label := fmt.Sprintf("an %s resource that holds subscription %q", subscriptionResourceTypeName, id)
	switch {
	case id == "":
		label = fmt.Sprintf("an %s resource to be created in account %q", subscriptionResourceTypeName, account)
	case imported:
		label = fmt.Sprintf("the %s resource being imported with id %q", subscriptionResourceTypeName, id)
	}
	h := holding{typeName: subscriptionResourceTypeName, call: call, label: label}
	r.mu.Lock()
	defer r.mu.Unlock()
	var diags diag.Diagnostics
	if id != "" {
		key := holderKey{account, strings.ToLower(id)}
		for _, o := range r.ids[key] {
			if twoHolders(o, h) && r.once("id:"+account+"/"+key.id) {
				diags.AddWarning(fmt.Sprintf("Subscription %s is held by two resources", id), twoSubscriptionHolders(account, id, o, h))
				break
			}
		}
		r.ids[key] = append(r.ids[key], h)
	}
	r.singles[account] = append(r.singles[account], id)
	if owners := r.accounts[account]; len(owners) > 0 && r.once("account:"+account) {
		diags.AddWarning(accountHoldersSummary(account), r.accountHoldersDetail(account, owners[0]))
	}
	return diags
}

// holdAccount records that an eventnotify_account_subscriptions holds account, with its
// entries' subscriptions (entry key -> id, known ids only), and returns a warning for a holder
// it finds: eventnotify_subscription resources on the account, or another account resource.
func (r *holderRegistry) holdAccount(account string, entryIDs map[string]string, call holderCall) diag.Diagnostics {
	if r == nil || account == "" {
		return nil
	}
	h := holding{typeName: accountResourceTypeName, call: call,
		label: fmt.Sprintf("the %s of account %q", accountResourceTypeName, account)}
	r.mu.Lock()
	defer r.mu.Unlock()
	var diags diag.Diagnostics
	for key, id := range entryIDs {
		// An entry keyed by its own id is one the account resource read in and no key of the
		// configuration holds: it plans to delete it.
		if id != "" && !strings.EqualFold(key, id) {
			r.entries[holderKey{account, strings.ToLower(id)}] = key
		}
	}
	for _, o := range r.accounts[account] {
		if twoHolders(o, h) && r.once("accounts:"+account) {
			diags.AddWarning(fmt.Sprintf("Account %q is held by two %s resources", account, accountResourceTypeName),
				fmt.Sprintf("Two %s resources of this configuration manage account %q. Each is authoritative: its "+
					"apply deletes every subscription of the account that its own entries do not hold, which are "+
					"the other's, so each apply undoes the other, and destroying either deletes every subscription "+
					"of the account. Keep one %s per account: move the entries of the other into it, and remove the "+
					"other from state (terraform state rm, or a removed block) before it is destroyed.",
					accountResourceTypeName, account, accountResourceTypeName))
			break
		}
	}
	r.accounts[account] = append(r.accounts[account], h)
	if len(r.singles[account]) > 0 && r.once("account:"+account) {
		diags.AddWarning(accountHoldersSummary(account), r.accountHoldersDetail(account, h))
	}
	return diags
}

// once reports whether the conflict has not been warned about yet, and records it. The caller
// holds the lock.
func (r *holderRegistry) once(conflict string) bool {
	if r.warned[conflict] {
		return false
	}
	r.warned[conflict] = true
	return true
}

// twoSubscriptionHolders is the detail of a subscription that two eventnotify_subscription
// resources hold.
func twoSubscriptionHolders(account, id string, a, b holding) string {
	holders := a.label + " and by " + b.label
	if a.label == b.label {
		holders = "two " + subscriptionResourceTypeName + " resources"
	}
	return fmt.Sprintf("Subscription %s of account %q is held by %s in this configuration. Both "+
		"then manage one subscription: each apply changes it back to the other's settings, and destroying either "+
		"deletes it while the other still holds it. (The provider does not see resource addresses; look for "+
		"eventnotify_subscription resources whose id is %s, with terraform state list and terraform state show.)\n\n"+
		"Keep one: remove the other from state with terraform state rm (or a removed block), or, if the import was "+
		"a mistake, do not import this id.", id, account, holders, id)
}

// accountHoldersSummary is the summary of an account that both kinds of resource hold.
func accountHoldersSummary(account string) string {
	return fmt.Sprintf("Account %q is held by %s and by %s resources", account, accountResourceTypeName, subscriptionResourceTypeName)
}

// accountHoldersDetail names the eventnotify_subscription resources of an account that an
// eventnotify_account_subscriptions holds, with the entry that holds each one's subscription,
// or says that no entry does and the account resource deletes it. The caller holds the lock.
func (r *holderRegistry) accountHoldersDetail(account string, owner holding) string {
	ids := slices.Clone(r.singles[account])
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var b strings.Builder
	fmt.Fprintf(&b, "Both %s and %s resources of this configuration manage account %q, and each apply fights: %s "+
		"is authoritative and deletes every subscription of the account that no entry of its subscriptions holds, "+
		"so an apply deletes the eventnotify_subscription resources' subscriptions, and the next creates them "+
		"again (or the two rewrite one subscription's settings, where an entry holds it too). The "+
		"eventnotify_subscription resources on the account:\n", owner.label, subscriptionResourceTypeName, account,
		accountResourceTypeName)
	for _, id := range ids {
		switch key, ok := r.entries[holderKey{account, strings.ToLower(id)}]; {
		case id == "":
			b.WriteString("  - one to be created, which no entry holds: the account resource deletes it\n")
		case ok:
			fmt.Fprintf(&b, "  - subscription %q, which entry %s of the account resource holds too\n", id, quoteBounded(key))
		default:
			fmt.Fprintf(&b, "  - subscription %q, which no entry holds: the account resource deletes it\n", id)
		}
	}
	fmt.Fprintf(&b, "\nManage each account one way: move the subscriptions into entries of %s and remove the "+
		"%s resources from state (terraform state rm, or a removed block), or use only %s resources on this account.",
		accountResourceTypeName, subscriptionResourceTypeName, subscriptionResourceTypeName)
	return b.String()
}

// entryIDs are the known subscription ids of an account resource's entries, by key.
func entryIDs(entries map[string]accountEntry) map[string]string {
	ids := make(map[string]string, len(entries))
	for key, e := range entries {
		if !e.ID.IsNull() && !e.ID.IsUnknown() {
			ids[key] = e.ID.ValueString()
		}
	}
	return ids
}

// planAccount is the account_id of a plan, null while unknown.
func planAccount(ctx context.Context, plan tfsdk.Plan) types.String {
	var account types.String
	if diags := plan.GetAttribute(ctx, path.Root("account_id"), &account); diags.HasError() || account.IsUnknown() {
		return types.StringNull()
	}
	return account
}

// planHolding records what an eventnotify_subscription's plan holds: its account and id (the
// id unknown on create). A plan that destroys holds nothing, nor one whose account is unknown.
func planHolding(ctx context.Context, holders *holderRegistry, plan tfsdk.Plan) diag.Diagnostics {
	if plan.Raw.IsNull() {
		return nil
	}
	var account, id types.String
	diags := plan.GetAttribute(ctx, path.Root("account_id"), &account)
	diags.Append(plan.GetAttribute(ctx, path.Root("id"), &id)...)
	if diags.HasError() || account.IsUnknown() || account.IsNull() {
		return diags
	}
	return holders.holdSubscription(account.ValueString(), id.ValueString(), holderPlan, false)
}
