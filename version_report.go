package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/mod/sumdb/dirhash"
)

// buildSources are where a version report comes from: the running executable's path
// (os.Executable) and the build information Go records in it (debug.ReadBuildInfo).
type buildSources struct {
	executable     func() (string, error)
	readBuildInfo  func() (*debug.BuildInfo, bool)
	providerName   string
	currentVersion string
}

// runningBuild are the sources of the running provider.
func runningBuild() buildSources {
	return buildSources{
		executable:     os.Executable,
		readBuildInfo:  debug.ReadBuildInfo,
		providerName:   "terraform-provider-eventnotify",
		currentVersion: providerVersion(),
	}
}

// writeVersionReport prints what -version says. Builds are reproducible (-trimpath,
// -buildvcs=false: no commit, time or path is stamped in), so two builds of the same code
// with the same Go release are the same bytes, and what tells builds apart is a digest of
// those bytes:
//
//	terraform-provider-eventnotify 0.1.0
//	executable: /home/me/.terraform.d/plugins/.../terraform-provider-eventnotify_v0.1.0
//	sha256: 3b33d3ca...  (the figure sha256sum prints for the executable)
//	lock file hash: h1:...  (what .terraform.lock.hcl records for a package holding this file alone)
//	go: go1.26.8 linux/amd64
//	build: -trimpath=true CGO_ENABLED=0 ...
//	module: github.com/hashicorp/terraform-plugin-framework v1.19.0
//
// The first line is the same as before; an executable that cannot be read, or a build with
// no build information, says so on its line instead of failing.
func writeVersionReport(w io.Writer, src buildSources) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", src.providerName, src.currentVersion)
	exe, err := src.executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(&b, "sha256: unknown (the executable's path: %v)\n", err)
	} else {
		fmt.Fprintf(&b, "executable: %s\n", exe)
		sum, h1, err := executableHashes(exe)
		if err != nil {
			fmt.Fprintf(&b, "sha256: unknown (%v)\n", err)
		} else {
			fmt.Fprintf(&b, "sha256: %s  (the figure sha256sum prints for the executable)\n", sum)
			fmt.Fprintf(&b, "lock file hash: %s  (the h1: .terraform.lock.hcl records for this file alone under its name, as make install and make mirror package it; a release zip also holds LICENSE and README.md)\n", h1)
		}
	}
	info, ok := src.readBuildInfo()
	if !ok {
		b.WriteString("go: unknown (the executable holds no build information)\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "go: %s %s/%s\n", info.GoVersion, runtime.GOOS, runtime.GOARCH)
	var settings []string
	for _, s := range info.Settings {
		// vcs, vcs.revision, vcs.time, vcs.modified: a commit, its time and the tree's state,
		// which this repository's builds leave out (-buildvcs=false) and -version never shows:
		// the sha256 above tells builds apart.
		if s.Key == "vcs" || strings.HasPrefix(s.Key, "vcs.") {
			continue
		}
		settings = append(settings, s.Key+"="+s.Value)
	}
	if len(settings) > 0 {
		fmt.Fprintf(&b, "build: %s\n", strings.Join(settings, " "))
	}
	for _, m := range info.Deps {
		if m.Replace != nil {
			m = m.Replace
		}
		fmt.Fprintf(&b, "module: %s %s\n", m.Path, m.Version)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// executableHashes returns the sha256 of the file at path in hex (what sha256sum prints) and
// the h1: hash that Terraform and OpenTofu record in a lock file for a provider package holding
// that file alone under its base name (dirhash.Hash1, the same for the unpacked folder and
// for a zip of it).
func executableHashes(path string) (sum, h1 string, err error) {
	// The path is the running executable's own (os.Executable), not input.
	path = filepath.Clean(path)
	f, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", "", err
	}
	h1, err = dirhash.Hash1([]string{filepath.Base(path)}, func(string) (io.ReadCloser, error) { return os.Open(path) })
	if err != nil {
		return "", "", err
	}
	return hex.EncodeToString(h.Sum(nil)), h1, nil
}
