package provider

// forgetHolders empties the holder registry (holders.go) of the provider instance that s
// serves, for tests that send one server requests that stand for several runs rather than
// several resources of one configuration.
func (s *listServer) forgetHolders() {
	if ps, ok := s.server.(*protocolServer); ok {
		forgetProviderHolders(ps.account.provider)
	}
}

// forgetProviderHolders empties the holder registry of a configured provider.
func forgetProviderHolders(p *EventNotifyProvider) {
	if data := p.configured.Load(); data != nil {
		data.holders = newHolderRegistry()
	}
}
