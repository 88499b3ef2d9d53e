package testsupport

// SpecMember is a member of the service's Subscription as the service's description
// (SERVICE.md, "Subscription (returned by the service)") names it.
type SpecMember struct {
	// Name is the member's JSON name.
	Name string
	// Input is true for a member of SubscriptionCreate, which a caller may set.
	Input bool
}

// SpecSubscription is the service's Subscription, member by member, in the order of its
// description. It is the one list of a subscription's fields in the tests written by hand, on
// purpose: every other list derives from the types or from the provider's attribute table,
// and this one is checked against the JSON names of the client's Subscription and
// SubscriptionInput (internal/client, wire_test.go) and of the mock's Subscription
// (internal/mockserver, spec_fields_test.go). It is what makes a wrong JSON name fail: the
// client and the mock could agree on a misspelt name, the description cannot. A new field of
// the service is added here, as its description spells it.
var SpecSubscription = []SpecMember{
	{Name: "subscriptionId"},
	{Name: "eventName", Input: true},
	{Name: "destinationType", Input: true},
	{Name: "logLevel", Input: true},
	{Name: "accountId"},
	{Name: "destinationEmail"},
	{Name: "eventStreamsEnvironment", Input: true},
	{Name: "eventStreamsEnvironmentName", Input: true},
	{Name: "eventStreamsTopic", Input: true},
	{Name: "enabled", Input: true},
	{Name: "createdDate"},
	{Name: "lastUpdatedDate"},
	{Name: "createdBy"},
	{Name: "lastUpdatedUserId"},
}

// SpecNames returns the JSON names of SpecSubscription's members: the inputs only when
// inputs is set, else all of them.
func SpecNames(inputs bool) []string {
	var names []string
	for _, m := range SpecSubscription {
		if m.Input || !inputs {
			names = append(names, m.Name)
		}
	}
	return names
}
