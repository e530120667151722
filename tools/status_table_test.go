package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/web"
)

// statusTable is the spec's code -> status table (ARCHITECTURE.md §8), plus
// gone (a mailed link that no longer works) and idempotency_key_reused.
var statusTable = map[domain.Code]int{
	domain.EInvalid:          400,
	domain.EUnauthenticated:  401,
	domain.EForbidden:        403,
	domain.ENotFound:         404,
	domain.EMethodNotAllowed: 405,
	domain.EConflict:         409,
	domain.EGone:             410,
	domain.ETooLarge:         413,
	domain.EIdemKeyReused:    422,
	domain.ERateLimited:      429,
	domain.EInternal:         500,
	domain.EUnavailable:      503,
}

// TestStatusTable checks that every domain code maps to the same status on
// /v1 (problem+json), on /mcp (the tool result's problem, or the HTTP answer
// of the /mcp endpoint where the call is refused before any tool runs) and
// on the pages (an HTML page with that status). Each code is driven through
// the real router where a real request can produce it; where none can on a
// surface, the row says so and checks the mapping function that surface
// calls: problemFor (REST and MCP both answer with s.problem) or problem.For
// (every page's service error: web.problemPage, and auth's invite pages).
func TestStatusTable(t *testing.T) {
	t.Parallel()
	if got := problem.Codes(); len(got) != len(statusTable) {
		t.Fatalf("internal/problem maps %v; the test knows %d codes", got, len(statusTable))
	}
	for c, want := range statusTable {
		if got := problem.Status(c); got != want {
			t.Errorf("problem.Status(%s) = %d, want %d", c, got, want)
		}
	}

	env := catTestServer(t, Options{}, true)
	pages := web.New(env.svc)
	env.pages.Store(&pages)
	cs := catConnect(t, env.URL, "2026-07-28", nil)
	key := env.apiKey(t, "table@example.com")
	api := env.auth.APIResource()
	readOnly := env.accessToken(t, "table-scope@example.com", api, domain.ScopeListingsWrite)
	mcpReadOnly := env.accessToken(t, "table-mcp@example.com", env.auth.MCPResource(), domain.ScopeListingsWrite)

	// The rate limits get an env of their own, so they refuse nothing above.
	limited := catTestServer(t, Options{RateLimit: 0.001, RateBurst: 1}, false)
	lim := ratelimit.New(ratelimit.Policy{Name: "pages", Quota: 1, Window: time.Hour}, func() time.Time { return catNow })
	limitedPages := web.New(limited.svc, web.WithRateLimit(lim))
	limited.pages.Store(&limitedPages)

	rest := func(t *testing.T, method, path string, body []byte, hdr map[string]string) (int, domain.Code) {
		t.Helper()
		r := catDo(t, env, method, path, body, hdr)
		return r.status, catProblem(t, r).Code
	}
	restAt := func(t *testing.T, e *catEnv, path string) (int, domain.Code) {
		t.Helper()
		r := catDo(t, e, "GET", path, nil, nil)
		return r.status, catProblem(t, r).Code
	}
	tool := func(t *testing.T, cs *mcp.ClientSession, name string, args any) (int, domain.Code) {
		t.Helper()
		res, text := catCall(t, cs, name, args)
		var p Problem
		if err := json.Unmarshal([]byte(text), &p); err != nil || !res.IsError {
			t.Fatalf("%s: want an isError result with a problem, got %s", name, text)
		}
		return p.Status, p.Code
	}
	mcpPost := func(t *testing.T, body []byte, hdr map[string]string) (int, domain.Code) {
		t.Helper()
		h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"Mcp-Protocol-Version": "2025-11-25"}
		for k, v := range hdr {
			h[k] = v
		}
		r := catDo(t, env, "POST", "/mcp", body, h)
		return r.status, catProblem(t, r).Code
	}
	page := func(t *testing.T, e *catEnv, method, path string, body []byte) (int, domain.Code) {
		t.Helper()
		r := catDo(t, e, method, path, body, map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("%s %s: content type %q, want an HTML page; body %.300s", method, path, ct, r.body)
		}
		if !bytes.Contains(r.body, []byte("HTTP "+strconv.Itoa(r.status))) {
			t.Errorf("%s %s: the page does not show its status %d", method, path, r.status)
		}
		return r.status, "" // a page carries no code
	}
	// mapped is what a surface answers for an error of code that no request
	// can produce there: REST and MCP through problemFor, pages through problem.For.
	discard := slog.New(slog.NewTextHandler(io.Discard, nil))
	apiMapped := func(code domain.Code) func(*testing.T) (int, domain.Code) {
		return func(*testing.T) (int, domain.Code) {
			p := problemFor(context.Background(), discard, "status_table", domain.Errorf(code, "A %s error.", code))
			return p.Status, p.Code
		}
	}
	pageMapped := func(code domain.Code) func(*testing.T) (int, domain.Code) {
		return func(*testing.T) (int, domain.Code) {
			p := problem.For(context.Background(), discard, "status_table", domain.Errorf(code, "A %s error.", code))
			return p.Status, ""
		}
	}
	call := func(f func(t *testing.T) (int, domain.Code)) func(*testing.T) (int, domain.Code) { return f }
	big := []byte(`{"url":"` + strings.Repeat("a", maxBodyBytes) + `"}`)
	form := []byte("name=" + strings.Repeat("a", 70<<10))
	checkoutToken := strings.Repeat("t", 24) // no order has it; the form limit answers first

	rows := []struct {
		code            domain.Code
		rest, mcp, page func(t *testing.T) (int, domain.Code)
	}{
		{domain.EInvalid,
			call(func(t *testing.T) (int, domain.Code) { return rest(t, "GET", "/v1/listings?sort=bogus", nil, nil) }),
			call(func(t *testing.T) (int, domain.Code) {
				return tool(t, cs, "search_listings", map[string]any{"sort": "bogus"})
			}),
			call(func(t *testing.T) (int, domain.Code) { return page(t, env, "GET", "/search?sort=bogus", nil) })},
		{domain.EUnauthenticated,
			call(func(t *testing.T) (int, domain.Code) { return rest(t, "GET", "/v1/me", nil, nil) }),
			call(func(t *testing.T) (int, domain.Code) {
				return mcpPost(t, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_account","arguments":{}}}`), nil)
			}),
			// Pages never answer 401: a page that needs an account redirects to sign-in.
			pageMapped(domain.EUnauthenticated)},
		{domain.EForbidden,
			call(func(t *testing.T) (int, domain.Code) { return rest(t, "GET", "/v1/me", nil, bearer(readOnly)) }),
			call(func(t *testing.T) (int, domain.Code) {
				return mcpPost(t, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_account","arguments":{}}}`), bearer(mcpReadOnly))
			}),
			// A cross-site form post is refused before any checkout is looked up.
			call(func(t *testing.T) (int, domain.Code) {
				r := catDo(t, env, "POST", "/checkout/"+checkoutToken+"/billing", []byte("name=x"),
					map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "cross-site"})
				if !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
					t.Fatalf("cross-site form: %d %s", r.status, r.header.Get("Content-Type"))
				}
				return r.status, ""
			})},
		{domain.ENotFound,
			call(func(t *testing.T) (int, domain.Code) {
				return rest(t, "GET", "/v1/listings/no-such-listing-here", nil, nil)
			}),
			call(func(t *testing.T) (int, domain.Code) {
				return tool(t, cs, "get_listing", map[string]any{"slug": "no-such-listing-here"})
			}),
			call(func(t *testing.T) (int, domain.Code) {
				return page(t, env, "GET", "/listings/no-such-listing-here", nil)
			})},
		// A wrong method is a REST answer (with Allow); /mcp and the pages
		// have no such answer of their own: the mapping each surface calls.
		{domain.EMethodNotAllowed,
			call(func(t *testing.T) (int, domain.Code) { return rest(t, "POST", "/v1/listings", nil, nil) }),
			apiMapped(domain.EMethodNotAllowed), pageMapped(domain.EMethodNotAllowed)},
		// A conflict needs a state no request of this table sets up (the
		// claims and orders tests drive it); here the mapping each surface calls.
		{domain.EConflict, apiMapped(domain.EConflict), apiMapped(domain.EConflict), pageMapped(domain.EConflict)},
		// gone is a page's only: a mailed claim or invite link that no longer
		// works (claims and invites tests drive it); no operation answers it.
		{domain.EGone, apiMapped(domain.EGone), apiMapped(domain.EGone), pageMapped(domain.EGone)},
		{domain.ETooLarge,
			call(func(t *testing.T) (int, domain.Code) { return rest(t, "POST", "/v1/drafts", big, bearer(key)) }),
			// The message is refused before it is read: a JSON-RPC error whose data is the problem.
			call(func(t *testing.T) (int, domain.Code) {
				r := catDo(t, env, "POST", "/mcp", bytes.Repeat([]byte(" "), maxBodyBytes+1),
					map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
				var m struct {
					Error struct{ Data Problem } `json:"error"`
				}
				if err := json.Unmarshal(r.body, &m); err != nil || m.Error.Data.Status != r.status {
					t.Fatalf("oversized /mcp message: %d %.300s", r.status, r.body)
				}
				return r.status, m.Error.Data.Code
			}),
			call(func(t *testing.T) (int, domain.Code) {
				return page(t, env, "POST", "/checkout/"+checkoutToken+"/billing", form)
			})},
		// A reused key is driven over REST and MCP by TestIdempotency
		// (SameKeyOtherRequest422, Argument); pages take no idempotency key.
		{domain.EIdemKeyReused, apiMapped(domain.EIdemKeyReused), apiMapped(domain.EIdemKeyReused), pageMapped(domain.EIdemKeyReused)},
		{domain.ERateLimited,
			call(func(t *testing.T) (int, domain.Code) {
				if r := catDo(t, limited, "GET", "/v1/site", nil, nil); r.status != 200 {
					t.Fatalf("first call: %d", r.status)
				}
				return restAt(t, limited, "/v1/site")
			}),
			// The REST calls above used the anonymous bucket of this address.
			// Over its budget a tools/call is an HTTP 429 with Retry-After and
			// the RateLimit fields, as REST's.
			call(func(t *testing.T) (int, domain.Code) {
				r := catDo(t, limited, "POST", "/mcp", []byte(mcpCallSite), map[string]string{"Content-Type": "application/json",
					"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25"})
				if r.header.Get("Retry-After") == "" || r.header.Get("RateLimit") == "" {
					t.Errorf("MCP 429 without Retry-After or RateLimit: %v", r.header)
				}
				return r.status, catProblem(t, r).Code
			}),
			call(func(t *testing.T) (int, domain.Code) {
				if s, _ := page(t, limited, "GET", "/no/such/page", nil); s != 404 {
					t.Fatalf("first page: %d", s)
				}
				return page(t, limited, "GET", "/", nil)
			})},
		// An internal error needs a broken store (web's TestPages_ClosedDatabase
		// drives the pages); here the mapping each surface calls.
		{domain.EInternal, apiMapped(domain.EInternal), apiMapped(domain.EInternal), pageMapped(domain.EInternal)},
		// Unavailable needs every database connection busy past a request's
		// deadline (storage's TestPostgres_PoolWaitEndsAtDeadline drives the
		// wait); here the mapping each surface calls.
		{domain.EUnavailable, apiMapped(domain.EUnavailable), apiMapped(domain.EUnavailable), pageMapped(domain.EUnavailable)},
	}
	var seen []domain.Code
	for _, row := range rows {
		seen = append(seen, row.code)
		want := statusTable[row.code]
		t.Run(string(row.code), func(t *testing.T) {
			for _, s := range []struct {
				name string
				f    func(t *testing.T) (int, domain.Code)
			}{{"v1", row.rest}, {"mcp", row.mcp}, {"pages", row.page}} {
				status, code := s.f(t)
				if status != want {
					t.Errorf("%s: status %d, want %d", s.name, status, want)
				}
				if code != "" && code != row.code {
					t.Errorf("%s: problem code %s, want %s", s.name, code, row.code)
				}
			}
		})
	}
	for c := range statusTable {
		if !slices.Contains(seen, c) {
			t.Errorf("no row drives %s", c)
		}
	}
}
