package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// seedCreatedBy is the createdBy and lastUpdatedUserId of the subscriptions -seed stores.
const seedCreatedBy = "seed"

// parseSeed reads the -seed value into o: a whole number is how many subscriptions to
// generate, anything else the path of a JSON file of subscriptions (./12 for a file named 12).
func parseSeed(arg string, o *options) error {
	if arg == "" {
		return nil
	}
	if n, err := strconv.Atoi(arg); err == nil {
		if n < 0 {
			return errors.New("-seed must not be negative")
		}
		if n > o.limits.maxSubscriptions {
			return fmt.Errorf("-seed %d is more than -max-subscriptions %d: raise -max-subscriptions", n, o.limits.maxSubscriptions)
		}
		o.seedCount = n
		return nil
	}
	b, err := os.ReadFile(arg)
	if err != nil {
		return fmt.Errorf("-seed %q is neither a number of subscriptions nor a readable file: %w", arg, err)
	}
	o.seedFile, o.seedBody = arg, b
	return nil
}

// seedAccount stores the subscriptions of -seed in the account and returns a note saying
// what it stored ("" for none).
func seedAccount(srv *mockserver.Server, o options) (string, error) {
	if o.seedFile == "" {
		seed(srv, o.account, o.seedCount)
		if o.seedCount == 0 {
			return "", nil
		}
		return fmt.Sprintf("stored %d generated subscriptions in account %s", o.seedCount, o.account), nil
	}
	subs, err := srv.SeedSubscriptions(o.account, seedCreatedBy, o.seedBody)
	if err != nil {
		return "", fmt.Errorf("-seed %s: %w", o.seedFile, err)
	}
	if len(subs) > o.limits.maxSubscriptions {
		return "", fmt.Errorf("-seed %s holds %d subscriptions, more than -max-subscriptions %d: raise -max-subscriptions", o.seedFile, len(subs), o.limits.maxSubscriptions)
	}
	return fmt.Sprintf("stored %d subscriptions from %s in account %s", len(subs), o.seedFile, o.account), nil
}
