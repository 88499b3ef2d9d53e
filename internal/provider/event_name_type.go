package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The service's samples and its catalogue disagree on the case of event names
// (Atom.Status against ATOM.STATUS). eventNameType is a string type whose
// values are semantically equal when they differ only in case, so the
// framework keeps the configured spelling in state and no diff appears.

var (
	_ basetypes.StringTypable                    = eventNameType{}
	_ basetypes.StringValuableWithSemanticEquals = eventNameValue{}
)

// eventNameType is the attribute type of event_name.
type eventNameType struct {
	basetypes.StringType
}

// Equal reports whether o is an eventNameType.
func (t eventNameType) Equal(o attr.Type) bool {
	_, ok := o.(eventNameType)
	return ok
}

// String names the type in framework errors.
func (t eventNameType) String() string { return "eventNameType" }

// ValueFromString wraps a string value.
func (t eventNameType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return eventNameValue{StringValue: in}, nil
}

// ValueFromTerraform converts a Terraform value.
func (t eventNameType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", v)
	}
	return eventNameValue{StringValue: s}, nil
}

// ValueType returns the value type of this type.
func (t eventNameType) ValueType(context.Context) attr.Value { return eventNameValue{} }

// eventNameValue is an event name compared without regard to case.
type eventNameValue struct {
	basetypes.StringValue
}

// newEventName returns a known event name value.
func newEventName(s string) eventNameValue {
	return eventNameValue{StringValue: basetypes.NewStringValue(s)}
}

// Equal is exact equality, as Terraform requires; see StringSemanticEquals.
func (v eventNameValue) Equal(o attr.Value) bool {
	other, ok := o.(eventNameValue)
	return ok && v.StringValue.Equal(other.StringValue)
}

// Type returns eventNameType.
func (v eventNameValue) Type(context.Context) attr.Type { return eventNameType{} }

// StringSemanticEquals reports whether two event names differ only in case.
func (v eventNameValue) StringSemanticEquals(ctx context.Context, newValuable basetypes.StringValuable) (bool, diag.Diagnostics) {
	n, diags := newValuable.ToStringValue(ctx)
	if diags.HasError() || n.IsNull() || n.IsUnknown() || v.IsNull() || v.IsUnknown() {
		return false, diags
	}
	return strings.EqualFold(v.ValueString(), n.ValueString()), diags
}
