package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Transient reports whether a failed call may succeed when it is made again later, unchanged: the
// service failed or was busy (any 5xx, a 429 or a throttling 503, a 408), the call timed out, a
// listing kept disagreeing with itself while the account changed, or a network error that the retry
// policy would try again (httpapi.RetryableTransportError: one that another attempt may fix).
//
// Every other failure is definite: the same call fails the same way until the configuration
// changes. That is a 401, a 403, the service's own 404 and a 404 that is not the service's (an
// address that does not serve the API), any other 4xx, a redirect, an untrusted certificate, an
// answer that is not the service's format, an id the client refuses to send, and a call
// cancelled by its caller. A caller that can go on without the answer (a check at plan time)
// warns about a transient failure and stops at a definite one.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	var apiErr *httpapi.APIError
	if errors.As(err, &apiErr) {
		switch s := apiErr.StatusCode; {
		case apiErr.Throttled, s == http.StatusTooManyRequests, s == http.StatusRequestTimeout:
			return true
		default:
			return s >= 500 && s < 600
		}
	}
	var incomplete *IncompleteListingError
	switch {
	case errors.As(err, &incomplete):
		return true
	case errors.Is(err, context.Canceled):
		return false
	case errors.Is(err, context.DeadlineExceeded):
		return true
	case errors.Is(err, httpapi.ErrUntrustedCertificate), errors.Is(err, httpapi.ErrMalformedResponse), errors.Is(err, httpapi.ErrInvalidID),
		errors.Is(err, ErrListingLimit), errors.Is(err, httpapi.ErrPreIssuedJWTAccount):
		return false
	}
	// A transport failure: what the HTTP client returned for a request that got no answer.
	var transportErr *url.Error
	return errors.As(err, &transportErr) && httpapi.RetryableTransportError(err)
}
