package provider

// The actions eventnotify_disable_subscriptions and eventnotify_enable_subscriptions (Terraform
// 1.14 and later; OpenTofu has no actions) pause and resume an account's subscriptions, for
// example around a deployment (`lifecycle { action_trigger { ... } }` on another resource).
// Both list the account, select the subscriptions that match every filter given (all of
// them when none is), and write those whose enabled flag differs from the target through the
// client's bulk update: one request per max_batch_size subscriptions, or one PUT each when the
// service refuses the bulk update (client.UpdateSubscriptionsBulk). Each subscription is sent
// with the settings the listing showed and the new enabled flag; client.UpdateListed orders
// this provider instance's other writes to the account around the listing and the write (and
// lists again when one came in between), so that the action never writes back a setting older
// than one of them. Writers outside this instance: DESIGN.md#the-actions.
//
// An action keeps no state: an eventnotify_subscription that manages a paused subscription with
// enabled = true plans an update back to true until the subscription is enabled again (see the
// actions' pages).

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// subscriptionsAction is the shared implementation of the two actions; enable is the enabled
// flag they set.
type subscriptionsAction struct {
	data   *providerData
	enable bool
}

// subscriptionsActionModel is the configuration of either action.
type subscriptionsActionModel struct {
	AccountID       types.String `tfsdk:"account_id"`
	EventName       types.String `tfsdk:"event_name"`
	DestinationType types.String `tfsdk:"destination_type"`
	LogLevel        types.String `tfsdk:"log_level"`
	IDs             types.List   `tfsdk:"ids"`
}

// verb is what the action does to a subscription: "disable" or "enable".
func (a *subscriptionsAction) verb() string {
	if a.enable {
		return "enable"
	}
	return "disable"
}

// Schema builds the arguments: the filters of the eventnotify_subscriptions data source
// (without enabled, which the action sets) and ids.
func (a *subscriptionsAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	verb := a.verb()
	attrs := map[string]schema.Attribute{}
	for _, f := range subscriptionFilterTable() {
		if f.boolean {
			continue
		}
		description := f.description
		if f.name == "account_id" {
			description = "Account whose subscriptions to " + verb + ". Defaults to the provider's `account_id`."
		}
		attrs[f.name] = schema.StringAttribute{MarkdownDescription: description, Optional: true, Validators: f.validators}
	}
	attrs["ids"] = schema.ListAttribute{
		MarkdownDescription: "Only the subscriptions with these ids (UUIDs, compared without regard to case). " +
			"An id that is not a subscription of the account is reported in a warning.",
		Optional:    true,
		ElementType: types.StringType,
		Validators:  []validator.List{listvalidator.ValueStringsAre(uuidString())},
	}
	state := "`enabled = false`: the service stops sending their notifications until they are enabled again"
	if a.enable {
		state = "`enabled = true`: the service sends their notifications again"
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Sets the subscriptions of an account that match every filter given (all of them when none is) to " +
			state + ". Actions need Terraform 1.14 or later; OpenTofu has no actions.",
		Attributes: attrs,
	}
}

// Configure receives the provider's client.
func (a *subscriptionsAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// Invoke lists the account, selects and writes the subscriptions, and reports progress.
func (a *subscriptionsAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var config subscriptionsActionModel
	resp.Diagnostics.Append(nullAttributesIfNull(ctx, req.Config).Get(ctx, &config)...)
	if resp.Diagnostics.HasError() || !providerConfigured(a.data, &resp.Diagnostics, "eventnotify_"+a.verb()+"_subscriptions action") {
		return
	}
	var ids []string
	resp.Diagnostics.Append(config.IDs.ElementsAs(ctx, &ids, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	account := a.data.account(config.AccountID)
	progress := func(format string, args ...any) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
		}
	}

	// The listing and the write go through UpdateListed, which lists again when a write of
	// this provider instance to the account came in between, so that no setting is written
	// back older than this provider's own writes. choose runs once, before the write.
	past := a.verb() + "d"
	var matched []client.Subscription
	var unknownIDs []string
	var updates []client.SubscriptionUpdate
	results, err := a.data.client.UpdateListed(ctx, account, func(subs []client.Subscription) []client.SubscriptionUpdate {
		matched, unknownIDs = config.selectSubscriptions(subs, ids)
		for _, s := range matched {
			if s.Enabled != a.enable {
				updates = append(updates, subscriptionToggle(s, a.enable))
			}
		}
		if len(matched) == 0 {
			progress("No subscription of account %s matches the filters (%d listed): nothing to %s.", account, len(subs), a.verb())
		} else {
			progress("%d of the %d %s of account %s %s; %d to %s, %d already %s.",
				len(matched), len(subs), plural(len(subs), "subscription", "subscriptions"), account, plural(len(matched), "matches", "match"),
				len(updates), a.verb(), len(matched)-len(updates), past)
		}
		return updates
	})
	if err != nil {
		addClientError(&resp.Diagnostics, "Unable to list the subscriptions of account "+account, err)
		return
	}
	if len(unknownIDs) > 0 {
		resp.Diagnostics.AddAttributeWarning(path.Root("ids"), notFoundSummary(unknownIDs),
			fmt.Sprintf("Account %s has no subscription with the id %s; the action went on with the others.",
				account, strings.Join(unknownIDs, ", ")))
	}
	if len(updates) == 0 {
		return
	}

	// Updates whose answer did not tell their outcome were read back together by the client;
	// their failures are reported once per kind, with counts (update_outcomes.go).
	failed := 0
	report := updateReport{verb: a.verb(), account: account, total: len(updates)}
	for i, r := range results {
		if r.Err != nil {
			failed++
		}
		if !report.add(fmt.Sprintf("%s (%s)", updates[i].ID, updates[i].Input.EventName), r) && r.Err != nil {
			addSubscriptionActionError(&resp.Diagnostics, a.verb(), updates[i], r.Err)
		}
	}
	report.report(&resp.Diagnostics, "Updates are idempotent: invoke the action again once the service answers; it writes only "+
		"the subscriptions whose enabled still differs.")
	readBack := ""
	if report.readBack > 0 {
		var parts []string
		if read := report.readBack - len(report.unknown); read > 0 {
			parts = append(parts, fmt.Sprintf("%d read back, %d %s", read, report.confirmed(), past))
		}
		if len(report.unknown) > 0 {
			parts = append(parts, fmt.Sprintf("%d could not be read back", len(report.unknown)))
		}
		readBack = fmt.Sprintf(" The service's answer did not tell the outcome of %d of them; %s.", report.readBack, strings.Join(parts, "; "))
	}
	if failed == 0 {
		progress("%s %d %s of account %s.%s", capitalize(past), len(updates), plural(len(updates), "subscription", "subscriptions"), account, readBack)
	} else {
		progress("%s %d of %d %s of account %s; %d failed.%s", capitalize(past), len(updates)-failed, len(updates),
			plural(len(updates), "subscription", "subscriptions"), account, failed, readBack)
	}
}

// nullAttributesIfNull returns config, or, when config is null, a configuration of the same
// schema whose attributes are all null. Terraform sends a null configuration for an action
// block without a config block (`action "eventnotify_disable_subscriptions" "x" {}`), which
// means the same as an empty `config {}`; Config.Get cannot read a null object into a model.
// The actions' schemas have attributes only: a nested block would be an empty collection,
// not null.
func nullAttributesIfNull(ctx context.Context, config tfsdk.Config) tfsdk.Config {
	if !config.Raw.IsNull() {
		return config
	}
	objectType, ok := config.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		return config
	}
	values := make(map[string]tftypes.Value, len(objectType.AttributeTypes))
	for name, typ := range objectType.AttributeTypes {
		values[name] = tftypes.NewValue(typ, nil)
	}
	config.Raw = tftypes.NewValue(objectType, values)
	return config
}

// selectSubscriptions returns the subscriptions that match every filter (event names compared
// without regard to case, ids too), in the data source's order (event name without regard to
// case, then id), and the ids given that are not among subs.
func (m subscriptionsActionModel) selectSubscriptions(subs []client.Subscription, ids []string) ([]client.Subscription, []string) {
	filters := subscriptionFilters{EventName: m.EventName, DestinationType: m.DestinationType, LogLevel: m.LogLevel, Enabled: types.BoolNull()}
	wanted := make(map[string]bool, len(ids))
	for _, id := range ids {
		wanted[strings.ToLower(id)] = true
	}
	seen := make(map[string]bool, len(subs))
	var matched []client.Subscription
	for i := range subs {
		key := strings.ToLower(subs[i].ID)
		seen[key] = true
		if (len(ids) == 0 && m.IDs.IsNull() || wanted[key]) && filters.matches(subscriptionFromAPI("", &subs[i])) {
			matched = append(matched, subs[i])
		}
	}
	slices.SortFunc(matched, func(a, b client.Subscription) int {
		return cmp.Or(cmp.Compare(strings.ToUpper(a.EventName), strings.ToUpper(b.EventName)), cmp.Compare(a.ID, b.ID))
	})
	var unknown []string
	for _, id := range ids {
		if !seen[strings.ToLower(id)] {
			unknown = append(unknown, id)
		}
	}
	return matched, unknown
}

// subscriptionToggle is the update that sets s's enabled flag and keeps its other settings.
func subscriptionToggle(s client.Subscription, enabled bool) client.SubscriptionUpdate {
	in := s.Settings()
	in.Enabled = &enabled
	return client.SubscriptionUpdate{ID: s.ID, Input: in}
}

// notFoundSummary is the summary of the warning that names the ids the action was given and the
// account does not hold (diagnostic_summaries.go).
func notFoundSummary(ids []string) string {
	return capitalize(subscriptionsNamed(ids)) + " not found"
}

// addSubscriptionActionError reports the failure of one subscription's update, naming it: one
// the service answered for (a refused item, a failed request). Updates read back are reported
// together (updateReport).
func addSubscriptionActionError(diags *diag.Diagnostics, verb string, u client.SubscriptionUpdate, err error) {
	addClientError(diags, fmt.Sprintf("Unable to %s subscription %s (%s)", verb, u.ID, u.Input.EventName), err)
}

// capitalize upper-cases the first letter of an ASCII word.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
