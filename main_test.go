package main

import (
	"bytes"
	"maps"
	"strings"
	"testing"
)

// TestQuietSDKLogs: the SDKs' loggers are turned off only when no TF_LOG* variable is set.
func TestQuietSDKLogs(t *testing.T) {
	tests := []struct {
		name    string
		environ []string
		want    map[string]string
	}{
		{"no TF_LOG variable", []string{"HOME=/root", "TF_ACC=1"},
			map[string]string{"TF_LOG_SDK": "OFF", "TF_LOG_SDK_PROTO": "OFF", "TF_LOG_SDK_FRAMEWORK": "OFF"}},
		{"TF_LOG", []string{"TF_LOG=TRACE"}, map[string]string{}},
		{"TF_LOG_PROVIDER", []string{"TF_LOG_PROVIDER=DEBUG"}, map[string]string{}},
		{"TF_LOG_SDK_FRAMEWORK", []string{"TF_LOG_SDK_FRAMEWORK=TRACE"}, map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]string{}
			quietSDKLogs(tc.environ, func(k, v string) error { got[k] = v; return nil })
			if !maps.Equal(got, tc.want) {
				t.Errorf("set %v, want %v", got, tc.want)
			}
		})
	}
}

// TestParseFlags: -version prints the provider's version (the VERSION file's, or the one a
// release build sets) on its first line and stops; -debug serves for a debugger; nothing else is accepted.
func TestParseFlags(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		setVersion string
		wantDebug  bool
		wantDone   bool
		wantErr    bool
		wantStdout string
	}{
		{name: "no flags"},
		{name: "debug", args: []string{"-debug"}, wantDebug: true},
		{name: "version from the VERSION file", args: []string{"-version"}, wantDone: true,
			wantStdout: "terraform-provider-eventnotify " + strings.TrimSpace(versionFile) + "\n"},
		{name: "version set by a release build", args: []string{"--version"}, setVersion: "0.1.0-SNAPSHOT-abc1234",
			wantDone: true, wantStdout: "terraform-provider-eventnotify 0.1.0-SNAPSHOT-abc1234\n"},
		{name: "unknown flag", args: []string{"-verbose"}, wantDone: true, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			saved := version
			version = tc.setVersion
			t.Cleanup(func() { version = saved })
			var stdout, stderr bytes.Buffer
			debug, done, err := parseFlags(tc.args, &stdout, &stderr)
			if debug != tc.wantDebug || done != tc.wantDone || (err != nil) != tc.wantErr {
				t.Errorf("parseFlags(%q) = debug %v, done %v, err %v; want debug %v, done %v, error %v",
					tc.args, debug, done, err, tc.wantDebug, tc.wantDone, tc.wantErr)
			}
			// -version's first line is the version; the lines after it (the executable's digests,
			// the Go release, the modules) are TestWriteVersionReport's.
			first, _, found := strings.Cut(stdout.String(), "\n")
			if found {
				first += "\n"
			}
			if first != tc.wantStdout {
				t.Errorf("parseFlags(%q) printed %q first, want %q", tc.args, first, tc.wantStdout)
			}
		})
	}
}
