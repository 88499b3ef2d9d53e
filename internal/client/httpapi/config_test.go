package httpapi

import (
	"net/http"
	"testing"
	"time"
)

// TestNewDefaults checks normalisation.
func TestNewDefaults(t *testing.T) {
	t.Parallel()
	base := &http.Client{Timeout: 7 * time.Second}
	c, err := New(Config{BaseURL: " https://x/api/ ", JWT: "j", AccountID: "a", MaxRetries: -5, RetryWaitMin: 3 * time.Second, RetryWaitMax: time.Second, HTTPClient: base})
	if err != nil {
		t.Fatal(err)
	}
	if c.cfg.BaseURL != "https://x/api" || c.basePath != "/api" || c.cfg.MaxRetries != 0 || c.cfg.UserAgent != defaultUserAgent {
		t.Errorf("normalised %+v", c.cfg)
	}
	if c.cfg.RetryWaitMax != 3*time.Second {
		t.Errorf("RetryWaitMax %v not raised to RetryWaitMin", c.cfg.RetryWaitMax)
	}
	if c.httpClient == base || base.Transport != nil || c.httpClient.Timeout != 7*time.Second {
		t.Error("the caller's http.Client was modified or not copied")
	}
	if _, ok := c.httpClient.Transport.(*transport).base.(*http.Transport); !ok {
		t.Error("no cloned default transport under the caller's client")
	}
	d, _ := New(Config{BaseURL: "https://x", JWT: "j", AccountID: "a"})
	if d.cfg.RetryWaitMin != time.Second || d.cfg.RetryWaitMax != 30*time.Second {
		t.Errorf("default waits %v %v", d.cfg.RetryWaitMin, d.cfg.RetryWaitMax)
	}
	if d.httpClient.Transport.(*transport).base == http.DefaultTransport {
		t.Error("the default transport is shared, not cloned")
	}
}
