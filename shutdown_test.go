package main

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

// After a signal, the plugin ends (with 143) only once waitWrites returns, whether the writes
// ended or the limit passed; waitWrites gets a context bounded by the limit; a second signal
// changes nothing; without a signal nothing ends the plugin.
func TestServeThroughSignals(t *testing.T) {
	tests := []struct {
		name      string
		signals   []os.Signal
		waitErr   error // what waitWrites returns once released
		cancelled bool  // the serving context ends before any signal
		wantExit  int   // 0: exit is never called
	}{
		{name: "SIGTERM, writes answered", signals: []os.Signal{syscall.SIGTERM}, wantExit: signalExitCode},
		{name: "SIGINT twice, writes answered", signals: []os.Signal{os.Interrupt, os.Interrupt}, wantExit: signalExitCode},
		{name: "SIGTERM, limit passed", signals: []os.Signal{syscall.SIGTERM}, waitErr: context.DeadlineExceeded, wantExit: signalExitCode},
		{name: "no signal", cancelled: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			signals := make(chan os.Signal, len(tt.signals))
			for _, s := range tt.signals {
				signals <- s
			}
			if tt.cancelled {
				cancel()
			}
			release := make(chan struct{})
			var released bool
			var deadline time.Time
			waitWrites := func(ctx context.Context) error {
				deadline, _ = ctx.Deadline()
				<-release
				released = true
				return tt.waitErr
			}
			exits := make(chan int, 1)
			returned := make(chan struct{})
			go func() {
				defer close(returned)
				serveThroughSignals(ctx, signals, waitWrites, time.Hour, func(code int) {
					if !released {
						t.Errorf("exit(%d) before the writes in flight were answered", code)
					}
					exits <- code
				})
			}()
			close(release)
			<-returned
			close(signals) // ends the goroutine that logs further signals
			got := 0
			select {
			case got = <-exits:
			default:
			}
			if got != tt.wantExit {
				t.Fatalf("exit code %d, want %d (0: no exit)", got, tt.wantExit)
			}
			if tt.wantExit != 0 && (deadline.IsZero() || time.Until(deadline) <= 0) {
				t.Fatalf("waitWrites got the deadline %v, want one an hour (the limit) ahead", deadline)
			}
		})
	}
}
