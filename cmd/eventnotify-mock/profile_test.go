package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/probe"
)

// testPassword is the mock's password in the profile tests.
const testPassword = "profile-test-password"

// TestRunProfile: the mock started with -profile serves that profile: the probe's profile of
// it (with -write on an empty account, so that every member is observable) equals it.
func TestRunProfile(t *testing.T) {
	const profile = `{"jwtBody":"string","singleShape":"wrapped","emptyList":404,"catalogShape":"strings",
		"defaultPageSize":5,"maxPageSize":8,"bulkUpdate":"reject","dateHeader":false,"sortBy":["logLevel","createdDate"]}`
	file := filepath.Join(t.TempDir(), "profile.json")
	if err := os.WriteFile(file, []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	kv, stop := startMockOutput(t, "-listen", "127.0.0.1:0", "-password", testPassword, "-profile", file)
	f, err := probe.Run(t.Context(), probe.Config{
		BaseURL: kv["EVENTNOTIFY_BASE_URL"], AuthURL: kv["EVENTNOTIFY_AUTH_URL"], AccountID: kv["EVENTNOTIFY_ACCOUNT_ID"],
		Username: kv["EVENTNOTIFY_USERNAME"], Password: testPassword, Write: true, RequestsPerSecond: -1,
	})
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	got, err := f.Profile()
	if err != nil {
		t.Fatal(err)
	}
	diffs, err := probe.ProfileDiff([]byte(profile), got)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diffs {
		t.Error(d)
	}
	if note := stop(); !strings.Contains(note, "serving with the profile "+file) {
		t.Errorf("standard error does not name the profile: %q", note)
	}
}

// TestRunProfileRefused: a profile with a bad value is refused at start, naming the member.
func TestRunProfileRefused(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ name, content, want string }{
		{"bad value", `{"catalogShape":"xml"}`, `"catalogShape"`},
		{"not JSON", `catalogShape: xml`, "not a JSON object"},
		{"missing file", "", "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if tt.content != "" {
				if err := os.WriteFile(file, []byte(tt.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			var stdout strings.Builder
			err := run(t.Context(), []string{"-listen", "127.0.0.1:0", "-profile", file}, &stdout, io.Discard)
			if !errorsAsUsage(err) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want a usage error containing %s", err, tt.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("printed %q before failing", stdout.String())
			}
		})
	}
}

// errorsAsUsage reports whether err is a usageError.
func errorsAsUsage(err error) bool {
	return errors.As(err, new(usageError))
}
