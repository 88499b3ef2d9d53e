package httpapi

import (
	"context"
	"testing"
	"time"
)

// BenchmarkTokenCacheParallel calls Token on a warm cache from parallel goroutines.
func BenchmarkTokenCacheParallel(b *testing.B) {
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", AuthURL: "http://127.0.0.1:1", AccountID: "acc", Username: "u", Password: "p"})
	if err != nil {
		b.Fatal(err)
	}
	far := time.Now().Add(time.Hour)
	c.tokens.store("acc", cachedToken{value: "warm.token.value", expiresAt: far, refreshAt: far})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			tok, err := c.Token(ctx, "")
			if err != nil || tok != "warm.token.value" {
				b.Fatalf("Token = %q, %v", tok, err)
			}
		}
	})
}
