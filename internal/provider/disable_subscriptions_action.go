package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
)

var _ action.ActionWithConfigure = &DisableSubscriptionsAction{}

// DisableSubscriptionsAction is the eventnotify_disable_subscriptions action: it sets enabled = false on
// the matching subscriptions of an account (see subscriptions_action.go).
type DisableSubscriptionsAction struct {
	subscriptionsAction
}

// NewDisableSubscriptionsAction returns the eventnotify_disable_subscriptions action.
func NewDisableSubscriptionsAction() action.Action {
	return &DisableSubscriptionsAction{subscriptionsAction{enable: false}}
}

// Metadata sets the action type name.
func (a *DisableSubscriptionsAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_disable_subscriptions"
}
