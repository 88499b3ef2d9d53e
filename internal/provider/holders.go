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
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Two holders of one subscription. Terraform gives each provider configuration of a run its
// own provider process, and plans (or imports) the resources of that configuration in
// parallel through it; the provider sees a resource only through its own calls (ReadResource,
// PlanResourceChange), never its address or the rest of the state. So the provider instance
// keeps a registry of what each plan it served holds, keyed by account and subscription id,
// and warns when a plan finds another holder already there (Terraform adds the address of the
// resource whose plan warns):
//
//   - two eventnotify_subscription resources with one id (an import of an id another resource
//     holds);
//   - eventnotify_account_subscriptions and eventnotify_subscription resources on one account:
//     the account resource deletes every subscription no entry holds, so each apply deletes the
//     single resources' subscriptions and the next apply creates them again;
//   - two eventnotify_account_subscriptions on one account.
//
// Only plans register: every resource of the configuration is planned once per walk (a
// provider process serves one walk), while a resource that a removed block forgets or a
// destroy deletes is read but planned to nothing, and holds nothing. A replacement is planned
// twice: the provider's own (RequiresReplace) registers only as the create, and -replace
// plans an eventnotify_subscription as a create with an id not yet known, an account resource
// with the same keys (holdAccount). So two registrations of one id are two holders.
// Each conflict is warned about once per provider instance. What the registry cannot see:
// holders in other configurations or other states, a resource left out of the walk (-target),
// and terraform import, whose walk reads only the resource it imports (the next plan warns).
//
// Every path that answers PlanResourceChange of a resource that holds subscriptions must
// register, or what it holds is invisible to the others: ModifyPlan of
// eventnotify_subscription (planHolding) and of eventnotify_account_subscriptions
// (holdAccount), and the protocol fast path, which answers the account resource's no-change
// plans without ModifyPlan (accountProtocol.planResourceChange). A new resource that holds
// subscriptions registers in its ModifyPlan, and a registration moved out of ModifyPlan (to
// Read, say) would make forgotten and destroyed resources hold.

// holderKey is a subscription of an account.
type holderKey struct{ account, id string }

// holderRegistry is the registry of one provider instance. The zero value is not used; a nil
// registry records nothing and never warns.
type holderRegistry struct {
	mu       sync.Mutex
	ids      map[holderKey]bool   // subscriptions an eventnotify_subscription holds
	accounts map[string]string    // accounts an eventnotify_account_subscriptions holds -> its keys
	entries  map[holderKey]string // subscription -> the key of the account resource's entry that holds it
	singles  map[string][]string  // account -> ids (or "" while unknown) of its eventnotify_subscription resources
	warned   map[string]bool      // conflicts already warned about
	// topics are the topics an eventnotify_topic_subscriptions holds -> its keys, and
	// topicSingles the ids of the eventnotify_subscription resources on each topic
	// (topic_subscriptions_holders.go).
	topics       map[topicHolder]string
	topicSingles map[topicHolder][]string
	topicEntries map[holderKey]string // subscription -> the key of the topic resource's entry that holds it
}

// newHolderRegistry returns an empty registry.
func newHolderRegistry() *holderRegistry {
	return &holderRegistry{ids: map[holderKey]bool{}, accounts: map[string]string{},
		entries: map[holderKey]string{}, singles: map[string][]string{}, warned: map[string]bool{},
		topics: map[topicHolder]string{}, topicSingles: map[topicHolder][]string{}, topicEntries: map[holderKey]string{}}
}

// holdSubscription records that an eventnotify_subscription resource holds subscription id of
// account (id "" while the plan does not know it yet), and returns a warning for a holder it
// finds: another eventnotify_subscription with the id, or an eventnotify_account_subscriptions
// of the account.
func (r *holderRegistry) holdSubscription(account, id string) diag.Diagnostics {
	if r == nil || account == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var diags diag.Diagnostics
	if id != "" {
		key := holderKey{account, strings.ToLower(id)}
		if r.ids[key] && r.once("id:"+account+"/"+key.id) {
			diags.AddWarning(fmt.Sprintf("Subscription %s is held by two resources", id), twoSubscriptionHolders(account, id))
		}
		r.ids[key] = true
	}
	r.singles[account] = append(r.singles[account], id)
	if _, ok := r.accounts[account]; ok && r.once("account:"+account) {
		diags.AddWarning(accountHoldersSummary(account, r.singles[account]), r.accountHoldersDetail(account))
	}
	return diags
}

// holdAccount records that an eventnotify_account_subscriptions holds account, with the keys
// of its map and its entries' subscriptions (entry key -> id, known ids only), and returns a
// warning for a holder it finds: eventnotify_subscription resources on the account, or another
// account resource. Another account resource is one with other keys: -replace plans one
// resource twice (with its state, then as a create), and the two plans hold the same keys;
// two resources with the same keys on one account (a module used twice) go unnamed.
func (r *holderRegistry) holdAccount(account string, keys []string, entryIDs map[string]string) diag.Diagnostics {
	if r == nil || account == "" {
		return nil
	}
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
	keySet := strings.Join(slices.Sorted(slices.Values(keys)), "\x00")
	if held, ok := r.accounts[account]; ok && held != keySet && r.once("accounts:"+account) {
		diags.AddWarning(fmt.Sprintf("Account %q is held by two %s resources", account, accountResourceTypeName),
			fmt.Sprintf("Two %s resources of this configuration manage account %q. Each is authoritative: its "+
				"apply deletes every subscription of the account that its own entries do not hold, which are "+
				"the other's, so each apply undoes the other, and destroying either deletes every subscription "+
				"of the account. Keep one %s per account: move the entries of the other into it, and remove the "+
				"other from state (terraform state rm, or a removed block) before it is destroyed.",
				accountResourceTypeName, account, accountResourceTypeName))
	}
	if _, ok := r.accounts[account]; !ok {
		r.accounts[account] = keySet
	}
	if len(r.singles[account]) > 0 && r.once("account:"+account) {
		diags.AddWarning(accountHoldersSummary(account, r.singles[account]), r.accountHoldersDetail(account))
	}
	diags.Append(r.topicsOfAccount(account)...)
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
func twoSubscriptionHolders(account, id string) string {
	return fmt.Sprintf("Subscription %s of account %q is held by two %s resources in this configuration. Both "+
		"then manage one subscription: each apply changes it back to the other's settings, and destroying either "+
		"deletes it while the other still holds it. (The provider does not see resource addresses: Terraform names "+
		"one of them above; find the other with terraform state list and terraform state show, by the id %s.)\n\n"+
		"Keep one: remove the other from state with terraform state rm (or a removed block), or, if an import "+
		"brought it in, do not import this id.", id, account, subscriptionResourceTypeName, id)
}

// accountHoldersSummary is the summary of an account that both kinds of resource hold; singles
// are the ids of its eventnotify_subscription resources ("" for one not created yet), the known
// ones named (diagnostic_summaries.go).
func accountHoldersSummary(account string, singles []string) string {
	return fmt.Sprintf("Account %q is held by %s and by %s resources", account, accountResourceTypeName,
		subscriptionResourceTypeName) + knownIDsNamed(singles)
}

// knownIDsNamed names the known ids of ids ("" is one not created yet) for the end of a summary:
// ": subscriptions <id> and 2 more", or "" when none is known.
func knownIDsNamed(ids []string) string {
	known := slices.DeleteFunc(slices.Compact(slices.Sorted(slices.Values(ids))), func(id string) bool { return id == "" })
	if len(known) == 0 {
		return ""
	}
	return ": " + subscriptionsNamed(known)
}

// accountHoldersDetail names the eventnotify_subscription resources of an account that an
// eventnotify_account_subscriptions holds, with the entry that holds each one's subscription,
// or says that no entry does and the account resource deletes it. The caller holds the lock.
func (r *holderRegistry) accountHoldersDetail(account string) string {
	ids := slices.Clone(r.singles[account])
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var b strings.Builder
	fmt.Fprintf(&b, "Both an %s and %s resources of this configuration manage account %q, and each apply fights: %s "+
		"is authoritative and deletes every subscription of the account that no entry of its subscriptions holds, "+
		"so an apply deletes the eventnotify_subscription resources' subscriptions, and the next creates them "+
		"again (or the two rewrite one subscription's settings, where an entry holds it too). The "+
		"eventnotify_subscription resources on the account:\n", accountResourceTypeName, subscriptionResourceTypeName, account,
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
	diags.Append(holders.holdSubscription(account.ValueString(), id.ValueString())...)
	return append(diags, planTopicHolding(ctx, holders, plan, account.ValueString(), id.ValueString())...)
}

// entryIDsFromTerraform is entryIDs for the entries of a protocol value (the fast path).
func entryIDsFromTerraform(entries map[string]tftypes.Value) map[string]string {
	ids := make(map[string]string, len(entries))
	for key, v := range entries {
		var attrs map[string]tftypes.Value
		if v.As(&attrs) != nil {
			continue
		}
		if idv, ok := attrs["id"]; ok {
			if id, ok := stringValue(idv); ok && !id.IsNull() && !id.IsUnknown() {
				ids[key] = id.ValueString()
			}
		}
	}
	return ids
}
