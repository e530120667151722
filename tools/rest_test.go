package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
)

// REST input handling: query and path strings are coerced to the schema's
// types, then validated by the same schema; every failure names the field
// and the JSON Schema keyword.
func TestREST_Validation(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	type fr struct{ field, rule string }
	rows := []struct {
		name   string
		path   string
		status int
		errs   []fr
		detail string // substring of the problem detail
	}{
		{"integer coerced", "/v1/listings?per_page=5&page=2", 200, nil, ""},
		{"integral decimal is an integer", "/v1/listings?per_page=5.0", 200, nil, ""},
		{"boolean coerced", "/v1/categories?include_empty=false", 200, nil, ""},
		{"boolean as 0", "/v1/categories?include_empty=0", 200, nil, ""},
		{"per_page just inside", "/v1/listings?per_page=100", 200, nil, ""},
		{"per_page just outside", "/v1/listings?per_page=101", 400, []fr{{"per_page", "maximum"}}, "per_page must be at most 100"},
		{"per_page zero", "/v1/founders?per_page=0", 400, []fr{{"per_page", "minimum"}}, "per_page must be at least 1"},
		{"page just outside", "/v1/blog?page=1001", 400, []fr{{"page", "maximum"}}, "page must be at most 1000"},
		{"not an integer", "/v1/listings?page=two", 400, []fr{{"page", "type"}}, `page must be an integer (got "two")`},
		{"fraction", "/v1/listings?page=1.5", 400, []fr{{"page", "type"}}, "page must be an integer"},
		{"not a boolean", "/v1/categories?include_empty=maybe", 400, []fr{{"include_empty", "type"}}, "include_empty must be a boolean"},
		{"unknown parameter", "/v1/listings?qq=notes", 400, []fr{{"qq", "additionalProperties"}}, `Unknown field "qq"`},
		{"parameter sent twice", "/v1/listings?page=1&page=2", 400, []fr{{"page", "type"}}, "send it once"},
		{"enum", "/v1/launches?section=best", 400, []fr{{"section", "enum"}}, "section must be one of today, this-week"},
		{"pattern with description", "/v1/listings?country=USA", 400, []fr{{"country", "pattern"}}, "ISO 3166"},
		{"maxLength", "/v1/listings?q=" + strings.Repeat("a", 201), 400, []fr{{"q", "maxLength"}}, "q must be at most 200 characters long (got 201)"},
		{"required", "/v1/compare?a=x", 400, []fr{{"b", "required"}}, "b is required"},
		{"path parameter validated", "/v1/listings/Not_A_Slug", 400, []fr{{"slug", "pattern"}}, "slug must match"},
		{"path parameter in query", "/v1/listings/abc?slug=abc", 400, []fr{{"slug", "additionalProperties"}}, "part of the path"},
		{"several errors at once", "/v1/listings?per_page=0&sort=best&x=1", 400,
			[]fr{{"per_page", "minimum"}, {"sort", "enum"}, {"x", "additionalProperties"}}, "3 input fields are invalid"},
		{"domain rule", "/v1/leaderboards/billboard?week=this", 400, []fr{{"week", "applies_to"}}, "community-weekly"},
		{"absent listing", "/v1/listings/no-such-listing-here", 404, nil, "no-such-listing-here"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			r := catDo(t, env, "GET", row.path, nil, nil)
			if r.status != row.status {
				t.Fatalf("status %d, want %d; body %s", r.status, row.status, r.body)
			}
			if row.status == 200 {
				if ct := r.header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("content type %q", ct)
				}
				return
			}
			p := catProblem(t, r)
			if want := map[int]domain.Code{400: domain.EInvalid, 404: domain.ENotFound}[row.status]; p.Code != want {
				t.Errorf("code %s, want %s", p.Code, want)
			}
			var got []fr
			for _, e := range p.Errors {
				got = append(got, fr{e.Field, e.Rule})
				if e.Message == "" {
					t.Errorf("%s/%s: empty message", e.Field, e.Rule)
				}
			}
			if !slices.Equal(got, row.errs) {
				t.Errorf("errors %v, want %v", got, row.errs)
			}
			if !strings.Contains(p.Detail, row.detail) {
				t.Errorf("detail %q lacks %q", p.Detail, row.detail)
			}
		})
	}
}

func TestREST_Routing(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	r := catDo(t, env, "GET", "/v1/nothing-here", nil, nil)
	if p := catProblem(t, r); r.status != 404 || p.Code != domain.ENotFound || !strings.Contains(p.Detail, "/v1/openapi.json") {
		t.Errorf("unknown path: %d %s", r.status, r.body)
	}
	// The API's root is its index: links to the OpenAPI document, the docs
	// and the MCP server, at the request's origin.
	for _, p := range []string{"/v1", "/v1/"} {
		r = catDo(t, env, "GET", p, nil, nil)
		var idx map[string]string
		if err := json.Unmarshal(r.body, &idx); err != nil || r.status != 200 || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("GET %s: %d %q %s", p, r.status, r.header.Get("Content-Type"), r.body)
		}
		want := map[string]string{"api_base_url": env.URL + "/v1", "openapi_url": env.URL + "/v1/openapi.json",
			"docs_url": env.URL + "/docs", "mcp_url": env.URL + "/mcp", "site_url": env.URL + "/v1/site"}
		for k, v := range want {
			if idx[k] != v {
				t.Errorf("GET %s: %s = %q, want %q", p, k, idx[k], v)
			}
		}
		if idx["name"] == "" {
			t.Errorf("GET %s: no name: %s", p, r.body)
		}
		if got := catDo(t, env, "GET", strings.TrimPrefix(idx["openapi_url"], env.URL), nil, nil); got.status != 200 {
			t.Errorf("GET %s: openapi_url answers %d", p, got.status)
		}
	}
	r = catDo(t, env, "POST", "/v1", nil, nil)
	if p := catProblem(t, r); r.status != 405 || p.Code != domain.EMethodNotAllowed || r.header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Errorf("POST /v1: %d, Allow %q", r.status, r.header.Get("Allow"))
	}
	r = catDo(t, env, "DELETE", "/v1/listings/abc", nil, nil)
	catProblem(t, r)
	if r.status != 405 || r.header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Errorf("wrong method: %d, Allow %q", r.status, r.header.Get("Allow"))
	}
	r = catDo(t, env, "POST", "/v1/openapi.json", nil, nil)
	if r.status != 405 || r.header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Errorf("POST openapi.json: %d, Allow %q", r.status, r.header.Get("Allow"))
	}
	r = catDo(t, env, "HEAD", "/v1/interview-questions", nil, nil)
	if r.status != 200 || len(r.body) != 0 {
		t.Errorf("HEAD: %d, %d bytes", r.status, len(r.body))
	}
	r = catDo(t, env, "GET", "/v1/openapi.json", nil, nil)
	var doc map[string]any
	if err := json.Unmarshal(r.body, &doc); err != nil || r.status != 200 {
		t.Fatalf("openapi.json: %d %v", r.status, err)
	}
	servers := doc["servers"].([]any)
	if got := servers[0].(map[string]any)["url"]; got != env.URL+"/v1" {
		t.Errorf("servers[0].url = %v, want %s/v1", got, env.URL)
	}
	// Every catalog route answers (an empty database is enough for the
	// operations without an identifier; the others answer 404, not a routing
	// error). Protected operations are called with an API key.
	key := bearer(env.apiKey(t, "routing@example.com"))
	for _, op := range env.tools.Operations() {
		var hdr map[string]string
		if op.Scope != "" {
			hdr = key
		}
		r := catDo(t, env, op.Method, "/v1"+catFillPath(op.Path)+catRequiredQuery(op), nil, hdr)
		// An operation with a required body answers 400 naming the field: routed.
		bodyRequired := r.status == 400 && op.Method != "GET" &&
			(strings.Contains(string(r.body), `"rule":"required"`) || strings.Contains(string(r.body), `"rule":"minProperties"`))
		if r.status != 200 && r.status != 404 && !bodyRequired {
			t.Errorf("%s: status %d: %s", op.Pattern(), r.status, r.body)
		}
		if r.status == 404 {
			if p := catProblem(t, r); p.Code != domain.ENotFound || strings.Contains(p.Detail, "No API endpoint") {
				t.Errorf("%s: %s", op.Pattern(), r.body)
			}
		}
	}
}

// catRequiredQuery supplies required query parameters (compare_listings).
func catRequiredQuery(op Operation) string {
	if op.Name == "compare_listings" {
		return "?a=x1&b=x2"
	}
	return ""
}

func TestProblemFor_CodeTable(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx := context.Background()
	rows := []struct {
		err    error
		status int
		code   domain.Code
		detail string
	}{
		{domain.Invalid("q", "maxLength", "q is too long."), 400, domain.EInvalid, "q is too long."},
		{domain.Errorf(domain.EUnauthenticated, "Sign in."), 401, domain.EUnauthenticated, "Sign in."},
		{domain.Errorf(domain.EForbidden, "Needs listings:write."), 403, domain.EForbidden, "Needs listings:write."},
		{domain.NotFound("listing", "x"), 404, domain.ENotFound, `No listing "x" exists.`},
		{fmt.Errorf("wrapped: %w", domain.Errorf(domain.EConflict, "Taken.")), 409, domain.EConflict, "Taken."},
		{domain.Errorf(domain.ERateLimited, "Slow down."), 429, domain.ERateLimited, "Slow down."},
		{domain.Errorf(domain.EInternal, "secret table missing"), 500, domain.EInternal, "Internal error."},
		{errors.New("sqlite: database is locked at /srv/secret.db"), 500, domain.EInternal, "Internal error."},
		{&domain.Error{Code: "bogus", Message: "odd"}, 500, domain.EInternal, "Internal error."},
		{&rateLimitError{retryAfter: 3}, 429, domain.ERateLimited, "retry after 3 seconds"},
	}
	for _, row := range rows {
		p := problemFor(ctx, log, "op", row.err)
		if p.Status != row.status || p.Code != row.code || !strings.Contains(p.Detail, row.detail) ||
			p.Title != http.StatusText(row.status) || p.Type != "about:blank" {
			t.Errorf("%v -> %+v", row.err, p)
		}
		if strings.Contains(string(p.JSON()), "secret") {
			t.Errorf("internal detail leaked: %s", p.JSON())
		}
	}
	if !strings.Contains(logs.String(), "database is locked") || !strings.Contains(logs.String(), "secret table missing") {
		t.Errorf("internal errors must be logged; log: %s", logs.String())
	}
	if p := problemFor(ctx, log, "op", &rateLimitError{retryAfter: 3}); p.RetryAfter != 3 {
		t.Errorf("retry_after = %d", p.RetryAfter)
	}
}

func TestRateLimiter_Buckets(t *testing.T) {
	if newOperationLimiter(0, 10, nil) != nil {
		t.Fatal("RateLimit 0 must mean no limiter")
	}
	allow := func(l *ratelimit.Limiter, key string) error {
		_, err := takeOperations(l, key, 1)
		return err
	}
	clk := testclock.New(time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC))
	l := newOperationLimiter(2, 2, clk.Now) // 2/s, burst 2
	for i := 0; i < 2; i++ {
		if err := allow(l, "a"); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	err := allow(l, "a")
	var rl *rateLimitError
	if !errors.As(err, &rl) || rl.retryAfter != 1 {
		t.Fatalf("third call: %v", err)
	}
	if err := allow(l, "b"); err != nil {
		t.Fatalf("other client: %v", err)
	}
	clk.Advance(600 * time.Millisecond) // refills 1.2 tokens; the refused call took none
	if err := allow(l, "a"); err != nil {
		t.Fatalf("after refill: %v", err)
	}
	slow := newOperationLimiter(0.1, 1, clk.Now) // one call per 10 s
	allow(slow, "c")
	if err := allow(slow, "c"); !errors.As(err, &rl) || rl.retryAfter != 10 {
		t.Fatalf("slow limiter: %v", err)
	}
	if _, err := takeOperations(l, "d", 3); !errors.As(err, &rl) || rl.retryAfter != 1 {
		t.Fatalf("more calls at once than the burst: %v", err)
	}
}

func TestClientKey(t *testing.T) {
	t.Parallel()
	r, _ := http.NewRequest("GET", "/", nil)
	r.RemoteAddr = "192.0.2.7:5555"
	if k := clientKey(r); k != "ip:192.0.2.7" {
		t.Errorf("anonymous key %q", k)
	}
	// A credential is never a key by itself (an invalid one is refused before
	// counting; a valid one is keyed by its user, see TestMCP_RateLimitKeyReachesTools).
	r.Header.Set("Authorization", "Bearer abc")
	if k := clientKey(r); k != "ip:192.0.2.7" {
		t.Errorf("key with an unchecked credential %q", k)
	}
}
