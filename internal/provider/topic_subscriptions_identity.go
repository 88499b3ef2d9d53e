package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The resource identity of eventnotify_topic_subscriptions (Terraform 1.12 and later, OpenTofu
// 1.12 and later): the account, the environment id and the topic, the three parts of its import
// id, which together name its scope. import blocks may give it instead of an id string. None of
// them can change without replacing the resource, so the identity never changes either.

var _ resource.ResourceWithIdentity = &TopicSubscriptionsResource{}

// topicIdentityModel maps the identity of a topic resource.
type topicIdentityModel struct {
	AccountID     types.String `tfsdk:"account_id"`
	EnvironmentID types.String `tfsdk:"event_streams_environment_id"`
	Topic         types.String `tfsdk:"event_streams_topic"`
}

// IdentitySchema describes the identity of a topic resource.
func (r *TopicSubscriptionsResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"account_id": identityschema.StringAttribute{
				Description:       "Account whose subscriptions to the topic the resource manages.",
				RequiredForImport: true,
			},
			"event_streams_environment_id": identityschema.StringAttribute{
				Description:       "Id of the event streams environment of the topic.",
				RequiredForImport: true,
			},
			"event_streams_topic": identityschema.StringAttribute{
				Description:       "The event streams topic whose subscriptions the resource manages.",
				RequiredForImport: true,
			},
		},
	}
}

// setTopicIdentity records the identity of the topic resource of account and scope in a
// response. identity is nil for a resource without identity support, and then nothing is set.
func setTopicIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, account string, scope subscriptionScope) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, topicIdentityModel{AccountID: types.StringValue(account),
		EnvironmentID: types.StringValue(scope.environmentID), Topic: types.StringValue(scope.topic)})
}

// topicFromIdentity reads the account and the scope of an import block's identity, checked as
// the import id's parts are (checkTopicParts): an error names the identity's attribute.
func topicFromIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity) (account string, scope subscriptionScope, diags diag.Diagnostics) {
	if identity == nil || identity.Raw.IsNull() {
		diags.AddError("Missing import id", "Import of "+topicResourceTypeName+" needs an id "+
			"(<account_id>/<event_streams_environment_id>/<event_streams_topic>) or, with Terraform or OpenTofu 1.12 "+
			"and later, an identity with account_id, event_streams_environment_id and event_streams_topic.")
		return "", subscriptionScope{}, diags
	}
	var model topicIdentityModel
	diags.Append(identity.Get(ctx, &model)...)
	if diags.HasError() {
		return "", subscriptionScope{}, diags
	}
	account, env, topic := model.AccountID.ValueString(), model.EnvironmentID.ValueString(), model.Topic.ValueString()
	if attr, err := checkTopicParts(account, env, topic); err != nil {
		diags.AddAttributeError(path.Root(attr), "Invalid import identity",
			fmt.Sprintf("The identity's %s: %s. The identity of %s names the account, the environment id and the topic "+
				"whose subscriptions it manages.", attr, err, topicResourceTypeName))
		return "", subscriptionScope{}, diags
	}
	return account, topicScope(env, topic), diags
}
