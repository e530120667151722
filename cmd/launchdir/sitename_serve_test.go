package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestServe_SiteNameEverywhere: a site name set by the site team while serve
// runs (docs/console.md "Site settings") is on the next request of every
// document that names the site - /llms.txt, /docs.md, the Server Card, the
// registry server.json - with a new ETag (a revalidation with the old one is
// a 200 with the new body, not a 304), in the MCP initialize answer
// (serverInfo.title and the instructions) and in the sign-in mail.
func TestServe_SiteNameEverywhere(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startServe(t, "--data", dir)
	origin := "http://127.0.0.1:" + s.port
	c := s.client()
	get := func(path, etag string) (int, string, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, origin+path, nil)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), res.Header.Get("ETag")
	}
	initialize := func() string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, origin+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("MCP initialize: %d %s", res.StatusCode, b)
		}
		return string(b)
	}
	docs := []string{"/llms.txt", "/docs.md", "/mcp/server-card", "/.well-known/mcp/server-card.json", "/.well-known/mcp/server.json"}
	etags := map[string]string{}
	for _, p := range docs {
		st, body, etag := get(p, "")
		if st != 200 || etag == "" || strings.Contains(body, "Rocket Board") {
			t.Fatalf("GET %s before the rename: %d, ETag %q", p, st, etag)
		}
		if st, _, _ := get(p, etag); st != http.StatusNotModified {
			t.Fatalf("GET %s with its ETag: %d, want 304", p, st)
		}
		etags[p] = etag
	}
	if body := initialize(); strings.Contains(body, "Rocket Board") {
		t.Fatalf("initialize names Rocket Board before the rename")
	}

	var out, errOut bytes.Buffer
	if err := run(context.Background(), time.Now, []string{"admin", "settings", "set", "site_name", "Rocket Board", "--data", dir}, &out, &errOut); err != nil {
		t.Fatalf("settings set site_name: %v %s", err, errOut.String())
	}

	for _, p := range docs {
		st, body, etag := get(p, etags[p])
		if st != 200 || !strings.Contains(body, "Rocket Board") {
			t.Errorf("GET %s with the old ETag after the rename: %d, Rocket Board named: %v", p, st, strings.Contains(body, "Rocket Board"))
		}
		if etag == etags[p] || etag == "" {
			t.Errorf("GET %s after the rename: ETag %q, want a new one (was %q)", p, etag, etags[p])
		}
	}
	body := initialize()
	for _, w := range []string{`"title":"Rocket Board"`, `"instructions":"Rocket Board is a public launch directory`, `"name":"launchdir"`} {
		if !strings.Contains(body, w) {
			t.Errorf("MCP initialize after the rename lacks %s:\n%.600s", w, body)
		}
	}
	res, err := c.PostForm(origin+"/signin", url.Values{"email": {"reader@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if !strings.Contains(s.logs.String(), "mail to reader@example.com: Sign in to Rocket Board") {
		t.Errorf("the sign-in mail after the rename does not say Sign in to Rocket Board")
	}
}
