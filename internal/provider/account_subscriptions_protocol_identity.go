package provider

import (
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The resource identity on the protocol fast path (accountProtocol): the identity's value
// (account_id) as Terraform sends it and as the framework answers it. What the framework does
// with an identity around the resource's own code (terraform-plugin-framework's
// fwserver.ReadResource and PlanResourceChange), the fast path does too:
//   - a Read answers the identity that the resource's Read sets (setAccountIdentity, the
//     state's account), and on an error the identity as it came (a null one when none came);
//   - a plan answers the prior identity as it came, a null one when none came (the resource's
//     ModifyPlan sets none);
//   - the framework refuses a Read whose new identity is not the state's non-null one
//     ("Unexpected Identity Change"): the fast path leaves such a Read to it.

// accountIdentity is an identity of the account resource as the protocol carries it.
type accountIdentity struct {
	account string // "" for a null identity (or one whose account_id is null)
	null    bool
}

// decodeIdentity decodes an identity of the request; false when it is not one that the fast
// path knows (then the framework answers, and refuses it where it must). An absent identity is
// a null one, as the framework takes it.
func (a *accountProtocol) decodeIdentity(d *tfprotov6.ResourceIdentityData) (accountIdentity, bool) {
	if d == nil || d.IdentityData == nil {
		return accountIdentity{null: true}, true
	}
	v, err := d.IdentityData.Unmarshal(a.identity)
	if err != nil || !v.IsKnown() {
		return accountIdentity{}, false
	}
	if v.IsNull() {
		return accountIdentity{null: true}, true
	}
	var attrs map[string]tftypes.Value
	if v.As(&attrs) != nil {
		return accountIdentity{}, false
	}
	account, ok := stringValue(attrs["account_id"])
	if !ok || account.IsUnknown() {
		return accountIdentity{}, false
	}
	return accountIdentity{account: account.ValueString(), null: account.IsNull()}, true
}

// encodeIdentity encodes the identity of account; a null identity for "".
func (a *accountProtocol) encodeIdentity(account string) (*tfprotov6.ResourceIdentityData, error) {
	v := tftypes.NewValue(a.identity, nil)
	if account != "" {
		v = tftypes.NewValue(a.identity, map[string]tftypes.Value{"account_id": tftypes.NewValue(tftypes.String, account)})
	}
	dv, err := tfprotov6.NewDynamicValue(a.identity, v)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &dv}, nil
}

// identityAsSent is the identity of a request as the framework answers it back: as it came,
// or a null one when none came.
func (a *accountProtocol) identityAsSent(d *tfprotov6.ResourceIdentityData) (*tfprotov6.ResourceIdentityData, error) {
	if d != nil && d.IdentityData != nil {
		return d, nil
	}
	return a.encodeIdentity("")
}
