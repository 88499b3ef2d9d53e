package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

var _ function.Function = &NotifiesFunction{}

// The first CLI versions with provider-defined functions. The functions' descriptions say them,
// the acceptance tests' featureProviderFunctions is made of them, and TestCompatibilityTables
// holds the provider page's and the module testing guide's rows to that feature.
const (
	functionsTerraform = "1.8"
	functionsOpenTofu  = "1.7"
)

// functionsNeedNoService is what the description of every function says about where it runs.
const functionsNeedNoService = "It reads nothing from the service (Terraform " + functionsTerraform + " and later, OpenTofu " +
	functionsOpenTofu + " and later) and " +
	"works with no `provider \"eventnotify\"` block at all; under Terraform also beside a provider block that could not " +
	"configure (no account or credentials). OpenTofu configures the provider before it calls a function: there a " +
	"`provider \"eventnotify\"` block, when present, must configure (account, addresses and credentials), as for a resource."

// NotifiesFunction is provider::eventnotify::notifies(subscription, event_name, log_level):
// whether one subscription is notified for an event fired at a level, by the rule of the
// notified_for filter (notified_for.go). It needs no service and no provider configuration.
type NotifiesFunction struct{}

// NewNotifiesFunction returns the notifies function.
func NewNotifiesFunction() function.Function { return &NotifiesFunction{} }

// Metadata names the function.
func (f *NotifiesFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "notifies"
}

// Definition describes the parameters and the result.
func (f *NotifiesFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Whether a subscription is notified when an event fires at a log level",
		MarkdownDescription: "Returns `true` when the service notifies the subscription for the event fired at the level, " +
			"by the rule of the `notified_for` filter of the `eventnotify_subscriptions` data source: the subscription is enabled, " +
			"its event is the given one (compared without regard to case) and its minimum `log_level` is at or below the given level " +
			"(`INFO` < `WARNING` < `ERROR`). " + functionsNeedNoService,
		Parameters: []function.Parameter{
			function.DynamicParameter{
				// Called with values still unknown during a plan (a resource's id, its dates), so that
				// the answer is known as soon as event_name, log_level and enabled are.
				AllowUnknownValues: true,
				Name:               "subscription",
				MarkdownDescription: "One subscription: any object with `event_name` and `log_level` and, optionally, `enabled` " +
					"(`true` when absent or null), such as an `eventnotify_subscription` resource, an element of the " +
					"`subscriptions` of the `eventnotify_subscriptions` data source, or an entry of the `subscriptions` of " +
					"`eventnotify_account_subscriptions` or `eventnotify_topic_subscriptions`.",
			},
			function.StringParameter{
				Name:                "event_name",
				MarkdownDescription: "The event that fires, for example `PROCESS.EXECUTION`.",
			},
			function.StringParameter{
				Name:                "log_level",
				MarkdownDescription: "The level the event fires at: " + enumWords(logLevels) + ".",
			},
		},
		Return: function.BoolReturn{},
	}
}

// Argument positions of notifies.
const (
	notifiesSubscriptionArg int64 = iota
	notifiesEventArg
	notifiesLevelArg
)

// Run applies the rule; an argument that cannot be read is an error that names it.
func (f *NotifiesFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var sub types.Dynamic
	var event, level string
	resp.Error = req.Arguments.Get(ctx, &sub, &event, &level)
	if resp.Error != nil {
		return
	}
	if strings.TrimSpace(event) == "" {
		resp.Error = function.NewArgumentFuncError(notifiesEventArg, "event_name: an event name is required, for example \"PROCESS.EXECUTION\"")
		return
	}
	if _, ok := levelRank(level); !ok {
		resp.Error = function.NewArgumentFuncError(notifiesLevelArg, "log_level: "+invalidLevelError(level).Error())
		return
	}
	r, known, err := routingOf(sub)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(notifiesSubscriptionArg, "subscription: "+err.Error())
		return
	}
	if !known {
		resp.Error = resp.Result.Set(ctx, types.BoolUnknown())
		return
	}
	resp.Error = resp.Result.Set(ctx, r.notifiedAt(event, level))
}

// routingOf reads event_name, log_level and enabled from an object or a map. known is false
// when one of them is not known yet (during a plan); err says what is missing or wrong.
func routingOf(sub types.Dynamic) (r routing, known bool, err error) {
	if sub.IsUnknown() || sub.IsUnderlyingValueUnknown() {
		return r, false, nil
	}
	var fields map[string]attr.Value
	switch v := sub.UnderlyingValue().(type) {
	case basetypes.ObjectValue:
		fields = v.Attributes()
	case basetypes.MapValue:
		fields = v.Elements()
	default:
		return r, false, fmt.Errorf("want an object with event_name, log_level and, optionally, enabled, got %s", describeType(sub))
	}
	eventName, eventKnown, err := requiredString(fields, "event_name")
	if err != nil {
		return r, false, err
	}
	logLevel, levelKnown, err := requiredString(fields, "log_level")
	if err != nil {
		return r, false, err
	}
	if levelKnown {
		if _, ok := levelRank(logLevel); !ok {
			return r, false, fmt.Errorf("log_level %w", invalidLevelError(logLevel))
		}
	}
	enabled, enabledKnown, err := optionalBool(fields, "enabled")
	if err != nil {
		return r, false, err
	}
	return routing{eventName: eventName, logLevel: logLevel, enabled: enabled}, eventKnown && levelKnown && enabledKnown, nil
}

// requiredString reads a string member that must be present and not null.
func requiredString(fields map[string]attr.Value, name string) (string, bool, error) {
	v, ok := fields[name]
	if !ok {
		return "", false, fmt.Errorf("the object has no %s", name)
	}
	if v.IsUnknown() {
		return "", false, nil
	}
	if v.IsNull() {
		return "", false, fmt.Errorf("%s is null", name)
	}
	s, ok := underlying(v).(basetypes.StringValuable)
	if !ok {
		return "", false, fmt.Errorf("%s must be a string, got %s", name, v.Type(context.Background()))
	}
	sv, diags := s.ToStringValue(context.Background())
	if diags.HasError() {
		return "", false, fmt.Errorf("%s cannot be read as a string", name)
	}
	if strings.TrimSpace(sv.ValueString()) == "" {
		return "", false, fmt.Errorf("%s is empty", name)
	}
	return sv.ValueString(), true, nil
}

// optionalBool reads the enabled member: true when absent or null, a bool or a string that
// reads as one (a map(string) holds "true" and "false").
func optionalBool(fields map[string]attr.Value, name string) (bool, bool, error) {
	v, ok := fields[name]
	if !ok || v.IsNull() {
		return true, true, nil
	}
	if v.IsUnknown() {
		return false, false, nil
	}
	switch b := underlying(v).(type) {
	case basetypes.BoolValue:
		return b.ValueBool(), true, nil
	case basetypes.StringValue:
		parsed, err := strconv.ParseBool(b.ValueString())
		if err != nil {
			return false, false, fmt.Errorf("%s must be true or false, got %q", name, b.ValueString())
		}
		return parsed, true, nil
	}
	return false, false, fmt.Errorf("%s must be a bool, got %s", name, v.Type(context.Background()))
}

// underlying unwraps a dynamic value nested in an object.
func underlying(v attr.Value) attr.Value {
	if d, ok := v.(basetypes.DynamicValue); ok {
		return d.UnderlyingValue()
	}
	return v
}

// describeType names the type of a dynamic value for an error.
func describeType(v types.Dynamic) string {
	if u := v.UnderlyingValue(); u != nil {
		return u.Type(context.Background()).String()
	}
	return "no value"
}
