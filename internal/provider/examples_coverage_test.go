package provider

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestExamplesForEveryType checks that every resource, data source and ephemeral resource the
// provider registers has the example its page shows (examples/resources/<type>/resource.tf and
// examples/data-sources/<type>/data-source.tf, which TestAccExamples applies, and
// examples/ephemeral-resources/<type>/ephemeral-resource.tf): a new type without one fails
// here, naming the file to write (CONTRIBUTING.md, "Adding a resource").
func TestExamplesForEveryType(t *testing.T) {
	ctx := context.Background()
	p := &EventNotifyProvider{}
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	want := map[string]string{}
	for _, newResource := range p.Resources(ctx) {
		var name resource.MetadataResponse
		newResource().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &name)
		want[filepath.Join("resources", name.TypeName, "resource.tf")] = "resource " + name.TypeName
	}
	for _, newDataSource := range p.DataSources(ctx) {
		var name datasource.MetadataResponse
		newDataSource().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: meta.TypeName}, &name)
		want[filepath.Join("data-sources", name.TypeName, "data-source.tf")] = "data source " + name.TypeName
	}
	for _, newEphemeral := range p.EphemeralResources(ctx) {
		var name ephemeral.MetadataResponse
		newEphemeral().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: meta.TypeName}, &name)
		want[filepath.Join("ephemeral-resources", name.TypeName, "ephemeral-resource.tf")] = "ephemeral resource " + name.TypeName
	}
	if len(want) < 9 {
		t.Fatalf("found only %d types: %v", len(want), want)
	}
	for file, what := range want {
		if _, err := os.Stat(filepath.Join("../../examples", file)); err != nil {
			t.Errorf("%s has no example: write examples/%s (%v)", what, file, err)
		}
	}
}
