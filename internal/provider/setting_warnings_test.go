package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestSubscriptionResource_settingWarnings calls ModifyPlan of eventnotify_subscription as
// the framework does for each kind of plan, and checks that each warning about settings the
// service delivers nowhere appears exactly where the configuration sets them: EMAIL, and an
// EVENT_STREAMS destination without environment or topic, in a create or a change that brings
// them; not in a plan that keeps them (an imported subscription, a refresh, a change of
// another attribute), a destroy, or where a value it reads is known only at apply.
func TestSubscriptionResource_settingWarnings(t *testing.T) {
	ctx := context.Background()
	r := &SubscriptionResource{}
	var schemaResp fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &schemaResp)
	s := schemaResp.Schema
	typ, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatalf("the schema's type is %T", s.Type().TerraformType(ctx))
	}
	// settings are the values of a resource that the warnings read (nil: null, unknown{}:
	// unknown); every other attribute is null.
	type settings struct{ destination, level, environment, topic any }
	absent := settings{destination: "absent"} // a null resource
	object := func(v settings) tftypes.Value {
		if v == absent {
			return tftypes.NewValue(typ, nil)
		}
		attrs := make(map[string]tftypes.Value, len(typ.AttributeTypes))
		for name, attrType := range typ.AttributeTypes {
			attrs[name] = tftypes.NewValue(attrType, nil)
		}
		attrs["destination_type"] = value(t, tftypes.String, v.destination)
		attrs["log_level"] = value(t, tftypes.String, v.level)
		attrs["event_streams_environment_id"] = value(t, tftypes.String, v.environment)
		attrs["event_streams_topic"] = value(t, tftypes.String, v.topic)
		return tftypes.NewValue(typ, attrs)
	}
	const (
		email       = "destination_type"
		environment = "event_streams_environment_id"
		topic       = "event_streams_topic"
	)
	complete := settings{"EVENT_STREAMS", "INFO", "env-1", "alerts"}
	mail := settings{"EMAIL", "INFO", nil, nil}
	noTopic := settings{"EVENT_STREAMS", "INFO", "env-1", nil}
	noEnvironment := settings{"EVENT_STREAMS", "INFO", nil, "alerts"}
	cases := []struct {
		name          string
		state, config settings
		want          []string // the attributes warned about, in order
	}{
		{"create EMAIL", absent, mail, []string{email}},
		{"create EVENT_STREAMS", absent, complete, nil},
		{"create EVENT_STREAMS without topic", absent, noTopic, []string{topic}},
		{"create EVENT_STREAMS without environment", absent, noEnvironment, []string{environment}},
		{"create EVENT_STREAMS without either", absent, settings{"EVENT_STREAMS", "INFO", nil, nil}, []string{environment, topic}},
		{"create EVENT_STREAMS with an empty topic", absent, settings{"EVENT_STREAMS", "INFO", "env-1", ""}, []string{topic}},
		{"change to EMAIL", complete, mail, []string{email}},
		{"EMAIL kept (imported, refreshed)", mail, mail, nil},
		{"EMAIL kept, log level changed", mail, settings{"EMAIL", "ERROR", nil, nil}, nil},
		{"change from EMAIL", mail, complete, nil},
		{"change from EMAIL to EVENT_STREAMS without topic", mail, noTopic, []string{topic}},
		{"topic removed", complete, noTopic, []string{topic}},
		{"environment removed", complete, noEnvironment, []string{environment}},
		{"without topic kept (imported, refreshed)", noTopic, noTopic, nil},
		{"without topic kept, log level changed", noTopic, settings{"EVENT_STREAMS", "ERROR", "env-1", nil}, nil},
		{"without topic, environment removed", noTopic, settings{"EVENT_STREAMS", "INFO", nil, nil}, []string{environment}},
		{"topic added", noTopic, complete, nil},
		{"destroy", mail, absent, nil},
		{"destination known only at apply", absent, settings{unknown{}, "INFO", nil, nil}, nil},
		{"topic known only at apply", absent, settings{"EVENT_STREAMS", "INFO", "env-1", unknown{}}, nil},
		{"environment known only at apply", absent, settings{"EVENT_STREAMS", "INFO", unknown{}, "alerts"}, nil},
	}
	summaries := map[string]string{}
	for _, w := range settingWarnings() {
		summaries[w.attribute] = w.summary
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := fwresource.ModifyPlanRequest{
				State:  tfsdk.State{Schema: s, Raw: object(tc.state)},
				Config: tfsdk.Config{Schema: s, Raw: object(tc.config)},
				Plan:   tfsdk.Plan{Schema: s, Raw: object(tc.config)},
			}
			resp := &fwresource.ModifyPlanResponse{Plan: req.Plan}
			r.ModifyPlan(ctx, req, resp)
			var got []string
			for _, d := range resp.Diagnostics {
				withPath, ok := d.(diag.DiagnosticWithPath)
				if !ok || d.Severity() != diag.SeverityWarning {
					t.Fatalf("diagnostic %v, want a warning on an attribute", d)
				}
				attribute := withPath.Path().String()
				if !withPath.Path().Equal(path.Root(attribute)) || d.Summary() != summaries[attribute] {
					t.Errorf("warning %q on %s, want %q on a top-level attribute", d.Summary(), attribute, summaries[attribute])
				}
				got = append(got, attribute)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("warnings on %q, want on %q (diagnostics %v)", got, tc.want, resp.Diagnostics)
			}
		})
	}
}
