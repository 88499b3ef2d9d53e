package provider

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-exec/tfexec"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// The CLI harness with the provider served from the test process (TF_REATTACH_PROVIDERS), as
// plugin-testing serves it, but with the CLI's own output to read: a test can set the
// provider's test hooks (adjustClient) and still assert the warnings the CLI prints, which
// plugin-testing does not surface.
//
// Terraform dials a reattached provider once per provider configuration, and every dial
// reaches the one server of that address: two aliases (or a module used twice) share one
// provider instance, and the framework gives every resource the data of the configuration
// configured last. A test that needs two instances, as two plugin processes would be, serves
// the provider under two addresses (inProcessProvider.source) and selects the second with the
// provider meta-argument.

// inProcessProvider is a provider served from the test process for the CLI runs of a
// workspace.
type inProcessProvider struct {
	// source is the provider's source address without the registry host, such as
	// "eventnotify/eventnotify"; the host is the acceptance CLI's.
	source string
	// factory builds the provider's server; it is called once for each CLI run, as each run
	// starts its plugins afresh.
	factory func() (tfprotov6.ProviderServer, error)
}

// runInProcess runs the CLI with args while the providers are served from this process, and
// returns its combined output and exit code. The servers start before the run and stop after
// it.
func (w *cliWorkspace) runInProcess(providers []inProcessProvider, args ...string) (string, int) {
	w.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stopped []chan struct{}
	defer func() {
		cancel()
		for _, c := range stopped {
			<-c
		}
	}()
	reattach := tfexec.ReattachInfo{}
	for _, p := range providers {
		address := w.cli.registryHost() + "/" + p.source
		config, done := serveInProcess(ctx, w.t, address, p.factory)
		stopped = append(stopped, done)
		reattach[address] = config
	}
	env, err := json.Marshal(reattach)
	if err != nil {
		w.t.Fatal(err)
	}
	return w.run([]string{"TF_REATTACH_PROVIDERS=" + string(env)}, args...)
}

// mustRunInProcess is runInProcess that fails the test unless the CLI exits 0.
func (w *cliWorkspace) mustRunInProcess(providers []inProcessProvider, args ...string) string {
	w.t.Helper()
	out, code := w.runInProcess(providers, args...)
	if code != 0 {
		w.t.Fatalf("%s exited %d:\n%s", args, code, out)
	}
	return out
}

// serveInProcess serves the provider that factory builds under address until ctx is done,
// and returns how the CLI reattaches to it and a channel closed once it has stopped.
func serveInProcess(ctx context.Context, t *testing.T, address string,
	factory func() (tfprotov6.ProviderServer, error)) (tfexec.ReattachConfig, chan struct{}) {
	t.Helper()
	server, err := factory()
	if err != nil {
		t.Fatalf("building the provider served as %s: %v", address, err)
	}
	configs := make(chan *plugin.ReattachConfig, 1)
	done := make(chan struct{})
	failed := make(chan error, 1)
	go func() {
		failed <- tf6server.Serve(address, func() tfprotov6.ProviderServer { return server },
			tf6server.WithDebug(ctx, configs, done),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			tf6server.WithLoggingSink(t), // the provider's logs as plugin-testing keeps them (TF_ACC_LOG_PATH)
			tf6server.WithoutLogStderrOverride())
	}()
	select {
	case c := <-configs:
		return tfexec.ReattachConfig{
			Protocol:        string(c.Protocol),
			ProtocolVersion: c.ProtocolVersion,
			Pid:             c.Pid,
			Test:            c.Test,
			Addr:            tfexec.ReattachConfigAddr{Network: c.Addr.Network(), String: c.Addr.String()},
		}, done
	case err := <-failed:
		t.Fatalf("serving the provider as %s: %v", address, err)
		return tfexec.ReattachConfig{}, done
	}
}
