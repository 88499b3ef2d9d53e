package probe

import (
	"strings"
	"testing"
)

// TestClassifyJWTBody: each body shape of the JWT endpoint is named, with the member holding
// the token, and the token is read from it.
func TestClassifyJWTBody(t *testing.T) {
	tests := []struct {
		name, body, shape, member string
		wantErr                   bool
	}{
		{"text", "a.b.c\n", "text", "", false},
		{"text bearer", "Bearer a.b.c", "text", "", false},
		{"string", `"a.b.c"`, "string", "", false},
		{"object token", `{"token":"a.b.c","expires":300}`, "object", "token", false},
		{"object jwt", `{"jwt":"a.b.c"}`, "object", "jwt", false},
		{"object access_token", `{"access_token":"a.b.c","token_type":"Bearer"}`, "object", "access_token", false},
		{"object without token", `{"value":"a.b.c"}`, "", "", true},
		{"empty", "  ", "", "", true},
		{"broken string", `"a.b.c`, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shape, member, token, err := classifyJWTBody([]byte(tt.body))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %t", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if shape != tt.shape || member != tt.member || token != "a.b.c" {
				t.Errorf("got (%q, %q, %q), want (%q, %q, \"a.b.c\")", shape, member, token, tt.shape, tt.member)
			}
		})
	}
}

// TestClassifySingle: one subscription's answer is flat or wrapped, or neither.
func TestClassifySingle(t *testing.T) {
	tests := []struct{ body, want string }{
		{`{"subscriptionId":"x","eventName":"E"}`, "flat"},
		{`{"subscription":{"subscriptionId":"x"}}`, "wrapped"},
		{`{"subscription":{"subscriptionId":"x"},"subscriptions":[]}`, "wrapped"},
		{`{"subscriptions":[{"subscriptionId":"x"}]}`, ""},
		{`[]`, ""},
		{`not json`, ""},
	}
	for _, tt := range tests {
		if got := classifySingle([]byte(tt.body)); got != tt.want {
			t.Errorf("classifySingle(%s) = %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestClassifyCatalogue: a wrapper of records, a wrapper of strings and a top-level array are
// told apart, with the records' members and names.
func TestClassifyCatalogue(t *testing.T) {
	tests := []struct {
		name, body, shape, fields, first string
	}{
		{"objects", `{"events":[{"name":"A","description":"d"},{"name":"B"}]}`, "objects", "description,name", "A"},
		{"eventName objects", `{"events":[{"eventName":"A"}]}`, "objects", "eventName", "A"},
		{"strings", `{"events":["A","B"]}`, "strings", "", "A"},
		{"other member", `{"items":["A"],"count":1}`, "strings", "", "A"},
		{"toplevel objects", `[{"name":"A","label":"x"}]`, "toplevel", "label,name", "A"},
		{"toplevel strings", `["A"]`, "toplevel", "", "A"},
		{"empty wrapper", `{"events":[]}`, "", "", ""},
		{"no array", `{"events":{}}`, "", "", ""},
		{"mixed", `{"events":["A",{"name":"B"}]}`, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cb := classifyCatalogue([]byte(tt.body), "events")
			fields := ""
			for i, f := range cb.fields {
				if i > 0 {
					fields += ","
				}
				fields += f
			}
			first := ""
			if len(cb.names) > 0 {
				first = cb.names[0]
			}
			if cb.shape != tt.shape || fields != tt.fields || first != tt.first {
				t.Errorf("got (%q, %q, %q), want (%q, %q, %q) (%s)", cb.shape, fields, first, tt.shape, tt.fields, tt.first, cb.why)
			}
		})
	}
}

// TestPrintable: a reason that quotes the service's answer reaches the terminal escaped and
// bounded.
func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain reason", "plain reason"},
		{"the service said \x1b[31mred\x1b[0m\nnext line", `the service said \x1b[31mred\x1b[0m\nnext line`},
		{`quoted "name" kept`, `quoted "name" kept`},
		{`a \ and \"`, `a \\ and \\"`},
		{strings.Repeat("a", maxReasonRunes+3), strings.Repeat("a", maxReasonRunes) + "... (3 more characters)"},
	}
	for _, tt := range tests {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
