package main

import (
	"errors"
	"flag"
	"net/http"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// The defaults of the connection limits: a client that stops sending (a body trickled a byte
// at a time, a keep-alive connection left open) is cut off, and request headers are bounded.
const (
	defaultReadTimeout       = time.Minute
	defaultReadHeaderTimeout = 10 * time.Second
	defaultIdleTimeout       = time.Minute
	defaultMaxHeaderBytes    = 64 << 10
)

// limits are the connection limits of the mock's HTTP server, and the memory limits of its
// store (mockserver.Config.MaxSubscriptions, MaxDeliveries).
type limits struct {
	readTimeout       time.Duration // one request, headers and body (-latency not counted)
	readHeaderTimeout time.Duration // the headers of one request
	idleTimeout       time.Duration // a keep-alive connection between requests
	maxHeaderBytes    int           // request line and headers; more is answered 431
	maxSubscriptions  int           // per account; a request that would store more is answered 409
	maxDeliveries     int           // deliveries kept, the latest
}

// register adds the flags of l to fs, with the defaults above.
func (l *limits) register(fs *flag.FlagSet) {
	fs.DurationVar(&l.readTimeout, "read-timeout", defaultReadTimeout,
		"time to read one request, headers and body (-latency comes on top); a slower client's connection is closed")
	fs.DurationVar(&l.readHeaderTimeout, "read-header-timeout", defaultReadHeaderTimeout, "time to read the headers of one request")
	fs.DurationVar(&l.idleTimeout, "idle-timeout", defaultIdleTimeout, "time a keep-alive connection may wait for its next request before it is closed")
	fs.IntVar(&l.maxHeaderBytes, "max-header-bytes", defaultMaxHeaderBytes,
		"size limit of a request's line and headers, in bytes; a larger request is answered 431 Request Header Fields Too Large")
	fs.IntVar(&l.maxSubscriptions, "max-subscriptions", mockserver.DefaultMaxSubscriptions,
		"subscriptions the account may hold (and, apart, subscriptions of its topics); a request that would store more is answered 409 Conflict and stores nothing")
	fs.IntVar(&l.maxDeliveries, "max-deliveries", mockserver.DefaultMaxDeliveries,
		"deliveries kept for GET /_mock/deliveries, the latest; older ones are dropped and counted in its \"dropped\" member")
}

// check returns the usage error of bad limits.
func (l limits) check() error {
	if l.readTimeout <= 0 || l.readHeaderTimeout <= 0 || l.idleTimeout <= 0 {
		return errors.New("-read-timeout, -read-header-timeout and -idle-timeout must be positive")
	}
	if l.maxHeaderBytes < 1024 {
		return errors.New("-max-header-bytes must be at least 1024")
	}
	if l.maxSubscriptions < 1 || l.maxDeliveries < 1 {
		return errors.New("-max-subscriptions and -max-deliveries must be at least 1")
	}
	return nil
}

// server is an HTTP server of handler with the limits. The read timeout runs from the start of a
// request until its body is read, and the mock waits -latency before it reads the body: so the
// latency is added to it.
func (l limits) server(handler http.Handler, latency time.Duration) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadTimeout:       l.readTimeout + latency,
		ReadHeaderTimeout: l.readHeaderTimeout,
		IdleTimeout:       l.idleTimeout,
		MaxHeaderBytes:    l.maxHeaderBytes,
	}
}
