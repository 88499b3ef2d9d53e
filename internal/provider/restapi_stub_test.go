package provider

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	providerschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A stand-in for the REST provider (mastercard/restapi), which the Go module proxy does not
// serve and CI cannot build. Terraform and OpenTofu need the provider of every resource in
// state installed and its schema loaded, even for a state that a moved block hands to another
// provider (without it: "This state requires provider registry.terraform.io/mastercard/restapi,
// but that provider isn't available"); the move itself reads the source state as raw JSON and
// calls no operation of the source provider. So the tests serve, in place of the REST
// provider, this test binary: with restapiStubEnv set, TestMain serves a provider whose
// restapi_object has the REST provider's schema at the recorded commit
// (testdata/restapi/README.md) and refuses every operation.

// restapiStubEnv, set in the environment of the CLI, makes this test binary serve the stand-in.
const restapiStubEnv = "EVENTNOTIFY_TEST_SERVE_RESTAPI_STUB"

// restapiStubVersion is the version under which a mirror offers the stand-in.
const restapiStubVersion = "3.0.0"

// serveRestapiStubIfAsked serves the stand-in and exits when restapiStubEnv is set.
func serveRestapiStubIfAsked() {
	if os.Getenv(restapiStubEnv) == "" {
		return
	}
	err := providerserver.Serve(context.Background(), func() provider.Provider { return restapiStub{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/mastercard/restapi", ProtocolVersion: 6})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// restapiStub is the stand-in provider.
type restapiStub struct{}

func (restapiStub) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "restapi"
}

func (restapiStub) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	opt := func() providerschema.StringAttribute { return providerschema.StringAttribute{Optional: true} }
	resp.Schema = providerschema.Schema{Attributes: map[string]providerschema.Attribute{
		"uri": opt(), "username": opt(), "password": providerschema.StringAttribute{Optional: true, Sensitive: true},
		"id_attribute": opt(), "create_method": opt(), "update_method": opt(), "destroy_method": opt(),
		"headers":              providerschema.MapAttribute{Optional: true, Sensitive: true, ElementType: types.StringType},
		"write_returns_object": providerschema.BoolAttribute{Optional: true},
		"insecure":             providerschema.BoolAttribute{Optional: true},
		"debug":                providerschema.BoolAttribute{Optional: true},
	}}
}

func (restapiStub) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (restapiStub) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return restapiObjectStub{} }}
}

func (restapiStub) DataSources(context.Context) []func() datasource.DataSource { return nil }

// restapiObjectStub is restapi_object with the REST provider's schema; every operation fails.
type restapiObjectStub struct{}

func (restapiObjectStub) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = restapiObjectType
}

func (restapiObjectStub) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	opt := func() schema.StringAttribute { return schema.StringAttribute{Optional: true} }
	computed := func() schema.StringAttribute { return schema.StringAttribute{Computed: true} }
	attrs := map[string]schema.Attribute{
		"path": schema.StringAttribute{Required: true}, "data": schema.StringAttribute{Required: true},
		"id": computed(), "api_response": computed(), "create_response": computed(),
		"api_data":                  schema.MapAttribute{Computed: true, ElementType: types.StringType},
		"debug":                     schema.BoolAttribute{Optional: true},
		"ignore_all_server_changes": schema.BoolAttribute{Optional: true},
		"ignore_server_additions":   schema.BoolAttribute{Optional: true},
		"force_new":                 schema.ListAttribute{Optional: true, ElementType: types.StringType},
		"ignore_changes_to":         schema.ListAttribute{Optional: true, ElementType: types.StringType},
		"read_search": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
			"search_key": schema.StringAttribute{Required: true}, "search_value": schema.StringAttribute{Required: true},
			"query_string": opt(), "results_key": opt(), "search_data": opt(), "search_patch": opt(),
		}},
	}
	for _, name := range []string{"create_method", "create_path", "destroy_data", "destroy_method", "destroy_path", "id_attribute",
		"object_id", "query_string", "read_data", "read_method", "read_path", "update_data", "update_method", "update_path"} {
		attrs[name] = opt()
	}
	resp.Schema = schema.Schema{Attributes: attrs}
}

func (restapiObjectStub) Create(_ context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	resp.Diagnostics.AddError("Stand-in", "This is the tests' stand-in for the REST provider: it creates nothing.")
}

func (restapiObjectStub) Read(_ context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	resp.Diagnostics.AddError("Stand-in", "This is the tests' stand-in for the REST provider: it reads nothing.")
}

func (restapiObjectStub) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Stand-in", "This is the tests' stand-in for the REST provider: it updates nothing.")
}

func (restapiObjectStub) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	resp.Diagnostics.AddError("Stand-in", "This is the tests' stand-in for the REST provider: it deletes nothing.")
}
