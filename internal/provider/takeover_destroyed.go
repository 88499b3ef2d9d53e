package provider

import (
	"strings"
	"sync"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// A replacement of an authoritative resource on the same account (a tainted one, or
// `-replace`) is planned before its old object is destroyed, so the create's takeover plan
// (takeoverScan) lists the subscriptions the old object holds; the apply destroys the old
// object first and then plans the create again, in the same provider process, and that plan
// must give the takeover attribute the saved plan's value (Terraform refuses the apply
// otherwise). So the destroys record what they deleted, and the takeover plan counts it as
// listed: the same deletes and takes_over as the plan before the destroy, while the create
// itself, which reads the account as it is, finds them gone and deletes nothing twice.

// destroyedRegistry holds the subscriptions that the destroys of eventnotify_account_subscriptions
// and eventnotify_topic_subscriptions deleted in this provider instance, by account.
type destroyedRegistry struct {
	mu        sync.Mutex
	byAccount map[string]map[string]accountEntry // account -> lower-case id -> the entry as the state held it
}

// newDestroyedRegistry returns an empty registry.
func newDestroyedRegistry() *destroyedRegistry {
	return &destroyedRegistry{byAccount: map[string]map[string]accountEntry{}}
}

// record notes the entries of a destroyed state, which the destroy deleted.
func (r *destroyedRegistry) record(account string, held map[string]accountEntry) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.byAccount[account]
	if m == nil {
		m = map[string]accountEntry{}
		r.byAccount[account] = m
	}
	for _, e := range held {
		if id := e.ID.ValueString(); id != "" {
			m[strings.ToLower(id)] = e
		}
	}
}

// addTo adds to existing (a takeover plan's listing of the scope, by id) each subscription
// of the scope that a destroy deleted and existing lacks.
func (r *destroyedRegistry) addTo(account string, scope subscriptionScope, existing map[string]accountEntry) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	listed := make(map[string]bool, len(existing))
	for _, e := range existing {
		listed[strings.ToLower(e.ID.ValueString())] = true
	}
	for id, e := range r.byAccount[account] {
		sub := client.Subscription{ID: e.ID.ValueString(), DestinationType: e.DestinationType.ValueString(),
			EventStreamsEnvironment: e.EventStreamsEnvironmentID.ValueString(), EventStreamsTopic: e.EventStreamsTopic.ValueString()}
		if !listed[id] && scope.holds(&sub) {
			existing[freeKey(existing, e.ID.ValueString())] = e
		}
	}
}
