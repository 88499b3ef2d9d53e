package provider

import (
	"maps"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// An entry of eventnotify_topic_subscriptions is an entry of eventnotify_account_subscriptions
// whose destination the scope fixes: the user writes event_name, log_level and enabled, the
// state holds them and the id, and topicEntries adds destination_type EVENT_STREAMS, the
// scope's environment id and topic, and the resource's environment name. So the account
// resource's matcher, writer and refresh work on the topic's entries unchanged.

// scopeFixedAttributes are the account entry's attributes that the topic resource fixes on
// every entry: the destination (from the scope) and the environment name (one value for the
// resource).
var scopeFixedAttributes = []string{"destination_type", "event_streams_environment_id",
	"event_streams_environment_name", "event_streams_topic"}

// topicEntryNames are the attributes of a topic entry: the account entry's, less those the
// scope fixes (today id, event_name, log_level and enabled). Derived, so that a new input field
// of a subscription (CONTRIBUTING.md, "A new subscription field") is on the topic resource's
// entries too, with no edit here.
var topicEntryNames = func() []string {
	var names []string
	for name := range accountEntryAttributes() {
		if !slices.Contains(scopeFixedAttributes, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}()

// topicEntryAttributes are the attributes of one entry of the topic resource, taken from the
// account resource's entries, so that every description is written once.
func topicEntryAttributes() map[string]schema.Attribute {
	all := accountEntryAttributes()
	attrs := make(map[string]schema.Attribute, len(topicEntryNames))
	for _, name := range topicEntryNames {
		attrs[name] = all[name]
	}
	return attrs
}

// topicEntryType is the object type of one entry of the topic resource.
var topicEntryType = sync.OnceValue(func() types.ObjectType {
	attrTypes := make(map[string]attr.Type, len(topicEntryNames))
	for name, a := range topicEntryAttributes() {
		attrTypes[name] = a.GetType()
	}
	return types.ObjectType{AttrTypes: attrTypes}
})

// topicDestination is what a topic resource fixes on each of its entries: the scope and the
// environment name.
type topicDestination struct {
	scope           subscriptionScope
	environmentName types.String
}

// entry returns the account entry of a topic entry's attributes.
func (d topicDestination) entry(attrs map[string]attr.Value) (accountEntry, diag.Diagnostics) {
	full := maps.Clone(attrs)
	full["destination_type"] = types.StringValue(destinationEventStreams)
	full["event_streams_environment_id"] = types.StringValue(d.scope.environmentID)
	full["event_streams_environment_name"] = d.environmentName
	full["event_streams_topic"] = types.StringValue(d.scope.topic)
	return entryFromAttributes(full)
}

// topicEntries decodes the subscriptions map of a topic resource into account entries;
// unknown or null elements are left out and reported in opaque, as entries does.
func (d topicDestination) entries(m types.Map) (known map[string]accountEntry, opaque map[string]attr.Value, diags diag.Diagnostics) {
	known = make(map[string]accountEntry, len(m.Elements()))
	opaque = make(map[string]attr.Value)
	for key, v := range m.Elements() {
		obj, ok := v.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			opaque[key] = v
			continue
		}
		e, dd := d.entry(obj.Attributes())
		diags.Append(dd...)
		known[key] = e
	}
	return known, opaque, diags
}

// topicEntriesMap encodes account entries (and opaque elements, as they are) as the
// subscriptions attribute of a topic resource: each keeps the attributes of a topic entry.
func topicEntriesMap(known map[string]accountEntry, opaque map[string]attr.Value) (types.Map, diag.Diagnostics) {
	return entriesMapOf(topicEntryType(), known, opaque)
}

// refreshedEnvironmentName is the environment name a refresh puts in state, given the state's
// (held) and the subscriptions of the scope as the service has them (fresh): the state's
// while every subscription carries it, else the first other one (by key), so that the plan
// shows the change and the apply writes the configured name on every entry again. (Where the
// subscriptions disagree among themselves, right after an import, the ones that carry the
// name chosen show no change until one of them drifts.)
func refreshedEnvironmentName(held types.String, fresh map[string]accountEntry) types.String {
	keys := slices.Sorted(maps.Keys(fresh))
	for _, key := range keys {
		if name := fresh[key].EventStreamsEnvironmentName; !name.Equal(held) {
			return name
		}
	}
	return held
}
