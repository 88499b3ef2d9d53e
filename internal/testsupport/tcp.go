package testsupport

import (
	"context"
	"net"
	"testing"
)

// ServeTCP listens on 127.0.0.1, hands every connection to handle in its own goroutine (handle
// need not close it: the connection is closed when handle returns), and returns the listener's
// host:port. The listener closes when the test ends. Tests use it for peers that are not HTTP
// servers: another protocol's greeting, a proxy answering CONNECT.
func ServeTCP(t testing.TB, handle func(net.Conn)) string {
	t.Helper()
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				handle(conn)
			}()
		}
	}()
	return ln.Addr().String()
}
