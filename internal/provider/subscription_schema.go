package provider

import (
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	lschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Allowed values of the subscription enums, as the service lists them. The
// validators and the descriptions both come from these lists.
var (
	destinationTypes = []string{"EVENT_STREAMS", "EMAIL"}
	logLevels        = []string{"INFO", "WARNING", "ERROR"}
)

// enumWords renders allowed values for a description: "`A`, `B` or `C`".
func enumWords(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "`" + v + "`"
	}
	if len(quoted) < 2 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
}

// attributeKind is the Terraform type of a subscription attribute.
type attributeKind int

const (
	kindString attributeKind = iota
	kindBool
	kindInt64
)

// subscriptionAttribute is one attribute of a subscription: the one place
// that describes it for the eventnotify_subscription resource and both
// subscription data sources.
type subscriptionAttribute struct {
	name        string
	api         string // the field of client.Subscription it holds (and of client.SubscriptionInput, for an input)
	kind        attributeKind
	description string // what the attribute is, written once
	required    bool   // the user must set it on the resource
	optional    bool   // the user may set it on the resource
	computedToo bool   // optional, and planned by the provider when left out
	enum        []string
	validators  []validator.String // of a value the user sets (beyond enum)
	// resource is what only the resource adds: its behaviour (a default, a
	// replacement, when the value is known) said in a sentence, and how it plans.
	resourceNote      string
	stringModifiers   []planmodifier.String
	int64Modifiers    []planmodifier.Int64
	defaultTrue       bool // an unset value is true
	eventNameSemantic bool // compared without regard to case (else exactly)
}

// keepState is the plan modifier of a computed value the service never
// changes after create.
func keepState() []planmodifier.String {
	return []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
}

// subscriptionAttributes lists a subscription's attributes in schema order.
func subscriptionAttributes() []subscriptionAttribute {
	userText := []validator.String{notBlank(), printable()}
	return []subscriptionAttribute{
		{name: "id", api: "ID", description: "Subscription id (a UUID) that the service assigns.", stringModifiers: keepState()},
		{name: "account_id", description: "Account that owns the subscription.", optional: true, computedToo: true,
			validators:      []validator.String{notBlank(), accountID()},
			resourceNote:    "Defaults to the provider's `account_id`. Changing it replaces the subscription.",
			stringModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		{name: "event_name", api: "EventName", required: true, eventNameSemantic: true,
			description: "Name of the platform event, as the `eventnotify_events` data source lists it.",
			resourceNote: "Checked at plan time against the events catalogue, and compared without regard to letter case " +
				"(see Event names below).",
			validators:      slices.Concat(userText, []validator.String{stringvalidator.LengthAtMost(256)}),
			stringModifiers: []planmodifier.String{keepStateSpelling()}},
		{name: "destination_type", api: "DestinationType", required: true, enum: destinationTypes,
			description:  "Where notifications go: " + enumWords(destinationTypes) + ". The service delivers to `EVENT_STREAMS` only today.",
			resourceNote: "`EMAIL` is accepted by its API; the plan that sets it warns."},
		{name: "log_level", api: "LogLevel", required: true, enum: logLevels,
			description: "Minimum log level that triggers a notification: " + enumWords(logLevels) + "."},
		{name: "event_streams_environment_id", api: "EventStreamsEnvironment", optional: true, validators: userText,
			description: "Id of the event streams environment that receives the notifications, for `EVENT_STREAMS` " +
				"destinations, as the platform's Event Streams settings show it.",
			resourceNote: "The service accepts an `EVENT_STREAMS` subscription without it, which delivers nowhere; the plan " +
				"that creates or changes such a subscription warns."},
		{name: "event_streams_environment_name", api: "EventStreamsEnvironmentName", optional: true, validators: userText,
			description: "Name of that event streams environment, for `EVENT_STREAMS` destinations: a label for " +
				"people, stored as given (the service does not check it against the id)."},
		{name: "event_streams_topic", api: "EventStreamsTopic", optional: true, validators: userText,
			description: "Event streams topic that receives the notifications, for `EVENT_STREAMS` destinations.",
			resourceNote: "The service accepts an `EVENT_STREAMS` subscription without it, which delivers nowhere; the plan " +
				"that creates or changes such a subscription warns."},
		{name: "enabled", api: "Enabled", kind: kindBool, optional: true, computedToo: true, defaultTrue: true,
			description: "Whether the subscription is active.", resourceNote: "Default `true`."},
		{name: "destination_email", api: "DestinationEmail",
			description: "Email address of the destination, as the service reports it; meaningful for `EMAIL` " +
				"destinations. Read-only: the service fills it in, and no request that creates or changes a " +
				"subscription carries it.",
			resourceNote:    "Known at plan time while `destination_type` is unchanged.",
			stringModifiers: []planmodifier.String{useStateWhileUnchanged(path.Root("destination_type"))}},
		{name: "created_date", api: "CreatedDate", kind: kindInt64, description: "Creation time, Unix milliseconds.",
			int64Modifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()}},
		{name: "last_updated_date", api: "LastUpdatedDate", kind: kindInt64, description: "Time of the last update, Unix milliseconds."},
		{name: "created_by", api: "CreatedBy", description: "Email of the user who created the subscription.", stringModifiers: keepState()},
		{name: "last_updated_by", api: "LastUpdatedUserID", description: "Email of the user who last updated the subscription."},
	}
}

// stringValidators are the validators of a value the user sets.
func (a subscriptionAttribute) stringValidators() []validator.String {
	if len(a.enum) > 0 {
		return append([]validator.String{stringvalidator.OneOf(a.enum...)}, a.validators...)
	}
	return a.validators
}

// resourceAttribute is the attribute as the eventnotify_subscription resource
// has it.
func (a subscriptionAttribute) resourceAttribute() schema.Attribute {
	description := a.description
	if a.resourceNote != "" {
		description += " " + a.resourceNote
	}
	computed := !a.required && !a.optional || a.computedToo
	switch a.kind {
	case kindBool:
		attr := schema.BoolAttribute{MarkdownDescription: description, Required: a.required, Optional: a.optional, Computed: computed}
		if a.defaultTrue {
			attr.Default = booldefault.StaticBool(true)
		}
		return attr
	case kindInt64:
		return schema.Int64Attribute{MarkdownDescription: description, Computed: true, PlanModifiers: a.int64Modifiers}
	}
	attr := schema.StringAttribute{MarkdownDescription: description, Required: a.required, Optional: a.optional,
		Computed: computed, PlanModifiers: a.stringModifiers}
	if a.required || a.optional {
		attr.Validators = a.stringValidators()
	}
	if a.eventNameSemantic {
		attr.CustomType = eventNameType{}
	}
	return attr
}

// dataSourceAttribute is the attribute as the subscription data sources
// return it: computed, with the same description.
func (a subscriptionAttribute) dataSourceAttribute() dschema.Attribute {
	switch a.kind {
	case kindBool:
		return dschema.BoolAttribute{MarkdownDescription: a.description, Computed: true}
	case kindInt64:
		return dschema.Int64Attribute{MarkdownDescription: a.description, Computed: true}
	}
	attr := dschema.StringAttribute{MarkdownDescription: a.description, Computed: true}
	if a.eventNameSemantic {
		attr.CustomType = eventNameType{}
	}
	return attr
}

// subscriptionResourceAttributes builds the resource's attributes.
func subscriptionResourceAttributes() map[string]schema.Attribute {
	attrs := make(map[string]schema.Attribute)
	for _, a := range subscriptionAttributes() {
		attrs[a.name] = a.resourceAttribute()
	}
	return attrs
}

// subscriptionDataSourceAttributes builds the attributes that the
// eventnotify_subscription data source and each element of
// eventnotify_subscriptions return.
func subscriptionDataSourceAttributes() map[string]dschema.Attribute {
	attrs := make(map[string]dschema.Attribute)
	for _, a := range subscriptionAttributes() {
		attrs[a.name] = a.dataSourceAttribute()
	}
	return attrs
}

// subscriptionFilter is one filter of eventnotify_subscriptions and of the
// eventnotify_subscription list resource: the one place that describes it.
type subscriptionFilter struct {
	name        string
	description string
	boolean     bool
	validators  []validator.String
}

// subscriptionFilterTable lists the filters in schema order.
func subscriptionFilterTable() []subscriptionFilter {
	return []subscriptionFilter{
		{name: "account_id", description: "Account to list. Defaults to the provider's `account_id`.",
			validators: []validator.String{notBlank(), accountID()}},
		{name: "event_name", description: "Only subscriptions to this event, compared without regard to case.",
			validators: []validator.String{notBlank()}},
		{name: "destination_type", description: "Only subscriptions with this destination type: " + enumWords(destinationTypes) + ".",
			validators: []validator.String{stringvalidator.OneOf(destinationTypes...)}},
		{name: "log_level", description: "Only subscriptions with this log level: " + enumWords(logLevels) + ".",
			validators: []validator.String{stringvalidator.OneOf(logLevels...)}},
		{name: "enabled", description: "Only enabled (`true`) or only disabled (`false`) subscriptions.", boolean: true},
	}
}

// subscriptionFilterDataSourceAttributes builds the filters of
// eventnotify_subscriptions; account_id is computed too (the account listed).
func subscriptionFilterDataSourceAttributes() map[string]dschema.Attribute {
	attrs := make(map[string]dschema.Attribute)
	for _, f := range subscriptionFilterTable() {
		if f.boolean {
			attrs[f.name] = dschema.BoolAttribute{MarkdownDescription: f.description, Optional: true}
			continue
		}
		attrs[f.name] = dschema.StringAttribute{MarkdownDescription: f.description, Optional: true,
			Computed: f.name == "account_id", Validators: f.validators}
	}
	attrs["notified_for"] = notifiedForDataSourceAttribute()
	return attrs
}

// subscriptionFilterListAttributes builds the filters of the
// eventnotify_subscription list resource.
func subscriptionFilterListAttributes() map[string]lschema.Attribute {
	attrs := make(map[string]lschema.Attribute)
	for _, f := range subscriptionFilterTable() {
		if f.boolean {
			attrs[f.name] = lschema.BoolAttribute{MarkdownDescription: f.description, Optional: true}
			continue
		}
		attrs[f.name] = lschema.StringAttribute{MarkdownDescription: f.description, Optional: true, Validators: f.validators}
	}
	attrs["notified_for"] = notifiedForListAttribute()
	return attrs
}
