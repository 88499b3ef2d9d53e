package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// addClientError turns a failed API call into an error diagnostic that names
// the operation, the HTTP status and the service's messages, and says what the
// user can do about it.
func addClientError(diags *diag.Diagnostics, summary string, err error) {
	diags.AddError(summary, clientErrorDetail(err))
}

// clientErrorDetail renders err for a diagnostic's detail, for a call whose account came from
// the configuration.
func clientErrorDetail(err error) string { return clientErrorDetailFrom(err, accountOrigin{}) }

// clientErrorDetailFrom renders err for a diagnostic's detail; origin says where the call's
// account came from, for the advice on a 403 (an imported subscription the service's 404
// answers for is the Read's own error, "Cannot import subscription").
func clientErrorDetailFrom(err error, origin accountOrigin) string {
	var unreadable *client.CreatedUnreadableError
	if errors.As(err, &unreadable) {
		return createdUnreadableDetail(unreadable)
	}
	var unknown *client.UnknownOutcomeError
	if errors.As(err, &unknown) {
		return unknownOutcomeDetail(unknown)
	}
	var readBack *client.ReadBackError
	if errors.As(err, &readBack) {
		return readBackDetail(readBack)
	}
	var incomplete *client.IncompleteListingError
	if errors.As(err, &incomplete) {
		return incomplete.Error() + "\n\nNothing was written: acting on a listing that may miss subscriptions could " +
			"create a second copy of one. If the account is being changed by someone else, try again once it is not."
	}
	var item *client.ItemError
	if errors.As(err, &item) {
		return fmt.Sprintf("The service answered %q for subscription %s with HTTP %d %s: %s\n\nThe other subscriptions "+
			"of the same request are not affected. Run terraform plan to see the subscription's current state.",
			item.Operation, item.SubscriptionID, item.HTTPEquivalentCode, http.StatusText(item.HTTPEquivalentCode), item.Message)
	}
	var apiErr *httpapi.APIError
	if !errors.As(err, &apiErr) {
		switch {
		case errors.Is(err, context.Canceled):
			return "The operation was cancelled before it finished: " + err.Error()
		case errors.Is(err, context.DeadlineExceeded):
			return "The operation timed out: " + err.Error() + requestTimeoutAdvice
		case errors.Is(err, httpapi.ErrPreIssuedJWTAccount):
			return err.Error() + "\n\nNothing was sent. The provider's jwt (" + envJWT + ") was issued for the provider's " +
				"account_id, and is never sent with a request for another account. Leave account_id out (or set it to the " +
				"provider's), or configure username with password or api_token so that a JWT is generated for each account."
		case errors.Is(err, httpapi.ErrUntrustedCertificate):
			return err.Error() + "\n\nThe service's TLS certificate could not be verified, so no request (and no credential) " +
				"was sent. The provider always verifies certificates. Check that base_url and auth_url (" + envBaseURL + ", " +
				envAuthURL + ") name the service itself; if it uses a private certificate authority, add that " +
				"authority to the system's trust store (on Linux, SSL_CERT_FILE or SSL_CERT_DIR can point to it)."
		case errors.Is(err, client.ErrListingLimit):
			return err.Error() + fmt.Sprintf("\n\nNothing was changed. The provider lists at most %d subscriptions (%d pages, "+
				"%d MiB) of one account, within %s. Check that base_url (%s) names the service itself and not a proxy "+
				"that rewrites its answers.", client.MaxListedSubscriptions, client.MaxListedPages, client.MaxListedBytes>>20,
				client.MaxListingDuration, envBaseURL)
		case errors.Is(err, httpapi.ErrMalformedResponse):
			return err.Error() + "\n\nThe service answered with success, but not in the format the provider reads; a proxy " +
				"or gateway in front of the service can cause this. A create, update or delete may have taken effect: " +
				"check the account's subscriptions (data source eventnotify_subscriptions) before applying again, and " +
				"import a subscription that exists but is not in state."
		}
		if client.Transient(err) {
			return err.Error() + "\n\nCheck that base_url and auth_url (" + envBaseURL + ", " + envAuthURL + ") reach the service, then try again."
		}
		// A definite failure (a host name that does not resolve, an id refused, an answer's
		// text refused): another attempt fails the same way.
		return err.Error() + "\n\nTrying again unchanged fails the same way: correct what the error names (an address is " +
			"base_url's or auth_url's: " + envBaseURL + ", " + envAuthURL + "), then apply again."
	}

	b := apiErrorFacts(apiErr)
	if hint := statusHint(apiErr, origin); hint != "" {
		b += "\n\n" + hint
	}
	return b
}

// requestTimeoutAdvice ends the detail of a call that timed out. An operation that its
// timeouts block ended says so instead (boundOperation.checkTimeout).
const requestTimeoutAdvice = "\n\nIncrease request_timeout (" + envRequestTimeout + ") or try again."

// apiErrorFacts renders what an answer says: the address, operation and HTTP status, the
// service's messages or the body, the error ID and the number of attempts; no advice.
func apiErrorFacts(apiErr *httpapi.APIError) string {
	var b strings.Builder
	who := "The service"
	if apiErr.URL != "" {
		who = "The address " + apiErr.URL
	}
	fmt.Fprintf(&b, "%s answered %q with HTTP %d %s.", who, apiErr.Operation, apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
	if len(apiErr.Messages) > 0 {
		b.WriteString("\n\nService messages:")
		for _, m := range apiErr.Messages {
			b.WriteString("\n  - " + m)
		}
		if apiErr.MessagesOmitted > 0 {
			fmt.Fprintf(&b, "\n  - (%d more messages not shown)", apiErr.MessagesOmitted)
		}
	} else if apiErr.RawBody != "" {
		fmt.Fprintf(&b, "\n\nResponse body (not the service's JSON error format): %s", apiErr.RawBody)
	}
	if apiErr.ErrorID != "" {
		fmt.Fprintf(&b, "\n\nError ID: %s (quote it when you contact support).", apiErr.ErrorID)
	}
	if apiErr.Attempts > 1 {
		fmt.Fprintf(&b, "\n\nThe provider made %d attempts.", apiErr.Attempts)
	}
	return b.String()
}

// addressArgument names the provider argument, and its variable, of the address that gave
// an answer: auth_url for the JWT endpoint, base_url for the service.
func addressArgument(apiErr *httpapi.APIError) string {
	if apiErr.JWTEndpoint {
		return "auth_url (" + envAuthURL + ")"
	}
	return "base_url (" + envBaseURL + ")"
}

// statusHint says what a user can do about a failed answer; origin says where the call's
// account came from.
func statusHint(apiErr *httpapi.APIError, origin accountOrigin) string {
	status := apiErr.StatusCode
	switch {
	case status >= 300 && status < 400:
		if apiErr.Location == "" {
			return fmt.Sprintf("The provider never follows redirects (a write would turn into a read, and the token could "+
				"reach another address), and this answer named no Location. Set %s to the service's own address.", addressArgument(apiErr))
		}
		return fmt.Sprintf("The answer redirects to %s. The provider never follows redirects (a write would turn into a "+
			"read, and the token could reach another address), so nothing was changed. Set %s to the address it "+
			"redirects to (without the path the provider appends).", apiErr.Location, addressArgument(apiErr))
	case status == http.StatusBadRequest:
		return "The service rejected the request; correct the values the messages name and apply again."
	case status == http.StatusUnauthorized && apiErr.OTPSent:
		return "Authentication failed. The one-time password (otp, " + envOTP + ") may have expired or been used " +
			"already: each can generate one JWT. For unattended runs use api_token (" + envAPIToken + ") with username " +
			"instead of password and otp. Also check username and password (" + envUsername + ", " + envPassword + ")."
	case status == http.StatusUnauthorized && apiErr.PreIssuedJWT:
		return "The pre-issued jwt (" + envJWT + ") was rejected: check that it has not expired (JWTs are valid for 5 " +
			"minutes) and belongs to this account. Supply a fresh one, or configure username with password or api_token " +
			"so that JWTs are generated and refreshed automatically."
	case status == http.StatusUnauthorized:
		return "Authentication failed. Check username with password or api_token (" + envUsername + ", " + envPassword +
			", " + envAPIToken + "; an API token is sent with the user name PLATFORM_TOKEN.<username>), and the one-time " +
			"password (" + envOTP + ") if the account uses two-factor authentication."
	case status == http.StatusForbidden && origin.imported():
		return fmt.Sprintf("The credentials are valid but the user has no access to account %q. %s Also check the "+
			"user's privileges on the account.", apiErr.AccountID, origin.accountAdvice(apiErr.AccountID))
	case status == http.StatusForbidden:
		return fmt.Sprintf("The credentials are valid but the user has no access to this account (%q). Check "+
			"account_id (%s) and the user's privileges on the account.", apiErr.AccountID, envAccountID)
	case status == http.StatusNotFound && errors.Is(apiErr, httpapi.ErrNotFound):
		return "The object does not exist (any more). Check the id and account."
	case status == http.StatusNotFound:
		return fmt.Sprintf("This 404 is not the service's own answer for a missing subscription (that carries the error "+
			"\"Entity not found\"), so nothing was taken as deleted and state is unchanged. The address probably does not "+
			"serve the Event Notifications API: check %s.", addressArgument(apiErr))
	case status == http.StatusTooManyRequests || apiErr.Throttled:
		return "The service is limiting requests. Lower max_requests_per_second or -parallelism, raise max_retries, and try again."
	case status >= 500 && apiErr.Method != http.MethodGet:
		return "The service failed, and the change may or may not have taken effect. Run terraform plan to see the " +
			"current state before applying again; if it persists, contact support" + withErrorID(apiErr) + "."
	case status >= 500:
		return "The service failed. Try again later; if it persists, contact support" + withErrorID(apiErr) + "."
	}
	return ""
}

// withErrorID is the "with the error ID" clause of support advice, when there is an ID.
func withErrorID(apiErr *httpapi.APIError) string {
	if apiErr.ErrorID == "" {
		return ""
	}
	return " with the error ID"
}

// lostAnswerSummary says what is known of a create whose answer was lost.
func lostAnswerSummary(e *client.UnknownOutcomeError) string {
	s := fmt.Sprintf("The answer to a request that creates subscriptions in account %q was lost or unreadable (%v), so the "+
		"provider cannot tell whether the service created them.", e.AccountID, e.Cause)
	if e.ReadErr != nil {
		s += fmt.Sprintf(" Reading the account to find out failed too: %v.", e.ReadErr)
	}
	return s
}

// unknownOutcomeDetail explains a create whose answer was lost and could not be settled:
// what may exist, and how to find and import it, never a bare "try again".
func unknownOutcomeDetail(e *client.UnknownOutcomeError) string {
	var b strings.Builder
	b.WriteString(lostAnswerSummary(e))
	if len(e.Candidates) > 0 {
		if e.ClockUnknown {
			b.WriteString("\n\nThese subscriptions may be what the request created (the same content, dated from two " +
				"minutes before the request was sent to two minutes after its answer was lost, by this machine's clock: the " +
				"service sent no Date header, so the provider cannot tell them from older or later ones):")
		} else {
			b.WriteString("\n\nThese subscriptions may be what the request created (the same content, and dated by the " +
				"service's clock from up to two minutes before the request was sent onwards, which the date alone cannot rule " +
				"out; more of them than were requested, or created by another user):")
		}
		for _, id := range e.Candidates {
			fmt.Fprintf(&b, "\n  - %s", id)
		}
		b.WriteString("\n\n" + heldElsewhereAdvice(e.AccountID))
		fmt.Fprintf(&b, "\n\nImport the one that no other state holds and that belongs to this resource with\n  "+
			"terraform import eventnotify_subscription.<name> %s/<id>\nand delete any copy that nobody manages. Applying "+
			"again without importing one creates another copy: the provider cannot tell which is this resource's, so it "+
			"adopts none of them, and they stay in no state of this configuration.", e.AccountID)
	} else {
		fmt.Fprintf(&b, "\n\nBefore applying again, list the account's subscriptions (data source "+
			"eventnotify_subscriptions) and import any that this resource should own with\n  terraform import "+
			"eventnotify_subscription.<name> %s/<id>\nso that it is not created twice.", e.AccountID)
	}
	return b.String()
}

// heldElsewhereAdvice says that a candidate of a lost create may be another configuration's, and
// how to check, for a candidate of account.
func heldElsewhereAdvice(account string) string {
	return fmt.Sprintf("A candidate may be held by another configuration: another Terraform run or provider configuration "+
		"with the same credentials that created the same subscription at the same time. Check before acting: run "+
		"terraform state list and terraform state show in the other configurations that manage account %q, looking for "+
		"the candidate's id, and compare its created_date (data source eventnotify_subscription, or the service's "+
		"console) with the time of this apply.", account)
}

// createdUnreadableDetail names the subscriptions a create made whose answer was refused for
// its text, and how to take them over or remove them.
func createdUnreadableDetail(e *client.CreatedUnreadableError) string {
	var b strings.Builder
	them := plural(len(e.IDs), "it", "them")
	fmt.Fprintf(&b, "The service created %s in account %q, but its answer was refused: %v.",
		plural(len(e.IDs), "this subscription", "these subscriptions"), e.AccountID, e.Cause)
	if e.ReadErr != nil {
		fmt.Fprintf(&b, "\n\nReading the account failed too: %v.", e.ReadErr)
	}
	b.WriteString("\n\nCreated, and not in state:")
	for _, id := range e.IDs {
		fmt.Fprintf(&b, "\n  - %s", id)
	}
	fmt.Fprintf(&b, "\n\nThe provider does not create %s again. Either have the value corrected in the service and "+
		"import %s with\n  terraform import eventnotify_subscription.<name> %s/<id>\n(the account and topic "+
		"resources read %s at their next refresh instead), or delete %s in the service (its console, or DELETE "+
		"/rest/v1/accounts/%s/subscriptions/<id>) and apply again.", them, them, e.AccountID, them, them, e.AccountID)
	return b.String()
}

// createWarning returns the warning diagnostic of a create that succeeded with a doubt (see
// client.CreateSubscriptionBatched), and false for any other error. key is the entry of the
// account or topic resource that holds the subscription, "" for eventnotify_subscription: the
// summary names the subscription and the entry (diagnostic_summaries.go).
func createWarning(err error, key string) (summary, detail string, ok bool) {
	var late *client.LateAdoptionWarning
	if errors.As(err, &late) {
		return capitalize(subscriptionNamed(late.SubscriptionID, key)) + lateAdoptionSuffix, lateAdoptionDetail(late), true
	}
	var again *client.RecreatedWarning
	if errors.As(err, &again) {
		return capitalize(subscriptionNamed(again.SubscriptionID, key)) + recreatedSuffix, recreatedDetail(again), true
	}
	return "", "", false
}

// The ends of createWarning's summaries, after the subscription they name.
const (
	lateAdoptionSuffix = " adopted after a lost create answer"
	recreatedSuffix    = " created again after a lost create answer"
)

// recreatedDetail says that the first of two creates may still land, and how to find a copy.
func recreatedDetail(w *client.RecreatedWarning) string {
	return fmt.Sprintf("The answer to the first request that creates this subscription was lost (%v), and nothing it "+
		"created was found in account %q within the grace period, so the provider created it again: it is subscription "+
		"%s.\n\nIf the service was still working on the first request, it may yet create a copy that nobody manages and "+
		"that sends the same notifications. In a few minutes, list the account's subscriptions (data source "+
		"eventnotify_subscriptions, or the service's console) and delete any other subscription of the same content "+
		"created by this user around now that no configuration holds.", w.Cause, w.AccountID, w.SubscriptionID)
}

// lateAdoptionDetail names a subscription adopted as a lost create's although the service
// dates it after the answer came back, and how to check that nothing else holds it.
func lateAdoptionDetail(w *client.LateAdoptionWarning) string {
	return fmt.Sprintf("The answer to the request that creates this subscription was lost, and the provider took subscription "+
		"%s in account %q as what the request created: it has the same content and creator, but the service dates it %s, "+
		"after the failed answer came back. It is either this request's subscription landing late or one that another "+
		"writer (another Terraform run or provider configuration with the same credentials) created at that time; the "+
		"service cannot tell them apart.\n\nCheck that no other state holds it (for example terraform state list and "+
		"terraform state show in the other configurations that manage account %q, looking for id %s). If another one does, "+
		"both manage one subscription: remove it from this state (terraform state rm on the resource, or, for an "+
		"eventnotify_account_subscriptions entry, a refresh after the other apply) and apply again, so that each has "+
		"its own.",
		w.SubscriptionID, w.AccountID, w.Created().Format(time.RFC3339), w.AccountID, w.SubscriptionID)
}
