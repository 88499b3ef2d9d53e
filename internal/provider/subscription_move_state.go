package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// A moved block from the generic REST provider's restapi_object to eventnotify_subscription
// (Terraform 1.8 and later, OpenTofu 1.10 and later: featureMoveAcrossTypes) takes the
// subscription over without a request: MoveState reads the account and the subscription id
// from the source state (restapi_source.go) and leaves the rest to the Read that the plan runs
// next, as an import does. The framework does not configure the resource before a move, so
// the provider's account cannot be the default: the account comes from the source's path.

var _ resource.ResourceWithMoveState = &SubscriptionResource{}

// restapiObjectType is the resource type of the generic REST provider that a subscription
// moves from.
const restapiObjectType = "restapi_object"

// restapiNamespace and restapiName are the namespace and type of the generic REST provider's
// address (registry.terraform.io/mastercard/restapi).
const (
	restapiNamespace = "mastercard"
	restapiName      = "restapi"
)

// MoveState takes over a restapi_object of mastercard/restapi that manages one subscription.
// It declares no source schema: the raw state is read as JSON, so that any version of that
// provider's schema is accepted.
func (r *SubscriptionResource) MoveState(_ context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: moveFromRestapiObject}}
}

// moveFromRestapiObject is the state mover for restapi_object. A request for another source
// is left unanswered, so that the framework names the source it does not support.
func moveFromRestapiObject(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
	if req.SourceTypeName != restapiObjectType || !isRestapiProviderAddress(req.SourceProviderAddress) {
		return
	}
	tflog.Info(ctx, "Moving a restapi_object to eventnotify_subscription", map[string]any{
		"source_provider_address": req.SourceProviderAddress, "source_schema_version": req.SourceSchemaVersion})
	var raw []byte
	if req.SourceRawState != nil {
		raw = req.SourceRawState.JSON
	}
	src, err := parseRestapiSubscription(raw)
	if err != nil {
		resp.Diagnostics.AddError("Cannot move restapi_object to eventnotify_subscription", err.Error()+". "+restapiMoveAdvice)
		return
	}
	tflog.Debug(ctx, "Moved restapi_object state", map[string]any{"subscription_id": src.ID, "account_id": src.AccountID})
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("id"), src.ID)...)
	resp.Diagnostics.Append(resp.TargetState.SetAttribute(ctx, path.Root("account_id"), src.AccountID)...)
	resp.Diagnostics.Append(setSubscriptionIdentity(ctx, resp.TargetIdentity, src.AccountID, src.ID)...)
	if resp.TargetPrivate != nil {
		origin := accountOrigin{Resource: subscriptionType, MovedFrom: restapiObjectType, AccountInID: true}
		resp.Diagnostics.Append(origin.record(ctx, resp.TargetPrivate)...)
	}
}

// restapiMoveAdvice says what to do when a restapi_object cannot be moved.
const restapiMoveAdvice = "Only a restapi_object whose path is an account's subscriptions collection " +
	"(.../accounts/<account_id>/subscriptions) and whose id is the subscription id (id_attribute = " +
	"\"subscriptions/0/subscriptionId\") moves. For any other, remove the moved block and import the subscription " +
	"(import { to = eventnotify_subscription.NAME  id = \"<account_id>/<subscription_id>\" }), after taking the " +
	"restapi_object out of state with a removed block (see the guide \"Switching from the REST provider\")"

// isRestapiProviderAddress reports whether a source provider address names
// mastercard/restapi, whatever the host (registry.terraform.io, registry.opentofu.org, a
// mirror's) and the case; an address without host or namespace, as a CLI may pass it, is
// matched on what it has.
func isRestapiProviderAddress(addr string) bool {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(addr)), "/")
	switch len(parts) {
	case 1:
		return parts[0] == restapiName
	case 2:
		return parts[0] == restapiNamespace && parts[1] == restapiName
	case 3:
		return parts[0] != "" && parts[1] == restapiNamespace && parts[2] == restapiName
	default:
		return false
	}
}

// movedAdvice is the error of the first Read after a move that finds the subscription gone.
func movedAdvice(account, id string) string {
	return fmt.Sprintf("The restapi_object moved here names subscription %s of account %q, which the service does not "+
		"hold: it was deleted since the REST provider last read it, or the path names another account. Nothing was "+
		"changed. Remove the moved block and take the restapi_object out of state (a removed block with "+
		"lifecycle { destroy = false }); the resource block then creates the subscription anew.", id, account)
}
