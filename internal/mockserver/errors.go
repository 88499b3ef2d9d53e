package mockserver

import (
	"encoding/json"
	"net/http"

	"github.com/google/uuid"
)

// Error values of the spec's Errors table, plus the two the spec does not
// list but a router needs (unknown path, unsupported method).
const (
	errBadRequest       = "Bad Request"
	errForbidden        = "Forbidden"
	errEntityNotFound   = "Entity not found"
	errInternal         = "Internal server error"
	errRouteNotFound    = "Not Found"
	errMethodNotAllowed = "Method Not Allowed"
)

// Messages the spec fixes, and the ones this package chose (see doc.go).
const (
	msgAccessDenied      = "Access Denied"
	msgInternal          = "An unexpected error occurred"
	msgBodyMissing       = "Required request body is missing"
	msgBodyNotObject     = "Request body must be a JSON object"
	msgBodyTooLarge      = "Request body is too large"
	msgInvalidEventName  = "Must provide a valid eventName"
	msgInvalidDestType   = "Must provide a valid destinationType"
	msgInvalidLogLevel   = "Must provide a valid logLevel"
	msgOperationRequired = "Operation is required"
	msgInvalidOperation  = "Invalid operation. Supported operations are: delete, update"
	msgEmptyList         = "Subscription list cannot be empty"
	msgBothLists         = "Cannot provide both subscriptionIds and subscriptions in the same request"
	msgIDsRequired       = "subscriptionIds is required for delete operation"
	msgSubsRequired      = "subscriptions is required for update operation"
	msgDeleted           = "Deleted successfully"
	msgItemNotFound      = "Subscription not found"
	msgUpdated           = "Updated successfully"
	msgItemNotObject     = "Each subscription must be a JSON object"
	msgItemIDRequired    = "subscriptionId is required"
)

// errorValue is the spec's error value for a status; statuses the spec
// does not list get their standard HTTP text.
func errorValue(status int) string {
	switch status {
	case http.StatusBadRequest:
		return errBadRequest
	case http.StatusForbidden:
		return errForbidden
	case http.StatusNotFound:
		return errEntityNotFound
	case http.StatusInternalServerError:
		return errInternal
	}
	return http.StatusText(status)
}

// writeError writes an error body {error, messages, path}; a 500 also
// carries a fresh errorId and a 401 carries no body at all.
func writeError(w http.ResponseWriter, r *http.Request, status int, errValue string, messages ...string) {
	if status == http.StatusUnauthorized {
		w.WriteHeader(status)
		return
	}
	if messages == nil {
		messages = []string{}
	}
	body := errorBody{Error: errValue, Messages: messages, Path: r.URL.Path}
	if status == http.StatusInternalServerError {
		body.ErrorID = uuid.NewString()
	}
	writeJSON(w, r, status, body)
}

// writeSpecError writes the spec's error body for status.
func writeSpecError(w http.ResponseWriter, r *http.Request, status int, messages ...string) {
	writeError(w, r, status, errorValue(status), messages...)
}

// writeJSON encodes v and writes it with status. Encoding happens before
// the header is written so that a failure can still become a 500.
func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		if status == http.StatusInternalServerError {
			w.WriteHeader(status)
			return
		}
		writeSpecError(w, r, http.StatusInternalServerError, msgInternal)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeNoContent answers 204 with no body.
func writeNoContent(w http.ResponseWriter) {
	w.WriteHeader(http.StatusNoContent)
}
