package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A warning about a resource's settings appears when the user can act on it: in the plan that
// writes or changes the setting, not in every plan. ValidateConfig sees only the configuration
// and runs on every plan, so these warnings are made in ModifyPlan, which also sees the prior
// state: a plan that leaves the setting as the state holds it (a refresh, a plan without
// changes, an imported subscription) stays quiet. A plan that creates the resource warns, and
// so does the create half of a replacement, which Terraform plans with no prior state.
//
// The settings warned about (settingWarnings), in eventnotify_subscription and in each entry
// of eventnotify_account_subscriptions, are those the service accepts but delivers nowhere:
// destination_type = "EMAIL", and an EVENT_STREAMS destination that names no event streams
// environment or no topic. A warning needs the values it reads known: one known only at
// apply warns about nothing.

// warnedSettings are the settings of a subscription that the warnings read, configured or
// held in state (null where there is no prior state).
type warnedSettings struct {
	destinationType, environmentID, topic types.String
}

// settingWarning is one warning about a subscription's settings: applies reports whether
// settings call for it (false when a value it reads is unknown); the warning is reported on
// attribute, with the summary and detail given (what, and what the user can do).
type settingWarning struct {
	attribute       string
	applies         func(warnedSettings) bool
	summary, detail string
}

// settingWarnings lists the warnings about a subscription's settings.
func settingWarnings() []settingWarning {
	const unset = "The service accepts an EVENT_STREAMS subscription without %s, but it has nowhere to deliver " +
		"the subscription's notifications: they are lost. Set %s, or remove the subscription."
	return []settingWarning{
		{attribute: "destination_type", applies: func(s warnedSettings) bool { return known(s.destinationType, "EMAIL") },
			summary: "EMAIL destinations are not delivered yet",
			detail: "The service accepts destination_type = \"EMAIL\" but currently delivers notifications to EVENT_STREAMS " +
				"destinations only, so this subscription will be stored but may notify no one. Use \"EVENT_STREAMS\" " +
				"with an event streams environment and topic to receive notifications."},
		{attribute: "event_streams_environment_id",
			applies: func(s warnedSettings) bool {
				return known(s.destinationType, "EVENT_STREAMS") && unsetValue(s.environmentID)
			},
			summary: "EVENT_STREAMS subscription without an event streams environment",
			detail: fmt.Sprintf(unset, "an event streams environment",
				"event_streams_environment_id to the id of the environment that holds the topic, as the platform's Event Streams settings show it")},
		{attribute: "event_streams_topic",
			applies: func(s warnedSettings) bool { return known(s.destinationType, "EVENT_STREAMS") && unsetValue(s.topic) },
			summary: "EVENT_STREAMS subscription without a topic",
			detail:  fmt.Sprintf(unset, "a topic", "event_streams_topic to the topic that receives the notifications")},
	}
}

// known reports whether v is the known value want.
func known(v types.String, want string) bool {
	return !v.IsUnknown() && !v.IsNull() && v.ValueString() == want
}

// unsetValue reports whether v is known and null or blank.
func unsetValue(v types.String) bool {
	return !v.IsUnknown() && strings.TrimSpace(v.ValueString()) == ""
}

// settingWarningsFor appends to diags the warnings that configured calls for and prior does
// not, each on its attribute under at. entry, when not empty, is the account resource's entry
// key, which the summary names: the CLI shows the first warning of each summary in full and
// counts the others, so a key only in the detail would be lost for every entry but the first.
func settingWarningsFor(diags *diag.Diagnostics, at path.Path, entry string, configured, prior warnedSettings) {
	for _, w := range settingWarnings() {
		if !w.applies(configured) || w.applies(prior) {
			continue
		}
		summary := w.summary
		if entry != "" {
			summary = fmt.Sprintf("subscriptions[%q]: %s", entry, summary)
		}
		diags.AddAttributeWarning(at.AtName(w.attribute), summary, w.detail)
	}
}

// entrySettings are the warned settings of an entry of the account resource.
func entrySettings(e accountEntry) warnedSettings {
	return warnedSettings{destinationType: e.DestinationType, environmentID: e.EventStreamsEnvironmentID, topic: e.EventStreamsTopic}
}

// subscriptionSettingWarnings are the setting warnings of a plan of eventnotify_subscription.
func subscriptionSettingWarnings(ctx context.Context, req resource.ModifyPlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	if req.Plan.Raw.IsNull() {
		return diags
	}
	read := func(get func(context.Context, path.Path, any) diag.Diagnostics) warnedSettings {
		var s warnedSettings
		diags.Append(get(ctx, path.Root("destination_type"), &s.destinationType)...)
		diags.Append(get(ctx, path.Root("event_streams_environment_id"), &s.environmentID)...)
		diags.Append(get(ctx, path.Root("event_streams_topic"), &s.topic)...)
		return s
	}
	configured := read(req.Config.GetAttribute)
	var prior warnedSettings
	if !req.State.Raw.IsNull() {
		prior = read(req.State.GetAttribute)
	}
	if !diags.HasError() {
		settingWarningsFor(&diags, path.Empty(), "", configured, prior)
	}
	return diags
}

// accountSettingWarnings are the setting warnings of a plan of eventnotify_account_subscriptions,
// entry by entry: those an entry calls for and the state's entry under its key (if any) does
// not, unless the state holds a subscription with all of the entry's inputs (a key renamed:
// nothing is written). So an unchanged plan has none, which the protocol fast path relies on:
// it answers such a plan without ModifyPlan (see AccountSubscriptionsResource.ModifyPlan).
func accountSettingWarnings(ctx context.Context, req resource.ModifyPlanRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	if req.Plan.Raw.IsNull() {
		return diags
	}
	var configSubs, stateSubs types.Map
	diags.Append(req.Config.GetAttribute(ctx, path.Root("subscriptions"), &configSubs)...)
	if diags.HasError() || configSubs.IsNull() || configSubs.IsUnknown() {
		return diags
	}
	configured, _, d := entries(configSubs)
	diags.Append(d...)
	held := map[string]accountEntry{}
	if !req.State.Raw.IsNull() {
		diags.Append(req.State.GetAttribute(ctx, path.Root("subscriptions"), &stateSubs)...)
		if !diags.HasError() && !stateSubs.IsNull() && !stateSubs.IsUnknown() {
			held, _, d = entries(stateSubs)
			diags.Append(d...)
		}
	}
	if diags.HasError() {
		return diags
	}
	heldInputs := make(map[entryInputs]bool, len(held))
	for _, h := range held {
		if in, ok := h.inputs(); ok {
			heldInputs[in] = true
		}
	}
	for _, key := range sortedKeys(configured) {
		e := configured[key]
		if in, ok := e.inputs(); ok && heldInputs[in] {
			continue
		}
		// held[key] is all null when the state has no entry under key.
		settingWarningsFor(&diags, path.Root("subscriptions").AtMapKey(key), key, entrySettings(e), entrySettings(held[key]))
	}
	return diags
}
