// Package probe learns what the service's description leaves out (SERVICE.md: the JWT body,
// one subscription's body, the empty account's status, the catalogues' records, the page
// sizes, the sortBy fields, the bulk update's item shape, the Date header, rate limits) by
// asking the service, and writes it as a profile that eventnotify-mock -profile replays
// (docs/guides/mock-server.md, "Replaying a real service: profiles"). It speaks HTTP itself, to see the raw bodies.
//
// It only reads unless Config.Write is set; then it creates at most MaxOwnSubscriptions
// subscriptions whose eventStreamsTopic starts with TopicPrefix and a random part, changes and
// deletes only those, and deletes them all before Run returns, also when it fails or its
// context is cancelled.
package probe

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// cleanupTimeout bounds the deletion of the probe's own subscriptions.
const cleanupTimeout = 2 * time.Minute

// ConfigError is a configuration that cannot be probed with: its message says what to set.
type ConfigError struct{ Err error }

// Error is the configuration's problems.
func (e *ConfigError) Error() string { return e.Err.Error() }

// Unwrap returns the problems.
func (e *ConfigError) Unwrap() error { return e.Err }

// CleanupError tells that the probe could not delete all of its own subscriptions; its
// findings stand.
type CleanupError struct{ Err error }

// Error names what is left and how to find it.
func (e *CleanupError) Error() string { return e.Err.Error() }

// Unwrap returns the deletions' errors.
func (e *CleanupError) Unwrap() error { return e.Err }

// prober is one run of the probe.
type prober struct {
	cfg   Config
	c     *caller
	token string // the JWT (never printed)
	f     Findings

	eventName string  // an event of the catalogue, for the probe's own subscriptions
	firstPage *page   // operation 1 without parameters, before any write
	own       []owned // the probe's own subscriptions, in creation order
	topicTag  string  // TopicPrefix and this run's random part
	lost      bool    // a create's outcome or id is unknown: its subscription is looked for by topic
}

// owned is one subscription the probe created.
type owned struct {
	id    string
	topic string
}

// Run probes the service that cfg names and returns its findings; what it could not observe is
// Unknown, with the reason. The error is a *ConfigError for a configuration that cannot be
// used, or tells that the service was not reached or did not authenticate the probe, or that
// ctx was cancelled: then the findings are nil. With cfg.Write the probe's own subscriptions
// are deleted before Run returns, also when ctx is cancelled; when that fails the error holds a
// *CleanupError (and the findings stand, unless the run failed too).
func Run(ctx context.Context, cfg Config) (Findings, error) {
	cfg, err := cfg.check()
	if err != nil {
		return nil, &ConfigError{err}
	}
	tag := make([]byte, 6)
	_, _ = rand.Read(tag) // never fails (crypto/rand documents it)
	p := &prober{cfg: cfg, c: newCaller(cfg), f: Findings{}, topicTag: TopicPrefix + hex.EncodeToString(tag) + "-"}
	for _, name := range []string{BulkUpdate, CreatedDateVsDateHeader} {
		p.f[name] = Finding{NeedsWrite: true}
	}
	err = p.run(ctx)
	if ctx.Err() != nil {
		err = errors.Join(err, fmt.Errorf("the probe was stopped: %w", context.Cause(ctx)))
	}
	var cerr error
	if cfg.Write {
		if e := p.cleanup(ctx); e != nil {
			cerr = &CleanupError{e}
		}
	}
	if err != nil {
		return nil, errors.Join(err, cerr)
	}
	err = cerr
	p.dateAndRate()
	return p.f, err
}

// run probes, one finding after the other.
func (p *prober) run(ctx context.Context) error {
	if err := p.authenticate(ctx); err != nil {
		return err
	}
	if err := p.listFirst(ctx); err != nil {
		return err
	}
	p.catalogues(ctx)
	p.pageSizes(ctx)
	p.sortBy(ctx)
	p.singleShape(ctx, "")
	if !p.cfg.Write {
		p.writeless()
		return nil
	}
	p.writes(ctx)
	return nil
}

// writeless records the findings that only -write observes as unknown.
func (p *prober) writeless() {
	p.f.unknown(BulkUpdate, "observable only with -write (the probe updates a subscription of its own)")
	p.f.unknown(CreatedDateVsDateHeader, "observable only with -write (the probe creates a subscription of its own)")
	for _, name := range []string{SingleShape, DefaultPageSize, MaxPageSize} {
		if !p.f.Known(name) {
			v := p.f[name]
			v.NeedsWrite = true
			v.Reason += "; run with -write"
			p.f[name] = v
		}
	}
}

// service sends a request to the service's path (after /rest/v1) with the JWT. body, when not
// nil, is sent as JSON.
func (p *prober) service(ctx context.Context, method, path string, query url.Values, body any) (*answer, error) {
	u := p.cfg.BaseURL + "/rest/v1" + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	h := http.Header{"Authorization": {"Bearer " + p.token}}
	return p.c.do(ctx, method, u, h, b)
}

// accountPath is the path of the probed account's subscriptions, with more appended.
func (p *prober) accountPath(more string) string {
	return "/accounts/" + url.PathEscape(p.cfg.AccountID) + "/subscriptions" + more
}

// dateAndRate records what every answer showed: Date headers and rate limits.
func (p *prober) dateAndRate() {
	o := p.c.seen
	switch {
	case o.answers == 0:
		p.f.unknown(DateHeader, "no answer was received")
	case o.withDate == o.answers:
		p.f.set(DateHeader, true, "every answer (%d) carried a Date header", o.answers)
	case o.withDate == 0:
		p.f.set(DateHeader, false, "no answer (of %d) carried a Date header", o.answers)
	default:
		p.f.set(DateHeader, true, "%d of %d answers carried a Date header", o.withDate, o.answers)
	}
	pace := "with no limit"
	if p.cfg.RequestsPerSecond > 0 {
		pace = fmt.Sprintf("at most %g a second", p.cfg.RequestsPerSecond)
	}
	p.f.set(RateLimit, o.rateLimit(), "what the %d answers showed: 429 answers, Retry-After values and rate-limit headers (the probe sent one request at a time, %s)",
		o.answers, pace)
}

// decodeObject reads a JSON object's members.
func decodeObject(b []byte) (map[string]json.RawMessage, bool) {
	var o map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(b), &o) != nil || o == nil {
		return nil, false
	}
	return o, true
}

// statusError is an answer the probe did not expect, named by what it was for.
func statusError(what string, a *answer) error {
	return fmt.Errorf("%s: the service answered %d", what, a.status)
}
