// Package client is the typed client of the Event Notifications Configuration Service: all
// twelve operations of the service, and the subscription engine behind the provider's
// resources (batched creates and deletes, the listing cache, bulk updates, and the settling
// of writes whose answer was lost).
//
// Every request goes through package httpapi, the generic HTTP layer (JWTs, rate limit,
// retries, typed errors, redaction, logging); the dependency is one way (TestImportRules, at
// the module's root). The Client reads the service's ambiguous shapes tolerantly and never
// logs a credential.
package client

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Client calls the service. It is safe for concurrent use; create one per provider instance
// with New.
type Client struct {
	cfg          Config
	api          *httpapi.Client // sends every request
	listings     listingCache    // per-account listings behind ReadSubscription
	claims       claimSet        // subscription IDs handed to callers, never adopted for another
	seen         seenSet         // subscription IDs read, and when: never a later create's (seen.go)
	listLimits   listingLimits   // bounds of every listing (listing_bounds.go)
	createGate   createGate      // orders creates with the reads that settle lost answers
	lost         lostCreates     // what the Client's lost creates still look for, by content
	createdClock createdClock    // the createdDate clock, as the Client's own creates calibrate it
	writes       accountWrites   // orders writes with UpdateListed (account_writes.go)
	creates      *batchQueue[SubscriptionInput, *Subscription]
	deletes      *batchQueue[string, deleted]
	now          func() time.Time

	events eventCatalogue // the events catalogue, read once

	// bulkUpdateRefused is set once the service refused a bulk update as a whole: updates
	// go through single PUTs from then on (bulk_update.go).
	bulkUpdateRefused atomic.Bool
}

// New validates cfg and builds a Client. It does no network I/O.
func New(cfg Config) (*Client, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	c := &Client{
		cfg:        cfg,
		listLimits: defaultListingLimits(),
		now:        time.Now,
	}
	// The HTTP layer reads c.now too: one clock for the whole client.
	api, err := httpapi.NewWithClock(cfg.Config, func() time.Time { return c.now() })
	if err != nil {
		return nil, err
	}
	c.api = api
	c.creates = newBatchQueue(cfg, api.SlotDelay(), c.sendCreates)
	c.deletes = newBatchQueue(cfg, api.SlotDelay(), c.sendDeletes)
	return c, nil
}

// String describes the Client without any secret.
func (c *Client) String() string {
	if c == nil {
		return "client.Client(nil)"
	}
	return fmt.Sprintf("client.Client{BaseURL:%q, AuthURL:%q, AccountID:%q}", c.cfg.BaseURL, c.cfg.AuthURL, c.cfg.AccountID)
}

// GoString is String, so that %#v reveals no secret.
func (c *Client) GoString() string { return c.String() }

// Token returns the JWT that authenticates calls for accountID ("" means the configured
// account): httpapi.Client.Token.
func (c *Client) Token(ctx context.Context, accountID string) (string, error) {
	return c.api.Token(ctx, accountID)
}

// TokenWithExpiry is Token for a caller that hands the JWT on, with the time the token
// expires: httpapi.Client.TokenWithExpiry.
func (c *Client) TokenWithExpiry(ctx context.Context, accountID string, minValidity time.Duration) (string, time.Time, error) {
	return c.api.TokenWithExpiry(ctx, accountID, minValidity)
}

// account returns accountID, or the configured default when it is empty, once
// httpapi.CheckAccountID accepts it.
func (c *Client) account(accountID string) (string, error) { return c.api.Account(accountID) }

// call runs a service operation through the HTTP layer (httpapi.Client.Do). A write (any
// method but GET) goes through write with no judge: it drops the account's listing.
func (c *Client) call(ctx context.Context, sc httpapi.Call) (*httpapi.Response, error) {
	if sc.Method != http.MethodGet {
		return c.write(ctx, sc, nil)
	}
	return c.api.Do(ctx, sc)
}

// write runs a write through the HTTP layer. It is first ordered with UpdateListed
// (account_writes.go); once it is over, judge tells from its answer what it did to the
// account's subscriptions, and that outcome is applied to the account's listing
// (listingCache.applyWrite) before the write counts as over. A nil judge, and any outcome
// that is not conclusive, drops the listing: a write may change the account's subscriptions
// even when it failed or was cancelled after it was sent. judge runs once, with Do's answer.
func (c *Client) write(ctx context.Context, sc httpapi.Call, judge func(*httpapi.Response, error) writeOutcome) (*httpapi.Response, error) {
	exit, err := c.enterWrite(ctx, sc.Operation, sc.AccountID)
	if err != nil {
		return nil, err
	}
	defer exit()
	resp, err := c.api.Do(ctx, sc)
	var outcome writeOutcome
	if judge != nil {
		outcome = judge(resp, err)
	}
	c.listings.applyWrite(sc.AccountID, outcome)
	return resp, err
}
