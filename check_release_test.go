package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckRelease runs scripts/check-release.sh, what `make release-snapshot` runs after
// GoReleaser, on small dist folders: the layout of .goreleaser.yml passes, with or without
// SBOMs; an archive without LICENSE, SBOMs beside some archives only, or a version other than
// the VERSION file's, fails naming the problem.
func TestCheckRelease(t *testing.T) {
	v := strings.TrimSpace(versionFile)
	tests := []struct {
		name         string
		version      string
		providerZip  []string // members of the provider zip
		mockArchive  []string // members of the mock archive
		sboms        []string // archives (provider, mock) that have an SBOM beside them
		wantErrorMsg string   // empty: the check passes
	}{
		{name: "release layout", version: v,
			providerZip: []string{"terraform-provider-eventnotify_v" + v, "LICENSE", "README.md"},
			mockArchive: []string{"eventnotify-mock", "LICENSE", "mock-server.md"}},
		{name: "snapshot", version: v + "-SNAPSHOT-abc1234",
			providerZip: []string{"terraform-provider-eventnotify_v" + v + "-SNAPSHOT-abc1234", "LICENSE", "README.md"},
			mockArchive: []string{"eventnotify-mock", "LICENSE"}},
		{name: "provider zip without LICENSE", version: v,
			providerZip:  []string{"terraform-provider-eventnotify_v" + v, "README.md"},
			mockArchive:  []string{"eventnotify-mock", "LICENSE"},
			wantErrorMsg: "_linux_amd64.zip does not hold LICENSE"},
		{name: "mock archive without LICENSE", version: v,
			providerZip:  []string{"terraform-provider-eventnotify_v" + v, "LICENSE", "README.md"},
			mockArchive:  []string{"eventnotify-mock"},
			wantErrorMsg: "_linux_amd64.tar.gz does not hold LICENSE"},
		{name: "release layout with SBOMs", version: v,
			providerZip: []string{"terraform-provider-eventnotify_v" + v, "LICENSE", "README.md"},
			mockArchive: []string{"eventnotify-mock", "LICENSE"}, sboms: []string{"provider", "mock"}},
		{name: "the mock archive without its SBOM", version: v,
			providerZip: []string{"terraform-provider-eventnotify_v" + v, "LICENSE", "README.md"},
			mockArchive: []string{"eventnotify-mock", "LICENSE"}, sboms: []string{"provider"},
			wantErrorMsg: "_linux_amd64.tar.gz has no SBOM"},
		{name: "another version", version: "9.9.9",
			providerZip:  []string{"terraform-provider-eventnotify_v9.9.9", "LICENSE", "README.md"},
			mockArchive:  []string{"eventnotify-mock", "LICENSE"},
			wantErrorMsg: "the archives are of version 9.9.9, but the VERSION file holds " + v},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dist := t.TempDir()
			provider := fmt.Sprintf("terraform-provider-eventnotify_%s_linux_amd64.zip", tc.version)
			writeTestZip(t, filepath.Join(dist, provider), tc.providerZip)
			mock := fmt.Sprintf("eventnotify-mock_%s_linux_amd64.tar.gz", tc.version)
			writeTestTarGz(t, filepath.Join(dist, mock), tc.mockArchive)
			for _, which := range tc.sboms {
				archive := map[string]string{"provider": provider, "mock": mock}[which]
				if err := os.WriteFile(filepath.Join(dist, archive+".sbom.json"), []byte(`{"spdxVersion":"SPDX-2.3"}`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			manifest, err := os.ReadFile("terraform-registry-manifest.json")
			if err != nil {
				t.Fatal(err)
			}
			sums := fmt.Sprintf("%s  %s\n%s  terraform-provider-eventnotify_%s_manifest.json\n",
				fileSum(t, filepath.Join(dist, provider)), provider, sum(manifest), tc.version)
			if err := os.WriteFile(filepath.Join(dist, "terraform-provider-eventnotify_"+tc.version+"_SHA256SUMS"), []byte(sums), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("bash", "scripts/check-release.sh", dist).CombinedOutput()
			switch {
			case tc.wantErrorMsg == "" && err != nil:
				t.Errorf("check-release.sh failed: %v\n%s", err, out)
			case tc.wantErrorMsg != "" && err == nil:
				t.Errorf("check-release.sh passed, want it to fail with %q:\n%s", tc.wantErrorMsg, out)
			case tc.wantErrorMsg != "" && !strings.Contains(string(out), tc.wantErrorMsg):
				t.Errorf("check-release.sh said %q, want %q", out, tc.wantErrorMsg)
			}
		})
	}
}

func writeTestZip(t *testing.T, path string, members []string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, m := range members {
		w, err := zw.Create(m)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(m))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeTestTarGz(t *testing.T, path string, members []string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, m := range members {
		if err := tw.WriteHeader(&tar.Header{Name: m, Mode: 0o755, Size: int64(len(m))}); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write([]byte(m))
	}
	for _, c := range []interface{ Close() error }{tw, gz, f} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func fileSum(t *testing.T, path string) string {
	t.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sum(body)
}

func sum(body []byte) string {
	s := sha256.Sum256(body)
	return hex.EncodeToString(s[:])
}
