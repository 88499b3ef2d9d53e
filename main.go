// Command terraform-provider-eventnotify serves the Event Notifications
// Configuration Service provider to Terraform over plugin protocol 6.
package main

import (
	"flag"
	"log"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/provider"
)

// version is set at build time: -ldflags "-X main.version=1.2.3" (goreleaser does this).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	quietSDKLogs(os.Environ(), os.Setenv)

	server, err := provider.ProtocolServer(version)()
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
