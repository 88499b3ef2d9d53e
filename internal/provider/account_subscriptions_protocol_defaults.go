package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/defaults"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// schemaDefaults are the values of the defaults of eventnotify_account_subscriptions' schema,
// read from the schema itself (today: enabled, true), so that the fast path's no-change plan
// follows every default the schema gains.
type schemaDefaults struct {
	top   map[string]tftypes.Value // top-level attributes
	entry map[string]tftypes.Value // attributes of an entry of subscriptions
}

// defaultsOf evaluates the defaults of s; nil when an attribute is of a kind this does not
// read (only strings, bools and int64 are, besides the map of entries, lists and maps
// without defaults, and the read-only takeover object) or a default fails:
// then every plan goes to the framework, which TestAccountProtocol_planMatchesFramework
// notices.
func defaultsOf(ctx context.Context, s schema.Schema) *schemaDefaults {
	d := &schemaDefaults{top: map[string]tftypes.Value{}, entry: map[string]tftypes.Value{}}
	for name, a := range s.Attributes {
		if nested, ok := a.(schema.MapNestedAttribute); ok && nested.Default == nil && name == "subscriptions" {
			for entryName, ea := range nested.NestedObject.Attributes {
				if !addDefault(ctx, d.entry, entryName, ea) {
					return nil
				}
			}
			continue
		}
		if !addDefault(ctx, d.top, name, a) {
			return nil
		}
	}
	// A block's attributes may not have defaults here (the timeouts block's have none): the
	// no-change plan would have to apply them inside the block.
	for _, b := range s.Blocks {
		single, ok := b.(schema.SingleNestedBlock)
		if !ok || len(single.Blocks) > 0 {
			return nil
		}
		for name, a := range single.Attributes {
			none := map[string]tftypes.Value{}
			if !addDefault(ctx, none, name, a) || len(none) > 0 {
				return nil
			}
		}
	}
	return d
}

// addDefault adds the default value of attribute a, if it has one, to m; false when it cannot
// be evaluated.
func addDefault(ctx context.Context, m map[string]tftypes.Value, name string, a schema.Attribute) bool {
	var v attr.Value
	switch a := a.(type) {
	case schema.BoolAttribute:
		if a.Default == nil {
			return true
		}
		resp := &defaults.BoolResponse{}
		a.Default.DefaultBool(ctx, defaults.BoolRequest{}, resp)
		if resp.Diagnostics.HasError() {
			return false
		}
		v = resp.PlanValue
	case schema.StringAttribute:
		if a.Default == nil {
			return true
		}
		resp := &defaults.StringResponse{}
		a.Default.DefaultString(ctx, defaults.StringRequest{}, resp)
		if resp.Diagnostics.HasError() {
			return false
		}
		v = resp.PlanValue
	case schema.ListAttribute:
		return a.Default == nil
	case schema.MapAttribute:
		return a.Default == nil
	case schema.SingleNestedAttribute:
		// Read-only, without defaults inside (the takeover attribute): nothing to apply.
		if a.Default != nil || a.IsOptional() || !a.IsComputed() {
			return false
		}
		for name, nested := range a.Attributes {
			none := map[string]tftypes.Value{}
			if !addDefault(ctx, none, name, nested) || len(none) > 0 {
				return false
			}
		}
		return true
	case schema.Int64Attribute:
		if a.Default == nil {
			return true
		}
		resp := &defaults.Int64Response{}
		a.Default.DefaultInt64(ctx, defaults.Int64Request{}, resp)
		if resp.Diagnostics.HasError() {
			return false
		}
		v = resp.PlanValue
	default:
		return false
	}
	tv, err := v.ToTerraformValue(ctx)
	if err != nil {
		return false
	}
	m[name] = tv
	return true
}

// hold reports whether the state object held has the default of every attribute of defaults
// that the configured object config leaves out (null).
func (d *schemaDefaults) hold(defaults map[string]tftypes.Value, config, held tftypes.Value) bool {
	var c, h map[string]tftypes.Value
	if !config.IsKnown() || config.IsNull() || config.As(&c) != nil ||
		!held.IsKnown() || held.IsNull() || held.As(&h) != nil {
		return false
	}
	for name, def := range defaults {
		if c[name].IsNull() && !h[name].Equal(def) {
			return false
		}
	}
	return true
}

// holdTop is hold for the top level of a configuration and a prior state of type typ.
func (d *schemaDefaults) holdTop(config, prior *tfprotov6.DynamicValue, typ tftypes.Type) bool {
	if len(d.top) == 0 {
		return true
	}
	c, errC := config.Unmarshal(typ)
	p, errP := prior.Unmarshal(typ)
	return errC == nil && errP == nil && d.hold(d.top, c, p)
}
