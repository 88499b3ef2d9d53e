// Command eventnotify-probe reports what the Event Notifications service's description leaves
// out, as the service that the EVENTNOTIFY_* variables name shows it (internal/probe), and can
// write it as a profile for eventnotify-mock -profile.
//
//	eventnotify-probe [-account ID] [-write] [-profile-out FILE]
//
// It exits 0 when it reached the service and authenticated, 1 otherwise, and 2 on a bad
// command line.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/probe"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the probe with args and the variables of getenv, and returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eventnotify-probe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	account := fs.String("account", "", "the `ID` of the account to probe (default EVENTNOTIFY_ACCOUNT_ID)")
	write := fs.Bool("write", false, fmt.Sprintf("create and delete up to %d subscriptions of its own (topic %s...) to learn what reading alone cannot", probe.MaxOwnSubscriptions, probe.TopicPrefix))
	profileOut := fs.String("profile-out", "", "write the findings as a profile (JSON) to `FILE`, for eventnotify-mock -profile")
	rps := fs.Float64("max-requests-per-second", probe.DefaultRequestsPerSecond, "most requests a second (sent one at a time); a negative value turns the limit off")
	timeout := fs.Duration("request-timeout", probe.DefaultRequestTimeout, "bound of each request")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: eventnotify-probe [flags]\n\n"+
			"Reads EVENTNOTIFY_BASE_URL, EVENTNOTIFY_AUTH_URL, EVENTNOTIFY_REGION, EVENTNOTIFY_ACCOUNT_ID, EVENTNOTIFY_USERNAME,\n"+
			"EVENTNOTIFY_PASSWORD or EVENTNOTIFY_API_TOKEN, EVENTNOTIFY_OTP and EVENTNOTIFY_JWT, as the provider does.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "eventnotify-probe: unexpected arguments: %q\n", fs.Args())
		return 2
	}
	cfg, err := probe.ConfigFromEnv(getenv)
	if err != nil {
		fmt.Fprintln(stderr, "eventnotify-probe:", err)
		return 1
	}
	if *account != "" {
		cfg.AccountID = *account
	}
	cfg.Write, cfg.RequestsPerSecond, cfg.RequestTimeout = *write, *rps, *timeout
	if *rps == 0 {
		cfg.RequestsPerSecond = -1
	}
	if *timeout <= 0 {
		cfg.RequestTimeout = time.Duration(0)
	}
	findings, err := probe.Run(ctx, cfg)
	var cfgErr *probe.ConfigError
	if errors.As(err, &cfgErr) {
		fmt.Fprintln(stderr, "eventnotify-probe:", err)
		return 1
	}
	code := 0
	if err != nil {
		fmt.Fprintln(stderr, "eventnotify-probe:", err)
		code = 1
	}
	if findings == nil {
		return code // not authenticated, or stopped
	}
	fmt.Fprintf(stdout, "eventnotify-probe: %s, account %s%s\n", cfg.BaseURL, cfg.AccountID, map[bool]string{true: " (-write)"}[cfg.Write])
	if werr := findings.WriteReport(stdout); werr != nil {
		fmt.Fprintln(stderr, "eventnotify-probe:", werr)
		return 1
	}
	if *profileOut != "" {
		b, perr := findings.Profile()
		if perr == nil {
			perr = os.WriteFile(*profileOut, b, 0o600)
		}
		if perr != nil {
			fmt.Fprintln(stderr, "eventnotify-probe: writing the profile:", perr)
			return 1
		}
		fmt.Fprintln(stdout, "eventnotify-probe: wrote the profile", *profileOut)
	}
	return code
}
