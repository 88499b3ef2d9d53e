package provider

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// notBlank rejects empty strings and strings of only white space (Unicode
// white space included, as Configure's check) at plan time.
func notBlank() validator.String {
	return stringCheck{check: func(s string) error {
		if strings.TrimSpace(s) == "" {
			return fmt.Errorf("%q must not be empty or only white space", s)
		}
		return nil
	}, what: "a non-blank string"}
}

// printable rejects control characters (new lines, tabs, NUL) and invisible
// formatting characters (zero-width spaces, direction overrides, byte order
// marks) at plan time: in a name or id they are a copy-and-paste accident that
// the service would otherwise receive in a write.
func printable() validator.String {
	return stringCheck{check: func(s string) error {
		for _, r := range s {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				return fmt.Errorf("%q contains the control or invisible character %U", s, r)
			}
		}
		return nil
	}, what: "text without control or invisible formatting characters"}
}

// accountID returns the validator of every account_id argument: an account id becomes a
// segment of request paths, so a dot segment, "/", "\", a control or an invisible formatting
// character is refused at plan time (httpapi.CheckAccountID), never sent and never repaired.
func accountID() validator.String {
	return stringCheck{check: func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil // notBlank's to report
		}
		return httpapi.CheckAccountID(s)
	}, what: accountIDRule}
}

// accountIDRule is what an account id must be, for messages.
const accountIDRule = `an account id: not "." or "..", without "/", "\", control or invisible formatting characters`

// accountIDAdvice is the detail of a diagnostic about a refused account id.
func accountIDAdvice(err error) string {
	return err.Error() + "; the value must be " + accountIDRule + ". It becomes part of request paths, where a proxy " +
		"could resolve it to another account or path, so it is refused rather than sent"
}

// httpURL returns a validator for absolute http(s) URLs. The framework
// validators module has none, so this wraps the same check Configure applies
// to environment variables.
func httpURL() validator.String {
	return stringCheck{check: httpapi.CheckURL, what: urlAdvice}
}

// goDuration returns a validator for positive Go duration strings.
func goDuration() validator.String {
	return stringCheck{check: func(s string) error { _, err := parsePositiveDuration(s); return err }, what: "a Go duration such as 30s"}
}

// stringCheck adapts a func(string) error to validator.String.
type stringCheck struct {
	check func(string) error
	what  string
}

// Description says what the value must be.
func (v stringCheck) Description(context.Context) string { return "value must be " + v.what }

// MarkdownDescription says what the value must be.
func (v stringCheck) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateString runs the check on known values.
func (v stringCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), err.Error()+"; the value must be "+v.what+".")
	}
}

// uuidString returns a validator for subscription ids in the canonical UUID form.
func uuidString() validator.String {
	return stringCheck{check: func(s string) error {
		if !isUUID(s) {
			return fmt.Errorf("%q is not a UUID", s)
		}
		return nil
	}, what: "a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6"}
}
