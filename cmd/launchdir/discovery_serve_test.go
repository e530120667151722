package main

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestServe_DiscoveryURLs runs serve --demo and fetches each discovery
// document (Server Card, AI Catalogs, registry server.json, /llms.txt,
// /docs.md) through each loopback origin: each answers 200 with URLs of the
// origin the client used, the card's name stays the same, and every URL a
// document names answers 200 from serve's router (the MCP URL to an MCP
// initialize; the REST base is a prefix, its /site is named too).
func TestServe_DiscoveryURLs(t *testing.T) {
	t.Parallel()
	s := startServeDemoCopy(t, nil)
	c := s.client()
	c.CheckRedirect = nil // /account sends a signed-out visitor to sign in
	get := func(u string) (int, string) {
		t.Helper()
		res, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	urlRE := regexp.MustCompile(`https?://[^\s"'<>()\x60]+`)
	names := map[string]bool{}
	for _, origin := range []string{"http://127.0.0.1:" + s.port, "http://localhost:" + s.port} {
		seen := map[string]bool{origin + "/v1": true}
		for _, path := range []string{"/mcp/server-card", "/.well-known/mcp/server-card.json", "/.well-known/mcp/catalog.json",
			"/.well-known/ai-catalog.json", "/.well-known/mcp/server.json", "/llms.txt", "/docs.md"} {
			code, body := get(origin + path)
			if code != 200 {
				t.Fatalf("GET %s%s: %d", origin, path, code)
			}
			if path == "/mcp/server-card" {
				var card struct {
					Name    string
					Remotes []struct{ URL string }
				}
				json.Unmarshal([]byte(body), &card)
				names[card.Name] = true
				if len(card.Remotes) != 1 || card.Remotes[0].URL != origin+"/mcp" {
					t.Errorf("card at %s names remotes %+v", origin, card.Remotes)
				}
			}
			for _, u := range urlRE.FindAllString(body, -1) {
				u = strings.TrimRight(strings.SplitN(u, "#", 2)[0], ".,;:")
				if strings.HasPrefix(u, "https://static.modelcontextprotocol.io/schemas/") {
					continue // a $schema identifier
				}
				if !strings.HasPrefix(u, origin) {
					t.Errorf("%s%s names %s, not at the origin the client used", origin, path, u)
					continue
				}
				if seen[u] {
					continue
				}
				seen[u] = true
				if u == origin+"/mcp" {
					if code := mcpInitialize(t, c, u); code != 200 {
						t.Errorf("%s names the MCP URL %s, whose initialize answers %d", path, u, code)
					}
					continue
				}
				if code, _ := get(u); code != 200 {
					t.Errorf("%s%s names %s, which answers %d", origin, path, u, code)
				}
			}
		}
		t.Logf("%s: %d URLs named, each answered", origin, len(seen))
		if len(seen) < 15 {
			t.Errorf("%s: only %d URLs named", origin, len(seen))
		}
	}
	if len(names) != 1 {
		t.Errorf("the card's name depends on the origin: %v", names)
	}
}

// mcpInitialize posts an MCP initialize request to u and returns the status.
func mcpInitialize(t *testing.T, c *http.Client, u string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, u, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode
}

// TestServe_DiscoveryRateLimited: the discovery documents count against
// the web pages' per-network budget (--rate-pages), so polling them cannot
// be used to flood the server.
func TestServe_DiscoveryRateLimited(t *testing.T) {
	s := startServe(t, "--rate-pages", "3")
	c := s.client()
	origin := "http://127.0.0.1:" + s.port
	var codes []int
	for _, path := range []string{"/llms.txt", "/mcp/server-card", "/.well-known/ai-catalog.json", "/docs.md", "/.well-known/mcp/server.json"} {
		res, err := c.Get(origin + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		codes = append(codes, res.StatusCode)
	}
	if want := []int{200, 200, 200, 429, 429}; !slices.Equal(codes, want) {
		t.Errorf("statuses %v, want %v", codes, want)
	}
}
