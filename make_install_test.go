package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMakeInstall_plantedLinks runs `make install` into a PLUGIN_DIR where someone has planted
// links, under a umask of 077: at the temporary name an earlier install used
// (.terraform-provider-eventnotify_v<version>.tmp) under one host, at the binary's own name under
// the other. Neither link's target is written, each installed binary is a regular file of mode
// 0755 that runs, and the folders the install made are 0755.
func TestMakeInstall_plantedLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("make install's links and modes are checked on unix")
	}
	if testing.Short() {
		t.Skip("builds the provider with make install (-short)")
	}
	makePath, err := exec.LookPath("make")
	if err != nil {
		t.Fatalf("make is needed: %v", err)
	}
	versionFile, err := os.ReadFile("VERSION")
	if err != nil {
		t.Fatal(err)
	}
	v := strings.TrimSpace(string(versionFile))
	platform := runtime.GOOS + "_" + runtime.GOARCH
	work := t.TempDir()
	plugins := filepath.Join(work, "plugins")
	binDir := func(host string) string {
		return filepath.Join(plugins, host, "eventnotify", "eventnotify", v, platform)
	}
	binary := "terraform-provider-eventnotify_v" + v
	planted := []struct{ host, name, target string }{
		{"registry.terraform.io", "." + binary + ".tmp", filepath.Join(work, "target-tmp")},
		{"registry.opentofu.org", binary, filepath.Join(work, "target-binary")},
	}
	const targetBody = "someone else's file\n"
	for _, p := range planted {
		if err := os.MkdirAll(binDir(p.host), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p.target, []byte(targetBody), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(p.target, filepath.Join(binDir(p.host), p.name)); err != nil {
			t.Fatal(err)
		}
	}
	// The folders make install creates: a second PLUGIN_DIR holds nothing yet.
	fresh := filepath.Join(work, "fresh", "plugins")

	for _, dir := range []string{plugins, fresh} {
		cmd := exec.Command("bash", "-c", `umask 077 && exec "$0" --no-print-directory install PLUGIN_DIR="$1"`, makePath, dir)
		cmd.Env = append(os.Environ(), "GOBIN="+filepath.Join(work, "gobin"))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("make install PLUGIN_DIR=%s: %v\n%s", dir, err, out)
		}
	}

	for _, p := range planted {
		if body, err := os.ReadFile(p.target); err != nil || string(body) != targetBody {
			t.Errorf("the target of the link planted at %s/%s holds %d bytes (%v), want it untouched", p.host, p.name, len(body), err)
		}
	}
	for _, root := range []string{plugins, fresh} {
		for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
			path := filepath.Join(binDir(host), binary)
			if root == fresh {
				path = filepath.Join(fresh, host, "eventnotify", "eventnotify", v, platform, binary)
			}
			info, err := os.Lstat(path)
			if err != nil {
				t.Fatal(err)
			}
			if !info.Mode().IsRegular() || info.Mode().Perm() != 0o755 {
				t.Errorf("%s: mode %v, want a regular file of mode 0755", path, info.Mode())
			}
			out, err := exec.Command(path, "-version").Output()
			first, _, _ := strings.Cut(string(out), "\n")
			if want := "terraform-provider-eventnotify " + v; err != nil || first != want {
				t.Errorf("%s -version: first line %q (%v), want %q", path, first, err, want)
			}
		}
	}
	err = filepath.WalkDir(fresh, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v, want 0755", path, info.Mode())
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(plugins, "*", "eventnotify", "eventnotify", v, platform, "."+binary+".*")); len(leftovers) != 1 {
		t.Errorf("the plugin folders hold %q, want only the planted link (no staging folder left)", leftovers)
	}
}
