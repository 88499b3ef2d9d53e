package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// subscriptionObject builds a subscription argument of notifies from attribute values.
func subscriptionObject(t *testing.T, values map[string]attr.Value) types.Dynamic {
	t.Helper()
	attrTypes := make(map[string]attr.Type, len(values))
	for k, v := range values {
		attrTypes[k] = v.Type(context.Background())
	}
	obj, diags := types.ObjectValue(attrTypes, values)
	if diags.HasError() {
		t.Fatalf("object: %v", diags)
	}
	return types.DynamicValue(obj)
}

// runNotifies calls the function as the framework does.
func runNotifies(sub types.Dynamic, event, level string) (types.Bool, *function.FuncError) {
	resp := function.RunResponse{Result: function.NewResultData(types.BoolUnknown())}
	(&NotifiesFunction{}).Run(context.Background(), function.RunRequest{
		Arguments: function.NewArgumentsData([]attr.Value{sub, types.StringValue(event), types.StringValue(level)}),
	}, &resp)
	got, _ := resp.Result.Value().(types.Bool)
	return got, resp.Error
}

// TestNotifiesFunctionRun holds notifies to the rule for every shape of subscription the
// function promises to read, and its errors to the argument they are about.
func TestNotifiesFunctionRun(t *testing.T) {
	t.Parallel()
	str, boolean := types.StringValue, types.BoolValue
	tests := []struct {
		name    string
		sub     map[string]attr.Value
		mapped  map[string]string // a map(string) instead of an object
		event   string
		level   string
		want    types.Bool
		wantErr string // the argument position's name and a phrase
		wantArg int64
	}{
		{name: "warning hears error", sub: map[string]attr.Value{"event_name": str("PROCESS.EXECUTION"), "log_level": str("WARNING"), "enabled": boolean(true)},
			event: "PROCESS.EXECUTION", level: "ERROR", want: boolean(true)},
		{name: "warning misses info", sub: map[string]attr.Value{"event_name": str("PROCESS.EXECUTION"), "log_level": str("WARNING"), "enabled": boolean(true)},
			event: "PROCESS.EXECUTION", level: "INFO", want: boolean(false)},
		{name: "enabled absent counts as true", sub: map[string]attr.Value{"event_name": str("process.execution"), "log_level": str("ERROR")},
			event: "PROCESS.EXECUTION", level: "ERROR", want: boolean(true)},
		{name: "enabled null counts as true", sub: map[string]attr.Value{"event_name": str("PROCESS.EXECUTION"), "log_level": str("ERROR"), "enabled": types.BoolNull()},
			event: "PROCESS.EXECUTION", level: "ERROR", want: boolean(true)},
		{name: "disabled", sub: map[string]attr.Value{"event_name": str("PROCESS.EXECUTION"), "log_level": str("INFO"), "enabled": boolean(false)},
			event: "PROCESS.EXECUTION", level: "ERROR", want: boolean(false)},
		{name: "other attributes ignored", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS"), "log_level": str("INFO"), "id": str("x"), "created_date": types.Int64Value(1)},
			event: "atom.status", level: "WARNING", want: boolean(true)},
		{name: "unknown enabled gives unknown", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS"), "log_level": str("INFO"), "enabled": types.BoolUnknown()},
			event: "ATOM.STATUS", level: "INFO", want: types.BoolUnknown()},
		{name: "unknown id, known routing", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS"), "log_level": str("INFO"), "enabled": boolean(true), "id": types.StringUnknown()},
			event: "ATOM.STATUS", level: "ERROR", want: boolean(true)},
		{name: "unknown log_level gives unknown", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS"), "log_level": types.StringUnknown()},
			event: "ATOM.STATUS", level: "ERROR", want: types.BoolUnknown()},
		{name: "map of strings", mapped: map[string]string{"event_name": "ATOM.STATUS", "log_level": "ERROR", "enabled": "false"},
			event: "ATOM.STATUS", level: "ERROR", want: boolean(false)},
		{name: "map of strings enabled", mapped: map[string]string{"event_name": "ATOM.STATUS", "log_level": "ERROR", "enabled": "true"},
			event: "ATOM.STATUS", level: "ERROR", want: boolean(true)},
		{name: "no event_name", sub: map[string]attr.Value{"log_level": str("INFO")},
			event: "ATOM.STATUS", level: "INFO", wantErr: "subscription: the object has no event_name", wantArg: 0},
		{name: "no log_level", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS")},
			event: "ATOM.STATUS", level: "INFO", wantErr: "subscription: the object has no log_level", wantArg: 0},
		{name: "invalid subscription level", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS"), "log_level": str("DEBUG")},
			event: "ATOM.STATUS", level: "INFO", wantErr: `subscription: log_level "DEBUG" is not a log level`, wantArg: 0},
		{name: "null log_level", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS"), "log_level": types.StringNull()},
			event: "ATOM.STATUS", level: "INFO", wantErr: "subscription: log_level is null", wantArg: 0},
		{name: "enabled not a bool", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS"), "log_level": str("INFO"), "enabled": types.Int64Value(1)},
			event: "ATOM.STATUS", level: "INFO", wantErr: "subscription: enabled must be a bool", wantArg: 0},
		{name: "event_name not a string", sub: map[string]attr.Value{"event_name": types.Int64Value(3), "log_level": str("INFO")},
			event: "ATOM.STATUS", level: "INFO", wantErr: "subscription: event_name must be a string", wantArg: 0},
		{name: "empty event argument", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS"), "log_level": str("INFO")},
			event: " ", level: "INFO", wantErr: "event_name: an event name is required", wantArg: 1},
		{name: "invalid level argument", sub: map[string]attr.Value{"event_name": str("ATOM.STATUS"), "log_level": str("INFO")},
			event: "ATOM.STATUS", level: "error", wantErr: `log_level: "error" is not a log level`, wantArg: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var sub types.Dynamic
			if tt.mapped != nil {
				m, diags := types.MapValueFrom(context.Background(), types.StringType, tt.mapped)
				if diags.HasError() {
					t.Fatal(diags)
				}
				sub = types.DynamicValue(m)
			} else {
				sub = subscriptionObject(t, tt.sub)
			}
			got, err := runNotifies(sub, tt.event, tt.level)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Text, tt.wantErr) || err.FunctionArgument == nil || *err.FunctionArgument != tt.wantArg {
					t.Fatalf("error %+v, want argument %d with %q", err, tt.wantArg, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %s", err.Text)
			}
			if !got.Equal(tt.want) {
				t.Errorf("notifies = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestNotifiesFunctionUnknownSubscription: a subscription not known yet (during a plan) gives an
// unknown answer, not an error.
func TestNotifiesFunctionUnknownSubscription(t *testing.T) {
	t.Parallel()
	objectType := types.ObjectType{AttrTypes: map[string]attr.Type{"event_name": types.StringType, "log_level": types.StringType}}
	for name, sub := range map[string]types.Dynamic{
		"dynamic unknown": types.DynamicUnknown(),
		"object unknown":  types.DynamicValue(types.ObjectUnknown(objectType.AttrTypes)),
	} {
		got, err := runNotifies(sub, "ATOM.STATUS", "ERROR")
		if err != nil || !got.IsUnknown() {
			t.Errorf("%s: notifies = %s, %v; want unknown and no error", name, got, err)
		}
	}
}

// TestNotifiesFunctionRejectsNonObjects names the subscription argument for a value that is
// not an object or a map.
func TestNotifiesFunctionRejectsNonObjects(t *testing.T) {
	t.Parallel()
	_, err := runNotifies(types.DynamicValue(types.StringValue("PROCESS.EXECUTION")), "PROCESS.EXECUTION", "ERROR")
	if err == nil || err.FunctionArgument == nil || *err.FunctionArgument != 0 || !strings.Contains(err.Text, "want an object") {
		t.Fatalf("error %+v, want one about argument 0 asking for an object", err)
	}
}
