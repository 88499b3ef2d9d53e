package mockserver

// A profile names the shapes and limits that the service's description leaves out, as
// eventnotify-probe observed them on a service (docs/guides/mock-server.md, "Replaying a real service: profiles"). The
// mock reads it from that definition, not from the probe: ParseProfile takes the JSON the
// probe writes, ApplyProfile serves with it.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// profileUnknown is the value of a member that the probe could not observe: the mock keeps its
// default for it.
const profileUnknown = "unknown"

// Profile is a parsed profile. The zero value of each field keeps the mock's default.
type Profile struct {
	// JWTShape is the JWT endpoint's body (jwtBody, with jwtMember for "object"); nil keeps the default.
	JWTShape *JWTShape
	// SingleShape is one subscription's answer (singleShape); nil keeps the default.
	SingleShape *SingleShape
	// EmptyList is operation 1's status for an empty account (emptyList): 204, 404 or 200; 0 keeps the default.
	EmptyList int
	// CatalogueShape is the catalogues' body (catalogShape); nil keeps the default.
	CatalogueShape *CatalogueShape
	// DefaultPageSize is how many subscriptions a page lists without pageSize; 0 keeps the default.
	DefaultPageSize int
	// MaxPageSize is the most that one page lists; 0 keeps the default.
	MaxPageSize int
	// BulkUpdateRefused tells that every bulk update is refused as a whole (bulkUpdate "reject").
	BulkUpdateRefused bool
	// NoDateHeader tells that answers carry no Date header (dateHeader false).
	NoDateHeader bool
	// SortBy lists the only sortBy values the listing accepts (sortBy); nil accepts every
	// Subscription member.
	SortBy []string
}

// ParseProfile reads a profile: a JSON object of the members of the mock guide's profile table (docs/guides/mock-server.md) (jwtBody,
// singleShape, emptyList, catalogShape, defaultPageSize, maxPageSize, bulkUpdate, dateHeader),
// with jwtMember and sortBy. A member that is absent, null or "unknown" keeps the default;
// members it does not know are ignored; a bad value is an error that names the member.
func ParseProfile(data []byte) (Profile, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return Profile{}, fmt.Errorf("the profile is not a JSON object: %w", err)
	}
	given := func(name string) (json.RawMessage, bool) {
		raw, ok := members[name]
		if !ok {
			return nil, false
		}
		raw = bytes.TrimSpace(raw)
		if string(raw) == "null" || string(raw) == `"`+profileUnknown+`"` {
			return nil, false
		}
		return raw, true
	}
	var p Profile
	var errs []error
	bad := func(name string, raw json.RawMessage, want string) {
		errs = append(errs, fmt.Errorf("profile member %q: %s is not %s", name, raw, want))
	}
	oneOf := func(name string, values ...string) (string, bool) {
		raw, ok := given(name)
		if !ok {
			return "", false
		}
		var s string
		if json.Unmarshal(raw, &s) != nil || !slices.Contains(values, s) {
			bad(name, raw, quoteList(values))
			return "", false
		}
		return s, true
	}
	positive := func(name string) int {
		raw, ok := given(name)
		if !ok {
			return 0
		}
		var n int32
		if json.Unmarshal(raw, &n) != nil || n < 1 {
			bad(name, raw, "a positive integer")
			return 0
		}
		return int(n)
	}

	member, _ := oneOf("jwtMember", "token", "jwt", "access_token", "accessToken")
	if v, ok := oneOf("jwtBody", "text", "string", "object"); ok {
		shape := map[string]JWTShape{"text": JWTPlainText, "string": JWTJSONString, "object": JWTObjectToken}[v]
		if v == "object" {
			shape = map[string]JWTShape{"": JWTObjectToken, "token": JWTObjectToken, "jwt": JWTObjectJWT, "access_token": JWTObjectAccessToken,
				"accessToken": JWTObjectAccessTokenCamel}[member]
		}
		p.JWTShape = &shape
	}
	if v, ok := oneOf("singleShape", "flat", "wrapped"); ok {
		shape := map[string]SingleShape{"flat": SingleFlat, "wrapped": SingleWrapped}[v]
		p.SingleShape = &shape
	}
	if raw, ok := given("emptyList"); ok {
		var n int
		if json.Unmarshal(raw, &n) != nil || (n != http.StatusNoContent && n != http.StatusNotFound && n != http.StatusOK) {
			bad("emptyList", raw, "204, 404 or 200")
		} else {
			p.EmptyList = n
		}
	}
	if v, ok := oneOf("catalogShape", "objects", "strings", "toplevel"); ok {
		shape := map[string]CatalogueShape{"objects": CatalogueWrappedObjects, "strings": CatalogueWrappedStrings, "toplevel": CatalogueArrayObjects}[v]
		// catalogFields tells the records apart: an array at the top level of bare strings (no
		// members), or event records named by eventName rather than name.
		if fields, known := catalogueFields(given, "events", &errs); known {
			switch {
			case v == "toplevel" && len(fields) == 0:
				shape = CatalogueArrayStrings
			case v == "objects" && slices.Contains(fields, "eventName") && !slices.Contains(fields, "name"):
				shape = CatalogueEventNameKey
			}
		}
		p.CatalogueShape = &shape
	}
	p.DefaultPageSize, p.MaxPageSize = positive("defaultPageSize"), positive("maxPageSize")
	if p.DefaultPageSize > 0 && p.MaxPageSize > 0 && p.DefaultPageSize > p.MaxPageSize {
		errs = append(errs, fmt.Errorf("profile members \"defaultPageSize\" (%d) and \"maxPageSize\" (%d): the default page is larger than the largest", p.DefaultPageSize, p.MaxPageSize))
	}
	if v, ok := oneOf("bulkUpdate", "items", "reject"); ok {
		p.BulkUpdateRefused = v == "reject"
	}
	if raw, ok := given("dateHeader"); ok {
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			bad("dateHeader", raw, "true or false")
		} else {
			p.NoDateHeader = !b
		}
	}
	if raw, ok := given("sortBy"); ok {
		known := sortFields()
		var names []string
		if json.Unmarshal(raw, &names) != nil {
			bad("sortBy", raw, "an array of Subscription field names")
		} else {
			p.SortBy = []string{}
			for _, n := range names {
				if !slices.Contains(known, n) {
					errs = append(errs, fmt.Errorf("profile member \"sortBy\": %q is not a Subscription field (%s)", n, strings.Join(known, ", ")))
					continue
				}
				p.SortBy = append(p.SortBy, n)
			}
		}
	}
	return p, errors.Join(errs...)
}

// catalogueFields is the member names that catalogFields gives for the catalogue's records, and
// whether it gives them ([] or null for bare strings); a value of another shape is an error.
func catalogueFields(given func(string) (json.RawMessage, bool), catalogue string, errs *[]error) ([]string, bool) {
	raw, ok := given("catalogFields")
	if !ok {
		return nil, false
	}
	var byCatalogue map[string]*[]string
	if json.Unmarshal(raw, &byCatalogue) != nil {
		*errs = append(*errs, fmt.Errorf("profile member \"catalogFields\": %s is not an object of arrays of member names", raw))
		return nil, false
	}
	fields, ok := byCatalogue[catalogue]
	if !ok {
		return nil, false
	}
	if fields == nil {
		return nil, true
	}
	return *fields, true
}

// quoteList is values as a sentence of quoted strings: "a", "b" or "c".
func quoteList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = `"` + v + `"`
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// ApplyProfile makes the server serve with every member p gives; the others keep their
// current settings. A default page size larger than the largest page raises the largest to it.
func (s *Server) ApplyProfile(p Profile) {
	if p.JWTShape != nil {
		s.SetJWTShape(*p.JWTShape)
	}
	if p.SingleShape != nil {
		s.SetSingleShape(*p.SingleShape)
	}
	if p.EmptyList != 0 {
		s.SetEmptyListStatus(p.EmptyList)
	}
	if p.CatalogueShape != nil {
		s.SetCatalogueShape(*p.CatalogueShape)
	}
	if p.BulkUpdateRefused {
		s.SetBulkUpdateRefused(true)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.MaxPageSize > 0 {
		s.maxPageSize = p.MaxPageSize
	}
	if p.DefaultPageSize > 0 {
		s.defaultPageSize = p.DefaultPageSize
		s.maxPageSize = max(s.maxPageSize, p.DefaultPageSize)
	}
	s.defaultPageSize = min(s.defaultPageSize, s.maxPageSize)
	if p.NoDateHeader {
		s.noDateHeader = true
	}
	if p.SortBy != nil {
		s.sortBy = slices.Clone(p.SortBy)
	}
}

// sortByAccepted reports whether the listing accepts sortBy value name, and the accepted
// values for the message that refuses it.
func (s *Server) sortByAccepted(name string) (bool, []string) {
	s.mu.Lock()
	accepted := s.sortBy
	s.mu.Unlock()
	if accepted == nil {
		_, ok := sortComparator(name)
		return ok, sortFields()
	}
	return slices.Contains(accepted, name), accepted
}

// sendsDate reports whether answers carry a Date header.
func (s *Server) sendsDate() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.noDateHeader
}
