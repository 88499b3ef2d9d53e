package provider

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/eventnotify/terraform-provider-eventnotify/internal/mockserver"
)

// expectSubscriptionIdentity checks the identity of the test subscription:
// the account and the same id as the state's.
func expectSubscriptionIdentity(account string) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectIdentity(subAddr, map[string]knownvalue.Check{
			"account_id": knownvalue.StringExact(account),
			"id":         knownvalue.StringRegexp(uuidPattern),
		}),
		statecheck.ExpectIdentityValueMatchesState(subAddr, tfjsonpath.New("account_id")),
		statecheck.ExpectIdentityValueMatchesState(subAddr, tfjsonpath.New("id")),
	}
}

// TestAccSubscriptionResource_identity creates, updates and imports a
// subscription (by identity, by id in a block and with the import command)
// and checks its identity at each step.
func TestAccSubscriptionResource_identity(t *testing.T) {
	m := newTestMock(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
		CheckDestroy:             m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				Config:            m.providerBlock() + subscriptionConfig(minimalArgs...),
				ConfigStateChecks: expectSubscriptionIdentity(testAccount),
			},
			{
				Config: m.providerBlock() + subscriptionConfig(fullArgs...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: expectSubscriptionIdentity(testAccount),
			},
			{
				ResourceName:    subAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
			{
				ResourceName:    subAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			{
				ResourceName:      subAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
	})
}

// TestAccSubscriptionResource_importByIdentity imports subscriptions that
// Terraform did not create with import blocks that name their identity, in
// the provider's account and another one, with the id in upper case (the
// state holds it in lower case); and rejects identities that name no
// subscription before any request.
func TestAccSubscriptionResource_importByIdentity(t *testing.T) {
	m := newTestMock(t)
	const otherAccount = "acc-other"
	own := m.PutSubscription(testAccount, mockserver.Subscription{
		EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS", LogLevel: "ERROR", Enabled: true,
	})
	other := m.PutSubscription(otherAccount, mockserver.Subscription{
		EventName: "PROCESS.EXECUTION", DestinationType: "EVENT_STREAMS", LogLevel: "INFO", EventStreamsTopic: "alerts", Enabled: true,
	})
	importBlock := func(account, id string) string {
		return `
import {
  to = eventnotify_subscription.test
  identity = {
    account_id = "` + account + `"
    id         = "` + id + `"
  }
}
`
	}
	t.Run("own account", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviderFactories,
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
			Steps: []resource.TestStep{
				{
					Config:      m.providerBlock() + subscriptionConfig(minimalArgs...) + importBlock(testAccount, "not-a-uuid"),
					ExpectError: errorPattern("Invalid import identity", `"not-a-uuid" is not a subscription id`),
				},
				{
					Config:      m.providerBlock() + subscriptionConfig(minimalArgs...) + importBlock(" ", own.SubscriptionID),
					ExpectError: errorPattern("Invalid import identity", "account_id must not be empty"),
				},
				{
					Config: m.providerBlock() + subscriptionConfig(minimalArgs...) + importBlock(testAccount, strings.ToUpper(own.SubscriptionID)),
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionNoop),
					}},
					ConfigStateChecks: append(expectSubscriptionIdentity(testAccount),
						statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("id"), knownvalue.StringExact(own.SubscriptionID))),
				},
			},
		})
	})
	t.Run("other account", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testProviderFactories,
			TerraformVersionChecks:   []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
			Steps: []resource.TestStep{{
				Config: m.providerBlock() + subscriptionConfig(
					`account_id = "`+otherAccount+`"`, `event_name = "PROCESS.EXECUTION"`, `destination_type = "EVENT_STREAMS"`,
					`log_level = "INFO"`, `event_streams_topic = "alerts"`,
				) + importBlock(otherAccount, other.SubscriptionID),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(subAddr, plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: append(expectSubscriptionIdentity(otherAccount),
					statecheck.ExpectKnownValue(subAddr, tfjsonpath.New("id"), knownvalue.StringExact(other.SubscriptionID))),
			}},
		})
	})
}

// TestAccSubscriptionResource_identityUpgrade applies with a provider whose
// subscription resource has no identity (this provider before identity
// support), then plans with this provider: the plan is empty and the refresh
// records the identity.
func TestAccSubscriptionResource_identityUpgrade(t *testing.T) {
	m := newTestMock(t)
	config := m.providerBlock() + subscriptionConfig(fullArgs...)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{skipUnlessCLISupports(featureResourceIdentity)},
		CheckDestroy:           m.checkMockEmpty(),
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: identitylessProviderFactories,
				Config:                   config,
				ConfigStateChecks:        []statecheck.StateCheck{expectNoIdentity{subAddr}},
			},
			{
				ProtoV6ProviderFactories: testProviderFactories,
				Config:                   config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				ConfigStateChecks: expectSubscriptionIdentity(testAccount),
			},
		},
	})
}

// expectNoIdentity checks that a resource's state has no identity.
type expectNoIdentity struct{ addr string }

func (c expectNoIdentity) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
		resp.Error = fmt.Errorf("no state")
		return
	}
	for _, r := range req.State.Values.RootModule.Resources {
		if r.Address == c.addr {
			if len(r.IdentityValues) != 0 {
				resp.Error = fmt.Errorf("%s has the identity %v, want none", c.addr, r.IdentityValues)
			}
			return
		}
	}
	resp.Error = fmt.Errorf("%s is not in the state", c.addr)
}

// identitylessProviderFactories serves the provider with no identity schema on any resource,
// as it was before each resource's identity support (for eventnotify_topic_subscriptions, the
// main branch before it).
var identitylessProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"eventnotify": providerserver.NewProtocol6WithError(identitylessProvider{New("test")().(*EventNotifyProvider)}),
}

// identitylessProvider is the provider with identitylessResource in place of every resource
// that has an identity.
type identitylessProvider struct{ *EventNotifyProvider }

// Resources replaces the resources that have an identity.
func (p identitylessProvider) Resources(ctx context.Context) []func() fwresource.Resource {
	out := p.EventNotifyProvider.Resources(ctx)
	for i, f := range out {
		if _, ok := f().(fwresource.ResourceWithIdentity); ok {
			out[i] = func() fwresource.Resource { return identitylessResource{f().(identitylessMethods)} }
		}
	}
	return out
}

var _ provider.Provider = identitylessProvider{}

// identitylessMethods are the methods of the provider's resources that have an identity, but
// IdentitySchema. A resource with an identity that lacks one of them panics in
// identitylessProvider.Resources; one with a method this list lacks would lose it there: add
// it here.
type identitylessMethods interface {
	fwresource.ResourceWithConfigure
	fwresource.ResourceWithImportState
	fwresource.ResourceWithModifyPlan
}

// identitylessResource delegates every method of identitylessMethods, and so has no
// IdentitySchema.
type identitylessResource struct{ identitylessMethods }

// TestIdentityDocs checks that the identity schema that each resource's doc template spells
// out matches the resource's. The templates hold it as text because tfplugindocs renders
// identity schemas only from a Terraform 1.12 or later, which cannot be built here.
func TestIdentityDocs(t *testing.T) {
	tests := []struct {
		template string
		resource fwresource.ResourceWithIdentity
	}{
		{"subscription.md.tmpl", &SubscriptionResource{}},
		{"topic_subscriptions.md.tmpl", &TopicSubscriptionsResource{}},
		{"account_subscriptions.md.tmpl", &AccountSubscriptionsResource{}},
	}
	for _, tt := range tests {
		t.Run(tt.template, func(t *testing.T) {
			var resp fwresource.IdentitySchemaResponse
			tt.resource.IdentitySchema(context.Background(), fwresource.IdentitySchemaRequest{}, &resp)
			names := make([]string, 0, len(resp.IdentitySchema.Attributes))
			for name := range resp.IdentitySchema.Attributes {
				names = append(names, name)
			}
			slices.Sort(names)
			want := "### Identity Schema\n\n#### Required\n\n"
			for _, name := range names {
				attr := resp.IdentitySchema.Attributes[name]
				if !attr.IsRequiredForImport() {
					t.Errorf("identity attribute %s is not required for import; the template lists it under Required", name)
				}
				want += fmt.Sprintf("- `%s` (String) %s\n", name, attr.GetDescription())
			}
			tmpl, err := os.ReadFile("../../templates/resources/" + tt.template)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(tmpl), want) {
				t.Errorf("templates/resources/%s does not hold the identity schema:\n%s", tt.template, want)
			}
		})
	}
}

// TestAccSubscriptionResource_importByIdentityExample runs the doc example of
// an import block with an identity through the CLI: the configuration is
// generated, the subscription imported, and the next plan is empty.
func TestAccSubscriptionResource_importByIdentityExample(t *testing.T) {
	m := newTestMock(t)
	const account = "my-account-id" // the example's
	m.PutSubscription(account, mockserver.Subscription{
		SubscriptionID: exampleSubscriptionID, EventName: "ATOM.STATUS", DestinationType: "EVENT_STREAMS",
		LogLevel: "ERROR", EventStreamsTopic: "alerts", Enabled: true,
	})
	w := newCLIWorkspace(t, m)
	w.require(featureResourceIdentity)
	w.copyFile("../../examples/resources/eventnotify_subscription/import-by-identity-block.tf", "main.tf")
	w.mustRun(nil, "plan", "-input=false", "-no-color", "-generate-config-out=generated.tf", "-out=tfplan")
	if out := w.mustRun(nil, "apply", "-input=false", "-no-color", "tfplan"); !strings.Contains(out, "1 imported") {
		t.Errorf("apply imported nothing:\n%s", out)
	}
	if out, code := w.run(nil, "plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("the plan after the import was not empty (exit %d):\n%s", code, out)
	}
	state := w.mustRun(nil, "show", "-json", "-no-color")
	for _, want := range []string{`"account_id":"` + account + `"`, `"id":"` + exampleSubscriptionID + `"`, `"identity":{`} {
		if !strings.Contains(state, want) {
			t.Errorf("the state does not hold %s:\n%s", want, state)
		}
	}
	if len(m.Subscriptions(account)) != 1 {
		t.Errorf("account %s holds %d subscriptions after the import, want 1", account, len(m.Subscriptions(account)))
	}
}
