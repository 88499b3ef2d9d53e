package provider

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// accountProtocol answers three calls of eventnotify_account_subscriptions from the plugin
// protocol's values directly, on the path of a plan that changes nothing:
//   - ValidateResourceConfig of a configuration whose entries are known objects: the
//     attributes' own validators;
//   - ReadResource of a state without private data: refreshEntries, the resource's own Read,
//     and the identity that Read sets;
//   - PlanResourceChange of an update that changes nothing: the plan is the prior state,
//     where the state holds the schema's defaults (schemaDefaults), and the prior identity.
//
// The identity is carried as the framework carries it (account_subscriptions_protocol_identity.go).
//
// Every plan of the resource makes all three (Terraform validates twice). Everything else goes
// to the framework, and so does any request these paths do not recognise as theirs: a create,
// destroy or change, private state, an identity that does not decode or that a Read would
// change, a value that does not decode, a provider not yet configured, a configuration the
// schema rejects (a read-only attribute set, a required one left out). TestAccountProtocol_* check, call by call, that both answer the same, and every
// acceptance test checks the calls its CLI makes (fast_path_parity_test.go).
//
// Why it exists, what it saves (BenchmarkAccountSubscriptions1000, BENCHMARKS.md) and the rule
// by which it goes: DESIGN.md#the-protocol-fast-path.
type accountProtocol struct {
	provider *EventNotifyProvider
	typeName string         // eventnotify_account_subscriptions
	schema   schema.Schema  // the resource's schema
	typ      tftypes.Object // the resource's value type
	identity tftypes.Object // the value type of the resource's identity
	entry    tftypes.Type   // the value type of one entry of subscriptions
	// defaults are the values that the schema's defaults give where the configuration leaves
	// an attribute out, top level and entries; nil when a default cannot be evaluated here,
	// which leaves every plan to the framework.
	defaults *schemaDefaults
	// answered counts the calls answered here, by kind (tests read it).
	answered struct{ validate, read, plan atomic.Int64 }
}

// newAccountProtocol reads the resource's type name and value type from the resource.
func newAccountProtocol(p *EventNotifyProvider) *accountProtocol {
	ctx := context.Background()
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	r := &AccountSubscriptionsResource{}
	var name resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: meta.TypeName}, &name)
	var s resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &s)
	// The value type of a resource schema is an object; were it not, nothing would decode
	// and every call would go to the framework.
	typ, _ := s.Schema.Type().TerraformType(ctx).(tftypes.Object)
	var is resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &is)
	identity, _ := is.IdentitySchema.Type().TerraformType(ctx).(tftypes.Object)
	return &accountProtocol{provider: p, typeName: name.TypeName, schema: s.Schema, typ: typ, identity: identity,
		entry: accountEntryType().TerraformType(ctx), defaults: defaultsOf(ctx, s.Schema)}
}

// accountValue is the top level of the resource's value.
type accountValue struct {
	id, accountID tftypes.Value
	subscriptions map[string]tftypes.Value // nil when the map is null
	takeover      tftypes.Value            // the takeover attribute, as it is
	timeouts      tftypes.Value            // the timeouts block, null when left out
}

// decodeAccount decodes a known object value of the resource; false when it is not one.
func (a *accountProtocol) decodeAccount(dv *tfprotov6.DynamicValue) (tftypes.Value, accountValue, bool) {
	if dv == nil {
		return tftypes.Value{}, accountValue{}, false
	}
	v, err := dv.Unmarshal(a.typ)
	if err != nil || v.IsNull() || !v.IsKnown() {
		return v, accountValue{}, false
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return v, accountValue{}, false
	}
	out := accountValue{id: attrs["id"], accountID: attrs["account_id"], takeover: attrs[takeoverAttribute],
		timeouts: attrs[timeoutsAttribute]}
	subs := attrs["subscriptions"]
	if !subs.IsKnown() {
		return v, accountValue{}, false
	}
	if !subs.IsNull() {
		if err := subs.As(&out.subscriptions); err != nil {
			return v, accountValue{}, false
		}
	}
	return v, out, true
}

// validateResourceConfig is ValidateResourceConfig of a configuration whose subscriptions
// are a known map of known objects, and which sets every required attribute and no
// read-only one.
func (a *accountProtocol) validateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, bool) {
	config, top, ok := a.decodeAccount(req.Config)
	if !ok || top.subscriptions == nil {
		return nil, false
	}
	var attrs map[string]tftypes.Value
	if config.As(&attrs) != nil {
		return nil, false
	}
	configured := make(map[string]map[string]tftypes.Value, len(top.subscriptions))
	for key, v := range top.subscriptions {
		var e map[string]tftypes.Value
		if v.IsNull() || !v.IsKnown() || v.As(&e) != nil {
			return nil, false
		}
		configured[key] = e
	}
	cfg := tfsdk.Config{Raw: config, Schema: a.schema}
	var diags diag.Diagnostics
	// The resource has no ValidateConfig: its warnings depend on the prior state too, so
	// ModifyPlan makes them.
	keys := sortedKeys(configured)
	for name, attribute := range a.schema.Attributes {
		nested, isMap := attribute.(schema.MapNestedAttribute)
		if !isMap {
			if !validateAttribute(ctx, cfg, path.Root(name), attribute, attrs[name], &diags) {
				return nil, false
			}
			continue
		}
		if len(nested.Validators) > 0 || nested.DeprecationMessage != "" || len(nested.NestedObject.Validators) > 0 {
			return nil, false
		}
		for _, key := range keys {
			for nestedName, nestedAttribute := range nested.NestedObject.Attributes {
				p := path.Root(name).AtMapKey(key).AtName(nestedName)
				if !validateAttribute(ctx, cfg, p, nestedAttribute, configured[key][nestedName], &diags) {
					return nil, false
				}
			}
		}
	}
	for name, block := range a.schema.Blocks {
		if !validateBlock(ctx, cfg, path.Root(name), block, attrs[name], &diags) {
			return nil, false
		}
	}
	a.answered.validate.Add(1)
	return &tfprotov6.ValidateResourceConfigResponse{Diagnostics: protocolDiagnostics(diags)}, true
}

// validateBlock runs the validators of the attributes of a single nested block (the timeouts
// block) on its configured value v at path p; false where the framework must answer: another
// kind of block, nested blocks, validators of the block itself, or a value not known here.
func validateBlock(ctx context.Context, cfg tfsdk.Config, p path.Path, block schema.Block, v tftypes.Value, diags *diag.Diagnostics) bool {
	single, ok := block.(schema.SingleNestedBlock)
	if !ok || len(single.Blocks) > 0 || len(single.Validators) > 0 || single.DeprecationMessage != "" || !v.IsKnown() {
		return false
	}
	if v.IsNull() {
		return true
	}
	var attrs map[string]tftypes.Value
	if v.As(&attrs) != nil {
		return false
	}
	for name, attribute := range single.Attributes {
		if !validateAttribute(ctx, cfg, p.AtName(name), attribute, attrs[name], diags) {
			return false
		}
	}
	return true
}

// validateAttribute runs an attribute's validators on its configured value v at path p; false
// where the framework must answer: a read-only attribute set, a required one left out, a
// deprecation, or validators of a kind this does not run.
func validateAttribute(ctx context.Context, cfg tfsdk.Config, p path.Path, attribute schema.Attribute, v tftypes.Value, diags *diag.Diagnostics) bool {
	if attribute.GetDeprecationMessage() != "" || attribute.IsComputed() && !attribute.IsOptional() && !v.IsNull() ||
		attribute.IsRequired() && v.IsNull() {
		return false
	}
	if nested, ok := attribute.(schema.SingleNestedAttribute); ok && nested.IsComputed() && !nested.IsOptional() {
		// Read-only and left out (the takeover attribute): the framework runs no validator
		// of a value the configuration does not set.
		return len(nested.Validators) == 0
	}
	switch attribute := attribute.(type) {
	case schema.StringAttribute:
		value, ok := stringValue(v)
		if !ok {
			return false
		}
		for _, check := range attribute.Validators {
			resp := &validator.StringResponse{}
			check.ValidateString(ctx, validator.StringRequest{Config: cfg, ConfigValue: value, Path: p, PathExpression: p.Expression()}, resp)
			diags.Append(resp.Diagnostics...)
		}
		return true
	case schema.BoolAttribute:
		return len(attribute.Validators) == 0
	case schema.Int64Attribute:
		return len(attribute.Validators) == 0
	}
	return false
}

// stringValue converts a string value, null or unknown included.
func stringValue(v tftypes.Value) (types.String, bool) {
	switch {
	case !v.Type().Is(tftypes.String):
		return types.String{}, false
	case !v.IsKnown():
		return types.StringUnknown(), true
	case v.IsNull():
		return types.StringNull(), true
	}
	var s string
	if v.As(&s) != nil {
		return types.String{}, false
	}
	return types.StringValue(s), true
}

// readResource is ReadResource of a state without private data, whose identity is none or the
// state's account: what AccountSubscriptionsResource.Read does for such a state, which says so
// where it could change.
func (a *accountProtocol) readResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, bool) {
	data := a.provider.configured.Load()
	if data == nil || len(req.Private) > 0 {
		return nil, false
	}
	current, ok := a.decodeIdentity(req.CurrentIdentity)
	if !ok {
		return nil, false
	}
	state, top, ok := a.decodeAccount(req.CurrentState)
	if !ok || !state.IsFullyKnown() {
		return nil, false
	}
	id, okID := stringValue(top.id)
	accountID, okAccount := stringValue(top.accountID)
	if !okID || !okAccount {
		return nil, false
	}
	held := make(map[string]accountEntry, len(top.subscriptions))
	for key, v := range top.subscriptions {
		e, ok := a.entryFromTerraform(ctx, v)
		if !ok {
			return nil, false
		}
		held[key] = e
	}

	account := stateAccount(accountID, id)
	if !current.null && current.account != account {
		return nil, false // the framework refuses a changed identity
	}
	// As the framework answers a failed Read: the state and the identity as they came.
	asSent, err := a.identityAsSent(req.CurrentIdentity)
	if err != nil {
		return nil, false
	}
	// The read timeout, as the resource's Read takes it.
	blockValue, err := timeouts.Type{ObjectType: types.ObjectType{AttrTypes: timeoutsAttrTypes()}}.ValueFromTerraform(ctx, top.timeouts)
	block, ok := blockValue.(timeouts.Value)
	if err != nil || !ok {
		return nil, false
	}
	op, cancel, diags := subscriptionTimeouts.startOperation(ctx, block, accountResourceTypeName, "read")
	defer cancel()
	if diags.HasError() {
		return nil, false
	}
	fresh, diags := (&AccountSubscriptionsResource{data: data}).refreshEntries(op.ctx, account, held, accountOrigin{})
	op.checkTimeout(&diags)
	if diags.HasError() {
		a.answered.read.Add(1)
		return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, NewIdentity: asSent, Diagnostics: protocolDiagnostics(diags)}, true
	}
	// The account has been listed: from here on the answer is this call's, an error included,
	// so that the listing is never made twice.
	a.answered.read.Add(1)
	dv, err := a.encodeState(ctx, account, fresh, top.takeover, top.timeouts)
	var identity *tfprotov6.ResourceIdentityData
	if err == nil {
		identity, err = a.encodeIdentity(account)
	}
	if err != nil {
		diags.AddError("Unable to encode the subscriptions of account "+account,
			"The listed subscriptions could not be encoded as the resource's state and identity: "+err.Error()+
				". This is a bug in the provider; please report it.")
		return &tfprotov6.ReadResourceResponse{NewState: req.CurrentState, NewIdentity: asSent, Diagnostics: protocolDiagnostics(diags)}, true
	}
	return &tfprotov6.ReadResourceResponse{NewState: dv, NewIdentity: identity, Diagnostics: protocolDiagnostics(diags)}, true
}

// encodeState encodes the resource's state: the account, its entries, and the takeover
// attribute and the timeouts block as the state held them (Read keeps both).
func (a *accountProtocol) encodeState(ctx context.Context, account string, fresh map[string]accountEntry, takeover,
	block tftypes.Value) (*tfprotov6.DynamicValue, error) {
	elems := make(map[string]tftypes.Value, len(fresh))
	for key, e := range fresh {
		obj, d := e.object()
		if d.HasError() {
			return nil, fmt.Errorf("entry %q: %s", key, d[0].Detail())
		}
		v, err := obj.ToTerraformValue(ctx)
		if err != nil {
			return nil, fmt.Errorf("entry %q: %w", key, err)
		}
		elems[key] = v
	}
	state := tftypes.NewValue(a.typ, map[string]tftypes.Value{
		"id":              tftypes.NewValue(tftypes.String, account),
		"account_id":      tftypes.NewValue(tftypes.String, account),
		"subscriptions":   tftypes.NewValue(tftypes.Map{ElementType: a.entry}, elems),
		takeoverAttribute: takeover,
		timeoutsAttribute: block,
	})
	dv, err := tfprotov6.NewDynamicValue(a.typ, state)
	if err != nil {
		return nil, err
	}
	return &dv, nil
}

// entryFromTerraform reads one known entry of a state.
func (a *accountProtocol) entryFromTerraform(ctx context.Context, v tftypes.Value) (accountEntry, bool) {
	if v.IsNull() || !v.IsFullyKnown() {
		return accountEntry{}, false
	}
	value, err := accountEntryType().ValueFromTerraform(ctx, v)
	if err != nil {
		return accountEntry{}, false
	}
	obj, ok := value.(types.Object)
	if !ok {
		return accountEntry{}, false
	}
	e, diags := entryFromObject(obj)
	return e, !diags.HasError()
}

// planResourceChange is PlanResourceChange of an update that changes nothing: the proposed
// new state is the prior state, and neither the defaults nor the provider's account change
// it (schemaDefaults). The framework would plan the prior state: no computed value is marked unknown (the
// plan equals the state), no plan modifier changes a known value, and ModifyPlan keeps
// every entry's subscription under its key (withHeldID of identical entries), warns
// about nothing (each entry's settings are the state's (accountSettingWarnings), and the
// takeover warning is for a create, and the takeover attribute keeps the state's:
// keepTakeover) and checks no event name against the catalogue (checkAccountEventNames
// checks only names the state lacks). The planned identity is the prior one, as the framework
// plans it where ModifyPlan sets none (identityAsSent).
func (a *accountProtocol) planResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, bool) {
	data := a.provider.configured.Load()
	if data == nil || len(req.PriorPrivate) > 0 {
		return nil, false
	}
	if _, ok := a.decodeIdentity(req.PriorIdentity); !ok {
		return nil, false
	}
	identity, err := a.identityAsSent(req.PriorIdentity)
	if err != nil {
		return nil, false
	}
	prior, held, ok := a.decodeAccount(req.PriorState)
	if !ok || !prior.IsFullyKnown() {
		return nil, false
	}
	if !sameEncoding(req.ProposedNewState, req.PriorState) {
		proposed, _, ok := a.decodeAccount(req.ProposedNewState)
		if !ok || !proposed.Equal(prior) {
			return nil, false
		}
	}
	_, config, ok := a.decodeAccount(req.Config)
	if !ok || config.subscriptions == nil || len(config.subscriptions) != len(held.subscriptions) {
		return nil, false
	}
	// ModifyPlan plans the provider's account where the configuration has none
	// (planDefaultAccount), and refuses another account than a pre-issued JWT's.
	account, ok := stringValue(held.accountID)
	if !ok || (config.accountID.IsNull() || data.preIssuedJWT) && account.ValueString() != data.account(types.StringNull()) {
		return nil, false
	}
	// The schema's defaults apply where the configuration leaves an attribute out: the state
	// must hold them there. (Terraform proposes the configuration's keys, so they are the
	// state's.)
	if a.defaults == nil || !a.defaults.holdTop(req.Config, req.PriorState, a.typ) {
		return nil, false
	}
	for key, c := range config.subscriptions {
		h, ok := held.subscriptions[key]
		if !ok || !a.defaults.hold(a.defaults.entry, c, h) {
			return nil, false
		}
	}
	a.answered.plan.Add(1)
	holding := data.holders.holdAccount(account.ValueString(), sortedKeys(held.subscriptions),
		entryIDsFromTerraform(held.subscriptions))
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: req.PriorState, PlannedIdentity: identity,
		Diagnostics: protocolDiagnostics(holding)}, true
}

// sameEncoding reports whether two values arrived as the same msgpack bytes, which Terraform
// sends for equal values (it encodes maps and objects in key order): equal bytes spare
// decoding one of them.
func sameEncoding(a, b *tfprotov6.DynamicValue) bool {
	return a != nil && b != nil && len(a.MsgPack) > 0 && bytes.Equal(a.MsgPack, b.MsgPack)
}

// protocolDiagnostics converts diagnostics as the framework does: severity, summary,
// detail, and the attribute path of those that have one.
func protocolDiagnostics(diags diag.Diagnostics) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, d := range diags {
		pd := &tfprotov6.Diagnostic{Summary: d.Summary(), Detail: d.Detail(), Severity: tfprotov6.DiagnosticSeverityError}
		if d.Severity() == diag.SeverityWarning {
			pd.Severity = tfprotov6.DiagnosticSeverityWarning
		}
		if withPath, ok := d.(diag.DiagnosticWithPath); ok {
			pd.Attribute = terraformPath(withPath.Path())
		}
		out = append(out, pd)
	}
	return out
}

// terraformPath converts an attribute path made of names and map keys.
func terraformPath(p path.Path) *tftypes.AttributePath {
	out := tftypes.NewAttributePath()
	for _, step := range p.Steps() {
		switch s := step.(type) {
		case path.PathStepAttributeName:
			out = out.WithAttributeName(string(s))
		case path.PathStepElementKeyString:
			out = out.WithElementKeyString(string(s))
		}
	}
	return out
}
