package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// The look-alikes of a planned create: a create is planned next to each unheld subscription of
// the same content by the same user made in the last day (client.Lookalikes), the mark of an
// interrupted apply whose creates reached the service and not the state. The plan warns about
// each one, by id, with the import command and the way to delete it. Why a warning, and what
// stays racy: DESIGN.md#lost-answers-and-ownership.

// planLookalikes warns, on the plan of a create, about every subscription of the account that
// has the planned content, was made by this user in the last day, and that nothing this
// provider instance has read or planned holds. It needs the account's listing, which the plan's
// refreshes share: no request when they have listed it, one listing per account otherwise. A
// create whose settings are not all known yet is checked when Terraform plans it again at apply.
func planLookalikes(ctx context.Context, data *providerData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) diag.Diagnostics {
	if data == nil || data.client == nil || !req.State.Raw.IsNull() || resp.Plan.Raw.IsNull() || !req.Config.Raw.IsFullyKnown() {
		return nil
	}
	var plan subscriptionResourceModel
	if diags := resp.Plan.Get(ctx, &plan); diags.HasError() || plan.AccountID.IsUnknown() || plan.AccountID.IsNull() {
		return nil
	}
	account := plan.AccountID.ValueString()
	found, err := data.client.Lookalikes(ctx, account, plan.input())
	if err != nil {
		// The refresh or the create reports a service that cannot be read; the plan goes on.
		tflog.Warn(ctx, "Could not list the account to look for subscriptions like the planned one",
			map[string]any{"account_id": account, "error": err.Error()})
		return nil
	}
	var diags diag.Diagnostics
	for _, s := range found {
		if data.holders.holds(account, s.ID) {
			continue
		}
		diags.AddWarning(lookalikeWarningSummary(s.ID), lookalikeDetail(account, s))
	}
	return diags
}

// lookalikeWarningSummary names a look-alike of a planned create in the summary, so that Terraform
// never folds two of them into one.
func lookalikeWarningSummary(id string) string {
	return "S" + subscriptionNamed(id, "")[1:] + " already has this resource's settings"
}

// lookalikeDetail says what a look-alike may be and what to do with it.
func lookalikeDetail(account string, s client.Subscription) string {
	var made strings.Builder
	if s.CreatedBy != "" {
		fmt.Fprintf(&made, " by %s", s.CreatedBy)
	}
	if s.CreatedDate != 0 {
		fmt.Fprintf(&made, " at %s", time.UnixMilli(s.CreatedDate).UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("Account %q already holds subscription %s, created%s with the settings this resource plans to "+
		"create, and no resource that this run has read or planned holds it. It is likely the subscription of an "+
		"interrupted apply (a cancelled job, a killed terraform or plugin) that the service created and the state never "+
		"recorded. Applying this plan creates another one next to it, and both send every notification.\n\n"+
		"If it is this resource's, import it instead, then plan again:\n  terraform import <this resource's address> %s/%s\n"+
		"(Terraform names the address above; or an import block with that id).\n"+
		"If nothing should hold it, delete it (the service's console, or DELETE /rest/v1/accounts/%s/subscriptions/%s), "+
		"then plan again.\n"+
		"If another configuration holds it (terraform state list there, looking for id %s), leave it: this plan then "+
		"makes that configuration's twin. A resource of this configuration with the same settings may hold it too when "+
		"this run reads it after planning this one, or does not read it at all (the apply of a saved plan reads only "+
		"the resources it changes): terraform state list here tells.\n\n"+
		"The provider names subscriptions of the same settings, made by the same user in the last %s.",
		account, s.ID, made.String(), account, s.ID, account, s.ID, s.ID, lookalikeAgeText)
}

// lookalikeAgeText is client.LookalikeAge as the warning says it.
const lookalikeAgeText = "24 hours"

// holds reports whether a plan or import this registry recorded holds subscription id of
// account: an eventnotify_subscription, or an entry of an account or topic resource.
func (r *holderRegistry) holds(account, id string) bool {
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	key := holderKey{account, strings.ToLower(id)}
	_, entry := r.entries[key]
	_, topic := r.topicEntries[key]
	return r.ids[key] || entry || topic
}
