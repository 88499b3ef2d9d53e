// Command terraform-provider-eventnotify serves the Event Notifications
// Configuration Service provider to Terraform over plugin protocol 6.
package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/provider"
)

func main() {
	debug, done, err := parseFlags(os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		os.Exit(2)
	}
	if done {
		return
	}
	quietSDKLogs(os.Environ(), os.Setenv)

	// A signal must not end the plugin while a write it sent awaits its answer
	// (shutdown.go); go-plugin already ignores SIGINT, and SIGTERM would end the process.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGTERM, os.Interrupt)
	go serveThroughSignals(context.Background(), signals, func(ctx context.Context) error {
		return provider.WaitForWrites(ctx, signalQuiet)
	}, signalLimit, os.Exit)

	// provider.ProtocolServer, not the framework's server alone: it counts the writes in
	// flight that WaitForWrites waits for (internal/provider/writes_in_flight.go).
	server, err := provider.ProtocolServer(providerVersion())()
	if err != nil {
		log.Fatal(err.Error())
	}
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err = tf6server.Serve("registry.terraform.io/eventnotify/eventnotify", func() tfprotov6.ProviderServer { return server }, opts...)
	if err != nil {
		log.Fatal(err.Error())
	}
}

// parseFlags reads the command line: -debug serves the provider for a debugger, -version
// prints the provider's version, the executable's sha256 and lock file hash, the Go release and
// the modules it was built with to stdout (writeVersionReport) and asks main to stop (done). Errors and -help go to
// stderr.
func parseFlags(args []string, stdout, stderr io.Writer) (debug, done bool, err error) {
	flags := flag.NewFlagSet("terraform-provider-eventnotify", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	printVersion := flags.Bool("version", false, "print the provider's version and exit")
	if err := flags.Parse(args); err != nil {
		return false, true, err
	}
	if *printVersion {
		return false, true, writeVersionReport(stdout, runningBuild())
	}
	return debug, false, nil
}

// sdkLogVariables are the variables that set the level of the plugin SDKs' own loggers
// (terraform-plugin-go and terraform-plugin-framework).
var sdkLogVariables = []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"}

// quietSDKLogs turns the SDKs' loggers off when no TF_LOG* variable is set. They log every
// call at TRACE whatever Terraform asked for, and Terraform discards plugin logs unless
// TF_LOG (or TF_LOG_PROVIDER, TF_LOG_PATH...) is set: without one, that logging is CPU spent
// for nothing (about a fifth of the provider's CPU on a large plan). With any TF_LOG*
// variable set, nothing changes.
func quietSDKLogs(environ []string, setenv func(key, value string) error) {
	for _, kv := range environ {
		if strings.HasPrefix(kv, "TF_LOG") {
			return
		}
	}
	for _, name := range sdkLogVariables {
		_ = setenv(name, "OFF")
	}
}
