package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Where an account came from decides what a user should check when the service refuses it (a
// 403) or finds nothing there (a 404): the provider's account_id (EVENTNOTIFY_ACCOUNT_ID), or an
// import id, which is often a subscription id pasted into the wrong resource. ImportState
// records the import id in the resource's private state; the Read that the import runs next
// takes it from there, uses it in its advice, and removes it once the import has read the
// object, so that no later refresh takes the account for an imported one (the framework marks
// a Read that follows an import the same way, in its own part of the private state:
// privatestate.ImportBeforeReadKey).

// The resource types that import an account.
const (
	subscriptionType         = "eventnotify_subscription"
	accountSubscriptionsType = "eventnotify_account_subscriptions"
)

// importOriginKey is the private state key under which ImportState records the import id.
const importOriginKey = "import_origin"

// accountOrigin says where the account of a call came from. The zero value is the
// configuration: the resource's account_id or the provider's.
type accountOrigin struct {
	// ImportID is the import id that the account was taken from; "" when it was not imported.
	ImportID string `json:"import_id,omitempty"`
	// Identity tells that the account came from an import block's identity, not an id.
	Identity bool `json:"identity,omitempty"`
	// Resource is the resource type imported into.
	Resource string `json:"resource"`
	// AccountInID tells that the import id names the account; false for a subscription id
	// alone, which takes the provider's account.
	AccountInID bool `json:"account_in_id,omitempty"`
	// MovedFrom is the resource type that a moved block took the state from
	// (subscription_move_state.go); "" when the state was not moved.
	MovedFrom string `json:"moved_from,omitempty"`
}

// privateState is the private state a resource's ImportState writes and its Read reads and
// writes (resource.ImportStateResponse.Private, resource.ReadRequest.Private and
// ReadResponse.Private all have these methods).
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// imported reports whether the account came from an import.
func (o accountOrigin) imported() bool { return o.ImportID != "" || o.Identity }

// record writes the origin into the private state of an import.
func (o accountOrigin) record(ctx context.Context, private privateState) diag.Diagnostics {
	b, err := json.Marshal(o)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Unable to record the import id", err.Error()+". This is a bug in the provider; please report it.")
		return diags
	}
	return private.SetKey(ctx, importOriginKey, b)
}

// importedOrigin reads what ImportState recorded; the zero origin when the state was not
// just imported. An unreadable record is logged and ignored: it only shapes advice.
func importedOrigin(ctx context.Context, private privateState) accountOrigin {
	var o accountOrigin
	if private == nil {
		return o
	}
	b, diags := private.GetKey(ctx, importOriginKey)
	if diags.HasError() || len(b) == 0 {
		return o
	}
	if err := json.Unmarshal(b, &o); err != nil {
		tflog.Debug(ctx, "Ignoring an unreadable import record in private state", map[string]any{"error": err.Error()})
		return accountOrigin{}
	}
	return o
}

// forgetImport removes the import record once the import has read its object.
func forgetImport(ctx context.Context, private privateState) diag.Diagnostics {
	if private == nil {
		return nil
	}
	return private.SetKey(ctx, importOriginKey, nil)
}

// accountAdvice says what to check about account when the service refused it or found
// nothing in it; "" for an account from the configuration, which statusHint's own advice
// covers.
func (o accountOrigin) accountAdvice(account string) string {
	var s string
	switch {
	case o.MovedFrom != "":
		s = fmt.Sprintf("The account %q comes from the path of the %s moved here; check it.", account, o.MovedFrom)
	case o.Identity:
		s = fmt.Sprintf("The account %q comes from the import block's identity (account_id); check it.", account)
	case o.ImportID != "" && o.AccountInID:
		s = fmt.Sprintf("The account %q comes from the import id %q; check it.", account, o.ImportID)
	case o.ImportID != "":
		s = fmt.Sprintf("The import id %q names no account, so the provider's account_id (%s) was used: %q. "+
			"To import a subscription of another account, use the import id <account_id>/%s.", o.ImportID, envAccountID, account, o.ImportID)
	default:
		return ""
	}
	if o.Resource == accountSubscriptionsType && httpapi.IsUUID(account) {
		s += " " + subscriptionIDAsAccount(account)
	}
	return s
}

// subscriptionIDAsAccount is the advice for an account id shaped like a subscription id,
// imported into eventnotify_account_subscriptions.
func subscriptionIDAsAccount(account string) string {
	return fmt.Sprintf("%q is shaped like a subscription id (a UUID), not an account id: did you mean to import it "+
		"into eventnotify_subscription? That is\n  terraform import eventnotify_subscription.NAME %s\n(or <account_id>/%s "+
		"for a subscription of another account than the provider's). eventnotify_account_subscriptions takes an account id.",
		account, account, account)
}
