package provider

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// waitQuiet returns only once no call is in flight and none started during the quiet period,
// and with its context's error when the context ends first.
func TestWriteCounter_waitQuiet(t *testing.T) {
	t.Run("idle", func(t *testing.T) {
		w := &writeCounter{after: firedAfter}
		if err := w.waitQuiet(context.Background(), time.Hour); err != nil {
			t.Fatalf("waitQuiet on an idle counter: %v", err)
		}
	})
	t.Run("cancelled while a call is in flight", func(t *testing.T) {
		w := &writeCounter{after: firedAfter}
		defer w.begin()()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := w.waitQuiet(ctx, time.Hour); !errors.Is(err, context.Canceled) {
			t.Fatalf("waitQuiet with a call in flight and a cancelled context = %v, want context.Canceled", err)
		}
	})
	t.Run("waits for the call in flight", func(t *testing.T) {
		w := &writeCounter{after: firedAfter}
		end := w.begin()
		returned := make(chan error, 1)
		go func() { returned <- w.waitQuiet(context.Background(), time.Hour) }()
		end()
		end() // a second end is ignored
		if err := <-returned; err != nil {
			t.Fatalf("waitQuiet = %v once the call ended", err)
		}
		if w.inFlight() != 0 {
			t.Fatalf("%d calls in flight after one began and ended twice, want 0", w.n)
		}
	})
	t.Run("a call during the quiet period restarts it", func(t *testing.T) {
		timers := make(chan chan time.Time)
		w := &writeCounter{after: func(time.Duration) <-chan time.Time {
			c := make(chan time.Time, 1)
			timers <- c
			return c
		}}
		returned := make(chan error, 1)
		go func() { returned <- w.waitQuiet(context.Background(), time.Hour) }()
		first := <-timers
		w.begin()() // a call starts and ends while the counter is quiet
		first <- time.Time{}
		second := <-timers // waitQuiet saw the call and waits a whole quiet period again
		select {
		case err := <-returned:
			t.Fatalf("waitQuiet returned (%v) before a quiet period without calls", err)
		default:
		}
		second <- time.Time{}
		if err := <-returned; err != nil {
			t.Fatalf("waitQuiet = %v after a quiet period without calls", err)
		}
	})
}

// firedAfter is a time.After whose time has come.
func firedAfter(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}

// countingFramework is a framework server whose ApplyResourceChange and InvokeAction report
// how many writes are in flight while they run.
type countingFramework struct {
	frameworkServer
	writes            *writeCounter
	inApply, inEvents int
}

func (f *countingFramework) ApplyResourceChange(context.Context, *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	f.inApply = f.writes.inFlight()
	return &tfprotov6.ApplyResourceChangeResponse{}, nil
}

func (f *countingFramework) InvokeAction(context.Context, *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	return &tfprotov6.InvokeActionServerStream{Events: func(yield func(tfprotov6.InvokeActionEvent) bool) {
		f.inEvents = f.writes.inFlight()
		yield(tfprotov6.InvokeActionEvent{Type: tfprotov6.CompletedInvokeActionEventType{}})
	}}, nil
}

// The protocol server counts an apply while it runs and an action until its last event is
// sent, and neither once done.
func TestProtocolServer_countsWrites(t *testing.T) {
	writes := &writeCounter{}
	f := &countingFramework{writes: writes}
	s := &protocolServer{frameworkServer: f, writes: writes}
	if _, err := s.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{}); err != nil {
		t.Fatal(err)
	}
	stream, err := s.InvokeAction(context.Background(), &tfprotov6.InvokeActionRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if n := writes.inFlight(); n != 1 {
		t.Fatalf("%d writes in flight between InvokeAction and its events, want 1", n)
	}
	for range stream.Events {
	}
	if f.inApply != 1 || f.inEvents != 1 || writes.inFlight() != 0 {
		t.Fatalf("writes in flight: %d in the apply, %d in the action's events, %d after; want 1, 1, 0", f.inApply, f.inEvents, writes.inFlight())
	}
}
