package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestSubscriptionResource_emailWarning calls ModifyPlan of eventnotify_subscription as the
// framework does for each kind of plan, and checks that the EMAIL warning appears exactly
// where the configuration sets destination_type to EMAIL: a create, or a change from another
// destination; not a plan that keeps an EMAIL subscription (an imported one, a refresh, a
// change of another attribute), a destroy, or a value known only at apply.
func TestSubscriptionResource_emailWarning(t *testing.T) {
	ctx := context.Background()
	r := &SubscriptionResource{}
	var schemaResp fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &schemaResp)
	s := schemaResp.Schema
	typ, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatalf("the schema's type is %T", s.Type().TerraformType(ctx))
	}
	// object is a value of the resource: destination_type and log_level as given (nil: null,
	// unknown{}: unknown), every other attribute null; absent is a null resource.
	const absent = "absent"
	object := func(destination, level any) tftypes.Value {
		if destination == absent {
			return tftypes.NewValue(typ, nil)
		}
		attrs := make(map[string]tftypes.Value, len(typ.AttributeTypes))
		for name, attrType := range typ.AttributeTypes {
			attrs[name] = tftypes.NewValue(attrType, nil)
		}
		attrs["destination_type"] = value(t, tftypes.String, destination)
		attrs["log_level"] = value(t, tftypes.String, level)
		return tftypes.NewValue(typ, attrs)
	}
	cases := []struct {
		name              string
		state, config     tftypes.Value
		wantEmailWarnings int
	}{
		{"create EMAIL", object(absent, nil), object("EMAIL", "INFO"), 1},
		{"create EVENT_STREAMS", object(absent, nil), object("EVENT_STREAMS", "INFO"), 0},
		{"change to EMAIL", object("EVENT_STREAMS", "INFO"), object("EMAIL", "INFO"), 1},
		{"EMAIL kept (imported, refreshed)", object("EMAIL", "INFO"), object("EMAIL", "INFO"), 0},
		{"EMAIL kept, log level changed", object("EMAIL", "INFO"), object("EMAIL", "ERROR"), 0},
		{"change from EMAIL", object("EMAIL", "INFO"), object("EVENT_STREAMS", "INFO"), 0},
		{"destroy", object("EMAIL", "INFO"), object(absent, nil), 0},
		{"known only at apply", object(absent, nil), object(unknown{}, "INFO"), 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := fwresource.ModifyPlanRequest{
				State:  tfsdk.State{Schema: s, Raw: tc.state},
				Config: tfsdk.Config{Schema: s, Raw: tc.config},
				Plan:   tfsdk.Plan{Schema: s, Raw: tc.config},
			}
			resp := &fwresource.ModifyPlanResponse{Plan: req.Plan}
			r.ModifyPlan(ctx, req, resp)
			if len(resp.Diagnostics) != tc.wantEmailWarnings {
				t.Fatalf("diagnostics %v, want %d EMAIL warnings", resp.Diagnostics, tc.wantEmailWarnings)
			}
			for _, d := range resp.Diagnostics {
				if !d.Equal(emailWarning(path.Root("destination_type"))) || d.Severity() != diag.SeverityWarning {
					t.Errorf("diagnostic %v, want the EMAIL warning on destination_type", d)
				}
			}
		})
	}
}
