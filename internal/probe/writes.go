package probe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// createItem is the SubscriptionCreate of one of the probe's own subscriptions.
type createItem struct {
	EventName         string `json:"eventName"`
	DestinationType   string `json:"destinationType"`
	LogLevel          string `json:"logLevel"`
	EventStreamsTopic string `json:"eventStreamsTopic"`
	Enabled           bool   `json:"enabled"`
}

// bulkItem is one item of a bulk update in the shape the provider sends
// (internal/client/bulk_update.go): a Subscription with its subscriptionId and every settable
// field, empty strings included.
type bulkItem struct {
	SubscriptionID              string `json:"subscriptionId"`
	EventName                   string `json:"eventName"`
	DestinationType             string `json:"destinationType"`
	LogLevel                    string `json:"logLevel"`
	EventStreamsEnvironment     string `json:"eventStreamsEnvironment"`
	EventStreamsEnvironmentName string `json:"eventStreamsEnvironmentName"`
	EventStreamsTopic           string `json:"eventStreamsTopic"`
	Enabled                     *bool  `json:"enabled,omitempty"`
}

// writes observes what needs subscriptions of the probe's own: one for the single shape, the
// bulk update and createdDate; up to MaxOwnSubscriptions when the page sizes are unknown. What
// fails is told in the findings' reasons.
func (p *prober) writes(ctx context.Context) {
	if p.eventName == "" {
		for _, name := range []string{BulkUpdate, CreatedDateVsDateHeader} {
			p.f.unknown(name, "no event name was read from the events catalogue, so the probe could not create a subscription")
		}
		return
	}
	first, err := p.create(ctx)
	if err != nil {
		p.f.unknown(BulkUpdate, "creating a subscription of its own: %v", err)
		p.f.unknown(CreatedDateVsDateHeader, "creating a subscription of its own: %v", err)
		return
	}
	if !p.f.Known(SingleShape) {
		p.singleShape(ctx, first.id)
	}
	p.bulkUpdate(ctx, first)
	if p.f.Known(DefaultPageSize) && p.f.Known(MaxPageSize) {
		return
	}
	var createErr error
	for len(p.own) < MaxOwnSubscriptions && createErr == nil {
		_, createErr = p.create(ctx)
	}
	p.pageSizes(ctx)
	for _, name := range []string{DefaultPageSize, MaxPageSize} {
		if !p.f.Known(name) {
			v := p.f[name]
			v.Reason += fmt.Sprintf(" (with the probe's %d own subscriptions)", len(p.own))
			if createErr != nil {
				v.Reason += fmt.Sprintf("; creating more: %v", createErr)
			}
			p.f[name] = v
		}
	}
}

// create creates one subscription of the probe's own (operation 3) and records it; the first
// also gives createdDateVsDateHeader.
func (p *prober) create(ctx context.Context) (owned, error) {
	topic := p.topicTag + strconv.Itoa(len(p.own)+1)
	body := map[string][]createItem{"subscriptions": {{
		EventName: p.eventName, DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: topic, Enabled: true,
	}}}
	a, err := p.service(ctx, http.MethodPost, p.accountPath(""), nil, body)
	if err != nil {
		p.lost = true // it may have been created
		return owned{}, err
	}
	if a.status != http.StatusCreated && a.status != http.StatusOK {
		if a.status >= 500 {
			p.lost = true
		}
		return owned{}, statusError("creating a subscription", a)
	}
	created, err := readCreated(a.body)
	if err != nil || created.SubscriptionID == "" {
		p.lost = true
		return owned{}, fmt.Errorf("creating a subscription: the answer gives no subscriptionId")
	}
	o := owned{id: created.SubscriptionID, topic: topic}
	p.own = append(p.own, o)
	if len(p.own) == 1 {
		p.createdVsDate(a, created.CreatedDate)
	}
	return o, nil
}

// createdSub is what the probe reads of a created subscription.
type createdSub struct {
	SubscriptionID string `json:"subscriptionId"`
	CreatedDate    *int64 `json:"createdDate"`
}

// readCreated reads the subscription of a create's answer: {"subscriptions": [...]}, a
// "subscription" member, or the fields at the top level.
func readCreated(body []byte) (createdSub, error) {
	var w struct {
		Subscriptions []createdSub `json:"subscriptions"`
		Subscription  *createdSub  `json:"subscription"`
		createdSub
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return createdSub{}, err
	}
	switch {
	case len(w.Subscriptions) == 1:
		return w.Subscriptions[0], nil
	case w.Subscription != nil:
		return *w.Subscription, nil
	}
	return w.createdSub, nil
}

// createdVsDate relates the created subscription's createdDate to the Date header of the
// create's answer.
func (p *prober) createdVsDate(a *answer, createdDate *int64) {
	date, err := http.ParseTime(a.header.Get("Date"))
	switch {
	case a.header.Get("Date") == "":
		p.f.unknown(CreatedDateVsDateHeader, "the create's answer carried no Date header")
	case err != nil:
		p.f.unknown(CreatedDateVsDateHeader, "the create's answer carried a Date header that is not an HTTP date")
	case createdDate == nil:
		p.f.unknown(CreatedDateVsDateHeader, "the create's answer carried no createdDate")
	default:
		offset := *createdDate - date.UnixMilli()
		p.f.set(CreatedDateVsDateHeader, offset, "createdDate minus the Date header of the create's answer, in milliseconds "+
			"(the header has whole seconds, so 0 to 999 is a service whose clocks agree)")
	}
}

// bulkUpdate sends operation 5 "update" with one item of the provider's shape that changes
// the probe's own subscription's logLevel: bulkUpdate is "items" when it is applied, "reject"
// when the request is refused as a whole (400).
func (p *prober) bulkUpdate(ctx context.Context, o owned) {
	enabled := true
	body := map[string]any{"operation": "update", "subscriptions": []bulkItem{{
		SubscriptionID: o.id, EventName: p.eventName, DestinationType: "EVENT_STREAMS", LogLevel: "WARNING",
		EventStreamsTopic: o.topic, Enabled: &enabled,
	}}}
	a, err := p.service(ctx, http.MethodPatch, p.accountPath(""), nil, body)
	if err != nil {
		p.f.unknown(BulkUpdate, "%v", err)
		return
	}
	switch a.status {
	case http.StatusBadRequest:
		p.f.set(BulkUpdate, "reject", "operation 5 refused an update in the provider's item shape as a whole (400)%s", serviceMessages(a.body))
		return
	case http.StatusMultiStatus, http.StatusOK:
	default:
		p.f.unknown(BulkUpdate, "operation 5 answered %d", a.status)
		return
	}
	var w struct {
		OperationStatuses []struct {
			SubscriptionID     string          `json:"subscriptionId"`
			HTTPEquivalentCode json.RawMessage `json:"httpEquivalentCode"`
			Message            string          `json:"message"`
		} `json:"operationStatuses"`
	}
	if json.Unmarshal(a.body, &w) != nil || len(w.OperationStatuses) != 1 {
		p.f.unknown(BulkUpdate, "operation 5 answered %d without one operationStatuses item", a.status)
		return
	}
	st := w.OperationStatuses[0]
	code := strings.Trim(string(st.HTTPEquivalentCode), `"`)
	if code != "200" {
		p.f.unknown(BulkUpdate, "operation 5 answered the item with httpEquivalentCode %s", code)
		return
	}
	// The item says it was updated: read it back.
	r, err := p.service(ctx, http.MethodGet, p.accountPath("/"+url.PathEscape(o.id)), nil, nil)
	if err != nil || r.status != http.StatusOK {
		p.f.set(BulkUpdate, "items", "operation 5 answered the item 200 (reading it back failed)")
		return
	}
	var level struct {
		LogLevel     string `json:"logLevel"`
		Subscription *struct {
			LogLevel string `json:"logLevel"`
		} `json:"subscription"`
	}
	_ = json.Unmarshal(r.body, &level)
	if level.Subscription != nil {
		level.LogLevel = level.Subscription.LogLevel
	}
	if level.LogLevel != "WARNING" {
		p.f.unknown(BulkUpdate, "operation 5 answered the item 200, but the subscription read back has logLevel %q, not the WARNING sent", level.LogLevel)
		return
	}
	p.f.set(BulkUpdate, "items", "operation 5 applied an update in the provider's item shape (the item answered 200, read back changed)")
}

// serviceMessages is the "messages" of an error body, for a reason: ": a; b", or "".
func serviceMessages(body []byte) string {
	var e struct {
		Messages []string `json:"messages"`
	}
	if json.Unmarshal(body, &e) != nil || len(e.Messages) == 0 {
		return ""
	}
	s := strings.Join(e.Messages, "; ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return ": " + strings.Map(func(r rune) rune {
		if r < ' ' {
			return ' '
		}
		return r
	}, s)
}

// cleanup deletes every subscription the probe created (operation 8, each by its id), also
// when ctx is cancelled; when a create's outcome is unknown it also looks for this run's topic
// in the account and deletes what carries it. Nothing else is touched.
func (p *prober) cleanup(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	var errs []error
	deleted := map[string]bool{}
	del := func(id string) {
		if deleted[id] {
			return
		}
		a, err := p.service(ctx, http.MethodDelete, p.accountPath("/"+url.PathEscape(id)), nil, nil)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("deleting the probe's subscription %s: %w", id, err))
		case a.status == http.StatusNoContent || a.status == http.StatusOK || a.status == http.StatusNotFound:
			deleted[id] = true
		default:
			errs = append(errs, fmt.Errorf("deleting the probe's subscription %s: the service answered %d", id, a.status))
		}
	}
	for _, o := range p.own {
		del(o.id)
	}
	if p.lost {
		ids, err := p.findOwn(ctx)
		if err != nil {
			errs = append(errs, fmt.Errorf("looking for the probe's subscriptions (topic %s*): %w", p.topicTag, err))
		}
		for _, id := range ids {
			del(id)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: delete the subscriptions whose eventStreamsTopic starts with %s", err, p.topicTag)
	}
	return nil
}

// maxSweepPages bounds the pages findOwn reads.
const maxSweepPages = 1000

// findOwn lists the account page by page for subscriptions of this run's topic.
func (p *prober) findOwn(ctx context.Context) ([]string, error) {
	var ids []string
	seen := map[string]bool{}
	for n := 0; n < maxSweepPages; n++ {
		pg, err := p.list(ctx, url.Values{"pageNumber": {strconv.Itoa(n)}})
		if err != nil {
			return ids, err
		}
		fresh := false
		for _, it := range pg.items {
			var id, topic string
			_ = json.Unmarshal(it["subscriptionId"], &id)
			_ = json.Unmarshal(it["eventStreamsTopic"], &topic)
			if id == "" || seen[id] {
				continue
			}
			seen[id], fresh = true, true
			if strings.HasPrefix(topic, p.topicTag) {
				ids = append(ids, id)
			}
		}
		if !fresh || (pg.meta != nil && pg.meta.Last != nil && *pg.meta.Last) {
			return ids, nil
		}
	}
	return ids, nil
}
