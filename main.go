// Command terraform-provider-eventnotify serves the Event Notifications
// Configuration Service provider to Terraform over plugin protocol 6.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/provider"
)

// version is set at build time: -ldflags "-X main.version=1.2.3" (goreleaser does this).
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/eventnotify/eventnotify",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
