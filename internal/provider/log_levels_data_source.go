package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// NewLogLevelsDataSource returns the eventnotify_log_levels data source: the
// minimum log levels a subscription can use.
func NewLogLevelsDataSource() datasource.DataSource {
	return &catalogueDataSource{
		typeSuffix:  "log_levels",
		singular:    "log level",
		description: "Lists the log levels that subscriptions can use in `log_level`.",
		list: func(ctx context.Context, c *client.Client) ([]client.CatalogueEntry, error) {
			return c.ListLogLevels(ctx)
		},
	}
}
