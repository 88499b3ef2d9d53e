package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
)

// addClientError turns a failed API call into an error diagnostic that names
// the operation, the HTTP status and the service's messages, and says what the
// user can do about it.
func addClientError(diags *diag.Diagnostics, summary string, err error) {
	diags.AddError(summary, clientErrorDetail(err))
}

// clientErrorDetail renders err for a diagnostic's detail.
func clientErrorDetail(err error) string {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		switch {
		case errors.Is(err, context.Canceled):
			return "The operation was cancelled before it finished: " + err.Error()
		case errors.Is(err, context.DeadlineExceeded):
			return "The operation timed out: " + err.Error() + "\n\nIncrease request_timeout (EVENTNOTIFY_REQUEST_TIMEOUT) or try again."
		case untrustedCertificate(err):
			return err.Error() + "\n\nThe service's TLS certificate could not be verified, so no request (and no credential) " +
				"was sent. The provider always verifies certificates. Check that base_url and auth_url (EVENTNOTIFY_BASE_URL, " +
				"EVENTNOTIFY_AUTH_URL) name the service itself; if it uses a private certificate authority, add that " +
				"authority to the system's trust store (on Linux, SSL_CERT_FILE or SSL_CERT_DIR can point to it)."
		case errors.Is(err, client.ErrMalformedResponse):
			return err.Error() + "\n\nThe service answered with success, but not in the format the provider reads; a proxy " +
				"or gateway in front of the service can cause this. A create, update or delete may have taken effect: " +
				"check the account's subscriptions (data source eventnotify_subscriptions) before applying again, and " +
				"import a subscription that exists but is not in state."
		}
		return err.Error() + "\n\nCheck that base_url and auth_url (EVENTNOTIFY_BASE_URL, EVENTNOTIFY_AUTH_URL) reach the service, then try again."
	}

	var b strings.Builder
	fmt.Fprintf(&b, "The service answered %q with HTTP %d %s.", apiErr.Operation, apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
	if len(apiErr.Messages) > 0 {
		b.WriteString("\n\nService messages:")
		for _, m := range apiErr.Messages {
			b.WriteString("\n  - " + m)
		}
	} else if apiErr.RawBody != "" {
		fmt.Fprintf(&b, "\n\nResponse body (not the service's JSON error format): %s", apiErr.RawBody)
	}
	if apiErr.ErrorID != "" {
		fmt.Fprintf(&b, "\n\nError ID: %s (quote it when you contact support).", apiErr.ErrorID)
	}
	if hint := statusHint(apiErr.StatusCode, apiErr.ErrorID != ""); hint != "" {
		b.WriteString("\n\n" + hint)
	}
	return b.String()
}

// statusHint says what a user can do about a status.
func statusHint(status int, hasErrorID bool) string {
	switch {
	case status == http.StatusBadRequest:
		return "The service rejected the request; correct the values the messages name and apply again."
	case status == http.StatusUnauthorized:
		return "Authentication failed. Check username with password or api_token (EVENTNOTIFY_USERNAME, " +
			"EVENTNOTIFY_PASSWORD, EVENTNOTIFY_API_TOKEN), the one-time password (EVENTNOTIFY_OTP) if the account uses " +
			"two-factor authentication, or that a pre-issued jwt (EVENTNOTIFY_JWT) has not expired."
	case status == http.StatusForbidden:
		return "The credentials are valid but the user has no access to this account. Check account_id " +
			"(EVENTNOTIFY_ACCOUNT_ID) and the user's privileges on the account."
	case status == http.StatusNotFound:
		return "The object does not exist (any more). Check the id and account."
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		return "The service is limiting requests. Lower max_requests_per_second or -parallelism, raise max_retries, and try again."
	case status >= 500 && hasErrorID:
		return "The service failed. Try again later; if it persists, contact support with the error ID."
	case status >= 500:
		return "The service failed. Try again later; if it persists, contact support."
	}
	return ""
}

// untrustedCertificate reports a TLS certificate that failed verification.
func untrustedCertificate(err error) bool {
	var (
		verification     *tls.CertificateVerificationError
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalid          x509.CertificateInvalidError
	)
	return errors.As(err, &verification) || errors.As(err, &unknownAuthority) ||
		errors.As(err, &hostname) || errors.As(err, &invalid)
}
