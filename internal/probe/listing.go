package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// largePageSize is the pageSize asked for to learn the largest page.
const largePageSize = 1000

// page is one answer of operation 1 (listSubscribedEventsForAccount).
type page struct {
	status int
	items  []map[string]json.RawMessage
	meta   *pageMeta // nil when the answer carries no paginationMetadata
}

// pageMeta is the paginationMetadata members the probe reads.
type pageMeta struct {
	TotalElements *int64 `json:"totalElements"`
	TotalPages    *int64 `json:"totalPages"`
	Last          *bool  `json:"last"`
}

// ids are the subscriptionIds of the page's items.
func (pg *page) ids() []string {
	var ids []string
	for _, it := range pg.items {
		var id string
		if json.Unmarshal(it["subscriptionId"], &id) == nil && id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// list sends operation 1 with query and reads its page: 204 and 404 are an empty page.
func (p *prober) list(ctx context.Context, query url.Values) (*page, error) {
	a, err := p.service(ctx, http.MethodGet, p.accountPath(""), query, nil)
	if err != nil {
		return nil, err
	}
	return readPage(a)
}

// readPage reads an answer of operation 1.
func readPage(a *answer) (*page, error) {
	pg := &page{status: a.status}
	switch a.status {
	case http.StatusNoContent, http.StatusNotFound:
		return pg, nil
	case http.StatusOK:
	default:
		return pg, statusError("listing the subscriptions", a)
	}
	if a.truncated {
		return pg, fmt.Errorf("listing the subscriptions: the answer is longer than %d bytes", maxBodyBytes)
	}
	var top any
	if err := json.Unmarshal(a.body, &top); err != nil {
		return pg, fmt.Errorf("listing the subscriptions: the answer is not JSON: %w", err)
	}
	if _, isArray := top.([]any); isArray {
		if err := json.Unmarshal(a.body, &pg.items); err != nil {
			return pg, fmt.Errorf("listing the subscriptions: %w", err)
		}
		return pg, nil
	}
	var w struct {
		Subscriptions []map[string]json.RawMessage `json:"subscriptions"`
		Meta          *pageMeta                    `json:"paginationMetadata"`
	}
	if err := json.Unmarshal(a.body, &w); err != nil {
		return pg, fmt.Errorf("listing the subscriptions: %w", err)
	}
	pg.items, pg.meta = w.Subscriptions, w.Meta
	return pg, nil
}

// listFirst lists the account without parameters: the first authenticated request, which
// tells whether the probe is authenticated, and whether the account is empty (emptyList).
func (p *prober) listFirst(ctx context.Context) error {
	a, err := p.service(ctx, http.MethodGet, p.accountPath(""), nil, nil)
	if err != nil {
		return fmt.Errorf("listing the subscriptions: %w", err)
	}
	switch a.status {
	case http.StatusUnauthorized:
		return fmt.Errorf("listing the subscriptions: the service refused the JWT (401): check EVENTNOTIFY_BASE_URL (it must be the service that EVENTNOTIFY_AUTH_URL issues JWTs for) or EVENTNOTIFY_JWT")
	case http.StatusForbidden:
		return fmt.Errorf("listing the subscriptions: the user may not access account %q (403): check EVENTNOTIFY_ACCOUNT_ID or -account", p.cfg.AccountID)
	}
	pg, err := readPage(a)
	if err != nil {
		return err
	}
	p.firstPage = pg
	if len(pg.items) > 0 {
		p.f.unknown(EmptyList, "the account is not empty")
		return nil
	}
	p.f.set(EmptyList, pg.status, "operation 1 on the account, which holds no subscription, answered %d", pg.status)
	return nil
}

// pageSizes learns the default and the largest page size from the account as it is.
func (p *prober) pageSizes(ctx context.Context) {
	if !p.f.Known(DefaultPageSize) {
		pg := p.firstPage
		if len(p.own) > 0 {
			var err error
			if pg, err = p.list(ctx, nil); err != nil {
				p.f.unknown(DefaultPageSize, "%v", err)
				pg = nil
			}
		}
		if pg != nil {
			if n, reason, ok := p.pageSize(ctx, pg, nil, 0); ok {
				p.f.set(DefaultPageSize, n, "a page without pageSize %s", reason)
			} else {
				p.f.unknown(DefaultPageSize, "%s", reason)
			}
		}
	}
	if !p.f.Known(MaxPageSize) {
		q := url.Values{"pageSize": {strconv.Itoa(largePageSize)}}
		pg, err := p.list(ctx, q)
		if err != nil {
			p.f.unknown(MaxPageSize, "asking for pageSize %d: %v", largePageSize, err)
			return
		}
		if n, reason, ok := p.pageSize(ctx, pg, q, largePageSize); ok {
			p.f.set(MaxPageSize, n, "a page asked for pageSize %d %s", largePageSize, reason)
		} else {
			p.f.unknown(MaxPageSize, "%s", reason)
		}
	}
}

// pageSize tells the size of the first page pg (asked with query, whose pageSize is asked, 0
// for none): its length, when more subscriptions exist beyond it (its pagination metadata say
// so, or the next page is not empty).
func (p *prober) pageSize(ctx context.Context, pg *page, query url.Values, asked int) (int, string, bool) {
	n := len(pg.items)
	if n == 0 {
		return 0, "the account holds no subscription, so no page shows its size", false
	}
	if asked > 0 && n >= asked {
		return 0, fmt.Sprintf("a page listed all %d subscriptions asked for", n), false
	}
	switch m := pg.meta; {
	case m != nil && m.TotalElements != nil:
		if *m.TotalElements > int64(n) {
			return n, fmt.Sprintf("listed %d of the %d subscriptions (paginationMetadata.totalElements)", n, *m.TotalElements), true
		}
		return 0, fmt.Sprintf("the account holds %d subscriptions, all on one page", *m.TotalElements), false
	case m != nil && m.Last != nil:
		if !*m.Last {
			return n, fmt.Sprintf("listed %d subscriptions and was not the last (paginationMetadata.last)", n), true
		}
		return 0, fmt.Sprintf("the account holds %d subscriptions, all on one page", n), false
	}
	next := url.Values{"pageNumber": {"1"}}
	for k, v := range query {
		next[k] = v
	}
	np, err := p.list(ctx, next)
	if err != nil {
		return 0, fmt.Sprintf("the page carries no paginationMetadata and the next page could not be read: %v", err), false
	}
	first := map[string]bool{}
	for _, id := range pg.ids() {
		first[id] = true
	}
	for _, id := range np.ids() {
		if first[id] {
			return 0, "the next page (pageNumber 1) repeats the first: the listing seems to ignore pageNumber", false
		}
	}
	if len(np.items) == 0 {
		return 0, fmt.Sprintf("the account holds %d subscriptions, all on one page", n), false
	}
	return n, fmt.Sprintf("listed %d subscriptions and the next page was not empty", n), true
}

// specFields are the members of a Subscription that the description gives (SERVICE.md), each
// tried as sortBy.
var specFields = []string{
	"subscriptionId", "eventName", "destinationType", "logLevel", "accountId", "destinationEmail",
	"eventStreamsEnvironment", "eventStreamsEnvironmentName", "eventStreamsTopic", "enabled",
	"createdDate", "lastUpdatedDate", "createdBy", "lastUpdatedUserId",
}

// noSuchField is a sortBy value that names no field: a listing that accepts it ignores sortBy.
const noSuchField = "tfaccProbeNoSuchField"

// sortBy tries each field of the description as sortBy: a 400 refuses it.
func (p *prober) sortBy(ctx context.Context) {
	accepted := []string{}
	empty := p.firstPage != nil && len(p.firstPage.items) == 0
	try := func(name string) (bool, error) {
		a, err := p.service(ctx, http.MethodGet, p.accountPath(""), url.Values{"sortBy": {name}, "pageSize": {"1"}}, nil)
		if err != nil {
			return false, err
		}
		switch {
		case a.status == http.StatusBadRequest:
			return false, nil
		case a.status == http.StatusOK, a.status == http.StatusNoContent, empty && a.status == p.firstPage.status:
			return true, nil
		}
		return false, statusError("sortBy "+name, a)
	}
	for _, name := range specFields {
		ok, err := try(name)
		if err != nil {
			p.f.unknown(SortBy, "%v", err)
			return
		}
		if ok {
			accepted = append(accepted, name)
		}
	}
	note := ""
	if ok, err := try(noSuchField); err == nil && ok {
		note = fmt.Sprintf("; it also accepted %q, which names no field, so it may ignore sortBy", noSuchField)
	}
	p.f.set(SortBy, accepted, "operation 1 accepted these of the description's %d Subscription fields as sortBy (a 400 refused the others)%s", len(specFields), note)
}
