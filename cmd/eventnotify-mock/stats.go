package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// controlPrefix is the path prefix of the command's own endpoints, outside the service's
// paths (/rest/v1, /auth/jwt): the benchmark reads the counters through them, and users' tests
// fire events and read the deliveries.
//
//	GET  /_mock/stats  counters since start or the last reset, as JSON (see stats), or
//	                   with ?format=text as tab-separated lines for shell scripts
//	                   (total, jwt_fetches, handler_seconds, subscriptions, then one
//	                   "request<TAB>METHOD route<TAB>count" line per route)
//	POST /_mock/events      fires an event {"accountId", "eventName", "logLevel"} and records one
//	                        delivery per subscription that hears it (mockserver.HandleEvents)
//	GET  /_mock/deliveries  the deliveries recorded, as JSON, by pages (mockserver.HandleDeliveries)
//	POST /_mock/reset       clears the counters, the request log and the deliveries
const controlPrefix = "/_mock/"

// stats is the body of GET /_mock/stats.
type stats struct {
	// Requests counts requests by "METHOD route" (routes as in mockserver.Route*; "" for
	// unknown paths), JWT requests included.
	Requests map[string]int `json:"requests"`
	// Total is the number of requests.
	Total int `json:"total"`
	// JWTFetches is the number of JWTs issued.
	JWTFetches int `json:"jwt_fetches"`
	// HandlerSeconds is the time spent serving requests, the injected latency excluded.
	HandlerSeconds float64 `json:"handler_seconds"`
	// Subscriptions is the number of subscriptions the account holds now.
	Subscriptions int `json:"subscriptions"`
}

// controlled serves the service, timing every request, and the /_mock/ endpoints.
type controlled struct {
	srv     *mockserver.Server
	account string
	latency time.Duration
	busy    atomic.Int64 // nanoseconds spent in the service's handler, latency excluded
}

func (c *controlled) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, controlPrefix) {
		c.control(w, r)
		return
	}
	start := time.Now()
	c.srv.ServeHTTP(w, r)
	c.busy.Add(int64(max(0, time.Since(start)-c.latency)))
}

// control serves the /_mock/ endpoints.
func (c *controlled) control(w http.ResponseWriter, r *http.Request) {
	switch strings.TrimPrefix(r.URL.Path, controlPrefix) {
	case "events": // each handler answers 405 to another method
		c.srv.HandleEvents(w, r)
		return
	case "deliveries":
		c.srv.HandleDeliveries(w, r)
		return
	}
	switch strings.TrimPrefix(r.URL.Path, controlPrefix) + " " + r.Method {
	case "stats GET":
		st := stats{Requests: make(map[string]int), JWTFetches: c.srv.JWTFetches(),
			HandlerSeconds: time.Duration(c.busy.Load()).Seconds(), Subscriptions: len(c.srv.Subscriptions(c.account))}
		// The counters, not the request log: the log keeps the latest requests only.
		c.srv.EachCount(func(method, route string, n int) {
			st.Requests[method+" "+route] += n
			st.Total += n
		})
		if r.URL.Query().Get("format") == "text" {
			writeStatsText(w, st)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(st)
	case "reset POST":
		c.srv.ResetCounters()
		c.srv.ResetDeliveries()
		c.busy.Store(0)
		w.WriteHeader(http.StatusNoContent)
	default:
		http.Error(w, "unknown control endpoint; use GET "+controlPrefix+"stats, POST "+controlPrefix+"events, GET "+controlPrefix+
			"deliveries or POST "+controlPrefix+"reset", http.StatusNotFound)
	}
}

// writeStatsText writes st as tab-separated lines, requests sorted by method and route.
func writeStatsText(w http.ResponseWriter, st stats) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "total\t%d\njwt_fetches\t%d\nhandler_seconds\t%.6f\nsubscriptions\t%d\n",
		st.Total, st.JWTFetches, st.HandlerSeconds, st.Subscriptions)
	for _, k := range slices.Sorted(maps.Keys(st.Requests)) {
		fmt.Fprintf(w, "request\t%s\t%d\n", k, st.Requests[k])
	}
}

// seed stores n subscriptions in the account, created one millisecond apart in the past.
func seed(srv *mockserver.Server, account string, n int) {
	base := time.Now().Add(-24 * time.Hour).UnixMilli()
	for i := range n {
		srv.PutSubscription(account, mockserver.Subscription{
			EventName:         "ATOM.STATUS",
			DestinationType:   "EVENT_STREAMS",
			LogLevel:          "ERROR",
			EventStreamsTopic: fmt.Sprintf("seeded-%06d", i),
			Enabled:           true,
			CreatedDate:       base + int64(i),
			LastUpdatedDate:   base + int64(i),
			CreatedBy:         "seed",
			LastUpdatedUserID: "seed",
		})
	}
}
