package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestDataSourcesFollowTheRecipe holds every registered data source to the steps of
// CONTRIBUTING.md, "Adding a data source", that a test can see; each failure names its step.
// A new data source walks the recipe by following the failures.
func TestDataSourcesFollowTheRecipe(t *testing.T) {
	ctx := context.Background()
	p := &EventNotifyProvider{}
	tests, err := filepath.Glob("*_test.go")
	if err != nil || len(tests) == 0 {
		t.Fatalf("no test files found (%v)", err)
	}
	var testText strings.Builder
	for _, file := range tests {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		testText.Write(b)
	}
	newDataSources := p.DataSources(ctx)
	if len(newDataSources) < 5 {
		t.Fatalf("found only %d data sources", len(newDataSources))
	}
	for _, newDataSource := range newDataSources {
		ds := newDataSource()
		var meta datasource.MetadataResponse
		ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "eventnotify"}, &meta)
		name := strings.TrimPrefix(meta.TypeName, "eventnotify_")
		t.Run(meta.TypeName, func(t *testing.T) {
			for _, problem := range dataSourceRecipeProblems(ctx, ds, name, testText.String()) {
				t.Error(problem)
			}
		})
	}
}

// dataSourceRecipeProblems lists how the data source ds (type eventnotify_<name>) departs from
// the recipe, given the text of the package's test files.
func dataSourceRecipeProblems(ctx context.Context, ds datasource.DataSource, name, testText string) []string {
	var problems []string
	if _, err := os.Stat(name + "_data_source.go"); err != nil {
		problems = append(problems, fmt.Sprintf("step 1: the data source lives in internal/provider/%s_data_source.go (%v)", name, err))
	}
	if _, ok := ds.(datasource.DataSourceWithConfigure); !ok {
		problems = append(problems, "step 1: the data source implements Configure (configureProviderData), or it never gets the provider's client")
		return problems
	}
	var sch datasource.SchemaResponse
	ds.Schema(ctx, datasource.SchemaRequest{}, &sch)
	if account, ok := sch.Schema.Attributes["account_id"]; ok {
		if !account.IsOptional() || !account.IsComputed() {
			problems = append(problems, "step 3: account_id is Optional and Computed (read through providerData.account), so that state holds the account the provider's default resolved to")
		}
	}
	if problem := unconfiguredReadProblem(ctx, ds, sch.Schema); problem != "" {
		problems = append(problems, problem)
	}
	if !strings.Contains(testText, `"data.eventnotify_`+name+`.`) {
		problems = append(problems, fmt.Sprintf("step 5: no test checks an attribute of data.eventnotify_%s (resource.TestCheckResourceAttr(\"data.eventnotify_%s.<name>\", ...) in an acceptance test)", name, name))
	}
	return problems
}

// unconfiguredReadProblem reads ds before any Configure, with every argument null, as a
// provider whose configuration failed would: the read must end in the "Provider not configured"
// error of providerConfigured, not a panic or a call through a nil client.
func unconfiguredReadProblem(ctx context.Context, ds datasource.DataSource, sch dschema.Schema) (problem string) {
	defer func() {
		if r := recover(); r != nil {
			problem = fmt.Sprintf("step 1: Read panics when the provider is not configured (%v): start it with providerConfigured", r)
		}
	}()
	objType, ok := sch.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		return "step 1: the schema's type is not an object"
	}
	nulls := make(map[string]tftypes.Value, len(objType.AttributeTypes))
	for attr, typ := range objType.AttributeTypes {
		nulls[attr] = tftypes.NewValue(typ, nil)
	}
	req := datasource.ReadRequest{Config: tfsdk.Config{Schema: sch, Raw: tftypes.NewValue(objType, nulls)}}
	resp := datasource.ReadResponse{State: tfsdk.State{Schema: sch, Raw: tftypes.NewValue(objType, nil)}}
	ds.Read(ctx, req, &resp)
	for _, d := range resp.Diagnostics.Errors() {
		if d.Summary() == "Provider not configured" {
			return ""
		}
	}
	return fmt.Sprintf("step 1: Read without a configured provider does not report \"Provider not configured\" (diagnostics: %v): start it with providerConfigured", resp.Diagnostics)
}
