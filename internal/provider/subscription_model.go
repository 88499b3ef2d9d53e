package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// subscriptionModel is a subscription as the resource, the eventnotify_subscription
// data source and the elements of eventnotify_subscriptions hold it.
type subscriptionModel struct {
	subscriptionFields
	AccountID types.String `tfsdk:"account_id"`
}

// subscriptionFields are a subscription's attributes but its account: what an
// entry of eventnotify_account_subscriptions holds, and the rest of
// subscriptionModel.
type subscriptionFields struct {
	ID                          types.String   `tfsdk:"id"`
	EventName                   eventNameValue `tfsdk:"event_name"`
	DestinationType             types.String   `tfsdk:"destination_type"`
	LogLevel                    types.String   `tfsdk:"log_level"`
	EventStreamsEnvironmentID   types.String   `tfsdk:"event_streams_environment_id"`
	EventStreamsEnvironmentName types.String   `tfsdk:"event_streams_environment_name"`
	EventStreamsTopic           types.String   `tfsdk:"event_streams_topic"`
	Enabled                     types.Bool     `tfsdk:"enabled"`
	DestinationEmail            types.String   `tfsdk:"destination_email"`
	CreatedDate                 types.Int64    `tfsdk:"created_date"`
	LastUpdatedDate             types.Int64    `tfsdk:"last_updated_date"`
	CreatedBy                   types.String   `tfsdk:"created_by"`
	LastUpdatedBy               types.String   `tfsdk:"last_updated_by"`
}

// subscriptionFromAPI maps a subscription of the service to the model. The
// account is accountID, the one the request was made for: the client refuses
// an answer that names another (client.ErrInvalidID), so the service never
// chooses the account that state, and later requests, hold.
func subscriptionFromAPI(accountID string, s *client.Subscription) subscriptionModel {
	return subscriptionModel{AccountID: types.StringValue(accountID), subscriptionFields: subscriptionFields{
		ID:                          types.StringValue(s.ID),
		EventName:                   newEventName(s.EventName),
		DestinationType:             types.StringValue(s.DestinationType),
		LogLevel:                    types.StringValue(s.LogLevel),
		EventStreamsEnvironmentID:   optionalString(s.EventStreamsEnvironment),
		EventStreamsEnvironmentName: optionalString(s.EventStreamsEnvironmentName),
		EventStreamsTopic:           optionalString(s.EventStreamsTopic),
		Enabled:                     types.BoolValue(s.Enabled),
		DestinationEmail:            optionalString(s.DestinationEmail),
		CreatedDate:                 types.Int64Value(s.CreatedDate),
		LastUpdatedDate:             types.Int64Value(s.LastUpdatedDate),
		CreatedBy:                   optionalString(s.CreatedBy),
		LastUpdatedBy:               optionalString(s.LastUpdatedUserID),
	}}
}

// input returns the request body of a create or update.
func (m subscriptionFields) input() client.SubscriptionInput {
	in := client.SubscriptionInput{
		EventName:                   m.EventName.ValueString(),
		DestinationType:             m.DestinationType.ValueString(),
		LogLevel:                    m.LogLevel.ValueString(),
		EventStreamsEnvironment:     m.EventStreamsEnvironmentID.ValueString(),
		EventStreamsEnvironmentName: m.EventStreamsEnvironmentName.ValueString(),
		EventStreamsTopic:           m.EventStreamsTopic.ValueString(),
	}
	if !m.Enabled.IsNull() && !m.Enabled.IsUnknown() {
		enabled := m.Enabled.ValueBool()
		in.Enabled = &enabled
	}
	return in
}

// optionalString maps the service's empty string to null, so an argument left
// out of the configuration stays null in state.
func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}
