package provider

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	lschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Who is notified: the service's routing rule, written once for the provider. A subscription
// binds an event to a destination with a minimum log level (INFO < WARNING < ERROR, the order of
// logLevels); an event fired at a level notifies every enabled subscription to that event (names
// compared without regard to case) whose minimum level is at or below it. A disabled
// subscription notifies nobody. The notified_for filter of eventnotify_subscriptions and of the
// list resource, and the functions notifies and levels_notified, all apply it through this file.
// The mock holds its own, separate reading of the rule (internal/mockserver/deliveries.go), so
// that each checks the other.

// levelRank is the position of a log level in INFO < WARNING < ERROR, and false for anything
// else (levels are compared exactly, as the schema's validators accept them).
func levelRank(level string) (int, bool) {
	i := slices.Index(logLevels, level)
	return i, i >= 0
}

// levelsNotified returns the levels a subscription with minimum level min is notified at, lowest
// first ("WARNING" gives WARNING and ERROR), and an error for a level that is not one of logLevels.
func levelsNotified(minimum string) ([]string, error) {
	rank, ok := levelRank(minimum)
	if !ok {
		return nil, invalidLevelError(minimum)
	}
	return slices.Clone(logLevels[rank:]), nil
}

// invalidLevelError says which levels exist; callers name the argument or attribute.
func invalidLevelError(level string) error {
	return fmt.Errorf("%q is not a log level: use %s (levels are upper case)", level, strings.Join(logLevels, ", "))
}

// routing is what the rule reads of one subscription.
type routing struct {
	eventName string
	logLevel  string // the minimum level
	enabled   bool
}

// notifiedAt reports whether the subscription is notified for eventName fired at level. Both
// levels must be valid (levelRank); an invalid one notifies nobody.
func (r routing) notifiedAt(eventName, level string) bool {
	minimum, okMin := levelRank(r.logLevel)
	fired, okFired := levelRank(level)
	return r.enabled && okMin && okFired && minimum <= fired && strings.EqualFold(r.eventName, eventName)
}

// notifiedForModel is the notified_for filter: an event and the level it is fired at.
type notifiedForModel struct {
	EventName types.String `tfsdk:"event_name"`
	LogLevel  types.String `tfsdk:"log_level"`
}

// keeps reports whether the filter keeps the subscription; a nil filter keeps every one.
func (n *notifiedForModel) keeps(m subscriptionModel) bool {
	if n == nil {
		return true
	}
	// A null enabled (never from the service, which always answers it) counts as enabled.
	r := routing{eventName: m.EventName.ValueString(), logLevel: m.LogLevel.ValueString(),
		enabled: m.Enabled.IsNull() || m.Enabled.ValueBool()}
	return r.notifiedAt(n.EventName.ValueString(), n.LogLevel.ValueString())
}

// The notified_for filter's descriptions, shared by the data source and the list resource.
const (
	notifiedForDescription = "Only the enabled subscriptions that the service notifies when this event fires at this level: " +
		"subscriptions to the event (names compared without regard to case) whose minimum `log_level` is at or below the given one " +
		"(`INFO` < `WARNING` < `ERROR`; a subscription at `WARNING` hears `WARNING` and `ERROR`). " +
		"Disabled subscriptions notify nobody and are left out. Combines with the other filters."
	notifiedForEventDescription = "The event that fires, for example `PROCESS.EXECUTION`; compared without regard to case."
)

// notifiedForLevelDescription describes notified_for.log_level.
func notifiedForLevelDescription() string {
	return "The level the event fires at: " + enumWords(logLevels) + "."
}

// notifiedForValidators check the filter's two strings as the other filters are checked.
func notifiedForValidators() (event, level []validator.String) {
	return []validator.String{notBlank()}, []validator.String{stringvalidator.OneOf(logLevels...)}
}

// notifiedForDataSourceAttribute is the notified_for filter of eventnotify_subscriptions.
func notifiedForDataSourceAttribute() dschema.SingleNestedAttribute {
	event, level := notifiedForValidators()
	return dschema.SingleNestedAttribute{
		MarkdownDescription: notifiedForDescription,
		Optional:            true,
		Attributes: map[string]dschema.Attribute{
			"event_name": dschema.StringAttribute{MarkdownDescription: notifiedForEventDescription, Required: true, Validators: event},
			"log_level":  dschema.StringAttribute{MarkdownDescription: notifiedForLevelDescription(), Required: true, Validators: level},
		},
	}
}

// notifiedForListAttribute is the notified_for filter of the eventnotify_subscription list resource.
func notifiedForListAttribute() lschema.SingleNestedAttribute {
	event, level := notifiedForValidators()
	return lschema.SingleNestedAttribute{
		MarkdownDescription: notifiedForDescription,
		Optional:            true,
		Attributes: map[string]lschema.Attribute{
			"event_name": lschema.StringAttribute{MarkdownDescription: notifiedForEventDescription, Required: true, Validators: event},
			"log_level":  lschema.StringAttribute{MarkdownDescription: notifiedForLevelDescription(), Required: true, Validators: level},
		},
	}
}
