package client_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// Account ids are compared byte for byte, by the client (httpapi.SameAccount) and the mock
// alike: "ACC-TEST" is another account than "acc-test" for the mock's authorisation, its
// store, the client's token cache and the client's check of an answer.
func TestMockAccountCase_oneRule(t *testing.T) {
	t.Parallel()
	upper := strings.ToUpper(itAccount)
	if httpapi.SameAccount(itAccount, upper) || !httpapi.SameAccount(itAccount, itAccount) {
		t.Fatalf("SameAccount(%q, %q) must be false and SameAccount of an id with itself true", itAccount, upper)
	}
	ctx := context.Background()
	e := newMockEnv(t, mockserver.Config{})
	e.seed(itAccount, 1)

	t.Run("authorisation", func(t *testing.T) {
		e.mock.AddUser(mockserver.User{Username: "bob", Password: "bob-password", Accounts: []string{itAccount}})
		c := e.client(func(cfg *client.Config) { cfg.Username, cfg.Password = "bob", "bob-password" })
		if _, err := c.Token(ctx, itAccount); err != nil {
			t.Fatalf("token for %q: %v", itAccount, err)
		}
		_, err := c.Token(ctx, upper)
		wantAPIError(t, err, http.StatusForbidden, "Access Denied")
	})

	t.Run("store and token cache", func(t *testing.T) {
		c := e.client(func(cfg *client.Config) { cfg.ListCacheTTL = -1 })
		before := e.mock.JWTFetches()
		own, err := c.ListSubscriptions(ctx, itAccount, client.ListOptions{})
		if err != nil || len(own) != 1 {
			t.Fatalf("listing %q: %d subscriptions, %v; want 1", itAccount, len(own), err)
		}
		other, err := c.ListSubscriptions(ctx, upper, client.ListOptions{})
		if err != nil || len(other) != 0 {
			t.Fatalf("listing %q: %d subscriptions, %v; want none: it is another account", upper, len(other), err)
		}
		if n := e.mock.JWTFetches() - before; n != 2 {
			t.Errorf("%d JWTs fetched, want 2: one per account", n)
		}
	})

	t.Run("answer", func(t *testing.T) {
		c := e.client(func(cfg *client.Config) { cfg.ListCacheTTL = -1 })
		remove := e.mock.InjectFault(mockserver.Fault{ForgeMember: "accountId", ForgeValue: upper})
		defer remove()
		_, err := c.ListSubscriptions(ctx, itAccount, client.ListOptions{})
		if !errors.Is(err, httpapi.ErrInvalidID) || !strings.Contains(err.Error(), `of account "`+upper+`"`) {
			t.Fatalf("error %v, want the answer naming account %q refused", err, upper)
		}
	})
}
