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
// subscriptionModel. Each field's tfsdk tag names its attribute in the
// attribute table (subscriptionAttributes), from which the conversions derive
// (subscription_fields.go).
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
// an answer that names another (httpapi.ErrInvalidID), so the service never
// chooses the account that state, and later requests, hold.
func subscriptionFromAPI(accountID string, s *client.Subscription) subscriptionModel {
	return subscriptionModel{AccountID: types.StringValue(accountID), subscriptionFields: fieldsFromAPI(s)}
}

// optionalString maps the service's empty string to null, so an argument left
// out of the configuration stays null in state.
func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}
