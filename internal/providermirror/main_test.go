package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/mod/sumdb/dirhash"
)

// TestRun writes two versions into one mirror, the second in two runs, and checks what
// Terraform reads: the packed zips' names and their one executable member, index.json listing
// both versions, each VERSION.json listing every platform written, with the h1 hash that the
// unpacked binary has (the hash a lock file records after `make install`).
func TestRun(t *testing.T) {
	work := t.TempDir()
	binary := filepath.Join(work, "provider")
	if err := os.WriteFile(binary, []byte("#!/bin/sh\necho provider\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	unpacked := filepath.Join(work, "unpacked")
	if err := os.MkdirAll(unpacked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(unpacked, "terraform-provider-eventnotify_v0.1.0"), []byte("#!/bin/sh\necho provider\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	wantHash, err := dirhash.HashDir(unpacked, "", dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}

	mirror := filepath.Join(work, "mirror")
	runs := [][]string{
		{"-version", "0.0.9", "linux_amd64=" + binary},
		{"-version", "0.1.0", "linux_amd64=" + binary},
		{"-version", "0.1.0", "windows_amd64=" + binary, "darwin_arm64=" + binary},
	}
	for _, args := range runs {
		args = append([]string{"-dir", mirror, "-host", "registry.terraform.io", "-host", "registry.opentofu.org"}, args...)
		var out bytes.Buffer
		if err := run(args, &out); err != nil {
			t.Fatalf("run(%q): %v", args, err)
		}
	}

	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		dir := filepath.Join(mirror, host, "eventnotify", "eventnotify")
		var index providerIndex
		if err := readJSON(filepath.Join(dir, "index.json"), &index); err != nil {
			t.Fatal(err)
		}
		if _, ok := index.Versions["0.0.9"]; !ok || len(index.Versions) != 2 {
			t.Errorf("%s index.json lists %v, want 0.0.9 and 0.1.0", host, index.Versions)
		}
		var versions versionIndex
		if err := readJSON(filepath.Join(dir, "0.1.0.json"), &versions); err != nil {
			t.Fatal(err)
		}
		tests := []struct{ platform, member string }{
			{"linux_amd64", "terraform-provider-eventnotify_v0.1.0"},
			{"darwin_arm64", "terraform-provider-eventnotify_v0.1.0"},
			{"windows_amd64", "terraform-provider-eventnotify_v0.1.0.exe"},
		}
		if len(versions.Archives) != len(tests) {
			t.Errorf("%s 0.1.0.json lists %d platforms, want %d: %v", host, len(versions.Archives), len(tests), versions.Archives)
		}
		for _, tc := range tests {
			name := "terraform-provider-eventnotify_0.1.0_" + tc.platform + ".zip"
			got := versions.Archives[tc.platform]
			if got.URL != name {
				t.Errorf("%s 0.1.0.json: %s url = %q, want %q", host, tc.platform, got.URL, name)
			}
			zr, err := zip.OpenReader(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			var members []string
			for _, f := range zr.File {
				members = append(members, f.Name)
				if f.Mode().Perm()&0o100 == 0 {
					t.Errorf("%s: %s is not executable (%v)", name, f.Name, f.Mode())
				}
			}
			_ = zr.Close()
			if !slices.Equal(members, []string{tc.member}) {
				t.Errorf("%s holds %v, want [%s]", name, members, tc.member)
			}
			if tc.platform == "linux_amd64" && !slices.Equal(got.Hashes, []string{wantHash}) {
				t.Errorf("%s 0.1.0.json: linux_amd64 hashes = %v, want the unpacked package's [%s]", host, got.Hashes, wantHash)
			}
		}
	}
}

// TestRunRefuses: a run that would write an unusable mirror fails before writing anything.
func TestRunRefuses(t *testing.T) {
	mirror := filepath.Join(t.TempDir(), "mirror")
	tests := []struct {
		name string
		args []string
	}{
		{"no platform", []string{"-dir", mirror, "-version", "0.1.0", "-host", "registry.terraform.io"}},
		{"no host", []string{"-dir", mirror, "-version", "0.1.0", "linux_amd64=x"}},
		{"no version", []string{"-dir", mirror, "-host", "registry.terraform.io", "linux_amd64=x"}},
		{"platform not OS_ARCH", []string{"-dir", mirror, "-version", "0.1.0", "-host", "h", "linux=x"}},
		{"binary missing", []string{"-dir", mirror, "-version", "0.1.0", "-host", "h", "linux_amd64=" + filepath.Join(mirror, "none")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := run(tc.args, new(bytes.Buffer)); err == nil {
				t.Errorf("run(%q) succeeded, want an error", tc.args)
			}
			if body, err := os.ReadFile(filepath.Join(mirror, "h", "eventnotify", "eventnotify", "0.1.0.json")); err == nil {
				var v versionIndex
				_ = json.Unmarshal(body, &v)
				t.Errorf("run(%q) wrote 0.1.0.json: %v", tc.args, v)
			}
		})
	}
}
