package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// The timeouts block of the subscription resources (the framework's timeouts module): each
// operation runs under context.WithTimeout of its timeout, so that requests, retries and
// their back-off, the rate limiter's waits, the batch window and the settling of a lost
// create answer all end at the deadline. A create whose request was sent is the exception,
// as it is for Ctrl-C: the client waits for its answer (each attempt bounded by
// request_timeout) and still runs the reads that settle a lost answer (each bounded by two
// minutes), so that what the service created reaches state or the unknown-outcome error;
// only the waits between those reads, and any further create, end at the deadline.

// timeoutsAttribute is the name of the block in schemas and the tfsdk tag of its field.
const timeoutsAttribute = "timeouts"

// operationTimeouts are the default timeouts of a resource's operations.
type operationTimeouts struct {
	create, read, update, delete time.Duration
}

// subscriptionTimeouts are the defaults of eventnotify_subscription and
// eventnotify_account_subscriptions. One request may take, with the default max_retries (5)
// and request_timeout (30s), six attempts of 30 s and five minutes of waits between them (the
// client's bound on one request's retry waits): about 8 minutes. A create may take two such
// requests and the settling of a lost answer between them (reads at 0, 1, 3, 7 and 15 s, each
// bounded by two minutes), and the account resource's create and update list the account (a
// listing is bounded by 10 minutes) and write in several requests: 20 minutes leaves room for
// all of it. A read is one listing and some single reads: 15 minutes lets the listing's own
// bound, whose error says more, come first.
var subscriptionTimeouts = operationTimeouts{
	create: 20 * time.Minute,
	read:   15 * time.Minute,
	update: 20 * time.Minute,
	delete: 20 * time.Minute,
}

// block is the timeouts block of a resource with these defaults: `timeouts { create = "30m" }`.
func (d operationTimeouts) block(ctx context.Context) schema.Block {
	describe := func(op string, def time.Duration, bounds string) string {
		return fmt.Sprintf("How long the %s may take, as a Go duration such as `30s`, `10m` or `1h`; default `%s`. "+
			"It bounds %s.", op, durationText(def), bounds)
	}
	b, _ := timeouts.Block(ctx, timeouts.Opts{
		Create: true, Read: true, Update: true, Delete: true,
		CreateDescription: describe("create", d.create, "every request, retry and wait of the create, and the reads that "+
			"settle a lost answer; a create request already sent is waited for, and what it created is kept in state "+
			"(or the error says how to find and import it), so the apply can take somewhat longer"),
		ReadDescription:   describe("read (every refresh)", d.read, "the listing of the account and the single reads that follow it"),
		UpdateDescription: describe("update", d.update, "every request, retry and wait of the update"),
		DeleteDescription: describe("delete", d.delete, "every request, retry and wait of the delete"),
	}).(schema.SingleNestedBlock)
	for name, a := range b.Attributes {
		if s, ok := a.(schema.StringAttribute); ok {
			s.Validators = append(s.Validators, positiveDuration{})
			b.Attributes[name] = s
		}
	}
	b.MarkdownDescription = "Bounds on how long each operation may take, retries, rate-limit waits and the settling " +
		"of a lost create answer included. Nothing of it is sent to the service; adding or changing it plans an update " +
		"that changes only the state."
	return b
}

// timeoutsAttrTypes are the attribute types of the block's value.
func timeoutsAttrTypes() map[string]attr.Type {
	return map[string]attr.Type{"create": types.StringType, "read": types.StringType, "update": types.StringType, "delete": types.StringType}
}

// nullTimeouts is the value of a timeouts block left out, as an import, a list result and an
// upgraded state hold it.
func nullTimeouts() timeouts.Value {
	return timeouts.Value{Object: types.ObjectNull(timeoutsAttrTypes())}
}

// timeoutsOrNull is v, or the null block when v is Go's zero value (a model built in code).
func timeoutsOrNull(v timeouts.Value) timeouts.Value {
	if v.Object.Equal(types.Object{}) {
		return nullTimeouts()
	}
	return v
}

// changesOnlyTimeouts reports whether a planned value differs from the prior state in the
// timeouts block alone: then an update has nothing to send to the service.
func changesOnlyTimeouts(plan, state tftypes.Value) bool {
	var planned, prior map[string]tftypes.Value
	if plan.As(&planned) != nil || state.As(&prior) != nil || len(planned) != len(prior) {
		return false
	}
	for name, v := range planned {
		if name != timeoutsAttribute && !v.Equal(prior[name]) {
			return false
		}
	}
	return true
}

// durationText renders a default without the zero units time.Duration.String adds ("20m", not "20m0s").
func durationText(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

// errOperationTimeout is the cause of an operation's context when its timeout ends it.
var errOperationTimeout = errors.New("the operation's timeout passed")

// boundOperation is one operation of a resource, bounded by its timeout.
type boundOperation struct {
	ctx        context.Context
	resource   string // the resource type, eventnotify_subscription
	op         string // create, read, update or delete
	timeout    time.Duration
	configured bool // set in the timeouts block, not the default
}

// startOperation bounds ctx by the timeout of op (create, read, update or delete): the value
// of the configuration's (or state's) timeouts block, else the default. The caller runs the
// operation with the returned context and cancels it when done.
func (d operationTimeouts) startOperation(ctx context.Context, value timeouts.Value, resource, op string) (*boundOperation, context.CancelFunc, diag.Diagnostics) {
	var def time.Duration
	var get func(context.Context, time.Duration) (time.Duration, diag.Diagnostics)
	switch op {
	case "create":
		def, get = d.create, value.Create
	case "read":
		def, get = d.read, value.Read
	case "update":
		def, get = d.update, value.Update
	default:
		def, get = d.delete, value.Delete
	}
	b := &boundOperation{resource: resource, op: op, timeout: def}
	var diags diag.Diagnostics
	if !value.IsNull() && !value.IsUnknown() {
		b.timeout, diags = get(ctx, def)
		v, ok := value.Attributes()[op]
		b.configured = ok && !v.IsNull() && !v.IsUnknown()
	}
	var cancel context.CancelFunc
	b.ctx, cancel = context.WithTimeoutCause(ctx, b.timeout, errOperationTimeout)
	return b, cancel, diags
}

// timedOut reports whether the operation's own timeout ended it (not Terraform's
// cancellation, nor a shorter bound of the client's).
func (b *boundOperation) timedOut() bool {
	return errors.Is(context.Cause(b.ctx), errOperationTimeout)
}

// addError adds the diagnostic of a failed call of the operation: the client's error, and
// when the operation's timeout ended it, which timeout and how to raise it.
func (b *boundOperation) addError(diags *diag.Diagnostics, summary string, err error) {
	if !b.timedOut() {
		addClientError(diags, summary, err)
		return
	}
	detail := b.timeoutText()
	var unknown *client.UnknownOutcomeError
	var apiErr *httpapi.APIError
	if errors.As(err, &unknown) || errors.As(err, &apiErr) ||
		!errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
		detail += "\n\nWhen it timed out: " + clientErrorDetail(err)
	}
	diags.AddError(summary+": timed out after "+durationText(b.timeout), detail)
}

// checkTimeout, when the operation's timeout ended it, puts the timeout's diagnostic first,
// for operations that report the failures of their calls on their own (the account
// resource's): the calls' errors follow, those that the deadline ended pointing to it
// instead of advising request_timeout, which was not what ran out.
func (b *boundOperation) checkTimeout(diags *diag.Diagnostics) {
	if !b.timedOut() {
		return
	}
	lead := diag.Diagnostics{diag.NewErrorDiagnostic(
		fmt.Sprintf("The %s of %s timed out after %s", b.op, b.resource, durationText(b.timeout)), b.timeoutText())}
	for _, d := range *diags {
		lead.Append(b.endedByTimeout(d))
	}
	*diags = lead
}

// endedByTimeout is d, an error of a call that the operation's deadline ended, with the
// request_timeout advice replaced by a pointer to the timeout's diagnostic; any other d as it is.
func (b *boundOperation) endedByTimeout(d diag.Diagnostic) diag.Diagnostic {
	detail, ok := strings.CutSuffix(d.Detail(), requestTimeoutAdvice)
	if !ok || d.Severity() != diag.SeverityError {
		return d
	}
	detail += fmt.Sprintf("\n\nThe %s's timeout (timeouts.%s, the first error) ended this request.", b.op, b.op)
	if p, isAttr := d.(diag.DiagnosticWithPath); isAttr {
		return diag.NewAttributeErrorDiagnostic(p.Path(), d.Summary(), detail)
	}
	return diag.NewErrorDiagnostic(d.Summary(), detail)
}

// timeoutText says which operation timed out, after how long, and which value to raise.
func (b *boundOperation) timeoutText() string {
	which := "its default timeout"
	if b.configured {
		which = "timeouts." + b.op
	}
	return fmt.Sprintf("The %s of %s did not finish within %s (%s). Raise timeouts.%s in the resource's block, "+
		"for example\n  timeouts {\n    %s = %q\n  }\nor find out why the service is slow: TF_LOG=DEBUG logs every "+
		"request with its duration.", b.op, b.resource, durationText(b.timeout), which, b.op, b.op, durationText(2*b.timeout))
}

// positiveDuration rejects a timeout that parses but is not positive ("0s", "-5m"): the
// operation could not even start. The module's own validator rejects what does not parse.
type positiveDuration struct{}

// Description says what the validator checks.
func (positiveDuration) Description(context.Context) string {
	return "must be a positive duration"
}

// MarkdownDescription says what the validator checks.
func (v positiveDuration) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateString fails a known duration that is zero or negative.
func (positiveDuration) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if d, err := time.ParseDuration(req.ConfigValue.ValueString()); err == nil && d <= 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid timeout",
			fmt.Sprintf("%s must be a positive duration such as \"20m\"; got %q, which would end the operation before "+
				"it starts.", req.Path, req.ConfigValue.ValueString()))
	}
}
