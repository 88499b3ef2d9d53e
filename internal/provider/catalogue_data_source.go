package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

var _ datasource.DataSourceWithConfigure = &catalogueDataSource{}

// catalogueDataSource is the one implementation behind the three read-only
// catalogue data sources (events, log levels, destination types); they differ
// only in names, wording and the client call.
type catalogueDataSource struct {
	typeSuffix  string // data source type name after "eventnotify_"; also its list attribute
	singular    string // "event"
	description string
	list        func(context.Context, *client.Client) ([]client.CatalogueEntry, error)
	data        *providerData
}

// catalogueEntryModel is one record of a catalogue.
type catalogueEntryModel struct {
	Name        types.String `tfsdk:"name"`
	Description types.String `tfsdk:"description"`
}

// Metadata sets the data source type name.
func (d *catalogueDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.typeSuffix
}

// Schema describes the catalogue's attributes.
func (d *catalogueDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: d.description,
		Attributes: map[string]schema.Attribute{
			d.typeSuffix: schema.ListNestedAttribute{
				MarkdownDescription: "Every " + d.singular + " of the catalogue, in the service's order.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"name": schema.StringAttribute{
							MarkdownDescription: "Name of the " + d.singular + ", as subscriptions refer to it.",
							Computed:            true,
						},
						"description": schema.StringAttribute{
							MarkdownDescription: "Description of the " + d.singular + "; empty when the service gives none.",
							Computed:            true,
						},
					},
				},
			},
			"names": schema.ListAttribute{
				MarkdownDescription: "The names alone, in the same order, for `for_each`, `contains()` and validation.",
				Computed:            true,
				ElementType:         types.StringType,
			},
		},
	}
}

// Configure receives the provider's client.
func (d *catalogueDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// Read fetches the catalogue.
func (d *catalogueDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !providerConfigured(d.data, &resp.Diagnostics, d.singular+" catalogue") {
		return
	}
	entries, err := d.list(ctx, d.data.client)
	if err != nil {
		addClientError(&resp.Diagnostics, "Unable to read the "+d.singular+" catalogue", err)
		return
	}

	records := make([]catalogueEntryModel, len(entries))
	names := make([]string, len(entries))
	for i, e := range entries {
		records[i] = catalogueEntryModel{Name: types.StringValue(e.Name), Description: types.StringValue(e.Description)}
		names[i] = e.Name
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(d.typeSuffix), records)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("names"), names)...)
}
