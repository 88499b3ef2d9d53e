package httpapi

import (
	"context"
	"errors"
	"net"
	"slices"
	"testing"
)

// TestLoopbackDial: plain http dials loopback IP addresses only: "localhost" becomes
// 127.0.0.1 then ::1 without any lookup (the dialer underneath only ever sees IP literals), a
// loopback IP is dialed as it is, and any other address is refused before anything is dialed.
func TestLoopbackDial(t *testing.T) {
	t.Parallel()
	refused := errors.New("connection refused by the test")
	tests := []struct {
		address string
		dialed  []string // addresses the dialer underneath receives
		refused bool     // NotLoopbackError before any dial
	}{
		{address: "localhost:8080", dialed: []string{"127.0.0.1:8080", "[::1]:8080"}},
		{address: "LocalHost.:8080", dialed: []string{"127.0.0.1:8080", "[::1]:8080"}},
		{address: "127.0.0.1:8080", dialed: []string{"127.0.0.1:8080"}},
		{address: "127.9.9.9:8080", dialed: []string{"127.9.9.9:8080"}},
		{address: "[::1]:8080", dialed: []string{"[::1]:8080"}},
		{address: "[::ffff:127.0.0.1]:8080", dialed: []string{"[::ffff:127.0.0.1]:8080"}},
		{address: "example.com:8080", refused: true},
		{address: "localhost.example.com:8080", refused: true},
		{address: "evil.localhost:8080", refused: true},
		{address: "192.0.2.2:8080", refused: true},
		{address: "[::ffff:192.0.2.2]:8080", refused: true},
		{address: "[fe80::1%25eth0]:8080", refused: true},
	}
	for _, tc := range tests {
		t.Run(tc.address, func(t *testing.T) {
			var dialed []string
			dial := loopbackDial(func(_ context.Context, _, address string) (net.Conn, error) {
				dialed = append(dialed, address)
				return nil, refused
			})
			_, err := dial(context.Background(), "tcp", tc.address)
			var nl *NotLoopbackError
			if tc.refused {
				if !errors.As(err, &nl) || nl.Address != tc.address || nl.Remote != "" {
					t.Fatalf("error %v, want a NotLoopbackError for %s before dialing", err, tc.address)
				}
				if len(dialed) != 0 {
					t.Fatalf("dialed %v for an address that is not loopback", dialed)
				}
				return
			}
			if !errors.Is(err, refused) {
				t.Fatalf("error %v, want the dialer's own error", err)
			}
			if !slices.Equal(dialed, tc.dialed) {
				t.Fatalf("dialed %v, want %v", dialed, tc.dialed)
			}
		})
	}
}

// TestLoopbackDial_cancelled: a cancelled dial of "localhost" stops after the first address.
func TestLoopbackDial_cancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	dial := loopbackDial(func(ctx context.Context, _, _ string) (net.Conn, error) {
		calls++
		return nil, ctx.Err()
	})
	if _, err := dial(ctx, "tcp", "localhost:1"); !errors.Is(err, context.Canceled) || calls != 1 {
		t.Fatalf("error %v after %d dials, want context.Canceled after 1", err, calls)
	}
}
