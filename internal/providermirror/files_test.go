package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunPlantedLinks: a symbolic link planted at a name the mirror writes is never written
// through. One at a zip's name is replaced by the zip, a regular file; one at index.json or
// VERSION.json, which the mirror reads to merge, is refused, naming the file. The links' targets
// are untouched either way.
func TestRunPlantedLinks(t *testing.T) {
	tests := []struct {
		name     string
		planted  string // the file name the link is planted at
		dangling bool   // the link's target does not exist
		wantErr  string // "" when the run succeeds
	}{
		{name: "zip", planted: "terraform-provider-eventnotify_0.1.0_linux_amd64.zip"},
		{name: "index.json", planted: "index.json", wantErr: "index.json is not a regular file"},
		{name: "index.json, dangling", planted: "index.json", dangling: true, wantErr: "index.json is not a regular file"},
		{name: "VERSION.json", planted: "0.1.0.json", wantErr: "0.1.0.json is not a regular file"},
		{name: "VERSION.json, dangling", planted: "0.1.0.json", dangling: true, wantErr: "0.1.0.json is not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			work := t.TempDir()
			binary := filepath.Join(work, "provider")
			if err := os.WriteFile(binary, []byte("#!/bin/sh\necho provider\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(work, "target")
			const targetBody = "{}\n" // JSON, which a mirror that reads through the link would merge
			if !tt.dangling {
				if err := os.WriteFile(target, []byte(targetBody), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			dir := filepath.Join(work, "mirror", "registry.terraform.io", "eventnotify", "eventnotify")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, tt.planted)
			if err := os.Symlink(target, link); err != nil {
				t.Skipf("symbolic links: %v", err)
			}
			err := run([]string{"-dir", filepath.Join(work, "mirror"), "-host", "registry.terraform.io", "-version", "0.1.0", "linux_amd64=" + binary}, new(bytes.Buffer))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("run: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("run: %v, want an error containing %q", err, tt.wantErr)
			}
			switch body, err := os.ReadFile(target); {
			case tt.dangling && !errors.Is(err, fs.ErrNotExist):
				t.Errorf("the dangling link's target was written: %q (%v)", body, err)
			case !tt.dangling && (err != nil || string(body) != targetBody):
				t.Errorf("the link's target holds %q (%v), want it untouched", body, err)
			}
			info, err := os.Lstat(link)
			if err != nil {
				t.Fatal(err)
			}
			if wantRegular := tt.wantErr == ""; info.Mode().IsRegular() != wantRegular {
				t.Errorf("%s: mode %v, want a regular file %v", tt.planted, info.Mode(), wantRegular)
			}
		})
	}
}
