package mockserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// TestSubscriptionLimit holds Config.MaxSubscriptions: a create, a replacement or a topic call
// that would make the account hold more is answered 409 with the exact message and stores
// nothing; one that reaches the limit exactly is served.
func TestSubscriptionLimit(t *testing.T) {
	t.Parallel()
	const limit = 3
	items := func(n int) map[string]any {
		list := make([]map[string]any, n)
		for i := range list {
			list[i] = validItem()
		}
		return map[string]any{"subscriptions": list}
	}
	topic := map[string]any{"eventStreamsEnvironmentId": "env-1", "eventStreamsSubscriptionName": "s", "topicName": "t"}
	over := func(would int, what string) string {
		return fmt.Sprintf("Account %s would hold %d %s: the mock keeps at most 3 per account "+
			"(eventnotify-mock -max-subscriptions); delete some first. Nothing was stored", testAccount, would, what)
	}
	tests := []struct {
		name      string
		held      int // created first
		topics    int // topic calls first
		method    string
		path      string
		body      any
		status    int
		message   string // of the 409
		wantHeld  int
		wantTopic int
	}{
		{name: "create to the limit", held: 1, method: http.MethodPost, path: subsPath(testAccount), body: items(2), status: http.StatusCreated, wantHeld: 3},
		{name: "create over the limit", held: 2, method: http.MethodPost, path: subsPath(testAccount), body: items(2), status: http.StatusConflict,
			message: over(4, "subscriptions"), wantHeld: 2},
		{name: "one create of many over the limit", method: http.MethodPost, path: subsPath(testAccount), body: items(5000), status: http.StatusConflict,
			message: over(5000, "subscriptions"), wantHeld: 0},
		{name: "replacement to the limit", held: 3, method: http.MethodPut, path: subsPath(testAccount), body: items(3), status: http.StatusOK, wantHeld: 3},
		{name: "replacement over the limit", held: 1, method: http.MethodPut, path: subsPath(testAccount), body: items(4), status: http.StatusConflict,
			message: over(4, "subscriptions"), wantHeld: 1},
		{name: "topic to the limit", topics: 2, method: http.MethodPost, path: topicPath(testAccount), body: topic, status: http.StatusCreated, wantTopic: 3},
		{name: "topic over the limit", held: 3, topics: 3, method: http.MethodPost, path: topicPath(testAccount), body: topic, status: http.StatusConflict,
			message: over(4, "topic subscriptions"), wantHeld: 3, wantTopic: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, mockserver.Config{MaxSubscriptions: limit})
			token := e.jwt(testAccount)
			if tt.held > 0 {
				e.with(t).createN(token, testAccount, tt.held)
			}
			for range tt.topics {
				e.with(t).do(http.MethodPost, topicPath(testAccount), token, topic).wantStatus(t, http.StatusCreated)
			}
			r := e.with(t).do(tt.method, tt.path, token, tt.body)
			if tt.status == http.StatusConflict {
				r.wantError(t, http.StatusConflict, "Conflict", tt.path, tt.message)
			} else {
				r.wantStatus(t, tt.status)
			}
			if got := len(e.srv.Subscriptions(testAccount)); got != tt.wantHeld {
				t.Errorf("account holds %d subscriptions, want %d", got, tt.wantHeld)
			}
			topicSubs := 0
			for _, tp := range e.srv.Topics(testAccount) {
				topicSubs += len(tp.SubscriptionNames)
			}
			if topicSubs != tt.wantTopic {
				t.Errorf("topics hold %d subscriptions, want %d", topicSubs, tt.wantTopic)
			}
		})
	}
}

// TestSubscriptionLimitDefault: with the zero Config, the account holds
// DefaultMaxSubscriptions and not one more. (Filled through PutSubscription, which counts but is
// not bounded, then the last one through the API.)
func TestSubscriptionLimitDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t, mockserver.Config{})
	token := e.jwt(testAccount)
	for range mockserver.DefaultMaxSubscriptions - 1 {
		e.srv.PutSubscription(testAccount, mockserver.Subscription{EventName: "E", DestinationType: "EMAIL", LogLevel: "INFO"})
	}
	e.createN(token, testAccount, 1)
	r := e.do(http.MethodPost, subsPath(testAccount), token, map[string]any{"subscriptions": []any{validItem()}})
	r.wantError(t, http.StatusConflict, "Conflict", subsPath(testAccount), fmt.Sprintf("Account %s would hold %d subscriptions: "+
		"the mock keeps at most %d per account (eventnotify-mock -max-subscriptions); delete some first. Nothing was stored",
		testAccount, mockserver.DefaultMaxSubscriptions+1, mockserver.DefaultMaxSubscriptions))
	if got := len(e.srv.Subscriptions(testAccount)); got != mockserver.DefaultMaxSubscriptions {
		t.Errorf("account holds %d subscriptions, want %d", got, mockserver.DefaultMaxSubscriptions)
	}
}

// TestDeliveriesBounded holds Config.MaxDeliveries: the latest are kept, the oldest dropped and
// counted, however many events are fired; GET /_mock/deliveries pages through the kept ones.
func TestDeliveriesBounded(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.Config{MaxDeliveries: 5})
	srv.PutSubscription("acc-1", mockserver.Subscription{EventName: "E", DestinationType: "EMAIL", LogLevel: "INFO", Enabled: true})
	srv.PutSubscription("acc-1", mockserver.Subscription{EventName: "E", DestinationType: "EMAIL", LogLevel: "INFO", Enabled: true})
	for i := range 1000 { // 2,000 deliveries
		if _, err := srv.FireEvent(mockserver.Event{AccountID: "acc-1", EventName: "E", LogLevel: []string{"INFO", "WARNING", "ERROR"}[i%3]}); err != nil {
			t.Fatal(err)
		}
	}
	if got, dropped := len(srv.Deliveries()), srv.DroppedDeliveries(); got != 5 || dropped != 1995 {
		t.Fatalf("kept %d deliveries, dropped %d; want 5 and 1995", got, dropped)
	}
	// The last events (i = 997, 998, 999: WARNING, ERROR, INFO) made the last ones, two each.
	if d := srv.Deliveries(); d[0].LogLevel != "WARNING" || d[2].LogLevel != "ERROR" || d[4].LogLevel != "INFO" {
		t.Errorf("kept %+v, want the latest", d)
	}

	pages := []struct {
		query   string
		levels  []string
		next    int
		more    bool
		status  int
		message string
	}{
		{query: "", levels: []string{"WARNING", "ERROR", "ERROR", "INFO", "INFO"}, next: 2000, status: http.StatusOK},
		{query: "?after=3", levels: []string{"WARNING", "ERROR", "ERROR", "INFO", "INFO"}, next: 2000, status: http.StatusOK}, // dropped ones
		{query: "?limit=2", levels: []string{"WARNING", "ERROR"}, next: 1997, more: true, status: http.StatusOK},
		{query: "?after=1997&limit=2", levels: []string{"ERROR", "INFO"}, next: 1999, more: true, status: http.StatusOK},
		{query: "?after=1999", levels: []string{"INFO"}, next: 2000, status: http.StatusOK},
		{query: "?after=2000", levels: []string{}, next: 2000, status: http.StatusOK},
		{query: "?after=5000", levels: []string{}, next: 5000, status: http.StatusOK},
		{query: "?after=-1", status: http.StatusBadRequest, message: `after must be an integer greater than or equal to 0, got "-1"`},
		{query: "?limit=0", status: http.StatusBadRequest, message: `limit must be an integer from 1 to 10000, got "0"`},
		{query: "?limit=10001", status: http.StatusBadRequest, message: `limit must be an integer from 1 to 10000, got "10001"`},
	}
	for _, p := range pages {
		t.Run("GET"+p.query, func(t *testing.T) {
			r := control(srv.HandleDeliveries, http.MethodGet, "/_mock/deliveries"+p.query, "")
			if p.status != http.StatusOK {
				r.wantError(t, p.status, "Bad Request", "/_mock/deliveries", p.message)
				return
			}
			r.wantStatus(t, http.StatusOK)
			var body wireDeliveries
			decodeStrict(t, r.body, &body)
			levels := []string{}
			for _, d := range body.Deliveries {
				levels = append(levels, d.LogLevel)
			}
			if fmt.Sprint(levels) != fmt.Sprint(p.levels) || body.Dropped != 1995 || body.Next != p.next || body.More != p.more {
				t.Errorf("levels %v dropped %d next %d more %v; want %v 1995 %d %v", levels, body.Dropped, body.Next, body.More, p.levels, p.next, p.more)
			}
		})
	}
}

// TestDeliveriesPageCapped: GET /_mock/deliveries answers at most MaxDeliveriesPage deliveries,
// with more set, and the rest after them.
func TestDeliveriesPageCapped(t *testing.T) {
	t.Parallel()
	srv := mockserver.New(mockserver.Config{})
	for range mockserver.MaxDeliveriesPage + 1 {
		srv.PutSubscription("acc-1", mockserver.Subscription{EventName: "E", DestinationType: "EMAIL", LogLevel: "INFO", Enabled: true})
	}
	if _, err := srv.FireEvent(mockserver.Event{AccountID: "acc-1", EventName: "E", LogLevel: "INFO"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		query string
		n     int
		next  int
		more  bool
	}{
		{"", mockserver.MaxDeliveriesPage, mockserver.MaxDeliveriesPage, true},
		{fmt.Sprintf("?after=%d", mockserver.MaxDeliveriesPage), 1, mockserver.MaxDeliveriesPage + 1, false},
	} {
		r := control(srv.HandleDeliveries, http.MethodGet, "/_mock/deliveries"+p.query, "")
		r.wantStatus(t, http.StatusOK)
		var body wireDeliveries
		decodeStrict(t, r.body, &body)
		if len(body.Deliveries) != p.n || body.Next != p.next || body.More != p.more || body.Dropped != 0 {
			t.Errorf("GET%s: %d deliveries, next %d, more %v, dropped %d; want %d, %d, %v, 0", p.query, len(body.Deliveries), body.Next, body.More, body.Dropped, p.n, p.next, p.more)
		}
	}
}
