package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// NewEventsDataSource returns the eventnotify_events data source: the platform
// events a subscription can refer to.
func NewEventsDataSource() datasource.DataSource {
	return &catalogueDataSource{
		typeSuffix:  "events",
		singular:    "event",
		description: "Lists the platform events that subscriptions can refer to in `event_name`.",
		list: func(ctx context.Context, c *client.Client) ([]client.CatalogueEntry, error) {
			return c.EventCatalogue(ctx)
		},
	}
}
