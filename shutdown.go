package main

import (
	"context"
	"log"
	"os"
	"time"
)

// How the plugin ends after a SIGTERM or SIGINT. A CI system that cancels a job signals the
// whole process group, so the plugin gets the signal at the same moment as Terraform. Left to
// Go's default, SIGTERM would end the plugin between sending a create and reading its answer:
// the service would hold subscriptions that no state records. Terraform itself treats SIGTERM
// like Ctrl-C: it stops starting operations, waits for those in flight and records their
// results, then stops the plugin through go-plugin. So the plugin keeps serving, and ends by
// itself only if Terraform does not stop it (Terraform itself was killed, say): once no write
// has been in flight for signalQuiet, and at the latest signalLimit after the first signal.
// Why these bounds: DESIGN.md#lost-answers-and-ownership.

const (
	// signalQuiet is how long no write must have been in flight before a signalled plugin
	// ends by itself. Terraform stops the plugin within moments of its last answer; this
	// leaves it ample time on a loaded machine.
	signalQuiet = 10 * time.Second
	// signalLimit bounds how long a signalled plugin keeps serving. A write that was sent
	// runs to its answer (one attempt, at most two minutes) and its settling (reads at 0,
	// 1, 3, 7 and 15 seconds, each at most two minutes): 12 minutes 15 seconds at worst.
	signalLimit = 15 * time.Minute
	// signalExitCode is the exit status of a plugin that ended by itself after a signal
	// (128 + SIGTERM, as a shell reports a process ended by SIGTERM).
	signalExitCode = 143
)

// serveThroughSignals waits for the first of signals, then for waitWrites (given a context
// that ends after limit), and then calls exit. Further signals are logged and ignored.
// It returns when exit returns or ctx ends.
func serveThroughSignals(ctx context.Context, signals <-chan os.Signal, waitWrites func(context.Context) error, limit time.Duration, exit func(code int)) {
	var first os.Signal
	select {
	case first = <-signals:
	case <-ctx.Done():
		return
	}
	log.Printf("[INFO] eventnotify: received %v: serving until Terraform has the answers of the writes in flight (at most %s)", first, limit)
	go func() {
		for s := range signals {
			log.Printf("[INFO] eventnotify: received %v again: still serving until the writes in flight are answered", s)
		}
	}()
	wctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if err := waitWrites(wctx); err != nil {
		if ctx.Err() != nil {
			return
		}
		log.Printf("[WARN] eventnotify: writes still in flight %s after %v; ending: their subscriptions may exist on the service without being in any state", limit, first)
	}
	exit(signalExitCode)
}
