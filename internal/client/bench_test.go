package client

import (
	"fmt"
	"strings"
	"testing"
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
