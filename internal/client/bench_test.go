package client

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/client/httpapi"
)

// page100 is a 100-item page of listSubscribedEventsForAccount.
func page100() []byte {
	var items []string
	for i := 0; i < 100; i++ {
		items = append(items, strings.Replace(fullSubscriptionJSON, "6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d5c6a", fmt.Sprintf("6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d5%03d", i), 1))
	}
	return []byte(`{"subscriptions":[` + strings.Join(items, ",") + `],"paginationMetadata":{"pageNumber":0,"pageSize":100,"totalPages":3,"totalElements":250,"numberOfElements":100,"first":true,"last":false}}`)
}

// BenchmarkDecodePage100 decodes a 100-subscription page into a Page.
func BenchmarkDecodePage100(b *testing.B) {
	body := page100()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		w, err := decodeSubscriptionWrapper(body)
		if err != nil {
			b.Fatal(err)
		}
		if p := w.page(0, 100); len(p.Subscriptions) != 100 || p.Last {
			b.Fatalf("bad page %d %t", len(p.Subscriptions), p.Last)
		}
	}
}

// BenchmarkLookalikes1000 is the look-alike check of one planned create (lookalikes.go) on an
// account of 1000 subscriptions whose listing the Client holds already (the plan's refresh
// listed it: ceil(1000 / 100) = 10 requests, shared by every create of the plan, the only
// requests the check costs): two of the 1000 share the planned content.
func BenchmarkLookalikes1000(b *testing.B) {
	c, err := New(Config{Config: httpapi.Config{BaseURL: "https://x", AccountID: "acc", JWT: "pre.issued.jwt"}})
	if err != nil {
		b.Fatal(err)
	}
	in := SubscriptionInput{EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", EventStreamsTopic: "t-0"}
	now := time.Now().UnixMilli()
	subs := make([]Subscription, 1000)
	for i := range subs {
		subs[i] = Subscription{ID: fmt.Sprintf("6f1c2a9e-0b7d-4c36-9a51-2b8f3e4d%04d", i), EventName: in.EventName,
			DestinationType: in.DestinationType, LogLevel: in.LogLevel, EventStreamsTopic: fmt.Sprintf("t-%d", i%500),
			Enabled: true, CreatedDate: now - int64(i)}
	}
	c.seen.keepListing("acc", subs)
	b.ReportAllocs()
	for b.Loop() {
		found, err := c.Lookalikes(context.Background(), "acc", in)
		if err != nil || len(found) != 2 {
			b.Fatalf("found %d look-alikes (%v), want 2", len(found), err)
		}
	}
}
