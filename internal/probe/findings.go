package probe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Unknown is the value of a finding the probe could not observe.
const Unknown = "unknown"

// Names of the findings: the members of the profile (docs/guides/mock-server.md, "Replaying a real service: profiles"),
// then the probe's own.
const (
	JWTBody                 = "jwtBody"
	JWTMember               = "jwtMember"
	SingleShape             = "singleShape"
	EmptyList               = "emptyList"
	CatalogShape            = "catalogShape"
	CatalogFields           = "catalogFields"
	DefaultPageSize         = "defaultPageSize"
	MaxPageSize             = "maxPageSize"
	SortBy                  = "sortBy"
	BulkUpdate              = "bulkUpdate"
	DateHeader              = "dateHeader"
	CreatedDateVsDateHeader = "createdDateVsDateHeader"
	RateLimit               = "rateLimit"
)

// findingOrder is the order of the report and of the profile's members.
var findingOrder = []string{
	JWTBody, JWTMember, SingleShape, EmptyList, CatalogShape, CatalogFields, DefaultPageSize,
	MaxPageSize, SortBy, BulkUpdate, DateHeader, CreatedDateVsDateHeader, RateLimit,
}

// Finding is one thing the probe learned: the value observed, or Unknown, with a one-line reason.
type Finding struct {
	Value  any    // a string, an integer, a boolean, a list or an object; Unknown when not observed
	Reason string // how it was observed, or why it could not be
	// NeedsWrite tells that the finding is observable only with -write (Config.Write).
	NeedsWrite bool
}

// Findings are the probe's findings by name.
type Findings map[string]Finding

// set records a value and how it was observed.
func (f Findings) set(name string, value any, reason string, args ...any) {
	f[name] = Finding{Value: value, Reason: fmt.Sprintf(reason, args...), NeedsWrite: f[name].NeedsWrite}
}

// unknown records that name could not be observed, and why.
func (f Findings) unknown(name, reason string, args ...any) {
	f.set(name, Unknown, reason, args...)
}

// Known reports whether name was observed.
func (f Findings) Known(name string) bool {
	v, ok := f[name]
	return ok && v.Value != Unknown
}

// Profile is the findings as the profile's JSON: every finding's value (Unknown when not
// observed) in the report's order, then "reasons", an object of each finding's reason. Secrets
// are never among them.
func (f Findings) Profile() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("{")
	reasons := map[string]string{}
	for _, name := range findingOrder {
		v, ok := f[name]
		if !ok {
			v = Finding{Value: Unknown, Reason: "not probed"}
		}
		b, err := json.Marshal(v.Value)
		if err != nil {
			return nil, fmt.Errorf("finding %s: %w", name, err)
		}
		fmt.Fprintf(&buf, "%q:%s,", name, b)
		reasons[name] = v.Reason
	}
	b, err := json.Marshal(reasons)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&buf, "%q:%s}", "reasons", b)
	var out bytes.Buffer
	if err := json.Indent(&out, buf.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteString("\n")
	return out.Bytes(), nil
}

// WriteReport writes the findings as a readable report, one finding a line with its reason
// under it.
func (f Findings) WriteReport(w io.Writer) error {
	var b strings.Builder
	for _, name := range findingOrder {
		v, ok := f[name]
		if !ok {
			continue
		}
		value := Unknown
		if v.Value != Unknown {
			j, err := json.Marshal(v.Value)
			if err != nil {
				return err
			}
			value = string(j)
		}
		mark := ""
		if v.NeedsWrite {
			mark = "  (needs -write)"
		}
		fmt.Fprintf(&b, "%-24s %s%s\n    %s\n", name+":", value, mark, printable(v.Reason))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxReasonRunes bounds a reason in the report: it may quote the service's answers.
const maxReasonRunes = 500

// printable is s as the report shows it: what the service said is data, so control characters
// (a terminal's escape sequences, line breaks) are escaped as Go escapes them, and a long reason
// is cut, saying so.
func printable(s string) string {
	r := []rune(s)
	cut := ""
	if len(r) > maxReasonRunes {
		r, cut = r[:maxReasonRunes], fmt.Sprintf("... (%d more characters)", len(r)-maxReasonRunes)
	}
	q := strconv.QuoteToGraphic(string(r))
	return strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`) + cut
}
