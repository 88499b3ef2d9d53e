package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// catalogue is one of operations 10-12: its path and the wrapper member the description implies.
type catalogue struct {
	name, path, member string
}

// catalogues are operations 11, 10 and 12.
var catalogues = []catalogue{
	{"events", "/events", "events"},
	{"logLevels", "/log-levels", "logLevels"},
	{"destinationTypes", "/destination-types", "destinationTypes"},
}

// catalogueBody is what one catalogue's body shows.
type catalogueBody struct {
	shape  string   // "objects", "strings", "toplevel", or "" when it cannot tell
	fields []string // the record members seen (objects)
	names  []string // the records' names (name or eventName members, or the strings)
	why    string   // why shape is "", or how it was read
}

// classifyCatalogue reads a catalogue's body: a wrapper (member, or its only array member) of
// records with a name ("objects") or of bare strings ("strings"), or an array at the top level
// ("toplevel").
func classifyCatalogue(body []byte, member string) catalogueBody {
	var top any
	if json.Unmarshal(body, &top) != nil {
		return catalogueBody{why: "the body is not JSON"}
	}
	var elems []any
	shape := ""
	switch t := top.(type) {
	case []any:
		elems, shape = t, "toplevel"
	case map[string]any:
		arr, ok := t[member].([]any)
		if !ok {
			var arrays []string
			for k, v := range t {
				if a, isArray := v.([]any); isArray {
					arrays, arr = append(arrays, k), a
				}
			}
			if len(arrays) != 1 {
				return catalogueBody{why: fmt.Sprintf("the object has no %q array member", member)}
			}
		}
		elems = arr
	default:
		return catalogueBody{why: "the body is neither an object nor an array"}
	}
	if len(elems) == 0 {
		if shape == "toplevel" {
			return catalogueBody{shape: shape, why: "an empty array"}
		}
		return catalogueBody{why: "the catalogue is empty, so its records' shape does not show"}
	}
	seen := map[string]bool{}
	cb := catalogueBody{shape: shape}
	strs, objs := 0, 0
	for _, e := range elems {
		switch v := e.(type) {
		case string:
			strs++
			cb.names = append(cb.names, v)
		case map[string]any:
			objs++
			for k := range v {
				seen[k] = true
			}
			for _, k := range []string{"name", "eventName"} {
				if s, ok := v[k].(string); ok && s != "" {
					cb.names = append(cb.names, s)
					break
				}
			}
		}
	}
	for k := range seen {
		cb.fields = append(cb.fields, k)
	}
	sort.Strings(cb.fields)
	switch {
	case strs == len(elems) && shape == "":
		cb.shape = "strings"
	case objs == len(elems) && shape == "":
		cb.shape = "objects"
	case strs != len(elems) && objs != len(elems):
		return catalogueBody{why: "its records are of mixed kinds"}
	}
	return cb
}

// catalogues reads operations 10-12 (catalogShape, catalogFields) and keeps an event name for
// the probe's own subscriptions.
func (p *prober) catalogues(ctx context.Context) {
	shapes := map[string]string{}
	fields := map[string][]string{}
	var notes, problems []string
	for _, c := range catalogues {
		a, err := p.service(ctx, http.MethodGet, c.path, nil, nil)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", c.name, err))
			continue
		}
		if a.status != http.StatusOK {
			problems = append(problems, fmt.Sprintf("%s: the service answered %d", c.name, a.status))
			continue
		}
		cb := classifyCatalogue(a.body, c.member)
		if cb.shape == "" {
			problems = append(problems, c.name+": "+cb.why)
			continue
		}
		shapes[c.name] = cb.shape
		fields[c.name] = append([]string{}, cb.fields...)
		notes = append(notes, c.name+" "+cb.shape)
		if c.name == "events" && len(cb.names) > 0 {
			p.eventName = cb.names[0]
		}
	}
	if len(fields) > 0 {
		p.f.set(CatalogFields, fields, "the members of each catalogue's records (none for bare strings)")
	} else {
		p.f.unknown(CatalogFields, "no catalogue could be read")
	}
	if len(problems) > 0 {
		p.f.unknown(CatalogShape, "%s", strings.Join(problems, "; "))
		return
	}
	shape := shapes["events"]
	for _, c := range catalogues {
		if shapes[c.name] != shape {
			p.f.unknown(CatalogShape, "the catalogues differ: %s", strings.Join(notes, ", "))
			return
		}
	}
	p.f.set(CatalogShape, shape, "all three catalogues (operations 10-12) answered %s", map[string]string{
		"objects":  "a wrapper of records",
		"strings":  "a wrapper of bare strings",
		"toplevel": "an array at the top level",
	}[shape])
}
