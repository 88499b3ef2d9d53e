package httpapi

import "testing"

// TestSameAddress holds the one rule by which a provider block's address is the environment's:
// the whole address, path prefix included, after each normalisation (trailing slash, letter
// case of scheme and host, default port, dot segments, hex case of percent-encodings); another
// path, a longer segment, another port or host are other addresses, and percent-encoded dots,
// slashes or backslashes never make two addresses one.
func TestSameAddress(t *testing.T) {
	t.Parallel()
	const env = "https://gw.example/eventnotify"
	cases := []struct {
		name, a, b string
		same       bool
	}{
		{"identical", env, env, true},
		{"trailing slash", env, env + "/", true},
		{"trailing slashes", env + "//", env, true},
		{"root path and none", "https://gw.example", "https://gw.example/", true},
		{"scheme case", env, "HTTPS://gw.example/eventnotify", true},
		{"host case", env, "https://GW.Example/eventnotify", true},
		{"default https port", env, "https://gw.example:443/eventnotify", true},
		{"default http port", "http://127.0.0.1/x", "http://127.0.0.1:80/x", true},
		{"port with a leading zero", env, "https://gw.example:0443/eventnotify", true},
		{"empty port", env, "https://gw.example:/eventnotify", true},
		{"dot segment", env, "https://gw.example/./eventnotify", true},
		{"dot-dot segment", env, "https://gw.example/another-tenant/../eventnotify", true},
		{"dot-dot above the root", env, "https://gw.example/../eventnotify", true},
		{"trailing dot segment", env, "https://gw.example/eventnotify/.", true},
		{"percent-encoding hex case", "https://gw.example/event%c3%a9", "https://gw.example/event%C3%A9", true},
		{"IPv6 host", "http://[::1]:8080/x", "http://[::1]:8080/x/", true},

		{"another path prefix", env, "https://gw.example/another-tenant", false},
		{"a longer segment", env, "https://gw.example/eventnotify-other", false},
		{"a shorter path", env, "https://gw.example", false},
		{"a deeper path", env, "https://gw.example/eventnotify/tenant", false},
		{"path case", env, "https://gw.example/EventNotify", false},
		{"dot-dot leaving the prefix", env, "https://gw.example/eventnotify/../another-tenant", false},
		{"another port", env, "https://gw.example:8443/eventnotify", false},
		{"another scheme", "http://127.0.0.1/x", "https://127.0.0.1/x", false},
		{"another host", env, "https://gw.example.net/eventnotify", false},
		{"a trailing dot on the host", env, "https://gw.example./eventnotify", false},
		{"an empty segment", env, "https://gw.example//eventnotify", false},
		{"encoded dot-dot", env, "https://gw.example/another-tenant/%2e%2e/eventnotify", false},
		{"encoded dot-dot, upper case", env, "https://gw.example/another-tenant/%2E%2E/eventnotify", false},
		{"encoded dot segment", env, "https://gw.example/%2e/eventnotify", false},
		{"encoded slash", "https://gw.example/eventnotify/x", "https://gw.example/eventnotify%2Fx", false},
		{"encoded slash and dot-dot", env, "https://gw.example/another-tenant%2F..%2Feventnotify", false},
		{"encoded backslash", env, "https://gw.example/another-tenant%5C..%5Ceventnotify", false},
		{"an encoded slash is never the same, not even as itself", "https://gw.example/a%2Fb", "https://gw.example/a%2Fb", false},
		{"an encoded unreserved letter is not decoded", env, "https://gw.example/%65ventnotify", false},
		{"an invalid address", env, "ftp://gw.example/eventnotify", false},
		{"an address with user information", env, "https://u:p@gw.example/eventnotify", false},
		{"nothing", env, "", false},
		{"nothing and nothing", "", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := SameAddress(tc.a, tc.b); got != tc.same {
				ka, _ := AddressKey(tc.a)
				kb, _ := AddressKey(tc.b)
				t.Errorf("SameAddress(%q, %q) = %t, want %t (keys %q and %q)", tc.a, tc.b, got, tc.same, ka, kb)
			}
			if got := SameAddress(tc.b, tc.a); got != tc.same {
				t.Errorf("SameAddress(%q, %q) = %t, want %t: the rule is not symmetric", tc.b, tc.a, got, tc.same)
			}
		})
	}
}

// TestCleanAddress: the client sends to the address as SameAddress compares it (dot segments
// and trailing slashes removed), and otherwise as written.
func TestCleanAddress(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"https://gw.example/eventnotify", "https://gw.example/eventnotify"},
		{"https://gw.example/eventnotify/", "https://gw.example/eventnotify"},
		{"https://GW.example:443/Eventnotify/", "https://GW.example:443/Eventnotify"},
		{"https://gw.example/another-tenant/../eventnotify", "https://gw.example/eventnotify"},
		{"https://gw.example/./eventnotify/.", "https://gw.example/eventnotify"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080"},
	}
	for _, tc := range cases {
		if got := CleanAddress(tc.in); got != tc.want {
			t.Errorf("CleanAddress(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
