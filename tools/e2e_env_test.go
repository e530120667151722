package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// e2eNow is the fixed clock of every end-to-end test: a Wednesday, so this
// week starts on Monday 2026-11-16.
var e2eNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

const (
	e2eThisWeek = "2026-11-16"
	e2eLastWeek = "2026-11-09"
	e2eNextWeek = "2026-11-23"
)

// e2eEnv is one real launchdir stack: a SQLite file in a temp dir, the demo
// data, the store, the service and the console as the production wiring
// builds them, and the tools handler behind an httptest server.
type e2eEnv struct {
	srv  *httptest.Server
	base string // the server's origin, also the site's BaseURL
	svc  *domain.Service
	// console is the site team's console over the same store and clock.
	console *console.Console
	http    *http.Client
	// all is every live listing summary (filled by e2eAllLive).
	all []domain.ListingSummary
}

// e2eNewEnv builds a stack. With seed the demo data is loaded before NewStore.
func e2eNewEnv(t *testing.T, opts Options, seed bool) *e2eEnv {
	t.Helper()
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)

	clock := testclock.New(e2eNow) // the service's and the stores' one clock
	// With seed: a copy of the demo data with the past weeks' awards, as the
	// weekly clock of serve --demo decides them (seeded once per test binary).
	path := fixtures.MigratedFile(t) // a new database, migrated (a copy)
	if seed {
		path = fixtures.SeededFile(t, fixtures.DemoWeeks)
	}
	// The service and the console as serve wires them (internal/wiring);
	// this stack has no auth in front of the tools (Options.Auth unset).
	core := wiredCore(t, path, srv.URL, clock.Now, newTestWorld(t))
	svc := core.Service
	if opts.Idem == nil {
		opts.Idem = storage.NewIdemStore(core.DB)
	}
	if opts.Now == nil {
		opts.Now = clock.Now
	}
	h = New(svc, opts).Handler()
	return &e2eEnv{srv: srv, base: srv.URL, svc: svc, console: core.Console, http: srv.Client()}
}

// e2eResp is a finished HTTP exchange.
type e2eResp struct {
	status int
	header http.Header
	body   []byte
}

// do sends one request to the server; path is relative to the origin ("/v1/site").
func (e *e2eEnv) do(t *testing.T, method, path string, body []byte, hdr map[string]string) e2eResp {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, e.base+path, rd)
	if err != nil {
		t.Fatalf("new request %s %s: %v", method, path, err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := e.http.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read body of %s %s: %v", method, path, err)
	}
	return e2eResp{status: res.StatusCode, header: res.Header, body: b}
}

// getJSON GETs path, requires 200 and decodes the body into out.
func (e *e2eEnv) getJSON(t *testing.T, path string, out any) {
	t.Helper()
	r := e.do(t, http.MethodGet, path, nil, nil)
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: status %d, want 200; body %s", path, r.status, e2eClip(r.body))
	}
	if err := json.Unmarshal(r.body, out); err != nil {
		t.Fatalf("GET %s: decode: %v; body %s", path, err, e2eClip(r.body))
	}
}

// e2eFieldRule is one expected entry of a problem's errors list. Rule may hold
// alternatives separated by "|" where the schema has two keywords that both fail
// (a 221-character slug breaks maxLength and pattern).
type e2eFieldRule struct{ field, rule string }

// e2eProblem is the RFC 9457 body of every error.
type e2eProblem struct {
	Type       string              `json:"type"`
	Title      string              `json:"title"`
	Status     int                 `json:"status"`
	Detail     string              `json:"detail"`
	Code       string              `json:"code"`
	Errors     []domain.FieldError `json:"errors"`
	RetryAfter int                 `json:"retry_after"`
}

// fields returns the sorted, de-duplicated field names of the problem.
func (p e2eProblem) fields() []string {
	var out []string
	for _, f := range p.Errors {
		out = append(out, f.Field)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// e2eCheckFieldRules fails unless every wanted field/rule pair is in p.Errors.
func e2eCheckFieldRules(t *testing.T, p e2eProblem, want []e2eFieldRule) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, f := range p.Errors {
			if f.Field == w.field && slices.Contains(strings.Split(w.rule, "|"), f.Rule) {
				found = true
				if strings.TrimSpace(f.Message) == "" {
					t.Errorf("errors entry %s/%s has an empty message", f.Field, f.Rule)
				}
			}
		}
		if !found {
			t.Errorf("problem errors %+v: missing field %q with rule %q", p.Errors, w.field, w.rule)
		}
	}
}

// e2eCodeFor is the problem code each error status must carry.
var e2eCodeFor = map[int]string{400: "invalid", 401: "unauthenticated", 403: "forbidden", 404: "not_found", 413: "payload_too_large",
	409: "conflict", 429: "rate_limited", 500: "internal"}

// e2eScenario is one row of a REST scenario table (pocketbase style).
type e2eScenario struct {
	name            string
	method          string            // GET when empty
	url             string            // path and query below the origin, e.g. "/v1/listings?q=x"
	body            any               // request body: a string or []byte as is, anything else JSON-encoded; nil for none
	headers         map[string]string // request headers; Content-Type defaults to application/json with a body
	wantStatus      int
	wantContains    []string
	notWantContains []string
	wantErrors      []e2eFieldRule    // 400 only: field/rule pairs that must be named
	wantHeader      map[string]string // header name -> substring its value must contain
	check           func(t *testing.T, body []byte)
}

// e2eDoer sends one request below the origin: an e2eEnv, or a catEnv (with
// accounts and API keys).
type e2eDoer interface {
	do(t *testing.T, method, path string, body []byte, hdr map[string]string) e2eResp
}

// do sends one request to the env's server (see e2eDoer).
func (e *catEnv) do(t *testing.T, method, path string, body []byte, hdr map[string]string) e2eResp {
	t.Helper()
	r := catDo(t, e, method, path, body, hdr)
	return e2eResp{status: r.status, header: r.header, body: r.body}
}

// e2eBody is the bytes and headers of a row's request.
func e2eBody(t *testing.T, sc e2eScenario) ([]byte, map[string]string) {
	t.Helper()
	var raw []byte
	switch b := sc.body.(type) {
	case nil:
		return nil, sc.headers
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatalf("table bug: body of %s: %v", sc.name, err)
		}
	}
	hdr := map[string]string{"Content-Type": "application/json"}
	for k, v := range sc.headers {
		hdr[k] = v
	}
	return raw, hdr
}

// e2eRun runs a scenario table as subtests.
func e2eRun(t *testing.T, e e2eDoer, rows []e2eScenario) {
	t.Helper()
	for _, sc := range rows {
		t.Run(sc.name, func(t *testing.T) {
			method := sc.method
			if method == "" {
				method = http.MethodGet
			}
			body, hdr := e2eBody(t, sc)
			r := e.do(t, method, sc.url, body, hdr)
			if r.status != sc.wantStatus {
				t.Fatalf("%s %s: status %d, want %d; body %s", method, sc.url, r.status, sc.wantStatus, e2eClip(r.body))
			}
			for _, s := range sc.wantContains {
				if !strings.Contains(string(r.body), s) {
					t.Errorf("%s %s: body lacks %q; body %s", method, sc.url, s, e2eClip(r.body))
				}
			}
			for _, s := range sc.notWantContains {
				if strings.Contains(string(r.body), s) {
					t.Errorf("%s %s: body has %q; body %s", method, sc.url, s, e2eClip(r.body))
				}
			}
			for k, v := range sc.wantHeader {
				if got := r.header.Get(k); !strings.Contains(got, v) {
					t.Errorf("header %s = %q, want it to contain %q", k, got, v)
				}
			}
			if _, isProblem := e2eCodeFor[r.status]; isProblem {
				p := e2eCheckProblem(t, r)
				if sc.wantStatus == http.StatusBadRequest {
					if len(sc.wantErrors) == 0 {
						t.Fatalf("table bug: a 400 row must say which field and rule it expects")
					}
					if len(p.Errors) == 0 {
						t.Errorf("400 without errors list: %s", e2eClip(r.body))
					}
					e2eCheckFieldRules(t, p, sc.wantErrors)
				}
			} else if ct := r.header.Get("Content-Type"); r.status < 300 && !strings.HasPrefix(ct, "application/json") {
				t.Errorf("success Content-Type %q, want application/json", ct)
			}
			if sc.check != nil {
				sc.check(t, r.body)
			}
		})
	}
}

// e2eCheckProblem checks the problem+json contract of an error response and returns the body.
func e2eCheckProblem(t *testing.T, r e2eResp) e2eProblem {
	t.Helper()
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Errorf("error Content-Type %q, want application/problem+json", ct)
	}
	var p e2eProblem
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatalf("problem body is not JSON: %v; %s", err, e2eClip(r.body))
	}
	if p.Status != r.status {
		t.Errorf("problem status %d, HTTP status %d", p.Status, r.status)
	}
	if want, ok := e2eCodeFor[r.status]; ok && p.Code != want {
		t.Errorf("problem code %q for status %d, want %q", p.Code, r.status, want)
	}
	if p.Title == "" || p.Detail == "" || p.Type == "" {
		t.Errorf("problem lacks type, title or detail: %s", e2eClip(r.body))
	}
	return p
}

// e2eDecode decodes body into a fresh T or fails.
func e2eDecode[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decode %T: %v; body %s", v, err, e2eClip(body))
	}
	return v
}

// e2eClip shortens a body for failure messages.
func e2eClip(b []byte) string {
	const max = 600
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// e2eAllLive returns every live listing summary, read through the API in pages of 100.
func (e *e2eEnv) e2eAllLive(t *testing.T) []domain.ListingSummary {
	t.Helper()
	if e.all != nil {
		return e.all
	}
	var all []domain.ListingSummary
	for page := 1; page <= 20; page++ {
		var out domain.SearchListingsOutput
		e.getJSON(t, fmt.Sprintf("/v1/listings?sort=votes&per_page=100&page=%d", page), &out)
		all = append(all, out.Summaries()...)
		if !out.HasMore {
			break
		}
	}
	e.all = all
	return all
}

// e2eQuery builds "path?k=v&..." with the parameters in sorted order.
func e2eQuery(path string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	if len(v) == 0 {
		return path
	}
	return path + "?" + v.Encode()
}

// e2eNonIncreasing reports the first index i where vals[i] > vals[i-1], or -1.
func e2eNonIncreasing[T int | int64 | float64](vals []T) int {
	for i := 1; i < len(vals); i++ {
		if vals[i] > vals[i-1] {
			return i
		}
	}
	return -1
}

// e2eMap collects f over items.
func e2eMap[S, T any](items []S, f func(S) T) []T {
	out := make([]T, 0, len(items))
	for _, it := range items {
		out = append(out, f(it))
	}
	return out
}
