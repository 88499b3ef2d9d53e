package main

import (
	_ "embed"
	"strings"
)

// versionFile is the VERSION file at the repository's root: the one source of the provider's
// version, which the GNUmakefile, .goreleaser.yml's tag check and the docs' version pins agree
// with (TestVersionAgrees).
//
//go:embed VERSION
var versionFile string

// version is set by release builds (-ldflags "-X main.version=0.1.0-SNAPSHOT-abc1234"); empty,
// the VERSION file's version is the provider's.
var version string

// providerVersion is the version the provider reports to Terraform and to -version.
func providerVersion() string {
	if version != "" {
		return version
	}
	return strings.TrimSpace(versionFile)
}
