package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
)

var _ action.ActionWithConfigure = &EnableSubscriptionsAction{}

// EnableSubscriptionsAction is the eventnotify_enable_subscriptions action: it sets enabled = true on
// the matching subscriptions of an account (see subscriptions_action.go).
type EnableSubscriptionsAction struct {
	subscriptionsAction
}

// NewEnableSubscriptionsAction returns the eventnotify_enable_subscriptions action.
func NewEnableSubscriptionsAction() action.Action {
	return &EnableSubscriptionsAction{subscriptionsAction{enable: true}}
}

// Metadata sets the action type name.
func (a *EnableSubscriptionsAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_enable_subscriptions"
}
