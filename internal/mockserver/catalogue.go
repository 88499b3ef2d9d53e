package mockserver

import "net/http"

// CatalogueEntry is one record of a catalogue (events, log levels,
// destination types).
type CatalogueEntry struct{ Name, Description string }

// catalogueKind selects one of the three catalogues.
type catalogueKind int

const (
	catalogueEvents catalogueKind = iota
	catalogueLogLevels
	catalogueDestinationTypes
)

// member is the wrapper member name of the catalogue in the wrapped shapes.
func (k catalogueKind) member() string {
	switch k {
	case catalogueLogLevels:
		return "logLevels"
	case catalogueDestinationTypes:
		return "destinationTypes"
	}
	return "events"
}

func defaultEvents() []CatalogueEntry {
	return []CatalogueEntry{
		{Name: "ATOM.STATUS", Description: "A runtime changed status (online, offline, restarting)"},
		{Name: "ATOM.DEPLOYMENT", Description: "A packaged component was deployed to or undeployed from a runtime"},
		{Name: "PROCESS.EXECUTION", Description: "A process execution completed, failed or was cancelled"},
		{Name: "ENVIRONMENT.ALERT", Description: "An alert was raised for an environment"},
	}
}

func defaultLogLevels() []CatalogueEntry {
	return []CatalogueEntry{
		{Name: "INFO", Description: "Informational events, warnings and errors"},
		{Name: "WARNING", Description: "Warnings and errors"},
		{Name: "ERROR", Description: "Errors only"},
	}
}

func defaultDestinationTypes() []CatalogueEntry {
	return []CatalogueEntry{
		{Name: "EVENT_STREAMS", Description: "Publish notifications to an event streams topic"},
		{Name: "EMAIL", Description: "Send notifications by email (not currently supported)"},
	}
}

// SetEvents replaces the events catalogue (listEvents).
func (s *Server) SetEvents(entries []CatalogueEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append([]CatalogueEntry{}, entries...)
}

// SetLogLevels replaces the log levels catalogue (getLogLevels).
func (s *Server) SetLogLevels(entries []CatalogueEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.logLevels = append([]CatalogueEntry{}, entries...)
}

// SetDestinationTypes replaces the destination types catalogue (getDestinationTypes).
func (s *Server) SetDestinationTypes(entries []CatalogueEntry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.destTypes = append([]CatalogueEntry{}, entries...)
}

// catalogueHandler serves getLogLevels, listEvents and getDestinationTypes in the configured shape.
func (s *Server) catalogueHandler(kind catalogueKind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, _ call) {
		s.mu.Lock()
		shape := s.catalogueShape
		var entries []CatalogueEntry
		switch kind {
		case catalogueEvents:
			entries = append(entries, s.events...)
		case catalogueLogLevels:
			entries = append(entries, s.logLevels...)
		case catalogueDestinationTypes:
			entries = append(entries, s.destTypes...)
		}
		s.mu.Unlock()
		writeJSON(w, r, http.StatusOK, catalogueBody(kind, shape, entries))
	}
}

// catalogueBody builds the body of a catalogue in shape. Empty catalogues
// are empty arrays, never null.
func catalogueBody(kind catalogueKind, shape CatalogueShape, entries []CatalogueEntry) any {
	names := make([]string, len(entries))
	objects := make([]any, len(entries))
	for i, e := range entries {
		names[i] = e.Name
		if shape == CatalogueEventNameKey && kind == catalogueEvents {
			objects[i] = eventNameRecord{EventName: e.Name, Description: e.Description}
		} else {
			objects[i] = catalogueRecord(e)
		}
	}
	switch shape {
	case CatalogueArrayObjects:
		return objects
	case CatalogueArrayStrings:
		return names
	case CatalogueWrappedStrings:
		return map[string]any{kind.member(): names}
	}
	return map[string]any{kind.member(): objects}
}
