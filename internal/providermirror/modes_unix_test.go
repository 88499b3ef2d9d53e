//go:build unix

package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRunModes: under a umask of 077 the mirror's folders are 0755 and its files 0644, so that a
// mirror served by another user can be read. Not parallel: the umask is the process's.
func TestRunModes(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o077))
	work := t.TempDir()
	binary := filepath.Join(work, "provider")
	if err := os.WriteFile(binary, []byte("#!/bin/sh\necho provider\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	mirror := filepath.Join(work, "mirror")
	args := []string{"-dir", mirror, "-host", "registry.terraform.io", "-version", "0.1.0", "linux_amd64=" + binary, "darwin_arm64=" + binary}
	if err := run(args, new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	files := 0
	err := filepath.WalkDir(mirror, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o644)
		if d.IsDir() {
			want = fs.ModeDir | 0o755
		} else {
			files++
		}
		if info.Mode() != want {
			t.Errorf("%s: mode %v, want %v", path, info.Mode(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != 4 { // two zips, index.json, 0.1.0.json
		t.Errorf("the mirror holds %d files, want 4", files)
	}
}
