package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestEventStreamsTopicResource_planWarnings calls ModifyPlan as the framework does for each
// kind of plan of the topic, and checks that a plan that replaces or destroys it warns that
// the old topic stays, naming it and (for a replacement) what the apply creates, and that a
// create or a plan without change warns about nothing.
func TestEventStreamsTopicResource_planWarnings(t *testing.T) {
	ctx := context.Background()
	r := &EventStreamsTopicResource{data: &providerData{accountID: "acc-1"}}
	var schemaResp fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &schemaResp)
	s := schemaResp.Schema
	held := eventStreamsTopicModel{
		ID: types.StringValue("acc-1/env-1/alerts"), AccountID: types.StringValue("acc-1"),
		EnvironmentID: types.StringValue("env-1"), SubscriptionName: types.StringValue("ops-alerts"),
		TopicName: types.StringValue("alerts"), TopicDescription: types.StringNull(), SubscriptionCount: types.Int64Value(1),
	}
	// configOf is the configuration of a model: computed values null, account_id as given.
	configOf := func(m eventStreamsTopicModel) eventStreamsTopicModel {
		m.ID, m.SubscriptionCount = types.StringNull(), types.Int64Null()
		return m
	}
	// planOf is what Terraform proposes for a configuration over the held topic.
	planOf := func(c eventStreamsTopicModel, same bool) eventStreamsTopicModel {
		if same {
			c.ID, c.SubscriptionCount = held.ID, held.SubscriptionCount
		} else {
			c.ID, c.SubscriptionCount = types.StringUnknown(), types.Int64Unknown()
		}
		if c.AccountID.IsNull() {
			c.AccountID = held.AccountID
		}
		return c
	}
	changed := func(f func(*eventStreamsTopicModel)) eventStreamsTopicModel {
		c := configOf(held)
		f(&c)
		return c
	}
	replacePhrases := []string{`topic "alerts" and its subscription "ops-alerts" stay in event streams environment "env-1" (account "acc-1")`,
		"own console or API", "The apply then creates"}
	cases := []struct {
		name        string
		state       *eventStreamsTopicModel
		config      *eventStreamsTopicModel
		plan        *eventStreamsTopicModel
		wantSummary string // "" for no diagnostic
		wantPhrases []string
	}{
		{name: "create", config: ptr(configOf(held)), plan: ptr(planOf(configOf(held), false))},
		{name: "no change", state: &held, config: ptr(configOf(held)), plan: ptr(planOf(configOf(held), true))},
		{name: "topic_name changed", state: &held,
			config:      ptr(changed(func(m *eventStreamsTopicModel) { m.TopicName = types.StringValue("incidents") })),
			plan:        ptr(planOf(changed(func(m *eventStreamsTopicModel) { m.TopicName = types.StringValue("incidents") }), false)),
			wantSummary: `Replacing event streams topic "alerts" leaves the old topic in place`,
			wantPhrases: append(replacePhrases, `topic "incidents" with subscription "ops-alerts" in event streams environment "env-1" (account "acc-1")`)},
		{name: "topic_description set", state: &held,
			config:      ptr(changed(func(m *eventStreamsTopicModel) { m.TopicDescription = types.StringValue("Paged") })),
			plan:        ptr(planOf(changed(func(m *eventStreamsTopicModel) { m.TopicDescription = types.StringValue("Paged") }), false)),
			wantSummary: `Replacing event streams topic "alerts" leaves the old topic in place`,
			wantPhrases: append(replacePhrases, "adds another subscription to it")},
		{name: "environment known only at apply", state: &held,
			config:      ptr(changed(func(m *eventStreamsTopicModel) { m.EnvironmentID = types.StringUnknown() })),
			plan:        ptr(planOf(changed(func(m *eventStreamsTopicModel) { m.EnvironmentID = types.StringUnknown() }), false)),
			wantSummary: `Replacing event streams topic "alerts" leaves the old topic in place`,
			wantPhrases: append(replacePhrases, "in event streams environment (known after apply)")},
		{name: "the provider's account changed", state: &held,
			config:      ptr(changed(func(m *eventStreamsTopicModel) { m.AccountID = types.StringNull() })),
			plan:        ptr(planOf(changed(func(m *eventStreamsTopicModel) { m.AccountID = types.StringValue("acc-0") }), true)),
			wantSummary: `Replacing event streams topic "alerts" leaves the old topic in place`,
			wantPhrases: []string{`stay in event streams environment "env-1" (account "acc-0")`,
				`with subscription "ops-alerts" in event streams environment "env-1" (account "acc-1")`}},
		{name: "destroy", state: &held,
			wantSummary: `Destroying event streams topic "alerts" leaves it in place`,
			wantPhrases: []string{"only removes it from the Terraform state", replacePhrases[0], "own console or API"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "the provider's account changed" {
				// The state is of account acc-0; the provider's is acc-1.
				prior := held
				prior.AccountID = types.StringValue("acc-0")
				tc.state = &prior
			}
			req := fwresource.ModifyPlanRequest{
				State:  tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)},
				Config: tfsdk.Config{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)},
				Plan:   tfsdk.Plan{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)},
			}
			var diags diag.Diagnostics
			if tc.state != nil {
				diags.Append(req.State.Set(ctx, tc.state)...)
			}
			if tc.config != nil {
				c := tfsdk.State{Schema: s}
				diags.Append(c.Set(ctx, tc.config)...)
				req.Config.Raw = c.Raw
			}
			if tc.plan != nil {
				diags.Append(req.Plan.Set(ctx, tc.plan)...)
			}
			if diags.HasError() {
				t.Fatal(diags)
			}
			resp := &fwresource.ModifyPlanResponse{Plan: req.Plan}
			r.ModifyPlan(ctx, req, resp)
			if tc.wantSummary == "" {
				if len(resp.Diagnostics) != 0 {
					t.Fatalf("diagnostics %v, want none", resp.Diagnostics)
				}
				return
			}
			if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Severity() != diag.SeverityWarning {
				t.Fatalf("diagnostics %v, want one warning", resp.Diagnostics)
			}
			w := resp.Diagnostics[0]
			if w.Summary() != tc.wantSummary {
				t.Errorf("summary %q, want %q", w.Summary(), tc.wantSummary)
			}
			for _, phrase := range tc.wantPhrases {
				if !strings.Contains(w.Detail(), phrase) {
					t.Errorf("detail lacks %q:\n%s", phrase, w.Detail())
				}
			}
		})
	}
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }
