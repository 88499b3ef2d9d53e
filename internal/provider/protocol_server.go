package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// ProtocolServer returns the factory of the provider's plugin protocol 6 server, for
// tf6server.Serve and for acceptance tests: the framework's server, with the protocol-level
// path of eventnotify_account_subscriptions (accountProtocol) in front of it. Every call of
// the factory serves a new provider instance.
func ProtocolServer(version string) func() (tfprotov6.ProviderServer, error) {
	return protocolServerFor(func() *EventNotifyProvider { return &EventNotifyProvider{version: version} })
}

// protocolServerFor is ProtocolServer for providers that newProvider builds (tests set
// fields of the provider there).
func protocolServerFor(newProvider func() *EventNotifyProvider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		p := newProvider()
		framework, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			return nil, err
		}
		full, ok := framework.(frameworkServer)
		if !ok {
			return nil, fmt.Errorf("the framework's provider server (%T) does not serve list resources and actions", framework)
		}
		return &protocolServer{frameworkServer: full, account: newAccountProtocol(p), writes: writesInFlight}, nil
	}
}

// frameworkServer is what the framework's provider server serves: the provider, its list
// resources and its actions (tf6server looks for their methods on the server it is given).
type frameworkServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
}

// protocolServer is the framework's provider server, except for the calls that
// accountProtocol answers itself.
type protocolServer struct {
	frameworkServer
	account *accountProtocol
	writes  *writeCounter // the process's writes in flight (writesInFlight)
}

// ReadResource answers through accountProtocol where it can, else through the framework.
func (s *protocolServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	if resp, ok := s.fastRead(ctx, req); ok {
		return resp, nil
	}
	return s.frameworkServer.ReadResource(ctx, req)
}

// PlanResourceChange answers through accountProtocol where it can, else through the
// framework.
func (s *protocolServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	if resp, ok := s.fastPlan(ctx, req); ok {
		return resp, nil
	}
	return s.frameworkServer.PlanResourceChange(ctx, req)
}

// ValidateResourceConfig answers through accountProtocol where it can, else through the
// framework.
func (s *protocolServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	if resp, ok := s.fastValidate(ctx, req); ok {
		return resp, nil
	}
	return s.frameworkServer.ValidateResourceConfig(ctx, req)
}

// fastRead is accountProtocol's answer to a ReadResource; false where the framework answers.
func (s *protocolServer) fastRead(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, bool) {
	if req == nil || req.TypeName != s.account.typeName {
		return nil, false
	}
	return s.account.readResource(ctx, req)
}

// fastPlan is accountProtocol's answer to a PlanResourceChange; false where the framework
// answers.
func (s *protocolServer) fastPlan(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, bool) {
	if req == nil || req.TypeName != s.account.typeName {
		return nil, false
	}
	return s.account.planResourceChange(ctx, req)
}

// fastValidate is accountProtocol's answer to a ValidateResourceConfig; false where the
// framework answers.
func (s *protocolServer) fastValidate(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, bool) {
	if req == nil || req.TypeName != s.account.typeName {
		return nil, false
	}
	return s.account.validateResourceConfig(ctx, req)
}

// ApplyResourceChange is the framework's, counted among the writes in flight
// (writes_in_flight.go).
func (s *protocolServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	defer s.writes.begin()()
	return s.frameworkServer.ApplyResourceChange(ctx, req)
}

// InvokeAction is the framework's, counted among the writes in flight (writes_in_flight.go)
// until its last event has been sent: the action does its work while Terraform reads its
// events.
func (s *protocolServer) InvokeAction(ctx context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	end := s.writes.begin()
	stream, err := s.frameworkServer.InvokeAction(ctx, req)
	if err != nil || stream == nil || stream.Events == nil {
		end()
		return stream, err
	}
	events := stream.Events
	stream.Events = func(yield func(tfprotov6.InvokeActionEvent) bool) {
		defer end()
		events(yield)
	}
	return stream, nil
}
