package main

import (
	"cmp"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/auth/ratelimit"
)

// TestServe_RateLimits runs serve with small per-network budgets behind a
// trusted proxy (the test client on 127.0.0.1, the client's address in
// X-Forwarded-For) and floods each budget through the real router: the web
// pages, MCP session calls, and bad credentials, one budget per credential
// and network on /v1 and /token. IPv6 clients of one /64 share a budget; other networks
// are not affected.
func TestServe_RateLimits(t *testing.T) {
	srv := startServe(t, "--rate-pages", "3", "--rate-mcp", "2", "--rate-failures", "2", "--rate-oauth", "0",
		"--trusted-proxies", "127.0.0.1/32, ::1")
	origin := "http://127.0.0.1:" + srv.port
	type resp struct {
		status int
		header http.Header
	}
	send := func(client, method, path, body string, hdr map[string]string) resp {
		t.Helper()
		req, _ := http.NewRequest(method, origin+path, strings.NewReader(body))
		if client != "" {
			req.Header.Set("X-Forwarded-For", client)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return resp{res.StatusCode, res.Header}
	}
	// A person's browser gets an HTML page; API and MCP clients problem+json.
	want := map[string]string{"pages": "text/html; charset=utf-8"}
	limited := func(r resp, policy string) {
		t.Helper()
		items, err := ratelimit.ParseItems(r.header, "RateLimit")
		if r.status != 429 || err != nil || len(items) == 0 || items[0].Name != policy || items[0].Params["r"] != 0 ||
			r.header.Get("Retry-After") == "" || r.header.Get("Content-Type") != cmp.Or(want[policy], "application/problem+json") {
			t.Errorf("want 429 of %s with Retry-After and RateLimit; got %d %v", policy, r.status, r.header)
		}
	}

	t.Run("Pages", func(t *testing.T) {
		for i, c := range []string{"2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff::3"} {
			r := send(c, "GET", "/", "", nil)
			if r.status != 200 || r.header.Get("RateLimit-Policy") != `"pages";q=3;w=60` ||
				!strings.HasPrefix(r.header.Get("RateLimit"), `"pages";r=`+strconv.Itoa(2-i)+`;t=`) {
				t.Fatalf("page %d from the /64: %d %v", i+1, r.status, r.header)
			}
		}
		limited(send("2001:db8:1:2::9", "GET", "/launches", "", nil), "pages")
		if r := send("2001:db8:1:3::1", "GET", "/", "", nil); r.status != 200 {
			t.Errorf("another /64: %d", r.status)
		}
		if r := send("198.51.100.20", "GET", "/", "", nil); r.status != 200 {
			t.Errorf("an IPv4 client: %d", r.status)
		}
	})

	t.Run("MCPSession", func(t *testing.T) {
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}`
		hdr := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		for i := 0; i < 2; i++ {
			if r := send("203.0.113.9", "POST", "/mcp", init, hdr); r.status != 200 {
				t.Fatalf("initialize %d: %d", i+1, r.status)
			}
		}
		limited(send("203.0.113.9", "POST", "/mcp", init, hdr), "mcp")
		if r := send("203.0.113.10", "POST", "/mcp", init, hdr); r.status != 200 {
			t.Errorf("initialize from another address: %d", r.status)
		}
	})

	t.Run("FailuresPerCredential", func(t *testing.T) {
		// One budget per credential and network: the same
		// bad key twice spends its own; a client's /token and another key
		// from the same address are still checked.
		bad := map[string]string{"Authorization": "Bearer ld_key_guess"}
		for i := 0; i < 2; i++ {
			if r := send("198.51.100.7", "GET", "/v1/site", "", bad); r.status != 401 {
				t.Fatalf("bad API key %d: %d", i+1, r.status)
			}
		}
		limited(send("198.51.100.7", "GET", "/v1/site", "", bad), "failures")
		form := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
		for i := 0; i < 2; i++ {
			if r := send("198.51.100.7", "POST", "/token", "grant_type=refresh_token&client_id=x&refresh_token=guess", form); r.status != 400 && r.status != 401 {
				t.Fatalf("bad /token %d: %d", i+1, r.status)
			}
		}
		limited(send("198.51.100.7", "POST", "/token", "grant_type=refresh_token&client_id=x&refresh_token=guess", form), "failures")
		if r := send("198.51.100.7", "GET", "/v1/site", "", map[string]string{"Authorization": "Bearer ld_key_other"}); r.status != 401 {
			t.Errorf("another API key from the same address: %d, want 401", r.status)
		}
		if r := send("198.51.100.8", "GET", "/v1/site", "", bad); r.status != 401 {
			t.Errorf("bad API key from another address: %d, want 401", r.status)
		}
	})
}
