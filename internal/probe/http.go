package probe

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"
)

const (
	// maxBodyBytes bounds every body read.
	maxBodyBytes = 1 << 20
	// maxRetryAfter is the longest Retry-After the probe waits for (once per request).
	maxRetryAfter = time.Minute
	// userAgent names the probe to the service.
	userAgent = "eventnotify-probe"
)

// answer is one response: its status, headers and (bounded) body.
type answer struct {
	status    int
	header    http.Header
	body      []byte
	truncated bool // the body was longer than maxBodyBytes
}

// RedirectError is an answer that redirected: the probe never follows one.
type RedirectError struct {
	Status   int
	URL      string // the request's URL, without a query
	Location string // where it pointed, without a query
}

// Error tells where the redirect pointed.
func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s answered %d, a redirect to %q, which the probe does not follow: set the variable to the address it names, if it is the service",
		e.URL, e.Status, e.Location)
}

// caller sends the probe's requests one at a time: never following a redirect, each bounded
// by a timeout, throttled, with a 429's Retry-After honoured once. It records what the answers
// show of Date headers and rate limits.
type caller struct {
	hc      *http.Client
	limiter *rate.Limiter
	timeout time.Duration
	seen    *observations
}

// observations are what every answer shows, whatever the request.
type observations struct {
	answers      int // answers received
	withDate     int // of them, with a Date header
	throttled    int // 429 answers
	retryAfter   []string
	rateHeaders  map[string]string // X-RateLimit-* and RateLimit-* headers: the last value seen
	lastDate     time.Time         // the Date of the latest answer (zero: none)
	lastDateSeen bool
}

// newCaller builds the caller of cfg (already checked).
func newCaller(cfg Config) *caller {
	var transport http.RoundTripper
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		transport = cfg.HTTPClient.Transport
	} else {
		transport = http.DefaultTransport.(*http.Transport).Clone()
	}
	limit := rate.Inf
	if cfg.RequestsPerSecond > 0 {
		limit = rate.Limit(cfg.RequestsPerSecond)
	}
	return &caller{
		hc: &http.Client{
			Transport: transport,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
		limiter: rate.NewLimiter(limit, 1),
		timeout: cfg.RequestTimeout,
		seen:    &observations{rateHeaders: map[string]string{}},
	}
}

// do sends one request (header holds its credentials) and reads its answer. A redirect is a
// *RedirectError; a 429 is sent again once after its Retry-After (when it is at most
// maxRetryAfter), else returned.
func (c *caller) do(ctx context.Context, method, rawURL string, header http.Header, body []byte) (*answer, error) {
	for attempt := 0; ; attempt++ {
		a, err := c.once(ctx, method, rawURL, header, body)
		if err != nil {
			return nil, err
		}
		if a.status == http.StatusTooManyRequests && attempt == 0 {
			if d, ok := retryAfter(a.header.Get("Retry-After")); ok && d <= maxRetryAfter {
				if err := sleep(ctx, d); err != nil {
					return nil, err
				}
				continue
			}
		}
		if a.status >= 300 && a.status < 400 && a.header.Get("Location") != "" {
			return a, &RedirectError{Status: a.status, URL: withoutQuery(rawURL), Location: withoutQuery(a.header.Get("Location"))}
		}
		return a, nil
	}
}

// once sends one attempt.
func (c *caller) once(ctx context.Context, method, rawURL string, header http.Header, body []byte) (*answer, error) {
	if err := c.limiter.Wait(ctx); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, rd)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, withoutQuery(rawURL), err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the URL is named below, without its query
		}
		return nil, fmt.Errorf("%s %s: %w", method, withoutQuery(rawURL), err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: reading the answer: %w", method, withoutQuery(rawURL), err)
	}
	a := &answer{status: resp.StatusCode, header: resp.Header, body: b}
	if len(b) > maxBodyBytes {
		a.body, a.truncated = b[:maxBodyBytes], true
	}
	c.seen.record(a)
	return a, nil
}

// record notes what an answer shows of Date headers and rate limits.
func (o *observations) record(a *answer) {
	o.answers++
	if d := a.header.Get("Date"); d != "" {
		o.withDate++
		if t, err := http.ParseTime(d); err == nil {
			o.lastDate, o.lastDateSeen = t, true
		}
	}
	if a.status == http.StatusTooManyRequests {
		o.throttled++
	}
	if v := a.header.Get("Retry-After"); v != "" {
		o.retryAfter = append(o.retryAfter, v)
	}
	for k, v := range a.header {
		lk := strings.ToLower(k)
		if strings.HasPrefix(lk, "x-ratelimit-") || strings.HasPrefix(lk, "ratelimit") {
			o.rateHeaders[k] = strings.Join(v, ", ")
		}
	}
}

// rateLimit is the rateLimit finding: what the answers showed of rate limits.
func (o *observations) rateLimit() map[string]any {
	names := make([]string, 0, len(o.rateHeaders))
	for k := range o.rateHeaders {
		names = append(names, k)
	}
	sort.Strings(names)
	headers := make(map[string]string, len(names))
	for _, k := range names {
		headers[k] = o.rateHeaders[k]
	}
	return map[string]any{
		"requests":   o.answers,
		"status429":  o.throttled,
		"retryAfter": append([]string{}, o.retryAfter...),
		"headers":    headers,
	}
}

// retryAfter reads a Retry-After value: seconds or an HTTP date.
func retryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t)), true
	}
	return 0, false
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// withoutQuery is a URL without its query, fragment and user information, for messages.
func withoutQuery(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(an unreadable URL)"
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u.String()
}
