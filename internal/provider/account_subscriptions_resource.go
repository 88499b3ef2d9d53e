package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

var (
	_ resource.ResourceWithConfigure   = &AccountSubscriptionsResource{}
	_ resource.ResourceWithImportState = &AccountSubscriptionsResource{}
	_ resource.ResourceWithModifyPlan  = &AccountSubscriptionsResource{}
)

// AccountSubscriptionsResource manages the complete set of an account's
// subscriptions: after apply the account holds exactly the subscriptions of
// the map, and a subscription made outside Terraform shows in the next plan as
// a removal. The map's keys are names the user picks; they exist only in the
// configuration and the state.
//
// Writes are bounded whatever the map's size: one createSubscriptions per
// max_batch_size new entries, one bulk delete per max_batch_size removed ones,
// and one updateSubscription per changed entry (the bulk update answers only
// statuses, so reading the new values back would cost more than it saves).
// Entries whose inputs are unchanged, also under a new key, cost nothing.
type AccountSubscriptionsResource struct {
	data *providerData
}

// NewAccountSubscriptionsResource returns the eventnotify_account_subscriptions resource.
func NewAccountSubscriptionsResource() resource.Resource { return &AccountSubscriptionsResource{} }

// accountSubscriptionsModel is the resource's state.
type accountSubscriptionsModel struct {
	ID            types.String `tfsdk:"id"`
	AccountID     types.String `tfsdk:"account_id"`
	Subscriptions types.Map    `tfsdk:"subscriptions"`
}

// accountEntry is one subscription of the map: the subscription resource's
// attributes without account_id.
type accountEntry subscriptionFields

// accountEntryAttributes builds the attributes of one map entry from the
// subscription attribute table, so that every description is written once.
// The entries carry no plan modifiers: the framework cannot follow a value
// across map keys, so ModifyPlan plans the computed values of the whole map.
func accountEntryAttributes() map[string]schema.Attribute {
	attrs := make(map[string]schema.Attribute)
	for _, a := range subscriptionAttributes() {
		if a.name == "account_id" {
			continue
		}
		switch v := a.resourceAttribute().(type) {
		case schema.StringAttribute:
			v.PlanModifiers = nil
			attrs[a.name] = v
		case schema.Int64Attribute:
			v.PlanModifiers = nil
			attrs[a.name] = v
		default:
			attrs[a.name] = v
		}
	}
	return attrs
}

// accountEntryType is the object type of one map entry.
var accountEntryType = sync.OnceValue(func() types.ObjectType {
	attrTypes := make(map[string]attr.Type)
	for name, a := range accountEntryAttributes() {
		attrTypes[name] = a.GetType()
	}
	return types.ObjectType{AttrTypes: attrTypes}
})

// The entries are converted without the framework's reflection, which costs
// about a millisecond per entry that a map of thousands of entries would feel in
// every plan: each attribute goes to the field of its tfsdk tag
// (entryFieldNames).

// entryFromObject reads an entry from its object value.
func entryFromObject(obj types.Object) (accountEntry, diag.Diagnostics) {
	var diags diag.Diagnostics
	var e accountEntry
	ev := reflect.ValueOf(&e).Elem()
	attrs := obj.Attributes()
	for i, name := range entryFieldNames() {
		v, dst := reflect.ValueOf(attrs[name]), ev.Field(i)
		if !v.IsValid() || v.Type() != dst.Type() {
			diags.AddError("Unexpected subscription value", fmt.Sprintf("Attribute %s of a subscription is %T. This is a bug in "+
				"the provider; please report it.", name, attrs[name]))
			continue
		}
		dst.Set(v)
	}
	return e, diags
}

// object returns the entry's object value.
func (e accountEntry) object() (types.Object, diag.Diagnostics) {
	ev := reflect.ValueOf(e)
	attrs := make(map[string]attr.Value, ev.NumField())
	for i, name := range entryFieldNames() {
		attrs[name], _ = ev.Field(i).Interface().(attr.Value)
	}
	return types.ObjectValue(accountEntryType().AttrTypes, attrs)
}

// Metadata sets the resource type name.
func (r *AccountSubscriptionsResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_account_subscriptions"
}

// Schema describes the resource.
func (r *AccountSubscriptionsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The authoritative, complete set of an account's subscriptions: after apply the account holds " +
			"exactly the subscriptions of `subscriptions`, and any other subscription of the account is deleted. Do not " +
			"combine it with `eventnotify_subscription` resources on the same account. Destroying it deletes every " +
			"subscription of the account.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The account id.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"account_id": schema.StringAttribute{
				MarkdownDescription: "Account whose subscriptions the resource manages. Defaults to the provider's `account_id`. " +
					"Changing it replaces the resource: every subscription of the old account is deleted.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{notBlank(), accountID()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"subscriptions": schema.MapNestedAttribute{
				MarkdownDescription: "Every subscription of the account, keyed by names you choose (the keys exist only in " +
					"the configuration and the state; renaming a key changes nothing on the service). Subscriptions on the " +
					"service that no entry holds are read into the map under their id, so the plan shows them as removals; " +
					"an import keys every subscription by its id. An empty map means the account should hold none.",
				Required:     true,
				NestedObject: schema.NestedAttributeObject{Attributes: accountEntryAttributes()},
			},
		},
	}
}

// Configure receives the provider's client.
func (r *AccountSubscriptionsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configureProviderData(req.ProviderData, &resp.Diagnostics)
}

// sameInputs reports whether two entries ask for the same subscription.
func sameInputs(a, b accountEntry) bool {
	x, okA := a.inputs()
	y, okB := b.inputs()
	return okA && okB && x == y
}

// input returns the request body of a create or update.
func (e accountEntry) input() client.SubscriptionInput { return subscriptionFields(e).input() }

// accountEntryFromAPI maps a subscription of the service to an entry.
func accountEntryFromAPI(s *client.Subscription) accountEntry {
	return accountEntry(subscriptionFromAPI("", s).subscriptionFields)
}

// withSpelling keeps the event name spelled as want when the service spells
// it differently only in case.
func (e accountEntry) withSpelling(want eventNameValue) accountEntry {
	if !want.IsNull() && !want.IsUnknown() && strings.EqualFold(want.ValueString(), e.EventName.ValueString()) {
		e.EventName = want
	}
	return e
}

// withInputsOf returns e with the inputs of planned: the values a matched
// subscription takes in state (they differ at most in the event name's case).
func (e accountEntry) withInputsOf(planned accountEntry) accountEntry {
	e = e.withSpelling(planned.EventName)
	e.Enabled = types.BoolValue(e.Enabled.IsNull() || e.Enabled.ValueBool())
	return e
}

// unknownComputed sets every computed value of the entry unknown.
func (e accountEntry) unknownComputed() accountEntry {
	e.ID = types.StringUnknown()
	e.DestinationEmail = types.StringUnknown()
	e.CreatedDate = types.Int64Unknown()
	e.LastUpdatedDate = types.Int64Unknown()
	e.CreatedBy = types.StringUnknown()
	e.LastUpdatedBy = types.StringUnknown()
	return e
}

// copyComputed returns planned with the computed values of the existing
// subscription held: all of them when the inputs are unchanged, else those
// an update keeps (the id, the creation, and the destination email while the
// destination type is unchanged).
func copyComputed(planned, held accountEntry, unchanged bool) accountEntry {
	out := planned.unknownComputed()
	out.ID, out.CreatedDate, out.CreatedBy = held.ID, held.CreatedDate, held.CreatedBy
	if unchanged || planned.DestinationType.Equal(held.DestinationType) {
		out.DestinationEmail = held.DestinationEmail
	}
	if unchanged {
		out.LastUpdatedDate, out.LastUpdatedBy = held.LastUpdatedDate, held.LastUpdatedBy
	}
	return out
}

// entries decodes a map of entries; unknown or null elements are left out and
// reported in opaque, which keeps them as they are.
func entries(m types.Map) (known map[string]accountEntry, opaque map[string]attr.Value, diags diag.Diagnostics) {
	known = make(map[string]accountEntry, len(m.Elements()))
	opaque = make(map[string]attr.Value)
	for key, v := range m.Elements() {
		obj, ok := v.(types.Object)
		if !ok || obj.IsNull() || obj.IsUnknown() {
			opaque[key] = v
			continue
		}
		e, d := entryFromObject(obj)
		diags.Append(d...)
		known[key] = e
	}
	return known, opaque, diags
}

// entriesMap encodes entries (and opaque elements, as they are) as the
// subscriptions attribute.
func entriesMap(known map[string]accountEntry, opaque map[string]attr.Value) (types.Map, diag.Diagnostics) {
	var diags diag.Diagnostics
	objType := accountEntryType()
	elems := make(map[string]attr.Value, len(known)+len(opaque))
	for key, v := range opaque {
		elems[key] = v
	}
	for key, e := range known {
		obj, d := e.object()
		diags.Append(d...)
		elems[key] = obj
	}
	m, d := types.MapValue(objType, elems)
	diags.Append(d...)
	return m, diags
}

// sortedKeys returns a map's keys in order, so that every pass is deterministic.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// ModifyPlan plans the account and the computed values of the map. An entry
// keeps the computed values of the subscription it will hold: under the same
// key with the same inputs; else any held subscription with the same inputs
// (a renamed key, or entries that swapped contents); else, under the same key
// with changed inputs, the values that an update keeps. Everything else is
// planned for creation, with unknown computed values. The work is linear in
// the number of entries. It also warns about what the user can act on: an
// entry that sets destination_type to EMAIL (accountSettingWarnings) and, on
// create, the subscriptions of the account that the apply deletes
// (takeoverWarnings).
func (r *AccountSubscriptionsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.data == nil {
		return
	}
	resp.Diagnostics.Append(planDefaultAccount(ctx, r.data, req, resp)...)
	resp.Diagnostics.Append(accountSettingWarnings(ctx, req)...)
	resp.Diagnostics.Append(checkAccountEventNames(ctx, r.data, req)...)
	if req.State.Raw.IsNull() && !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(r.takeoverWarnings(ctx, resp.Plan)...)
	}
	if req.State.Raw.IsNull() || resp.Diagnostics.HasError() {
		return
	}
	var planSubs, stateSubs types.Map
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("subscriptions"), &planSubs)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("subscriptions"), &stateSubs)...)
	if resp.Diagnostics.HasError() || planSubs.IsNull() || planSubs.IsUnknown() {
		return
	}
	planned, opaque, diags := entries(planSubs)
	resp.Diagnostics.Append(diags...)
	held, _, diags := entries(stateSubs)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	out := make(map[string]accountEntry, len(planned))
	used := make(map[string]bool, len(held))
	keys := sortedKeys(planned)
	// Same key, same inputs.
	for _, key := range keys {
		if h, ok := held[key]; ok && sameInputs(planned[key], h) {
			out[key], used[key] = copyComputed(planned[key], h, true), true
		}
	}
	// Same inputs under another key. Held entries whose key the plan no longer
	// has come first, so that a key keeps its own subscription where it can.
	byInputs := make(map[entryInputs][]string)
	for _, key := range sortedKeys(held) {
		if in, ok := held[key].inputs(); ok && !used[key] {
			byInputs[in] = append(byInputs[in], key)
		}
	}
	for in, candidates := range byInputs {
		slices.SortStableFunc(candidates, func(a, b string) int {
			_, planA := planned[a]
			_, planB := planned[b]
			switch {
			case planA == planB:
				return 0
			case planB:
				return -1
			}
			return 1
		})
		byInputs[in] = candidates
	}
	for _, key := range keys {
		if _, done := out[key]; done {
			continue
		}
		in, ok := planned[key].inputs()
		if !ok {
			continue
		}
		for len(byInputs[in]) > 0 {
			candidate := byInputs[in][0]
			byInputs[in] = byInputs[in][1:]
			if !used[candidate] {
				out[key], used[candidate] = copyComputed(planned[key], held[candidate], true), true
				break
			}
		}
	}
	// Same key, changed inputs: an update. The rest: a create.
	for _, key := range keys {
		if _, done := out[key]; done {
			continue
		}
		if h, ok := held[key]; ok && !used[key] {
			out[key], used[key] = copyComputed(planned[key], h, false), true
			continue
		}
		out[key] = planned[key].unknownComputed()
	}

	keepHeldSpellings(out, held)
	m, diags := entriesMap(out, opaque)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("subscriptions"), m)...)
	}
}

// Create makes the account hold exactly the planned subscriptions. The
// account is listed first: a subscription it already holds with the same
// inputs as an entry becomes that entry's, and every other one is deleted.
// The listing is the one that ModifyPlan made (takeoverWarnings) just before,
// in the same provider process, unless a write to the account came between.
func (r *AccountSubscriptionsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan accountSubscriptionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "account_subscriptions resource") {
		return
	}
	account := r.data.account(plan.AccountID)
	list, err := r.data.client.AccountSubscriptions(ctx, account)
	if err != nil {
		addClientError(&resp.Diagnostics, "Unable to list the subscriptions of account "+account, err)
		return
	}
	r.apply(ctx, account, plan, existingEntries(list), &resp.State, &resp.Diagnostics)
}

// Update converges the account from the state to the plan.
func (r *AccountSubscriptionsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state accountSubscriptionsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "account_subscriptions resource") {
		return
	}
	held, _, diags := entries(state.Subscriptions)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.apply(ctx, r.data.account(plan.AccountID), plan, held, &resp.State, &resp.Diagnostics)
}

// stateSetter is the part of tfsdk.State that apply needs.
type stateSetter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// update is an entry whose subscription is updated in place.
type update struct {
	key, heldKey string
	planned      accountEntry
}

// apply converges the account from held (what exists, by key) to the plan
// and sets the state to what exists afterwards, also when a write fails:
// entries created are kept, entries not deleted are kept (under their key, or
// their id when the plan gave the key to another entry), entries not updated
// keep their old values.
//
// The plan's known ids say which held subscription each entry holds (see
// ModifyPlan); an entry without one takes a held subscription with the same
// inputs if one is left (at create: what the account already has), else it
// is created. Held subscriptions no entry takes are deleted.
func (r *AccountSubscriptionsResource) apply(ctx context.Context, account string, plan accountSubscriptionsModel,
	held map[string]accountEntry, state stateSetter, diags *diag.Diagnostics) {
	planned, opaque, d := entries(plan.Subscriptions)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	if len(opaque) > 0 {
		diags.AddError("Unknown subscriptions", "Some entries of subscriptions are still unknown at apply time. This is a bug in the provider; please report it.")
		return
	}
	c := r.data.client

	heldByID := make(map[string]string, len(held)) // lower-case id -> held key
	var heldIDs []string
	for _, key := range sortedKeys(held) {
		id := held[key].ID.ValueString()
		heldByID[strings.ToLower(id)] = key
		heldIDs = append(heldIDs, id)
	}
	// Settling a lost create answer must never take a subscription that is held.
	c.ClaimSubscriptions(heldIDs...)

	result := make(map[string]accountEntry, len(planned))
	used := make(map[string]bool, len(held))
	var updates []update
	updating := make(map[string]bool)
	var creates []string
	keys := sortedKeys(planned)
	for _, key := range keys {
		p := planned[key]
		if p.ID.IsUnknown() || p.ID.IsNull() {
			continue
		}
		hk, ok := heldByID[strings.ToLower(p.ID.ValueString())]
		if !ok || used[hk] {
			continue
		}
		used[hk] = true
		if sameInputs(p, held[hk]) {
			result[key] = held[hk].withInputsOf(p)
		} else {
			updates = append(updates, update{key: key, heldKey: hk, planned: p})
			updating[key] = true
		}
	}
	var rest []string
	for _, key := range keys {
		if _, done := result[key]; !done && !updating[key] {
			rest = append(rest, key)
		}
	}
	matched := matchByInputs(planned, rest, held, used)
	for _, key := range rest {
		if hk, ok := matched[key]; ok {
			result[key] = held[hk].withInputsOf(planned[key])
		} else {
			creates = append(creates, key)
		}
	}
	var deletes []string
	for _, hk := range sortedKeys(held) {
		if !used[hk] {
			deletes = append(deletes, hk)
		}
	}
	tflog.Debug(ctx, "Converging the account's subscriptions", map[string]any{"account_id": account,
		"kept": len(result), "updates": len(updates), "creates": len(creates), "deletes": len(deletes)})

	// Deletes first: nothing planned depends on them, and they make room.
	for _, hk := range r.deleteHeld(ctx, account, held, deletes, diags) {
		result[freeKey(result, hk, held[hk].ID.ValueString())] = held[hk]
	}
	for _, u := range r.updateHeld(ctx, account, held, updates, diags) {
		result[u.key] = u.planned
	}
	for key, e := range r.createPlanned(ctx, account, planned, creates, diags) {
		result[key] = e
	}

	m, d := entriesMap(result, nil)
	diags.Append(d...)
	if d.HasError() {
		return
	}
	diags.Append(state.Set(ctx, &accountSubscriptionsModel{
		ID:            types.StringValue(account),
		AccountID:     types.StringValue(account),
		Subscriptions: m,
	})...)
}

// deleteHeld deletes the held subscriptions of keys in bulk deletes of at most
// max_batch_size each, and returns the keys of those that may still exist.
// An item answered 204 (or 200) is deleted, 404 was gone already; any other
// status is an error for that subscription alone.
func (r *AccountSubscriptionsResource) deleteHeld(ctx context.Context, account string, held map[string]accountEntry,
	keys []string, diags *diag.Diagnostics) (remaining []string) {
	c := r.data.client
	for chunk := range slices.Chunk(keys, c.MaxBatchSize()) {
		ids := make([]string, len(chunk))
		for i, hk := range chunk {
			ids[i] = held[hk].ID.ValueString()
		}
		statuses, err := c.BulkDeleteSubscriptions(ctx, account, ids)
		if err != nil {
			addClientError(diags, fmt.Sprintf("Unable to delete %d subscriptions of account %s", len(ids), account), err)
			remaining = append(remaining, chunk...)
			continue
		}
		byID := make(map[string]client.OperationStatus, len(statuses))
		for _, st := range statuses {
			byID[strings.ToLower(st.SubscriptionID)] = st
		}
		for i, hk := range chunk {
			st, ok := byID[strings.ToLower(ids[i])]
			switch {
			case !ok:
				diags.AddError("Unable to delete subscription "+ids[i], fmt.Sprintf("The bulk delete's answer has no status for "+
					"subscription %s, and reading it afterwards did not find it gone, so it may still exist; it stays in "+
					"state. Run terraform apply again to delete it (terraform plan shows the account's current "+
					"subscriptions).", ids[i]))
			case st.HTTPEquivalentCode == http.StatusNoContent, st.HTTPEquivalentCode == http.StatusOK,
				st.HTTPEquivalentCode == http.StatusNotFound:
				continue
			default:
				addClientError(diags, "Unable to delete subscription "+ids[i], &client.ItemError{Operation: "bulk delete subscriptions",
					AccountID: account, SubscriptionID: ids[i], HTTPEquivalentCode: st.HTTPEquivalentCode, Message: st.Message})
			}
			remaining = append(remaining, hk)
		}
	}
	return remaining
}

// updateHeld updates the subscriptions of ups in place, one updateSubscription
// each (a few at a time), and returns every entry's state afterwards: the
// service's answer, or the held values when the update failed.
func (r *AccountSubscriptionsResource) updateHeld(ctx context.Context, account string, held map[string]accountEntry,
	ups []update, diags *diag.Diagnostics) []update {
	const workers = 4
	out := make([]update, len(ups))
	errs := make([]error, len(ups))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(workers, len(ups)) {
		wg.Go(func() {
			for i := range next {
				u := ups[i]
				h := held[u.heldKey]
				out[i] = update{key: u.key, heldKey: u.heldKey, planned: h}
				sub, err := r.data.client.UpdateSubscription(ctx, account, h.ID.ValueString(), u.planned.input())
				if err != nil {
					errs[i] = err
					continue
				}
				e := accountEntryFromAPI(sub).withSpelling(u.planned.EventName)
				if e.ID.ValueString() == "" {
					e.ID = h.ID
				}
				out[i].planned = e
			}
		})
	}
	for i := range ups {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			addClientError(diags, "Unable to update subscription "+held[ups[i].heldKey].ID.ValueString(), err)
		}
	}
	return out
}

// createPlanned creates the planned entries of keys in createSubscriptions
// requests of at most max_batch_size each, and returns the entries that exist
// afterwards. A lost answer is settled by the client (it adopts what the
// request created and creates the rest once); on failure, the subscriptions
// known to exist are returned all the same.
func (r *AccountSubscriptionsResource) createPlanned(ctx context.Context, account string, planned map[string]accountEntry,
	keys []string, diags *diag.Diagnostics) map[string]accountEntry {
	c := r.data.client
	out := make(map[string]accountEntry, len(keys))
	for chunk := range slices.Chunk(keys, c.MaxBatchSize()) {
		in := make([]client.SubscriptionInput, len(chunk))
		for i, key := range chunk {
			in[i] = planned[key].input()
		}
		created, err := c.CreateSubscriptions(ctx, account, in)
		made := 0
		for i, key := range chunk {
			if i < len(created) && created[i].ID != "" {
				out[key] = accountEntryFromAPI(&created[i]).withSpelling(planned[key].EventName)
				made++
			}
		}
		if err != nil {
			summary := fmt.Sprintf("Unable to create %d subscriptions in account %s", len(chunk)-made, account)
			if made > 0 {
				summary += fmt.Sprintf(" (%d others were created and are in state)", made)
			}
			var unknown *client.UnknownOutcomeError
			if errors.As(err, &unknown) {
				// The subscription resource's advice (import what may exist) does not
				// apply: the next refresh reads the whole account into the map.
				diags.AddError(summary, unknownOutcomeAccountDetail(unknown))
				continue
			}
			addClientError(diags, summary, err)
		}
	}
	return out
}

// unknownOutcomeAccountDetail explains a create whose answer was lost and could
// not be settled, for this resource: nothing can be lost track of, since the
// next refresh reads every subscription of the account into the map.
func unknownOutcomeAccountDetail(e *client.UnknownOutcomeError) string {
	var b strings.Builder
	b.WriteString(lostAnswerSummary(e))
	if len(e.Candidates) > 0 {
		fmt.Fprintf(&b, "\n\nThese subscriptions may be what the request created: %s.", strings.Join(e.Candidates, ", "))
	}
	b.WriteString("\n\nNothing is lost track of: the next plan reads every subscription of the account. One that the " +
		"request created and that no entry holds appears in the map under its id and is planned for removal, and " +
		"an entry it did not create is planned for creation again. Run terraform plan to review, then apply.")
	return b.String()
}

// freeKey returns the first of candidates that m does not hold as a key, or
// the last candidate with a numeric suffix.
func freeKey[V any](m map[string]V, candidates ...string) string {
	for _, k := range candidates {
		if _, taken := m[k]; !taken {
			return k
		}
	}
	last := candidates[len(candidates)-1]
	for n := 2; ; n++ {
		k := last + "-" + strconv.Itoa(n)
		if _, taken := m[k]; !taken {
			return k
		}
	}
}

// Read lists the account (listSubscribedEventsForAccount, page by page) and
// refreshes every entry by its subscription's id (refreshEntries).
func (r *AccountSubscriptionsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state accountSubscriptionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "account_subscriptions resource") {
		return
	}
	held := map[string]accountEntry{}
	if !state.Subscriptions.IsNull() && !state.Subscriptions.IsUnknown() {
		var diags diag.Diagnostics
		held, _, diags = entries(state.Subscriptions)
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	account := stateAccount(state.AccountID, state.ID)
	fresh, diags := r.refreshEntries(ctx, account, held)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	m, diags := entriesMap(fresh, nil)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	state.ID = types.StringValue(account)
	state.AccountID = types.StringValue(account)
	state.Subscriptions = m
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// stateAccount is the account of a state: account_id, or the id alone right
// after an import.
func stateAccount(accountID, id types.String) string {
	if account := accountID.ValueString(); account != "" {
		return account
	}
	return id.ValueString()
}

// refreshEntries lists the account and returns what the held entries are on
// the service, by subscription id. An entry missing from the listing is read
// on its own (confirmMissing): only the service's 404 drops it, so that the
// plan creates it again. A subscription that no entry holds is added under
// its id, so that the plan shows its removal. An entry keeps its event name's
// spelling while the service's differs only in case.
func (r *AccountSubscriptionsResource) refreshEntries(ctx context.Context, account string, held map[string]accountEntry) (map[string]accountEntry, diag.Diagnostics) {
	var diags diag.Diagnostics
	list, err := r.data.client.ListSubscriptions(ctx, account, client.ListOptions{})
	if err != nil {
		list = incompleteListing(&diags, account, err)
		if diags.HasError() {
			return nil, diags
		}
	}
	byID := make(map[string]*client.Subscription, len(list))
	for i := range list {
		byID[strings.ToLower(list[i].ID)] = &list[i]
	}
	fresh := make(map[string]accountEntry, len(list))
	seen := make(map[string]bool, len(list))
	var missing []string
	for _, key := range sortedKeys(held) {
		id := strings.ToLower(held[key].ID.ValueString())
		sub, ok := byID[id]
		if !ok {
			missing = append(missing, key)
			continue
		}
		if seen[id] {
			tflog.Warn(ctx, "Subscription held by two keys; keeping the first", map[string]any{
				"account_id": account, "key": key, "subscription_id": held[key].ID.ValueString()})
			continue
		}
		seen[id] = true
		fresh[key] = accountEntryFromAPI(sub)
	}
	confirmed, d := r.confirmMissing(ctx, account, held, missing)
	diags.Append(d...)
	if diags.HasError() {
		return nil, diags
	}
	for _, key := range missing {
		id := strings.ToLower(held[key].ID.ValueString())
		sub, ok := confirmed[key]
		if !ok || seen[id] {
			tflog.Warn(ctx, "Subscription not found; removing it from the account's set", map[string]any{
				"account_id": account, "key": key, "subscription_id": held[key].ID.ValueString()})
			continue
		}
		seen[id] = true
		fresh[key] = accountEntryFromAPI(sub)
	}
	for i := range list {
		if id := strings.ToLower(list[i].ID); !seen[id] {
			seen[id] = true
			fresh[freeKey(fresh, list[i].ID)] = accountEntryFromAPI(&list[i])
		}
	}
	// What the event name's semantic equality does for the framework: under a
	// key the state has, a spelling that differs only in case is the state's.
	for key, e := range fresh {
		if h, ok := held[key]; ok {
			fresh[key] = e.withSpelling(h.EventName)
		}
	}
	return fresh, diags
}

// Delete deletes every subscription of the account in one request
// (deleteSubscriptionForAccount): the resource is authoritative for the whole
// account. The service's 404 means the account holds none: done.
func (r *AccountSubscriptionsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state accountSubscriptionsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !providerConfigured(r.data, &resp.Diagnostics, "account_subscriptions resource") {
		return
	}
	account := state.AccountID.ValueString()
	err := r.data.client.DeleteAllSubscriptions(ctx, account)
	if err != nil && !errors.Is(err, client.ErrNotFound) {
		addClientError(&resp.Diagnostics, "Unable to delete the subscriptions of account "+account, err)
	}
}

// ImportState takes the account id; Read then fills the map, keyed by
// subscription id.
func (r *AccountSubscriptionsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	account := strings.TrimSpace(req.ID)
	if account == "" || strings.Contains(account, "/") {
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("The import id of eventnotify_account_subscriptions "+
			"is an account id, such as %q; got %q.", r.data.account(types.StringNull()), req.ID))
		return
	}
	if err := client.CheckAccountID(account); err != nil {
		resp.Diagnostics.AddError("Invalid import id", "The import id of eventnotify_account_subscriptions is an account id: "+
			accountIDAdvice(err)+".")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), account)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("account_id"), account)...)
}
