package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/internal/wiring"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// catNow is the fixed clock of these tests: a Wednesday (this week = 2026-11-16).
var catNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

// catEnv is a real stack: SQLite file, optional demo data, and the store,
// service, console and auth as the production wiring builds them, with the
// tools handler behind an httptest server.
type catEnv struct {
	*httptest.Server
	tools *Server
	svc   *domain.Service
	// console is the site team's console over the same store and clock.
	console *console.Console
	auth    *auth.Auth
	store   auth.Store
	// db and dbPath are the env's SQLite database (the job runner and tests that
	// look at rows no operation shows yet use them).
	db     *storage.DB
	dbPath string
	// pages, when set, serves the paths the REST/MCP handler does not: the
	// checkout pages and payment webhooks of the order tests.
	pages atomic.Pointer[http.Handler]
	// clock is the one clock of the env: the service, the stores (the DB's
	// clock), auth and the job runners read it; it starts at catNow.
	clock *testclock.Clock
	// runners are the job runners the with* helpers wired; none runs in the
	// background: runJobs runs what is due on the clock.
	runners []*domain.Runner
	// core is the stack as internal/wiring built it (its job runner is not
	// started); world is its outside world, which the with* helpers swap.
	core  *wiring.Core
	world *testWorld
}

// runJobs runs every job due on the env's clock, in the test's goroutine,
// until none is left (a job may enqueue another, also for another runner),
// and returns how many ran.
func (e *catEnv) runJobs(t testing.TB) int {
	t.Helper()
	total := 0
	for pass := 0; ; pass++ {
		ran := 0
		for _, r := range e.runners {
			n, err := r.RunDue(context.Background())
			if err != nil {
				t.Fatalf("running due jobs: %v", err)
			}
			ran += n
		}
		if ran == 0 {
			return total
		}
		if pass > 100 {
			t.Fatalf("jobs still due after %d passes", pass)
		}
		total += ran
	}
}

// quietRunner is a job runner on the env's clock whose log goes nowhere; it
// is added to the runners runJobs runs.
func (e *catEnv) quietRunner() *domain.Runner {
	r := domain.NewRunner(storage.NewJobStore(e.db), domain.RunnerOptions{
		Now: e.clock.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	e.runners = append(e.runners, r)
	return r
}

// apiKey creates a user with email and an API key for it, directly in the
// store, and returns the key.
func (e *catEnv) apiKey(t testing.TB, email string) string {
	t.Helper()
	ctx := context.Background()
	u, err := e.store.UpsertUser(ctx, auth.EmailIssuer, email, email, "", catNow)
	if err != nil {
		t.Fatal(err)
	}
	key := auth.NewSecret(auth.PrefixAPIKey)
	if _, err := e.store.CreateAPIKey(ctx, auth.APIKey{UserID: u.ID, Name: "test", Prefix: key[:12], Hash: auth.Hash(key), CreatedAt: catNow}); err != nil {
		t.Fatal(err)
	}
	return key
}

func catTestServer(t testing.TB, opts Options, seed bool) *catEnv {
	t.Helper()
	var h http.Handler
	var env *catEnv
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := env.pages.Load(); p != nil && !strings.HasPrefix(r.URL.Path, "/v1") && r.URL.Path != "/mcp" {
			(*p).ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	// With seed: a copy of the demo data as SeedDemo leaves it (seeded once
	// per test binary; no weekly clock run).
	dbPath := fixtures.MigratedFile(t) // a new database, migrated (a copy)
	if seed {
		dbPath = fixtures.SeededFile(t, fixtures.DemoSeeded)
	}
	clock := testclock.New(catNow)
	// The service, the console and auth as serve wires them
	// (internal/wiring); the test replaces the outside world only.
	world := newTestWorld(t)
	core := wiredCore(t, dbPath, srv.URL, clock.Now, world)
	svc, db := core.Service, core.DB
	opts.Auth = core.Auth
	if opts.Idem == nil {
		opts.Idem = storage.NewIdemStore(db)
	}
	if opts.Now == nil {
		opts.Now = clock.Now
	}
	s := New(svc, opts)
	h = s.Handler()
	env = &catEnv{Server: srv, tools: s, svc: svc, console: core.Console, auth: core.Auth, store: storage.NewAuthStore(db), db: db, dbPath: dbPath,
		clock: clock, core: core, world: world}
	return env
}

type catResp struct {
	status int
	header http.Header
	body   []byte
}

func catDo(t testing.TB, srv *catEnv, method, path string, body []byte, hdr map[string]string) catResp {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return catResp{res.StatusCode, res.Header, b}
}

func catProblem(t *testing.T, r catResp) Problem {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != ProblemContentType {
		t.Fatalf("content type %q, want %s; body %s", ct, ProblemContentType, r.body)
	}
	var p Problem
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatalf("problem body %s: %v", r.body, err)
	}
	if p.Status != r.status || p.Type == "" || p.Title == "" || p.Detail == "" || p.Code == "" {
		t.Fatalf("incomplete problem %s for status %d", r.body, r.status)
	}
	return p
}

// catHeaderTransport adds headers to every request of an MCP client.
type catHeaderTransport struct {
	hdr  map[string]string
	base http.RoundTripper
}

func (c catHeaderTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range c.hdr {
		r.Header.Set(k, v)
	}
	return c.base.RoundTrip(r)
}

func catConnect(t *testing.T, url, version string, hdr map[string]string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "cat-test", Version: "1.0.0"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: url + "/mcp",
		HTTPClient: &http.Client{Transport: catHeaderTransport{hdr, http.DefaultTransport}}}
	cs, err := c.Connect(context.Background(), tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect %s: %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func catListTools(t *testing.T, url, version string) []string {
	t.Helper()
	res, err := catConnect(t, url, version, nil).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// catCall calls a tool and returns the text of its single content item.
func catCall(t *testing.T, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: protocol error %v (business errors must be isError results)", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("call %s: %d content items, want 1", name, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("call %s: content is %T, want text", name, res.Content[0])
	}
	return res, tc.Text
}

func TestMCP_ToolsListAndCalls(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	byName := map[string]Operation{}
	for _, op := range env.tools.Operations() {
		byName[op.Name] = op
	}
	for _, version := range MCPProtocolVersions {
		t.Run(version, func(t *testing.T) {
			cs := catConnect(t, env.URL, version, nil)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Tools) != len(byName) {
				t.Fatalf("%d tools, want %d", len(res.Tools), len(byName))
			}
			for _, tl := range res.Tools {
				op, ok := byName[tl.Name]
				if !ok {
					t.Fatalf("unexpected tool %s", tl.Name)
				}
				if tl.Annotations == nil || tl.Annotations.ReadOnlyHint != op.ReadOnly || tl.Description != mcpDescription(op) {
					t.Errorf("%s: annotations %+v / description do not come from the catalog", tl.Name, tl.Annotations)
				}
				// The schemas go out verbatim: the lean MCP copies of the catalog's (lean.go).
				for what, pair := range map[string][2]any{"input": {tl.InputSchema, op.MCPInputSchema()}, "output": {tl.OutputSchema, op.MCPOutputSchema()}} {
					got, _ := json.Marshal(pair[0])
					var want any
					if err := json.Unmarshal(pair[1].(json.RawMessage), &want); err != nil {
						t.Fatal(err)
					}
					wantB, _ := json.Marshal(want)
					if !bytes.Equal(got, wantB) {
						t.Errorf("%s %s schema differs from the catalog's", tl.Name, what)
					}
				}
			}

			// Success: structuredContent and the text are the same JSON as the REST body.
			rest := catDo(t, env, "GET", "/v1/listings?q=notes&per_page=3", nil, nil)
			if rest.status != 200 {
				t.Fatalf("REST status %d: %s", rest.status, rest.body)
			}
			r, text := catCall(t, cs, "search_listings", map[string]any{"q": "notes", "per_page": 3})
			if r.IsError {
				t.Fatalf("isError: %s", text)
			}
			if text != string(rest.body) {
				t.Errorf("MCP text %s\n!= REST body %s", text, rest.body)
			}
			sc, _ := json.Marshal(r.StructuredContent)
			var a, b any
			json.Unmarshal(sc, &a)
			json.Unmarshal(rest.body, &b)
			if !jsonEqual(a, b) {
				t.Errorf("structuredContent %s differs from the REST body", sc)
			}

			// Failure: isError, no structuredContent, the REST problem body as text.
			rest = catDo(t, env, "GET", "/v1/listings?per_page=101&sort=best", nil, nil)
			r, text = catCall(t, cs, "search_listings", map[string]any{"per_page": 101, "sort": "best"})
			if !r.IsError || r.StructuredContent != nil {
				t.Fatalf("want isError without structuredContent, got %+v", r)
			}
			if text != string(rest.body) {
				t.Errorf("MCP error %s\n!= REST problem %s", text, rest.body)
			}
			_, text = catCall(t, cs, "get_listing", map[string]any{"slug": "no-such-listing-here"})
			var p Problem
			if err := json.Unmarshal([]byte(text), &p); err != nil || p.Code != domain.ENotFound || p.Status != 404 {
				t.Errorf("get_listing of an absent slug: %s", text)
			}
			// Integral numbers written as 20.0 are integers in JSON Schema and work.
			if r, text := catCall(t, cs, "list_launches", map[string]any{"per_page": 2.0}); r.IsError {
				t.Errorf("per_page 2.0: %s", text)
			}
		})
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestMCP_RateLimitKeyReachesTools(t *testing.T) {
	env := catTestServer(t, Options{RateLimit: 0.001, RateBurst: 2}, false)
	keyOne, keyTwo := env.apiKey(t, "one@example.com"), env.apiKey(t, "two@example.com")
	one := catConnect(t, env.URL, "2026-07-28", map[string]string{"Authorization": "Bearer " + keyOne})
	two := catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + keyTwo})
	for i := 0; i < 2; i++ {
		if r, text := catCall(t, one, "list_interview_questions", nil); r.IsError {
			t.Fatalf("call %d: %s", i, text)
		}
	}
	// Over the budget a tools/call is an HTTP 429.
	third := catDo(t, env, "POST", "/mcp", []byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_interview_questions","arguments":{}}}`),
		map[string]string{"Authorization": "Bearer " + keyOne, "Content-Type": "application/json",
			"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25"})
	if p := catProblem(t, third); third.status != 429 || p.Code != domain.ERateLimited || p.RetryAfter < 1 || third.header.Get("Retry-After") == "" {
		t.Fatalf("third call of token one: want 429 rate_limited with Retry-After, got %d %s", third.status, third.body)
	}
	// Another user has its own bucket: the caller reached the handler.
	if r, text := catCall(t, two, "list_interview_questions", nil); r.IsError {
		t.Fatalf("token two was limited by token one's bucket: %s", text)
	}
	// REST shares the buckets: the same user is limited there too.
	resp := catDo(t, env, "GET", "/v1/interview-questions", nil, map[string]string{"Authorization": "Bearer " + keyOne})
	if resp.status != 429 || resp.header.Get("Retry-After") == "" {
		t.Fatalf("REST with token one: status %d, Retry-After %q", resp.status, resp.header.Get("Retry-After"))
	}
	if p := catProblem(t, resp); p.RetryAfter < 1 || p.Code != domain.ERateLimited {
		t.Errorf("problem %+v", p)
	}
	// Anonymous callers are keyed by address, separately from tokens.
	for i := 0; i < 2; i++ {
		if resp := catDo(t, env, "GET", "/v1/interview-questions", nil, nil); resp.status != 200 {
			t.Errorf("anonymous caller: status %d", resp.status)
		}
	}
	// An anonymous MCP client on the same address shares the exhausted
	// bucket: its tools/call is an HTTP 429.
	anon := catDo(t, env, "POST", "/mcp", []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_interview_questions","arguments":{}}}`),
		map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25"})
	if anon.status != 429 || !strings.Contains(string(anon.body), `"rate_limited"`) {
		t.Errorf("anonymous MCP call after two anonymous REST calls: %d %s", anon.status, anon.body)
	}
}

func TestCORS(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	for _, path := range []string{"/mcp", "/v1/listings"} {
		r := catDo(t, env, "OPTIONS", path, nil, map[string]string{
			"Origin": "https://inspector.example", "Access-Control-Request-Method": "POST",
			"Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version, mcp-param-region",
		})
		if r.status != 204 {
			t.Fatalf("preflight %s: status %d", path, r.status)
		}
		h := r.header
		if h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") {
			t.Errorf("preflight %s headers %v", path, h)
		}
		allow := strings.ToLower(h.Get("Access-Control-Allow-Headers"))
		for _, want := range []string{"authorization", "content-type", "mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name", "last-event-id", "idempotency-key", "mcp-param-region"} {
			if !strings.Contains(allow, want) {
				t.Errorf("preflight %s: Allow-Headers %q lacks %s", path, allow, want)
			}
		}
		if h.Get("Access-Control-Allow-Credentials") != "" {
			t.Error("credentials must not be allowed cross-origin")
		}
	}
	r := catDo(t, env, "GET", "/v1/interview-questions", nil, map[string]string{"Origin": "https://app.example"})
	expose := r.header.Get("Access-Control-Expose-Headers")
	if r.status != 200 || r.header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("simple request: %d %v", r.status, r.header)
	}
	for _, want := range []string{"Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate", "Retry-After", "RateLimit", "RateLimit-Policy", "Idempotent-Replayed"} {
		if !strings.Contains(expose, want) {
			t.Errorf("Expose-Headers %q lacks %s", expose, want)
		}
	}
}

// The SDK's DNS-rebinding protection stays on: a loopback server refuses a
// foreign Host on /mcp.
func TestMCP_DNSRebindingProtection(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	req, _ := http.NewRequest("POST", env.URL+"/mcp", bytes.NewReader(body))
	req.Host = "evil.example"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err := env.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: status %d, want 403", res.StatusCode)
	}
	req, _ = http.NewRequest("POST", env.URL+"/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	res, err = env.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !bytes.Contains(b, []byte(`"prompts":{}`)) || !bytes.Contains(b, []byte(`"resources":{}`)) {
		t.Errorf("initialize: %d %s (want empty prompts and resources capabilities)", res.StatusCode, b)
	}
	if !bytes.Contains(b, []byte(`"instructions":`)) {
		t.Errorf("initialize result has no instructions: %s", b)
	}
}
