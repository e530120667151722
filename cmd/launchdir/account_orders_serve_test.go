package main

import (
	"io"
	"strings"
	"testing"
)

// TestServe_AccountListsOrders: serve wires /account to the orders (issue
// 28 item 2): a signed-in person sees the "Your orders" section (here
// empty), which auth shows only when auth.Config.Orders is set.
func TestServe_AccountListsOrders(t *testing.T) {
	t.Parallel()
	s := startServe(t)
	origin := "http://127.0.0.1:" + s.port
	res, err := s.signIn(t, origin, "buyer@example.com").Get(origin + "/account")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(b), "Your orders") || !strings.Contains(string(b), "You have no orders.") {
		t.Fatalf("/account: %d, orders section shown: %t", res.StatusCode, strings.Contains(string(b), "Your orders"))
	}
}
