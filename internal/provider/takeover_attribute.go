package provider

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The takeover attribute of eventnotify_account_subscriptions and
// eventnotify_topic_subscriptions: what the apply that creates the resource deletes and takes
// over of what the account (the topic) already holds, as the plan listed it. A plan file keeps
// no warning, so the takeover warnings (takeoverScan) reach an approver of a saved plan only
// through a value of the plan: `terraform show tfplan` and `terraform show -json tfplan` print
// it. It is known at plan time, and Terraform holds the apply to it: the apply plans the
// resource again (PlanResourceChange, which lists the account again) and refuses to go on when
// a value that the saved plan knew has changed, so an account that holds other subscriptions
// by the time of the apply stops it before any write. The create itself deletes only the ids
// the plan named (applyScope's named): anything else it finds is left alone, with a warning.
//
// After the create, the state keeps the plan's value; every later plan keeps the state's
// (keepTakeover), so it never shows as a change; an import and a state written before the
// attribute existed hold null.

// takeoverAttribute is the attribute's name.
const takeoverAttribute = "takeover"

// takeoverAttrTypes are the types of the attribute's members.
var takeoverAttrTypes = map[string]attr.Type{
	"deletes":    types.ListType{ElemType: types.StringType},
	"takes_over": types.MapType{ElemType: types.StringType},
}

// takeoverSchema is the attribute's schema; noun is "account" or "topic".
func takeoverSchema(noun string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		MarkdownDescription: "What the apply that creates the resource does to the subscriptions the " + noun + " already " +
			"holds, known at plan time so that a saved plan shows it: the ids it deletes (`deletes`) and the ones its entries " +
			"take over (`takes_over`). Null after an import. The page's section on `takeover` says more.",
		Computed: true,
		Attributes: map[string]schema.Attribute{
			"deletes": schema.ListAttribute{
				MarkdownDescription: "Ids of the subscriptions the first apply deletes, in order.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"takes_over": schema.MapAttribute{
				MarkdownDescription: "Entry key to the id of the subscription that entry takes over.",
				ElementType:         types.StringType,
				Computed:            true,
			},
		},
	}
}

// takeoverPlan is what a plan that creates the resource found: the ids the apply deletes and,
// by entry key, the ids the entries take over.
type takeoverPlan struct {
	deletes   []string
	takesOver map[string]string
}

// value is the attribute's value.
func (p takeoverPlan) value() (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	ids := append([]string{}, p.deletes...) // an empty list, never null
	slices.Sort(ids)
	deletes, d := types.ListValueFrom(context.Background(), types.StringType, ids)
	diags.Append(d...)
	byKey := map[string]string{}
	maps.Copy(byKey, p.takesOver)
	takesOver, d := types.MapValueFrom(context.Background(), types.StringType, byKey)
	diags.Append(d...)
	if diags.HasError() {
		return types.ObjectNull(takeoverAttrTypes), diags
	}
	obj, d := types.ObjectValue(takeoverAttrTypes, map[string]attr.Value{"deletes": deletes, "takes_over": takesOver})
	diags.Append(d...)
	return obj, diags
}

// setTakeover sets the plan's takeover to what the plan found.
func setTakeover(ctx context.Context, plan *tfsdk.Plan, p takeoverPlan) diag.Diagnostics {
	obj, diags := p.value()
	if diags.HasError() {
		return diags
	}
	return plan.SetAttribute(ctx, path.Root(takeoverAttribute), obj)
}

// keepTakeover sets the plan's takeover to the state's, which the framework marks unknown in a
// plan that changes something else: the value is the create's record, never a change.
func keepTakeover(ctx context.Context, state tfsdk.State, plan *tfsdk.Plan) diag.Diagnostics {
	var held types.Object
	diags := state.GetAttribute(ctx, path.Root(takeoverAttribute), &held)
	if diags.HasError() {
		return diags
	}
	return plan.SetAttribute(ctx, path.Root(takeoverAttribute), held)
}

// namedDeletes returns the ids (lower case) of a planned takeover's deletes, and false when
// the plan knows none (a null or unknown value: the plan could not list the account), so that
// the apply deletes what it finds unmatched, as the plan's warning said it would.
func namedDeletes(takeover types.Object) (map[string]bool, bool) {
	if takeover.IsNull() || takeover.IsUnknown() {
		return nil, false
	}
	list, ok := takeover.Attributes()["deletes"].(types.List)
	if !ok || list.IsNull() || list.IsUnknown() {
		return nil, false
	}
	named := make(map[string]bool, len(list.Elements()))
	for _, v := range list.Elements() {
		if s, ok := v.(types.String); ok {
			named[strings.ToLower(s.ValueString())] = true
		}
	}
	return named, true
}

// recordedTakeover is the takeover attribute an apply writes to state: the plan's, which
// Terraform holds it to; null where the plan left it unknown, which only a plan that could not
// list the account does, and the apply-time plan always can.
func recordedTakeover(planned types.Object) types.Object {
	if planned.IsUnknown() {
		return types.ObjectNull(takeoverAttrTypes)
	}
	return planned
}
