//go:build e2e

package storage_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/auth"
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
	db, err := storage.Open(fixtures.MigratedPostgres(t), storage.WithMaxConns(1), storage.WithClock(time.Now))
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

// TestPostgres_ServerFullAnswers503: a server whose connection slots are all
// taken (max_connections reached by other clients: other processes,
// migrate, a person's psql) refuses the pool's next connection with SQLSTATE
// 53300 ("sorry, too many clients already"). Through the real router that
// call answers 503 unavailable with Retry-After in the one problem shape, at
// once, not after the request's deadline; the MCP tool call (go-sdk client
// on /mcp) an isError result saying to try again. Before, the refusal was an
// internal error: a 500. Once a slot is free the same call is served.
func TestPostgres_ServerFullAnswers503(t *testing.T) {
	t.Parallel() // owns its cluster (max_connections=8) and database
	if pgtest.Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	c, err := pgtest.StartWith(t.Logf, "max_connections=8")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Stop() })
	ctx := context.Background()
	url, err := c.NewDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(url, storage.WithMaxConns(0), storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc, _ := fixtures.Service(t, db, fixtures.Site, time.Now)
	const timeout = 20 * time.Second // the refusal is answered long before
	srv := httptest.NewServer(tools.New(svc, tools.Options{RequestTimeout: timeout, Now: time.Now}).Handler())
	t.Cleanup(srv.Close)
	get := func() (*http.Response, []byte, time.Duration) {
		t.Helper()
		t0 := time.Now()
		resp, err := http.Get(srv.URL + "/v1/listings/no-such-listing")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, body, time.Since(t0)
	}
	// The MCP session is opened while the server has room.
	client := mcp.NewClient(&mcp.Implementation{Name: "full-server-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	// Other clients take every slot; the pool keeps none idle.
	storage.DropIdleConns(db)
	var others []*pgx.Conn
	t.Cleanup(func() {
		for _, o := range others {
			o.Close(context.Background())
		}
	})
	for {
		o, err := pgx.Connect(ctx, url)
		if err != nil {
			var pe *pgconn.PgError
			if !errors.As(err, &pe) || pe.Code != "53300" {
				t.Fatalf("filling the server's slots: %v, want 53300 once full", err)
			}
			break
		}
		others = append(others, o)
		if len(others) > 50 {
			t.Fatal("the server accepts more connections than max_connections")
		}
	}

	// REST.
	resp, body, waited := get()
	if resp.StatusCode != 503 {
		t.Fatalf("REST with the server full: %d %s, want 503", resp.StatusCode, body)
	}
	if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || ra <= 0 {
		t.Errorf("Retry-After %q, want a number of seconds", resp.Header.Get("Retry-After"))
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Errorf("Content-Type %q, want application/problem+json", ct)
	}
	var p map[string]any
	if err := json.Unmarshal(body, &p); err != nil || p["code"] != "unavailable" || p["status"] != float64(503) || p["retry_after"] == nil {
		t.Errorf("problem %s (%v), want code unavailable, status 503, retry_after", body, err)
	}
	if strings.Contains(string(body), "too many clients") {
		t.Errorf("the server's error reaches the client: %s", body)
	}
	if waited > timeout/2 {
		t.Errorf("answered after %v: the refusal waited for the deadline", waited)
	}

	// MCP.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_listing", Arguments: map[string]any{"slug": "no-such-listing"}})
	if err != nil {
		t.Fatalf("MCP get_listing with the server full: %v, want an isError result", err)
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

	// A slot free again: served (404 for the unknown slug).
	others[len(others)-1].Close(ctx)
	others = others[:len(others)-1]
	// Closing a client returns before its server process has ended, and the
	// slot is free only then: until it is, the call is refused again (503,
	// as above). A client retries as Retry-After says; within a bound the
	// same call is served.
	for deadline := time.Now().Add(15 * time.Second); ; {
		resp, body, _ := get()
		if resp.StatusCode == 404 {
			break
		}
		if resp.StatusCode != 503 || time.Now().After(deadline) {
			t.Fatalf("REST with a slot free: %d %s, want 404 (503 only until the closed client's server process has ended)", resp.StatusCode, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestPostgres_MCPBearerWithinDeadline: the /mcp credential look-up (an API
// key's row) runs under the server's own deadline (--request-timeout) like
// the call itself: with every connection of the pool busy (--db-max-conns 1,
// held), an MCP call with a bearer answers 503 unavailable with Retry-After
// once the deadline passes, instead of waiting for ever, and REST does the
// same (it answered 500: the look-up's deadline error was an internal one).
func TestPostgres_MCPBearerWithinDeadline(t *testing.T) {
	if pgtest.Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	db, err := storage.Open(fixtures.MigratedPostgres(t), storage.WithMaxConns(1), storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc, _ := fixtures.Service(t, db, fixtures.Site, time.Now)
	const timeout = 400 * time.Millisecond
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	t.Cleanup(srv.Close)
	a, err := auth.New(auth.Config{Origin: srv.URL, SiteName: fixtures.Site.Name, Store: storage.NewAuthStore(db), Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = tools.New(svc, tools.Options{Auth: a, RequestTimeout: timeout, Now: time.Now}).Handler()
	key, _, err := a.CreateAPIKey(context.Background(), "pool@example.com", "pool test")
	if err != nil {
		t.Fatal(err)
	}

	release := storage.HoldConn(t, db)
	call := func(method, path, body string) (*http.Response, []byte, time.Duration) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+key)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2025-06-18")
		}
		t0 := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s with the pool busy: %v (no answer within 10 s)", method, path, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, b, time.Since(t0)
	}
	check := func(what string, resp *http.Response, body []byte, waited time.Duration) {
		t.Helper()
		if resp.StatusCode != 503 {
			t.Errorf("%s with a bearer and the pool busy: %d %s, want 503", what, resp.StatusCode, body)
			return
		}
		if ra, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || ra <= 0 {
			t.Errorf("%s: Retry-After %q, want a number of seconds", what, resp.Header.Get("Retry-After"))
		}
		var p map[string]any
		if err := json.Unmarshal(body, &p); err != nil || p["code"] != "unavailable" {
			t.Errorf("%s: problem %s (%v), want code unavailable", what, body, err)
		}
		if waited < timeout*3/4 || waited > 5*time.Second {
			t.Errorf("%s answered after %v, want about the deadline %v", what, waited, timeout)
		}
	}
	rpc := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_listing","arguments":{"slug":"no-such-listing"}}}`
	resp, body, waited := call(http.MethodPost, "/mcp", rpc)
	check("MCP tools/call", resp, body, waited)
	resp, body, waited = call(http.MethodGet, "/v1/listings/no-such-listing", "")
	check("REST", resp, body, waited)

	// Free again: the key is accepted and the call served.
	release()
	if resp, body, _ := call(http.MethodGet, "/v1/listings/no-such-listing", ""); resp.StatusCode != 404 {
		t.Errorf("REST with the pool free: %d %s, want 404", resp.StatusCode, body)
	}
}
