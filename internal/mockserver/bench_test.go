package mockserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// BenchmarkList10k lists one page (the default 20) of an account with
// 10,000 subscriptions, cycling through the pages, through ServeHTTP.
func BenchmarkList10k(b *testing.B) {
	s := mockserver.New(mockserver.Config{})
	for i := range 10_000 {
		s.PutSubscription(testAccount, mockserver.Subscription{
			EventName: fmt.Sprintf("EVENT.%05d", i), DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", Enabled: true,
		})
	}
	token := s.IssueJWT(testAccount, testUser, time.Now().Add(time.Hour))
	path := subsPath(testAccount)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, fmt.Sprintf("%s?pageNumber=%d", path, i%500), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
		i++
	}
}
