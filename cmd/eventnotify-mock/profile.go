package main

import (
	"fmt"
	"os"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// maxProfileBytes bounds a -profile file: a profile is a few hundred bytes.
const maxProfileBytes = 1 << 20

// parseProfile reads the -profile file (a profile written by eventnotify-probe -profile-out,
// docs/guides/mock-server.md) into o. Its members that are absent or "unknown" keep the mock's defaults; a
// bad value is refused with the member's name.
func parseProfile(path string, o *options) error {
	if path == "" {
		return nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("-profile: %w", err)
	}
	if info.Size() > maxProfileBytes {
		return fmt.Errorf("-profile %s: %d bytes is more than a profile holds (at most %d)", path, info.Size(), maxProfileBytes)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("-profile: %w", err)
	}
	p, err := mockserver.ParseProfile(b)
	if err != nil {
		return fmt.Errorf("-profile %s: %w", path, err)
	}
	o.profile, o.profileFile = &p, path
	return nil
}
