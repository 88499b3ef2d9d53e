package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestAccountProtocol_defaultsFromSchema checks that the fast path's no-change plan reads the
// defaults from the schema: the resource's (enabled, true; its timeouts block has none), a
// default the schema would gain, and none at all when a default is of a kind it cannot
// evaluate or sits inside a block.
func TestAccountProtocol_defaultsFromSchema(t *testing.T) {
	ctx := context.Background()
	a := newAccountProtocol(New("test")().(*EventNotifyProvider))
	if a.defaults == nil || len(a.defaults.top) != 0 || len(a.defaults.entry) != 1 ||
		!a.defaults.entry["enabled"].Equal(tftypes.NewValue(tftypes.Bool, true)) {
		t.Fatalf("the resource's defaults: %+v, want enabled = true in entries only", a.defaults)
	}

	entryWith := func(extra schema.Attribute) schema.Schema {
		attrs := accountEntryAttributes()
		attrs["extra"] = extra
		return schema.Schema{Attributes: map[string]schema.Attribute{
			"id":            schema.StringAttribute{Computed: true},
			"subscriptions": schema.MapNestedAttribute{Required: true, NestedObject: schema.NestedAttributeObject{Attributes: attrs}},
		}}
	}
	d := defaultsOf(ctx, entryWith(schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("x")}))
	if d == nil || !d.entry["extra"].Equal(tftypes.NewValue(tftypes.String, "x")) || !d.entry["enabled"].Equal(tftypes.NewValue(tftypes.Bool, true)) {
		t.Fatalf("a string default the schema gains: %+v", d)
	}
	top := schema.Schema{Attributes: map[string]schema.Attribute{
		"flag": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false)}}}
	if d := defaultsOf(ctx, top); d == nil || !d.top["flag"].Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Fatalf("a top-level default: %+v", d)
	}
	mapDefault := entryWith(schema.MapAttribute{ElementType: types.StringType, Optional: true, Computed: true,
		Default: mapdefault.StaticValue(types.MapValueMust(types.StringType, map[string]attr.Value{}))})
	if d := defaultsOf(ctx, mapDefault); d != nil {
		t.Fatalf("a map default, which the fast path does not evaluate: %+v, want none (every plan to the framework)", d)
	}
	blockDefault := entryWith(schema.StringAttribute{Optional: true})
	blockDefault.Blocks = map[string]schema.Block{"b": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{
		"x": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("x")}}}}
	if d := defaultsOf(ctx, blockDefault); d != nil {
		t.Fatalf("a default inside a block, which the no-change plan does not apply: %+v, want none", d)
	}
}
