package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// CatalogueEntry is one record of a catalogue: an event, a log level or a destination type.
type CatalogueEntry struct {
	// Name identifies the record.
	Name string
	// Description is optional.
	Description string
}

// catalogue describes one of the catalogue operations and how to read its records.
type catalogue struct {
	operation string
	path      string
	nameKeys  []string // object members that may carry a record's name, in order
	listKeys  []string // preferred wrapper members when a wrapper has several arrays
}

var (
	logLevelsCatalogue = catalogue{
		operation: "list log levels",
		path:      "/rest/v1/log-levels",
		nameKeys:  []string{"name", "logLevel"},
		listKeys:  []string{"logLevels", "levels"},
	}
	eventsCatalogue = catalogue{
		operation: "list events",
		path:      "/rest/v1/events",
		nameKeys:  []string{"name", "eventName"},
		listKeys:  []string{"events", "eventNames"},
	}
	destinationTypesCatalogue = catalogue{
		operation: "list destination types",
		path:      "/rest/v1/destination-types",
		nameKeys:  []string{"name", "destinationType"},
		listKeys:  []string{"destinationTypes", "types"},
	}
)

// commonListKeys are wrapper members tried after a catalogue's own.
var commonListKeys = []string{"items", "data", "content", "results", "values"}

// ListLogLevels returns the log level catalogue (getLogLevels).
func (c *Client) ListLogLevels(ctx context.Context) ([]CatalogueEntry, error) {
	return c.listCatalogue(ctx, logLevelsCatalogue)
}

// ListEvents returns the events that can be subscribed to (listEvents).
func (c *Client) ListEvents(ctx context.Context) ([]CatalogueEntry, error) {
	return c.listCatalogue(ctx, eventsCatalogue)
}

// ListDestinationTypes returns the destination type catalogue (getDestinationTypes).
func (c *Client) ListDestinationTypes(ctx context.Context) ([]CatalogueEntry, error) {
	return c.listCatalogue(ctx, destinationTypesCatalogue)
}

// listCatalogue calls a catalogue operation with the default account's JWT. An empty
// catalogue is an empty slice.
func (c *Client) listCatalogue(ctx context.Context, cat catalogue) ([]CatalogueEntry, error) {
	accountID := c.cfg.AccountID
	if accountID == "" && c.cfg.JWT == "" {
		return nil, fmt.Errorf("%s: %w", cat.operation, httpapi.ErrNoAccount)
	}
	resp, err := c.call(ctx, httpapi.Call{
		Operation: cat.operation,
		Method:    http.MethodGet,
		AccountID: accountID,
		Path:      cat.path,
	})
	if err != nil {
		return nil, err
	}
	entries, err := decodeCatalogue(resp.Body, cat)
	if err != nil {
		return nil, httpapi.MalformedResponse(cat.operation, err)
	}
	return entries, nil
}

// decodeCatalogue reads a catalogue tolerantly: a top-level array, or an object whose array
// member holds the records (one level of nesting is searched too); records are strings or
// objects with a name and an optional description.
func decodeCatalogue(body []byte, cat catalogue) ([]CatalogueEntry, error) {
	data := bytes.TrimSpace(body)
	if len(data) == 0 || string(data) == "null" {
		return []CatalogueEntry{}, nil
	}
	records, err := findRecords(data, cat, 0)
	if err != nil {
		return nil, err
	}
	entries := make([]CatalogueEntry, 0, len(records))
	for i, raw := range records {
		e, err := decodeRecord(raw, cat.nameKeys)
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		if err := checkCatalogueText(i, &e); err != nil {
			return nil, err
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// errNoRecords is returned for an object that holds no array of records.
var errNoRecords = errors.New("the response holds no list of records")

// findRecords returns the array of records in data.
func findRecords(data []byte, cat catalogue, depth int) ([]json.RawMessage, error) {
	switch data[0] {
	case '[':
		var records []json.RawMessage
		if err := json.Unmarshal(data, &records); err != nil {
			return nil, err
		}
		return records, nil
	case '{':
	default:
		return nil, errNoRecords
	}
	members, err := objectMembers(data)
	if err != nil {
		return nil, err
	}
	var arrays, objects []member
	allNull := true
	for _, m := range members {
		switch {
		case len(m.value) == 0 || string(m.value) == "null":
			continue
		case m.value[0] == '[':
			arrays = append(arrays, m)
		case m.value[0] == '{':
			objects = append(objects, m)
		}
		allNull = false
	}
	if len(arrays) == 1 {
		return findRecords(arrays[0].value, cat, depth)
	}
	if len(arrays) > 1 {
		for _, key := range append(append([]string{}, cat.listKeys...), commonListKeys...) {
			for _, m := range arrays {
				if m.key == key {
					return findRecords(m.value, cat, depth)
				}
			}
		}
		return findRecords(arrays[0].value, cat, depth)
	}
	if depth < 1 {
		for _, m := range objects {
			if records, err := findRecords(m.value, cat, depth+1); err == nil {
				return records, nil
			}
		}
	}
	if allNull {
		// {} or {"events": null}: an empty catalogue.
		return nil, nil
	}
	return nil, errNoRecords
}

// member is one member of a JSON object, in document order.
type member struct {
	key   string
	value json.RawMessage
}

// objectMembers lists an object's members in document order.
func objectMembers(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected object key %v", tok)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{key: key, value: bytes.TrimSpace(v)})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON object")
	}
	return out, nil
}

// decodeRecord reads one record: a string, or an object with a name member and an optional
// description.
func decodeRecord(raw json.RawMessage, nameKeys []string) (CatalogueEntry, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return CatalogueEntry{}, errors.New("empty record")
	}
	switch raw[0] {
	case '"':
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return CatalogueEntry{}, err
		}
		if name == "" {
			return CatalogueEntry{}, errors.New("empty name")
		}
		return CatalogueEntry{Name: name}, nil
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return CatalogueEntry{}, err
		}
		var e CatalogueEntry
		for _, key := range nameKeys {
			if v, ok := obj[key]; ok && json.Unmarshal(v, &e.Name) == nil && e.Name != "" {
				break
			}
			e.Name = ""
		}
		if e.Name == "" {
			return CatalogueEntry{}, fmt.Errorf("the record has no name (looked for %q)", nameKeys)
		}
		if v, ok := obj["description"]; ok {
			var d string
			if json.Unmarshal(v, &d) == nil {
				e.Description = d
			}
		}
		return e, nil
	}
	return CatalogueEntry{}, fmt.Errorf("the record is neither a string nor an object: %s", httpapi.ServiceTextBytes(raw, 100))
}
