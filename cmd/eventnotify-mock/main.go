// Command eventnotify-mock serves the in-memory Event Notifications
// service of internal/mockserver on its own, for demos and CI.
//
//	go run ./cmd/eventnotify-mock -listen 127.0.0.1:8080
//
// Once listening, the first line of standard output is
// EVENTNOTIFY_BASE_URL=<url>; the following lines give the credentials
// it accepts, one KEY=VALUE per line. The base URL serves both the
// service and the JWT endpoint. It serves until SIGINT or SIGTERM, then
// shuts down gracefully and exits 0.
//
// -latency adds a delay to every request and -seed stores subscriptions in the account at
// start. GET /_mock/stats reports the request counters (by route, JWT fetches, time spent
// serving) and POST /_mock/reset clears them; scripts/bench.sh uses both.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// shutdownTimeout bounds the graceful shutdown.
const shutdownTimeout = 10 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(err, new(usageError)):
		fmt.Fprintln(os.Stderr, "eventnotify-mock:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "eventnotify-mock:", err)
		os.Exit(1)
	}
}

// usageError is a bad command line.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// options are the command's flags.
type options struct {
	listen   string
	account  string
	username string
	password string
	apiToken string
	jwtTTL   time.Duration
	latency  time.Duration
	seed     int
}

// parseFlags parses args; usage and flag errors go to stderr.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("eventnotify-mock", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.listen, "listen", "127.0.0.1:8080", "address to listen on (port 0 picks a free port)")
	fs.StringVar(&o.account, "account", "demo-account", "the account the user may access")
	fs.StringVar(&o.username, "username", mockserver.DefaultUsername, "Basic auth user name")
	fs.StringVar(&o.password, "password", mockserver.DefaultPassword, `Basic auth password ("" disables password login)`)
	fs.StringVar(&o.apiToken, "api-token", "", "API token, accepted with the user name PLATFORM_TOKEN.<username>")
	fs.DurationVar(&o.jwtTTL, "jwt-ttl", mockserver.DefaultJWTTTL, "lifetime of the JWTs it issues")
	fs.DurationVar(&o.latency, "latency", 0, "delay added to every request")
	fs.IntVar(&o.seed, "seed", 0, "number of subscriptions stored in the account at start")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err}
	}
	switch {
	case fs.NArg() > 0:
		return o, usageError{fmt.Errorf("unexpected arguments: %q", fs.Args())}
	case o.account == "":
		return o, usageError{errors.New("-account must not be empty")}
	case o.username == "":
		return o, usageError{errors.New("-username must not be empty")}
	case o.password == "" && o.apiToken == "":
		return o, usageError{errors.New("set -password or -api-token, or no one can sign in")}
	case o.jwtTTL <= 0:
		return o, usageError{errors.New("-jwt-ttl must be positive")}
	case o.latency < 0:
		return o, usageError{errors.New("-latency must not be negative")}
	case o.seed < 0:
		return o, usageError{errors.New("-seed must not be negative")}
	}
	return o, nil
}

// run serves until ctx is done, printing the base URL and credentials to
// stdout once it listens.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	srv := mockserver.New(mockserver.Config{
		Users: []mockserver.User{{
			Username: o.username,
			Password: o.password,
			APIToken: o.apiToken,
			Accounts: []string{o.account},
		}},
		JWTTTL:  o.jwtTTL,
		Latency: o.latency,
	})
	seed(srv, o.account, o.seed)

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", o.listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	baseURL := "http://" + displayAddr(ln.Addr())
	lines := []string{
		"EVENTNOTIFY_BASE_URL=" + baseURL,
		"EVENTNOTIFY_AUTH_URL=" + baseURL,
		"EVENTNOTIFY_ACCOUNT_ID=" + o.account,
		"EVENTNOTIFY_USERNAME=" + o.username,
	}
	if o.password != "" {
		lines = append(lines, "EVENTNOTIFY_PASSWORD="+o.password)
	}
	if o.apiToken != "" {
		lines = append(lines, "EVENTNOTIFY_API_TOKEN="+o.apiToken)
	}
	for _, l := range lines {
		if _, err := fmt.Fprintln(stdout, l); err != nil {
			_ = ln.Close()
			return fmt.Errorf("write output: %w", err)
		}
	}

	hs := &http.Server{
		Handler:           &controlled{srv: srv, account: o.account, latency: o.latency},
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()

	select {
	case err := <-serveErr:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// displayAddr is the address clients use: an unspecified listen address
// (0.0.0.0, ::) becomes 127.0.0.1.
func displayAddr(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return a.String()
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
}
