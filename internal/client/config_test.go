package client

import (
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// TestNewValidation covers every configuration rule.
func TestNewValidation(t *testing.T) {
	t.Parallel()
	valid := Config{Config: httpapi.Config{BaseURL: "https://api.example.com/", AuthURL: "https://auth.example.com", AccountID: "a", Username: "u", Password: "p"}}
	tests := []struct {
		name    string
		mutate  func(c *Config)
		wantErr string
	}{
		{"valid password", func(c *Config) {}, ""},
		{"valid API token", func(c *Config) { c.Password, c.APIToken = "", "t" }, ""},
		{"valid pre-issued JWT without credentials or auth URL", func(c *Config) { c.Username, c.Password, c.AuthURL, c.JWT = "", "", "", "j" }, ""},
		{"missing base URL", func(c *Config) { c.BaseURL = "" }, "base URL is required"},
		{"relative base URL", func(c *Config) { c.BaseURL = "api.example.com" }, "invalid base URL"},
		{"ftp base URL", func(c *Config) { c.BaseURL = "ftp://x" }, "must start with http:// or https://"},
		{"base URL with credentials", func(c *Config) { c.BaseURL = "https://u:secretpw@x" }, "must not carry credentials"},
		{"base URL with query", func(c *Config) { c.BaseURL = "https://x/?a=b" }, "query or fragment"},
		{"missing auth URL", func(c *Config) { c.AuthURL = "" }, "auth URL is required"},
		{"bad auth URL with JWT", func(c *Config) { c.JWT, c.AuthURL = "j", "::" }, "invalid auth URL"},
		{"missing username", func(c *Config) { c.Username = "" }, "username is required"},
		{"no password nor token", func(c *Config) { c.Password = "" }, "password or an API token is required"},
		{"password and token", func(c *Config) { c.APIToken = "t" }, "mutually exclusive"},
		{"negative rate", func(c *Config) { c.RequestsPerSecond = -1 }, "requests per second"},
		{"NaN rate", func(c *Config) { c.RequestsPerSecond = math.NaN() }, "requests per second"},
		{"negative timeout", func(c *Config) { c.RequestTimeout = -time.Second }, "timeout"},
		{"negative waits", func(c *Config) { c.RetryWaitMin = -1 }, "retry wait"},
		{"plain http base URL", func(c *Config) { c.BaseURL = "http://api.example.com" }, "plain http://"},
		{"plain http auth URL", func(c *Config) { c.AuthURL = "http://10.0.0.7:8080" }, "plain http://"},
		{"plain http auth URL with a pre-issued JWT", func(c *Config) { c.JWT, c.AuthURL = "j", "http://auth.example.com" }, "plain http://"},
		{"plain http loopback", func(c *Config) { c.BaseURL, c.AuthURL = "http://127.0.0.1:8080", "http://localhost:9" }, ""},
		{"unparsable base URL with credentials", func(c *Config) { c.BaseURL = "https://svc:S3cr%t-secretpw@x" }, "not a valid URL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := valid
			tc.mutate(&cfg)
			c, err := New(cfg)
			if tc.wantErr == "" {
				if err != nil || c == nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if strings.Contains(err.Error(), "secretpw") {
				t.Errorf("error reveals a password: %v", err)
			}
		})
	}
}

// TestConfigRedaction: no secret in any rendering of a Config or Client.
func TestConfigRedaction(t *testing.T) {
	t.Parallel()
	cfg := Config{
		Config: httpapi.Config{
			BaseURL:    "https://x",
			AuthURL:    "https://y",
			AccountID:  "acc",
			Username:   "u",
			Password:   "hunter2-pass",
			APIToken:   "api-tok-123",
			OTP:        "775533",
			JWT:        "eyJ.secret.jwt",
			HTTPClient: &http.Client{},
		},
	}
	c, err := New(Config{Config: httpapi.Config{BaseURL: "https://x", AuthURL: "https://y", AccountID: "acc", Username: "u", Password: "hunter2-pass", OTP: "775533"}})
	if err != nil {
		t.Fatal(err)
	}
	type wrapper struct {
		Cfg Config
		Ptr *Config
	}
	renderings := []string{
		cfg.String(), cfg.GoString(),
		fmt.Sprintf("%v", cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), fmt.Sprint(&cfg),
		fmt.Sprintf("%v", wrapper{cfg, &cfg}), fmt.Sprintf("%+v", []Config{cfg}),
		fmt.Sprintf("%v", c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), c.String(),
	}
	for _, r := range renderings {
		for _, secret := range []string{"hunter2-pass", "api-tok-123", "775533", "eyJ.secret.jwt"} {
			if strings.Contains(r, secret) {
				t.Errorf("%q reveals %q", r, secret)
			}
		}
	}
	if !strings.Contains(cfg.String(), "Password:(sensitive)") || !strings.Contains(cfg.String(), `Username:"u"`) {
		t.Errorf("String() = %s", cfg.String())
	}
	if !strings.Contains(Config{}.String(), `Password:""`) {
		t.Errorf("an unset secret should show as empty: %s", Config{}.String())
	}
	var nilClient *Client
	if nilClient.String() != "client.Client(nil)" {
		t.Error("nil client String")
	}
}
