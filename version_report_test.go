package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestWriteVersionReport: -version prints the version first, then the executable's sha256 (what
// sha256sum prints) and the h1: hash a lock file records for a package holding that file alone,
// the Go release, the build settings without any vcs.* one, and the modules (a replacement's
// path and version where a module is replaced). A path or build information that cannot be read
// is said on its line, not an error.
func TestWriteVersionReport(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "terraform-provider-eventnotify_v0.1.0")
	body := []byte("not really a provider\n")
	if err := os.WriteFile(exe, body, 0o755); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	// h1: as Terraform computes it (dirhash.Hash1): the sha256 of "<sha256 hex>  <name>\n".
	summary := sha256.Sum256([]byte(fmt.Sprintf("%x  %s\n", sum, filepath.Base(exe))))
	wantH1 := "h1:" + base64.StdEncoding.EncodeToString(summary[:])
	info := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Settings: []debug.BuildSetting{
			{Key: "-trimpath", Value: "true"}, {Key: "CGO_ENABLED", Value: "0"},
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "bccef13bf16c54b67a575947faa5eb4ee57020f3"},
			{Key: "vcs.time", Value: "2026-12-02T07:34:05Z"}, {Key: "vcs.modified", Value: "false"},
		},
		Deps: []*debug.Module{
			{Path: "github.com/hashicorp/terraform-plugin-framework", Version: "v1.19.0"},
			{Path: "example.com/old", Version: "v1.0.0", Replace: &debug.Module{Path: "example.com/new", Version: "v1.0.1"}},
		},
	}
	found := func(path string) func() (string, error) { return func() (string, error) { return path, nil } }
	tests := []struct {
		name       string
		executable func() (string, error)
		info       *debug.BuildInfo
		want       []string
		notWant    []string
	}{
		{
			name: "a readable executable with build information", executable: found(exe), info: info,
			want: []string{
				"terraform-provider-eventnotify 0.1.0\n",
				"\nsha256: " + hex.EncodeToString(sum[:]) + "  (",
				"\nlock file hash: " + wantH1 + "  (",
				"\ngo: go1.26.8 ",
				"\nbuild: -trimpath=true CGO_ENABLED=0\n",
				"\nmodule: github.com/hashicorp/terraform-plugin-framework v1.19.0\n",
				"\nmodule: example.com/new v1.0.1\n",
			},
			notWant: []string{"vcs", "bccef13", "example.com/old"},
		},
		{
			name: "no executable path", executable: func() (string, error) { return "", errors.New("no /proc") }, info: info,
			want:    []string{"terraform-provider-eventnotify 0.1.0\n", "\nsha256: unknown (the executable's path: no /proc)\n", "\ngo: go1.26.8 "},
			notWant: []string{"lock file hash"},
		},
		{
			name: "an executable that is gone", executable: found(filepath.Join(t.TempDir(), "gone")), info: info,
			want:    []string{"\nsha256: unknown (", "\ngo: go1.26.8 "},
			notWant: []string{"lock file hash"},
		},
		{
			name: "no build information", executable: found(exe), info: nil,
			want:    []string{"\nsha256: " + hex.EncodeToString(sum[:]), "\ngo: unknown (the executable holds no build information)\n"},
			notWant: []string{"module:", "build:"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			err := writeVersionReport(&out, buildSources{
				executable:     tc.executable,
				readBuildInfo:  func() (*debug.BuildInfo, bool) { return tc.info, tc.info != nil },
				providerName:   "terraform-provider-eventnotify",
				currentVersion: "0.1.0",
			})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(out.String(), "terraform-provider-eventnotify 0.1.0\n") {
				t.Errorf("the report does not start with the version line:\n%s", out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("the report lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(out.String(), w) {
					t.Errorf("the report holds %q:\n%s", w, out.String())
				}
			}
		})
	}
}
