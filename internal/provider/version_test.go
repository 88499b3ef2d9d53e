package provider

import (
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/go-version"
)

// guideProviderVersion is the provider's version, from the VERSION file at the repository's
// root (the one source of it): the version under which the tests' filesystem mirrors offer the
// built provider, as `make install` does.
var guideProviderVersion = projectVersion("../../VERSION")

// compatibleVersions is the version constraint that the compatibility policy of the provider
// page (templates/index.md.tmpl, "Versions and compatibility") asks users to write: a 0.x
// minor release may break configurations, so the constraint pins the minor version.
var compatibleVersions = func() string {
	s := version.Must(version.NewSemver(guideProviderVersion)).Segments()
	return fmt.Sprintf("~> %d.%d.0", s[0], s[1])
}()

// projectVersion reads the VERSION file; the tests cannot run without it.
func projectVersion(file string) string {
	body, err := os.ReadFile(file)
	if err != nil {
		panic(fmt.Sprintf("the provider's version: %v", err))
	}
	return strings.TrimSpace(string(body))
}
