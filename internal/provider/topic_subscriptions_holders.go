package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The holders of a topic (holders.go has the registry and what it cannot see). An
// eventnotify_topic_subscriptions is authoritative for its topic only, so it conflicts with:
//
//   - an eventnotify_account_subscriptions of the same account, which deletes every
//     subscription of the account that its entries do not hold, the topic's among them, while
//     the topic resource deletes the topic's subscriptions that the account resource holds;
//   - an eventnotify_subscription delivering to the same topic, which the topic resource
//     deletes as a subscription no entry holds (or both hold one subscription);
//   - another eventnotify_topic_subscriptions on the same topic.
//
// Several topic resources on one account, one per topic, and eventnotify_subscription
// resources on other topics or destinations are safe: their scopes do not meet.

// topicHolder is a topic of an account.
type topicHolder struct{ account, environmentID, topic string }

// String names the topic in a message.
func (t topicHolder) String() string {
	return topicScope(t.environmentID, t.topic).where(t.account)
}

// holdTopic records that an eventnotify_topic_subscriptions holds the topic of scope in
// account, with the keys of its map, and returns a warning for each holder it finds: an
// eventnotify_account_subscriptions of the account, eventnotify_subscription resources on the
// topic, or another topic resource (one with other keys, as holdAccount tells two account
// resources apart). entryIDs, the ids its entries hold by key, name in the warning about
// eventnotify_subscription resources which of them an entry holds too.
func (r *holderRegistry) holdTopic(account string, scope subscriptionScope, keys []string, entryIDs map[string]string) diag.Diagnostics {
	if r == nil || account == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	t := topicHolder{account, scope.environmentID, scope.topic}
	var diags diag.Diagnostics
	for key, id := range entryIDs {
		if id != "" && !strings.EqualFold(key, id) {
			r.topicEntries[holderKey{account, strings.ToLower(id)}] = key
		}
	}
	keySet := strings.Join(slices.Sorted(slices.Values(keys)), "\x00")
	if held, ok := r.topics[t]; ok && held != keySet && r.once("topics:"+t.String()) {
		diags.AddWarning(fmt.Sprintf("The %s is held by two %s resources", t, topicResourceTypeName),
			fmt.Sprintf("Two %s resources of this configuration manage the %s. Each is authoritative for the topic: "+
				"its apply deletes every subscription of the topic that its own entries do not hold, which are the "+
				"other's, so each apply undoes the other, and destroying either deletes the topic's subscriptions. "+
				"Keep one %s per topic: move the entries of the other into it, and remove the other from state "+
				"(terraform state rm, or a removed block) before it is destroyed.",
				topicResourceTypeName, t, topicResourceTypeName))
	}
	if _, ok := r.topics[t]; !ok {
		r.topics[t] = keySet
	}
	if _, ok := r.accounts[account]; ok {
		diags.Append(r.topicAndAccount(t)...)
	}
	if len(r.topicSingles[t]) > 0 && r.once("topic-single:"+t.String()) {
		diags.AddWarning(fmt.Sprintf("The %s is held by %s and by %s resources", t, topicResourceTypeName,
			subscriptionResourceTypeName)+knownIDsNamed(r.topicSingles[t]), r.topicSinglesDetail(t))
	}
	return diags
}

// topicsOfAccount returns the warnings for the topic resources of an account that an
// eventnotify_account_subscriptions holds. The caller holds the lock.
func (r *holderRegistry) topicsOfAccount(account string) diag.Diagnostics {
	var diags diag.Diagnostics
	var topics []topicHolder
	for t := range r.topics {
		if t.account == account {
			topics = append(topics, t)
		}
	}
	slices.SortFunc(topics, func(a, b topicHolder) int { return strings.Compare(a.String(), b.String()) })
	for _, t := range topics {
		diags.Append(r.topicAndAccount(t)...)
	}
	return diags
}

// topicAndAccount is the warning, once, for a topic whose account an account resource holds.
// The caller holds the lock.
func (r *holderRegistry) topicAndAccount(t topicHolder) diag.Diagnostics {
	var diags diag.Diagnostics
	if !r.once("topic-account:" + t.String()) {
		return diags
	}
	diags.AddWarning(fmt.Sprintf("The %s is held by %s and by %s", t, topicResourceTypeName, accountResourceTypeName),
		fmt.Sprintf("An %s and an %s of this configuration both manage the %s, and each apply fights: %s is "+
			"authoritative for the whole account %q and deletes every subscription of it that its own entries do not "+
			"hold, the topic's among them, and %s deletes every subscription of the topic that its entries do not "+
			"hold, the account resource's among them; destroying either deletes the topic's subscriptions.\n\n"+
			"Manage the account one way: either move the topic's entries into %s and remove the %s from state "+
			"(terraform state rm, or a removed block), or replace the account resource with %s resources, one per "+
			"topic, and eventnotify_subscription resources for the other destinations.",
			topicResourceTypeName, accountResourceTypeName, t, accountResourceTypeName, t.account, topicResourceTypeName,
			accountResourceTypeName, topicResourceTypeName, topicResourceTypeName))
	return diags
}

// holdSubscriptionOnTopic records that an eventnotify_subscription resource delivers to a
// topic (id "" while unknown) and returns a warning when an eventnotify_topic_subscriptions
// holds the topic.
func (r *holderRegistry) holdSubscriptionOnTopic(t topicHolder, id string) diag.Diagnostics {
	if r == nil || t.account == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.topicSingles[t] = append(r.topicSingles[t], id)
	var diags diag.Diagnostics
	if _, ok := r.topics[t]; ok && r.once("topic-single:"+t.String()) {
		diags.AddWarning(fmt.Sprintf("The %s is held by %s and by %s resources", t, topicResourceTypeName,
			subscriptionResourceTypeName)+knownIDsNamed(r.topicSingles[t]), r.topicSinglesDetail(t))
	}
	return diags
}

// topicSinglesDetail names the eventnotify_subscription resources on a topic that an
// eventnotify_topic_subscriptions holds. The caller holds the lock.
func (r *holderRegistry) topicSinglesDetail(t topicHolder) string {
	ids := slices.Compact(slices.Sorted(slices.Values(r.topicSingles[t])))
	var b strings.Builder
	fmt.Fprintf(&b, "Both an %s and %s resources of this configuration manage the %s, and each apply fights: %s is "+
		"authoritative for the topic and deletes every subscription of it that no entry of its subscriptions holds, "+
		"so an apply deletes the %s resources' subscriptions, and the next creates them again (or the two rewrite one "+
		"subscription's settings, where an entry holds it too). The %s resources on the topic:\n",
		topicResourceTypeName, subscriptionResourceTypeName, t, topicResourceTypeName, subscriptionResourceTypeName,
		subscriptionResourceTypeName)
	for _, id := range ids {
		switch key, ok := r.topicEntries[holderKey{t.account, strings.ToLower(id)}]; {
		case id == "":
			b.WriteString("  - one to be created, which no entry holds: the topic resource deletes it\n")
		case ok:
			fmt.Fprintf(&b, "  - subscription %q, which entry %s of the topic resource holds too\n", id, quoteBounded(key))
		default:
			fmt.Fprintf(&b, "  - subscription %q, which no entry holds: the topic resource deletes it\n", id)
		}
	}
	fmt.Fprintf(&b, "\nManage each topic one way: move the subscriptions into entries of %s and remove the %s "+
		"resources from state (terraform state rm, or a removed block: the adoption guide's \"Adopt one topic\" moves "+
		"them with no write), or use only %s resources on this topic.",
		topicResourceTypeName, subscriptionResourceTypeName, subscriptionResourceTypeName)
	return b.String()
}

// planTopicHolding records the topic an eventnotify_subscription's plan delivers to, when it
// is an EVENT_STREAMS subscription whose environment id and topic are known.
func planTopicHolding(ctx context.Context, holders *holderRegistry, plan tfsdk.Plan, account, id string) diag.Diagnostics {
	var destination, env, topic types.String
	diags := plan.GetAttribute(ctx, path.Root("destination_type"), &destination)
	diags.Append(plan.GetAttribute(ctx, path.Root("event_streams_environment_id"), &env)...)
	diags.Append(plan.GetAttribute(ctx, path.Root("event_streams_topic"), &topic)...)
	if diags.HasError() || !strings.EqualFold(destination.ValueString(), destinationEventStreams) ||
		env.ValueString() == "" || topic.ValueString() == "" {
		return diags
	}
	return holders.holdSubscriptionOnTopic(topicHolder{account, env.ValueString(), topic.ValueString()}, id)
}
