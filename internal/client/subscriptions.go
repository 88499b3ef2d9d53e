package client

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// Operation names used in errors and logs.
const (
	opListSubscriptions    = "list subscriptions"
	opReplaceSubscriptions = "replace subscriptions"
	opCreateSubscriptions  = "create subscriptions"
	opDeleteAll            = "delete all subscriptions"
	opReadSubscription     = "read subscription"
	opUpdateSubscription   = "update subscription"
	opDeleteSubscription   = "delete subscription"
)

// defaultPageSize is the page size the client asks for when ListOptions.PageSize is 0.
const defaultPageSize = 100

// ListOptions tunes listSubscribedEventsForAccount. Zero values select the service's defaults, except that the
// client asks for pages of 100 when PageSize is 0.
type ListOptions struct {
	// PageSize is the number of subscriptions per page.
	PageSize int
	// SortBy is a field name, passed through as sortBy.
	SortBy string
	// SortDirection is ASC or DESC, passed through as sortDirection.
	SortDirection string
}

// Page is one page of listSubscribedEventsForAccount.
type Page struct {
	// Subscriptions holds the page's subscriptions; never nil.
	Subscriptions []Subscription
	// PageNumber is the 0-based page number.
	PageNumber int
	// PageSize is the page size.
	PageSize int
	// TotalPages is the number of pages, when the service says.
	TotalPages int
	// TotalElements is the number of subscriptions, when the service says.
	TotalElements int64
	// NumberOfElements is the number of subscriptions on this page.
	NumberOfElements int
	// First tells whether this is the first page.
	First bool
	// Last tells whether this is the last page.
	Last bool
}

// ListSubscriptions returns every subscription of the account (listSubscribedEventsForAccount), paging through
// to the last page. An account without subscriptions (204, or the service's own 404) yields
// an empty slice and no error.
//
// Paging ends where the service says (the metadata's last, or totalPages), and otherwise at
// an empty page or at a page that repeats one already read (a server that ignores
// pageNumber): never at a merely short page, since a server may clamp the page size. A
// listing that goes past the bounds of listing_bounds.go (subscriptions, pages, bytes, time)
// fails with an error matching ErrListingLimit.
//
// A listing whose pages disagree with their metadata (see listing_check.go) is made again,
// up to listAttempts times in all; when every attempt disagrees, the error is an
// *IncompleteListingError that carries the last attempt's subscriptions.
func (c *Client) ListSubscriptions(ctx context.Context, accountID string, opts ListOptions) ([]Subscription, error) {
	subs, err := c.listChecked(ctx, accountID, opts)
	if err == nil {
		// What a listing holds existed before any create sent after it (seen.go).
		c.seen.record(c.now(), subs...)
		if account, aerr := c.account(accountID); aerr == nil {
			c.seen.keepListing(account, subs)
		}
	}
	return subs, err
}

// listOnce pages through the account once and returns what it listed, and the first
// disagreement between the pages and their metadata ("" when none).
func (c *Client) listOnce(ctx context.Context, accountID string, opts ListOptions) ([]Subscription, string, error) {
	all := []Subscription{}
	seenIDs := make(map[string]struct{})
	seenPages := make(map[string]struct{})
	var check listingCheck
	budget := listingBudget{limits: c.listLimits}
	lctx, cancel := budget.withDeadline(ctx)
	defer cancel()
	for n := 0; ; n++ {
		page, meta, size, err := c.listPage(lctx, accountID, n, opts)
		if err != nil {
			return nil, "", budget.deadline(ctx, lctx, err)
		}
		before := len(all)
		if len(page.Subscriptions) > 0 {
			key := pageKey(page.Subscriptions)
			if _, repeated := seenPages[key]; repeated {
				break
			}
			seenPages[key] = struct{}{}
		}
		for _, s := range page.Subscriptions {
			if s.ID != "" {
				if _, dup := seenIDs[listingKey(s.ID)]; dup {
					continue
				}
				seenIDs[listingKey(s.ID)] = struct{}{}
			}
			all = append(all, s)
		}
		if err := budget.add(page, len(all)-before, size); err != nil {
			return nil, "", err
		}
		if problem := check.page(n, page, meta); problem != "" {
			return all, problem, nil
		}
		if page.Last {
			break
		}
	}
	return all, check.end(), nil
}

// pageKey identifies a page by its content, so that a page served again is recognised: a
// digest, so that a listing does not hold every page twice.
func pageKey(subs []Subscription) string {
	h := sha256.New()
	for _, s := range subs {
		fmt.Fprintf(h, "%+v\x00", s)
	}
	return string(h.Sum(nil))
}

// ListSubscriptionsPage returns one page of listSubscribedEventsForAccount; pageNumber starts at 0. An empty
// account (204, or the service's own 404) yields an empty last page. Last is also set when
// the service says that this is the last page (last, or totalPages), and for an empty page.
func (c *Client) ListSubscriptionsPage(ctx context.Context, accountID string, pageNumber int, opts ListOptions) (*Page, error) {
	page, _, _, err := c.listPage(ctx, accountID, pageNumber, opts)
	return page, err
}

// listPage is ListSubscriptionsPage that also returns the page's metadata as the service sent
// it (nil when it sent none) and the size of the answer's body, which a listing counts
// against its bounds.
func (c *Client) listPage(ctx context.Context, accountID string, pageNumber int, opts ListOptions) (*Page, *wirePagination, int, error) {
	accountID, err := c.account(accountID)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", opListSubscriptions, err)
	}
	if pageNumber < 0 {
		return nil, nil, 0, fmt.Errorf("%s: the page number must not be negative", opListSubscriptions)
	}
	pageSize := opts.PageSize
	if pageSize <= 0 {
		pageSize = defaultPageSize
	}
	q := url.Values{}
	q.Set("pageNumber", strconv.Itoa(pageNumber))
	q.Set("pageSize", strconv.Itoa(pageSize))
	if opts.SortBy != "" {
		q.Set("sortBy", opts.SortBy)
	}
	if opts.SortDirection != "" {
		q.Set("sortDirection", opts.SortDirection)
	}
	empty := &Page{Subscriptions: []Subscription{}, PageNumber: pageNumber, PageSize: pageSize, First: pageNumber == 0, Last: true}
	resp, err := c.call(ctx, httpapi.Call{
		Operation: opListSubscriptions,
		Method:    http.MethodGet,
		AccountID: accountID,
		Path:      httpapi.AccountPath(accountID, "subscriptions"),
		Query:     q,
	})
	if err != nil {
		if errors.Is(err, httpapi.ErrNotFound) {
			return empty, nil, 0, nil
		}
		return nil, nil, 0, err
	}
	if resp.Status == http.StatusNoContent {
		return empty, nil, len(resp.Body), nil
	}
	w, err := decodeSubscriptionWrapper(resp.Body)
	if err != nil {
		return nil, nil, 0, httpapi.MalformedResponse(opListSubscriptions, err)
	}
	page := w.page(pageNumber, pageSize)
	if err := checkAnswer(accountID, page.Subscriptions, true); err != nil {
		return nil, nil, 0, httpapi.MalformedResponse(opListSubscriptions, err)
	}
	return page, w.PaginationMetadata, len(resp.Body), nil
}

// page builds a Page from a decoded wrapper of listSubscribedEventsForAccount.
func (w *wireSubscriptionWrapper) page(requested, pageSize int) *Page {
	p := &Page{
		Subscriptions: w.list(),
		PageNumber:    requested,
		PageSize:      pageSize,
		First:         requested == 0,
	}
	p.NumberOfElements = len(p.Subscriptions)
	m := w.PaginationMetadata
	if m == nil {
		// No metadata: only an empty page is known to be the last one (a short page may be
		// a page size clamped by the server).
		p.Last = len(p.Subscriptions) == 0
		return p
	}
	if m.PageNumber != nil {
		p.PageNumber = int(*m.PageNumber)
	}
	if m.PageSize != nil && *m.PageSize > 0 {
		p.PageSize = int(*m.PageSize)
	}
	if m.TotalPages != nil {
		p.TotalPages = int(*m.TotalPages)
	}
	if m.TotalElements != nil {
		p.TotalElements = int64(*m.TotalElements)
	}
	if m.NumberOfElements != nil {
		p.NumberOfElements = int(*m.NumberOfElements)
	}
	if m.First != nil {
		p.First = *m.First
	}
	switch {
	case m.Last != nil && *m.Last:
		p.Last = true
	case m.TotalPages != nil && requested+1 >= int(*m.TotalPages):
		p.Last = true
	case len(p.Subscriptions) == 0:
		p.Last = true
	}
	return p
}

// ReplaceSubscriptions replaces all subscriptions of the account with in (updateSubscriptions) and
// returns what the service answers; 204 yields an empty slice.
func (c *Client) ReplaceSubscriptions(ctx context.Context, accountID string, in []SubscriptionInput) ([]Subscription, error) {
	return c.writeSubscriptions(ctx, opReplaceSubscriptions, http.MethodPut, accountID, in)
}

// CreateSubscriptions creates subscriptions in the account (createSubscriptions) and returns
// them in the order of in, each matched to its input by content. A create whose answer is
// lost is never repeated blindly: the account is read to find what it created, and only what
// is missing is created, once (see create_adopt.go); when that cannot be settled, the
// error is an *UnknownOutcomeError. On error, entry i of the result is the subscription known
// to exist for in[i] (adopted or created), or the zero Subscription when there is none; the
// caller must keep track of the ones with an ID. The warnings of CreateSubscriptionsWarn are
// only logged.
func (c *Client) CreateSubscriptions(ctx context.Context, accountID string, in []SubscriptionInput) ([]Subscription, error) {
	out, warnings, err := c.CreateSubscriptionsWarn(ctx, accountID, in)
	for _, w := range warnings {
		tflog.Warn(ctx, "Creating subscriptions after a lost answer leaves a doubt", map[string]any{"warning": w.Error()})
	}
	return out, err
}

// CreateSubscriptionsWarn is CreateSubscriptions that also returns the warnings of the
// subscriptions created with a doubt: a *LateAdoptionWarning or a *RecreatedWarning each.
func (c *Client) CreateSubscriptionsWarn(ctx context.Context, accountID string, in []SubscriptionInput) ([]Subscription, []error, error) {
	accountID, err := c.account(accountID)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", opCreateSubscriptions, err)
	}
	result, late, err := c.createSubscriptions(ctx, accountID, in)
	var warnings []error
	out := make([]Subscription, len(result))
	for i, s := range result {
		if s != nil {
			out[i] = *s
			if late[i] != nil {
				warnings = append(warnings, late[i])
			}
		}
	}
	return out, warnings, err
}

// writeSubscriptions sends a SubscriptionCreateRequest and reads a SubscriptionWrapper.
func (c *Client) writeSubscriptions(ctx context.Context, op, method, accountID string, in []SubscriptionInput) ([]Subscription, error) {
	accountID, err := c.account(accountID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var subs []Subscription
	var answerErr error
	_, err = c.write(ctx, httpapi.Call{
		Operation: op,
		Method:    method,
		AccountID: accountID,
		Path:      httpapi.AccountPath(accountID, "subscriptions"),
		In:        toWireCreateRequest(in),
	}, func(resp *httpapi.Response, err error) writeOutcome {
		if err != nil {
			return writeOutcome{}
		}
		subs, answerErr = writtenSubscriptions(op, accountID, resp)
		// A create's checked answer that holds one subscription per input is all it made (a
		// create is never repeated once sent). An answer that holds fewer, or one without its id,
		// leaves the rest to be settled (create_adopt.go), and one that holds more (or a replace
		// of the collection) tells less than the account it left.
		if answerErr != nil || method != http.MethodPost || len(subs) != len(in) || slices.ContainsFunc(subs, func(s Subscription) bool { return s.ID == "" }) {
			return writeOutcome{}
		}
		return writeOutcome{conclusive: true, put: subs}
	})
	if err != nil {
		return nil, err
	}
	return subs, answerErr
}

// writtenSubscriptions decodes and checks the answer of op, a SubscriptionWrapper or 204.
func writtenSubscriptions(op, accountID string, resp *httpapi.Response) ([]Subscription, error) {
	if resp.Status == http.StatusNoContent {
		return []Subscription{}, nil
	}
	w, err := decodeSubscriptionWrapper(resp.Body)
	if err != nil {
		return nil, httpapi.MalformedResponse(op, err)
	}
	subs := w.list()
	if err := checkAnswer(accountID, subs, false); err != nil {
		return nil, refusedAnswer(op, accountID, subs, err)
	}
	return subs, nil
}

// DeleteAllSubscriptions deletes every subscription of the account (deleteSubscriptionForAccount). The
// service's 404 for an account without subscriptions is returned as an *APIError that
// matches ErrNotFound.
func (c *Client) DeleteAllSubscriptions(ctx context.Context, accountID string) error {
	accountID, err := c.account(accountID)
	if err != nil {
		return fmt.Errorf("%s: %w", opDeleteAll, err)
	}
	_, err = c.call(ctx, httpapi.Call{
		Operation: opDeleteAll,
		Method:    http.MethodDelete,
		AccountID: accountID,
		Path:      httpapi.AccountPath(accountID, "subscriptions"),
	})
	return err
}

// GetSubscription reads one subscription (getSubscribedEventForAccount); the service's 404 matches
// ErrNotFound. The subscription is accepted at the top level of the body or under
// "subscription" (see SERVICE.md).
func (c *Client) GetSubscription(ctx context.Context, accountID, id string) (*Subscription, error) {
	accountID, err := c.account(accountID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opReadSubscription, err)
	}
	if err := httpapi.CheckPathSegment("subscription id", id); err != nil {
		return nil, fmt.Errorf("%s: %w", opReadSubscription, err)
	}
	resp, err := c.call(ctx, httpapi.Call{
		Operation: opReadSubscription,
		Method:    http.MethodGet,
		AccountID: accountID,
		Path:      httpapi.AccountPath(accountID, "subscriptions", url.PathEscape(id)),
	})
	if err != nil {
		return nil, err
	}
	s, err := checkedSubscription(opReadSubscription, accountID, resp.Body)
	if err != nil {
		return nil, err
	}
	c.seen.record(c.now(), *s)
	return s, nil
}

// UpdateSubscription replaces one subscription's settings (updateSubscription) and returns the
// updated subscription, accepted in either shape (see SERVICE.md). An answer that does not tell
// the outcome (a 2xx that cannot be read, a 5xx or a lost connection after the retries) is
// settled by reading the subscription back, one GET (update_settle.go): the service holding the
// update's settings is success, with the subscription as read; other settings are a
// *ReadBackError matching ErrNotUpdated, a failed read one matching ErrOutcomeUnknown, and the
// service's 404 matches ErrNotFound.
func (c *Client) UpdateSubscription(ctx context.Context, accountID, id string, in SubscriptionInput) (*Subscription, error) {
	s, err := c.putSubscription(ctx, accountID, id, in)
	if err == nil || !outcomeUnknown(err) {
		return s, err
	}
	updates := []SubscriptionUpdate{{ID: id, Input: in}}
	results := []BulkUpdateResult{{ID: id}}
	account, _ := c.account(accountID)
	c.settleUpdates(ctx, opUpdateSubscription, account, updates, []openUpdate{{cause: err}}, results)
	return results[0].read, results[0].Err
}

// putSubscription sends updateSubscription once (with the retries of the HTTP layer) and
// decodes its answer.
func (c *Client) putSubscription(ctx context.Context, accountID, id string, in SubscriptionInput) (*Subscription, error) {
	accountID, err := c.account(accountID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opUpdateSubscription, err)
	}
	if err := httpapi.CheckPathSegment("subscription id", id); err != nil {
		return nil, fmt.Errorf("%s: %w", opUpdateSubscription, err)
	}
	var s *Subscription
	var answerErr error
	_, err = c.write(ctx, httpapi.Call{
		Operation: opUpdateSubscription,
		Method:    http.MethodPut,
		AccountID: accountID,
		Path:      httpapi.AccountPath(accountID, "subscriptions", url.PathEscape(id)),
		In:        wireSubscriptionUpdateSingleRequest{Subscription: in},
	}, func(resp *httpapi.Response, err error) writeOutcome {
		switch {
		case errors.Is(err, httpapi.ErrNotFound):
			return writeOutcome{conclusive: true, gone: []string{id}}
		case err != nil:
			return writeOutcome{}
		}
		s, answerErr = checkedSubscription(opUpdateSubscription, accountID, resp.Body)
		if answerErr != nil || listingKey(s.ID) != listingKey(id) {
			return writeOutcome{}
		}
		return writeOutcome{conclusive: true, put: []Subscription{*s}}
	})
	if err != nil {
		return nil, err
	}
	if answerErr != nil {
		return nil, answerErr
	}
	return s, nil
}

// checkedSubscription decodes the body of op's answer (getSubscribedEventForAccount or
// updateSubscription), one subscription in either shape, and checks it (checkAnswer) as one
// of accountID; a body that fails either is a malformed response of op.
func checkedSubscription(op, accountID string, body []byte) (*Subscription, error) {
	s, err := decodeSingleSubscription(body)
	if err == nil {
		one := []Subscription{*s}
		err = checkAnswer(accountID, one, true)
		s = &one[0]
	}
	if err != nil {
		return nil, httpapi.MalformedResponse(op, err)
	}
	return s, nil
}

// DeleteSubscription deletes one subscription (deleteSubscription); the service's 404 matches
// ErrNotFound.
func (c *Client) DeleteSubscription(ctx context.Context, accountID, id string) error {
	accountID, err := c.account(accountID)
	if err != nil {
		return fmt.Errorf("%s: %w", opDeleteSubscription, err)
	}
	if err := httpapi.CheckPathSegment("subscription id", id); err != nil {
		return fmt.Errorf("%s: %w", opDeleteSubscription, err)
	}
	_, err = c.write(ctx, httpapi.Call{
		Operation: opDeleteSubscription,
		Method:    http.MethodDelete,
		AccountID: accountID,
		Path:      httpapi.AccountPath(accountID, "subscriptions", url.PathEscape(id)),
	}, func(_ *httpapi.Response, err error) writeOutcome {
		if err != nil && !errors.Is(err, httpapi.ErrNotFound) {
			return writeOutcome{}
		}
		return writeOutcome{conclusive: true, gone: []string{id}}
	})
	return err
}
