//go:build e2e

package storage_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/storage/pgtest"
	"github.com/launchdir/launchdir/tools"
)

// TestPostgres_RequestTimeoutAnswers503: the server's own deadline
// (--request-timeout, tools.Options.RequestTimeout) ends a call that waits
// for a database connection of a full pool (--db-max-conns 1, its only
// connection held by a transaction): through the real router the REST call
// answers 503 unavailable with Retry-After in the one problem shape, and the
// MCP tool call (go-sdk client on /mcp) an isError result saying to retry.
// Without the deadline both would wait for ever (the test would time out).
// Once the connection is free the same calls are served.
func TestPostgres_RequestTimeoutAnswers503(t *testing.T) {
	if pgtest.Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	db, err := storage.Open(fixtures.MigratedPostgres(t), storage.WithMaxConns(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc, _ := fixtures.Service(t, db, fixtures.Site, time.Now)
	const timeout = 400 * time.Millisecond
	srv := httptest.NewServer(tools.New(svc, tools.Options{RequestTimeout: timeout, Now: time.Now}).Handler())
	t.Cleanup(srv.Close)

	release := storage.HoldConn(t, db)

	// REST.
	t0 := time.Now()
	resp, err := http.Get(srv.URL + "/v1/listings/no-such-listing")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	waited := time.Since(t0)
	if resp.StatusCode != 503 {
		t.Fatalf("REST with the pool busy: %d %s, want 503", resp.StatusCode, body)
	}
	if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || ra <= 0 {
		t.Errorf("Retry-After %q, want a number of seconds", resp.Header.Get("Retry-After"))
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	var p map[string]any
	if err := json.Unmarshal(body, &p); err != nil || p["code"] != "unavailable" || p["status"] != float64(503) {
		t.Errorf("problem %s (%v), want code unavailable, status 503", body, err)
	}
	if waited < timeout*3/4 {
		t.Errorf("answered after %v, before the deadline %v", waited, timeout)
	}

	// MCP.
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "pool-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_listing", Arguments: map[string]any{"slug": "no-such-listing"}})
	if err != nil {
		t.Fatalf("MCP get_listing with the pool busy: %v, want an isError result", err)
	}
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if !res.IsError || !strings.Contains(text, `"unavailable"`) || !strings.Contains(text, "try again") {
		t.Errorf("MCP result isError=%v %s, want isError, code unavailable, saying to retry", res.IsError, text)
	}

	// Free again: served (404 for the unknown slug, not 503).
	release()
	resp, err = http.Get(srv.URL + "/v1/listings/no-such-listing")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("REST with the pool free: %d %s, want 404", resp.StatusCode, body)
	}
}
