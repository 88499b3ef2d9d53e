// Command eventnotify-mock serves the in-memory Event Notifications
// service of internal/mockserver on its own, for demos and CI.
//
//	go run ./cmd/eventnotify-mock -listen 127.0.0.1:8080
//
// Once listening, it writes to standard output, in one write, the lines
// EVENTNOTIFY_BASE_URL=<url> (first), with -tls SSL_CERT_FILE=<file> (second), EVENTNOTIFY_AUTH_URL,
// EVENTNOTIFY_ACCOUNT_ID, EVENTNOTIFY_USERNAME and, when the password is
// the built-in public demo one, EVENTNOTIFY_PASSWORD: KEY=VALUE lines only,
// so that scripts can export them. A password or API token given on the
// command line, in a file (-password-file, -api-token-file) or in the
// environment (EVENTNOTIFY_MOCK_PASSWORD, EVENTNOTIFY_MOCK_API_TOKEN) is never
// printed: a note on standard error says where it came from, as do the notes
// on the listening address. The file and the environment keep the secret out
// of the process list, which every local user can read. The base URL is the
// address a client on this machine uses (a loopback address when it
// listens on all interfaces) and serves both the service and the JWT
// endpoint. It serves until SIGINT or SIGTERM, then shuts down gracefully
// and exits 0.
//
// It answers only requests whose Host names localhost, a loopback address,
// the host of -listen or a host given with -allow-host (see hostPolicy),
// and refuses cross-origin browser writes, so that a web page cannot drive
// it with the well-known demo credentials.
//
// It closes connections that stop sending (-read-timeout, -read-header-timeout, -idle-timeout)
// and answers 431 to request headers over -max-header-bytes; the account holds at most
// -max-subscriptions (a request that would store more is answered 409) and the latest
// -max-deliveries deliveries are kept (limits.go).
//
// -tls serves https with a self-signed certificate that it writes to -tls-cert-out (tls.go),
// for clients in other containers, which the provider reaches with https only.
//
// -profile serves with the shapes and limits of a profile that eventnotify-probe wrote
// (profile.go, internal/mockserver/profile.go).
//
// -latency adds a delay to every request and -seed stores subscriptions in the account at
// start: a number of generated ones, or those of a JSON file of SubscriptionCreate objects.
// GET /_mock/stats reports the request counters (by route, JWT fetches, time spent
// serving) and POST /_mock/reset clears them; scripts/bench.sh uses both. POST /_mock/events
// fires an event and records a delivery for each subscription that hears it, by the mock's
// reading of the minimum-level rule; GET /_mock/deliveries lists them and POST /_mock/reset
// clears them too (internal/mockserver/deliveries.go).
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	"unicode"

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
	listen      string
	allowHosts  []string
	account     string
	username    string
	password    string
	passwordSet bool   // the password was given (flag, file or environment): it is never printed
	passwordOf  string // where it came from, for the startup note (credentials.go)
	apiToken    string
	apiTokenOf  string // where it came from
	jwtTTL      time.Duration
	latency     time.Duration
	seedCount   int
	seedFile    string // -seed named a file; seedBody holds its content
	seedBody    []byte
	tls         bool                // -tls: serve https (tls.go)
	certOut     string              // -tls-cert-out: where the certificate's PEM goes
	limits      limits              // connection timeouts and the header size limit (limits.go)
	profile     *mockserver.Profile // -profile: the shapes and limits to serve with (profile.go)
	profileFile string
}

// parseFlags parses args; usage and flag errors go to stderr.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	var seedArg, profileArg string
	fs := flag.NewFlagSet("eventnotify-mock", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.listen, "listen", "127.0.0.1:8080", "address to listen on (port 0 picks a free port; :8080 listens on every interface)")
	fs.Func("allow-host", "host `name` that requests may use besides localhost, loopback addresses and the -listen host "+
		"(repeat or separate with commas; '*' allows any, which lets web pages reach the mock through DNS rebinding)",
		func(v string) error {
			for h := range strings.SplitSeq(v, ",") {
				h = strings.TrimSpace(h)
				if h == "" {
					return errors.New("empty host name")
				}
				o.allowHosts = append(o.allowHosts, h)
			}
			return nil
		})
	fs.StringVar(&o.account, "account", "demo-account", "the account the user may access")
	fs.StringVar(&o.username, "username", mockserver.DefaultUsername, "Basic auth user name")
	fs.StringVar(&o.password, "password", mockserver.DefaultPassword, `Basic auth password ("" disables password login); printed only when it is the default`)
	fs.StringVar(&o.apiToken, "api-token", "", "API token, accepted with the user name PLATFORM_TOKEN.<username>; never printed")
	passwordSources := secretSources{flagName: "password", env: envPassword}
	passwordSources.registerFile(fs, "password")
	tokenSources := secretSources{flagName: "api-token", env: envAPIToken}
	tokenSources.registerFile(fs, "API token")
	fs.DurationVar(&o.jwtTTL, "jwt-ttl", mockserver.DefaultJWTTTL, "lifetime of the JWTs it issues")
	fs.DurationVar(&o.latency, "latency", 0, "delay added to every request")
	fs.StringVar(&seedArg, "seed", "", "subscriptions stored in the account at start: a number (that many generated ones) or the `file` name of a JSON file of "+
		`SubscriptionCreate objects ({"subscriptions": [...]} or an array; each may also carry a subscriptionId)`)
	fs.BoolVar(&o.tls, "tls", false, "serve https with a self-signed certificate for localhost, 127.0.0.1, ::1, the -listen host "+
		"and every -allow-host name, written to -tls-cert-out (for clients in other containers: plain http is "+
		"accepted by the provider for this machine only)")
	fs.StringVar(&o.certOut, "tls-cert-out", defaultCertOut, "`file` the -tls certificate (PEM) is written to, for clients' SSL_CERT_FILE")
	fs.StringVar(&profileArg, "profile", "", "serve with the shapes and limits of the profile `file` that eventnotify-probe -profile-out wrote "+
		"(jwtBody, singleShape, emptyList, catalogShape, defaultPageSize, maxPageSize, bulkUpdate, dateHeader, jwtMember, sortBy; "+
		`absent or "unknown" members keep the defaults)`)
	o.limits.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err}
	}
	certOutSet, passwordFlag, tokenFlag := false, false, false
	fs.Visit(func(f *flag.Flag) {
		passwordFlag = passwordFlag || f.Name == "password"
		tokenFlag = tokenFlag || f.Name == "api-token"
		certOutSet = certOutSet || f.Name == "tls-cert-out"
	})
	var err error
	if o.password, o.passwordOf, err = passwordSources.resolve(o.password, passwordFlag); err != nil {
		return o, usageError{err}
	}
	o.passwordSet = o.passwordOf != ""
	if o.apiToken, o.apiTokenOf, err = tokenSources.resolve(o.apiToken, tokenFlag); err != nil {
		return o, usageError{err}
	}
	switch {
	case fs.NArg() > 0:
		return o, usageError{fmt.Errorf("unexpected arguments: %q", fs.Args())}
	case o.account == "":
		return o, usageError{errors.New("-account must not be empty")}
	case o.username == "":
		return o, usageError{errors.New("-username must not be empty")}
	case hasControl(o.account) || hasControl(o.username):
		return o, usageError{errors.New("-account and -username must not hold control characters (they are printed one per line)")}
	case o.password == "" && o.apiToken == "":
		return o, usageError{errors.New("set -password or -api-token, or no one can sign in")}
	case o.jwtTTL <= 0:
		return o, usageError{errors.New("-jwt-ttl must be positive")}
	case o.latency < 0:
		return o, usageError{errors.New("-latency must not be negative")}
	case certOutSet && !o.tls:
		return o, usageError{errors.New("-tls-cert-out needs -tls")}
	case o.tls && o.certOut == "":
		return o, usageError{errors.New("-tls-cert-out must not be empty")}
	}
	if err := o.limits.check(); err != nil {
		return o, usageError{err}
	}
	if err := parseSeed(seedArg, &o); err != nil {
		return o, usageError{err}
	}
	if err := parseProfile(profileArg, &o); err != nil {
		return o, usageError{err}
	}
	return o, nil
}

// hasControl reports whether s holds a control character, a line break included.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
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
		JWTTTL:           o.jwtTTL,
		Latency:          o.latency,
		MaxSubscriptions: o.limits.maxSubscriptions,
		MaxDeliveries:    o.limits.maxDeliveries,
	})
	profileNote := ""
	if o.profile != nil {
		srv.ApplyProfile(*o.profile)
		profileNote = "serving with the profile " + o.profileFile
	}
	seedNote, err := seedAccount(srv, o)
	if err != nil {
		return usageError{err}
	}

	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", o.listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	certNote, certFile := "", ""
	if o.tls {
		// The certificate is in its file before the first line is printed.
		cert, path, err := serveTLS(o)
		if err != nil {
			_ = ln.Close()
			return err
		}
		ln, certNote, certFile = tls.NewListener(ln, cert.tlsConfig()), cert.note(path), path
	}
	out := startupOutput(o, ln.Addr(), certFile)
	if _, err := io.WriteString(stdout, out.env); err != nil {
		_ = ln.Close()
		return fmt.Errorf("write output: %w", err)
	}
	for _, note := range append(out.notes, profileNote, seedNote, certNote) {
		if note == "" {
			continue
		}
		fmt.Fprintln(stderr, "eventnotify-mock:", note)
	}

	service := &controlled{srv: srv, account: o.account, latency: o.latency}
	hs := o.limits.server(newHostPolicy(o.listen, ln.Addr(), o.allowHosts).handler(http.NewCrossOriginProtection().Handler(service)), o.latency)
	hs.BaseContext = func(net.Listener) context.Context { return context.WithoutCancel(ctx) }
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
