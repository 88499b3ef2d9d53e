package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestRoutingNotifiedAt holds the rule at every boundary: each minimum level against each fired
// level, event names differing only in case, disabled subscriptions, and invalid levels.
func TestRoutingNotifiedAt(t *testing.T) {
	t.Parallel()
	// want[minimum][fired]: a subscription hears its own level and every level above it.
	want := map[string]map[string]bool{
		"INFO":    {"INFO": true, "WARNING": true, "ERROR": true},
		"WARNING": {"INFO": false, "WARNING": true, "ERROR": true},
		"ERROR":   {"INFO": false, "WARNING": false, "ERROR": true},
	}
	type tc struct {
		name  string
		sub   routing
		event string
		level string
		want  bool
	}
	var tests []tc
	for _, minimum := range logLevels {
		for _, fired := range logLevels {
			tests = append(tests,
				tc{fmt.Sprintf("min %s fired %s", minimum, fired),
					routing{"PROCESS.EXECUTION", minimum, true}, "PROCESS.EXECUTION", fired, want[minimum][fired]},
				tc{fmt.Sprintf("disabled min %s fired %s", minimum, fired),
					routing{"PROCESS.EXECUTION", minimum, false}, "PROCESS.EXECUTION", fired, false},
				tc{fmt.Sprintf("other event min %s fired %s", minimum, fired),
					routing{"ATOM.STATUS", minimum, true}, "PROCESS.EXECUTION", fired, false},
			)
		}
	}
	tests = append(tests,
		tc{"event case differs", routing{"process.Execution", "INFO", true}, "PROCESS.EXECUTION", "INFO", true},
		tc{"fired event lower case", routing{"PROCESS.EXECUTION", "ERROR", true}, "process.execution", "ERROR", true},
		tc{"event prefix only", routing{"PROCESS.EXECUTION", "INFO", true}, "PROCESS", "ERROR", false},
		tc{"fired level lower case", routing{"PROCESS.EXECUTION", "INFO", true}, "PROCESS.EXECUTION", "error", false},
		tc{"fired level unknown", routing{"PROCESS.EXECUTION", "INFO", true}, "PROCESS.EXECUTION", "DEBUG", false},
		tc{"fired level empty", routing{"PROCESS.EXECUTION", "INFO", true}, "PROCESS.EXECUTION", "", false},
		tc{"minimum level unknown", routing{"PROCESS.EXECUTION", "DEBUG", true}, "PROCESS.EXECUTION", "ERROR", false},
		tc{"minimum level empty", routing{"PROCESS.EXECUTION", "", true}, "PROCESS.EXECUTION", "ERROR", false},
	)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.sub.notifiedAt(tt.event, tt.level); got != tt.want {
				t.Errorf("%+v notifiedAt(%q, %q) = %v, want %v", tt.sub, tt.event, tt.level, got, tt.want)
			}
		})
	}
}

// TestLevelsNotified holds the levels each minimum level hears, and the error for anything else.
func TestLevelsNotified(t *testing.T) {
	t.Parallel()
	tests := []struct {
		minimum string
		want    []string
		wantErr bool
	}{
		{"INFO", []string{"INFO", "WARNING", "ERROR"}, false},
		{"WARNING", []string{"WARNING", "ERROR"}, false},
		{"ERROR", []string{"ERROR"}, false},
		{"warning", nil, true},
		{"DEBUG", nil, true},
		{"", nil, true},
		{" ERROR", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.minimum, func(t *testing.T) {
			t.Parallel()
			got, err := levelsNotified(tt.minimum)
			if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
				t.Fatalf("levelsNotified(%q) = %v, %v; want %v, error %v", tt.minimum, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !strings.Contains(err.Error(), "INFO, WARNING, ERROR") {
				t.Errorf("the error %q does not name the levels", err)
			}
			// The two readings agree: a minimum hears exactly the levels it lists.
			for _, fired := range logLevels {
				hears := routing{"E", tt.minimum, true}.notifiedAt("E", fired)
				if hears != slices.Contains(got, fired) {
					t.Errorf("minimum %q fired %q: notifiedAt %v, levelsNotified %v", tt.minimum, fired, hears, got)
				}
			}
		})
	}
}
