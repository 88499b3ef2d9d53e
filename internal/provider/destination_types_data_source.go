package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// NewDestinationTypesDataSource returns the eventnotify_destination_types data
// source: where a subscription can send notifications.
func NewDestinationTypesDataSource() datasource.DataSource {
	return &catalogueDataSource{
		typeSuffix: "destination_types",
		singular:   "destination type",
		description: "Lists the destination types that subscriptions can use in `destination_type`. The service " +
			"currently delivers to `EVENT_STREAMS` only.",
		list: func(ctx context.Context, c *client.Client) ([]client.CatalogueEntry, error) {
			return c.ListDestinationTypes(ctx)
		},
	}
}
