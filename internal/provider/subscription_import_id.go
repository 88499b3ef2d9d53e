package provider

import (
	"fmt"
	"strings"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// subscriptionImportIDForms describes the accepted import ids for messages.
const subscriptionImportIDForms = "Use <subscription_id> for a subscription of the provider's account, or " +
	"<account_id>/<subscription_id>, where <subscription_id> is a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6."

// parseSubscriptionImportID splits an import id into account and subscription
// id. defaultAccount is used when the id has no account part.
func parseSubscriptionImportID(id, defaultAccount string) (accountID, subscriptionID string, err error) {
	parts := strings.Split(id, "/")
	switch len(parts) {
	case 1:
		accountID, subscriptionID = defaultAccount, parts[0]
	case 2:
		accountID, subscriptionID = parts[0], parts[1]
		if strings.TrimSpace(accountID) == "" {
			return "", "", fmt.Errorf("the import id %q has an empty account id. %s", id, subscriptionImportIDForms)
		}
	default:
		return "", "", fmt.Errorf("the import id %q has %d parts separated by \"/\"; at most 2 are accepted. %s", id, len(parts), subscriptionImportIDForms)
	}
	if !isUUID(subscriptionID) {
		return "", "", fmt.Errorf("%q in the import id %q is not a subscription id (a UUID). %s", subscriptionID, id, subscriptionImportIDForms)
	}
	if accountID == "" {
		return "", "", fmt.Errorf("the import id %q has no account and the provider has no account_id configured. %s", id, subscriptionImportIDForms)
	}
	if err := httpapi.CheckAccountID(accountID); err != nil {
		return "", "", fmt.Errorf("in the import id %q, %s. %s", id, accountIDAdvice(err), subscriptionImportIDForms)
	}
	return accountID, strings.ToLower(subscriptionID), nil
}

// isUUID accepts the canonical 8-4-4-4-12 form only (httpapi.IsUUID).
func isUUID(s string) bool { return httpapi.IsUUID(s) }
