package tools

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
)

// netClient is an HTTP client whose connections come from the loopback
// address ip (127.0.0.2, 127.0.0.3, ...): each is another network to the
// server, which reads r.RemoteAddr as it does in production.
func netClient(t *testing.T, ip string) *http.Client {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

func netDo(t *testing.T, c *http.Client, env *catEnv, method, path string, body []byte, hdr map[string]string) catResp {
	t.Helper()
	req, err := http.NewRequest(method, env.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := c.Do(req)
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

// mcpPost sends one raw JSON-RPC message to /mcp.
func mcpPost(t *testing.T, c *http.Client, env *catEnv, body string, hdr map[string]string) catResp {
	t.Helper()
	h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"Mcp-Protocol-Version": "2025-11-25"}
	for k, v := range hdr {
		h[k] = v
	}
	return netDo(t, c, env, "POST", "/mcp", []byte(body), h)
}

const (
	mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"flood","version":"1"}}}`
	mcpToolsList  = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	mcpCallSite   = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_site_info","arguments":{}}}`
)

// wantLimited checks a 429 of a per-network policy: Retry-After in whole
// seconds, RateLimit-Policy and RateLimit naming the policy with r=0 and t
// not before Retry-After, and the problem+json body with code rate_limited.
func wantLimited(t *testing.T, r catResp, policy string, retryAfter int) {
	t.Helper()
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("status %d, want 429; body %s", r.status, r.body)
	}
	if got, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || got != retryAfter {
		t.Errorf("Retry-After %q, want %d", r.header.Get("Retry-After"), retryAfter)
	}
	wantLimit(t, r.header, policy, 0, retryAfter)
	if p := catProblem(t, r); p.Code != domain.ERateLimited || p.RetryAfter != retryAfter {
		t.Errorf("problem %+v, want rate_limited with retry_after %d", p, retryAfter)
	}
}

// wantLimit checks the RateLimit item of policy (parsed as a structured
// field) and that RateLimit-Policy names it.
func wantLimit(t *testing.T, h http.Header, policy string, remaining, reset int) {
	t.Helper()
	items, err := ratelimit.ParseItems(h, "RateLimit")
	if err != nil {
		t.Fatalf("RateLimit %q: %v", h.Values("RateLimit"), err)
	}
	pols, err := ratelimit.ParseItems(h, "RateLimit-Policy")
	if err != nil {
		t.Fatalf("RateLimit-Policy %q: %v", h.Values("RateLimit-Policy"), err)
	}
	found := false
	for _, p := range pols {
		found = found || (p.Name == policy && p.Params["q"] > 0 && p.Params["w"] > 0)
	}
	if !found {
		t.Errorf("RateLimit-Policy %q lacks %q with q and w", h.Values("RateLimit-Policy"), policy)
	}
	for _, it := range items {
		if it.Name == policy {
			if it.Params["r"] != remaining || it.Params["t"] != reset {
				t.Errorf("RateLimit %q: %s r=%d t=%d, want r=%d t=%d", h.Values("RateLimit"), policy, it.Params["r"], it.Params["t"], remaining, reset)
			}
			return
		}
	}
	t.Errorf("RateLimit %q has no item %q", h.Values("RateLimit"), policy)
}

func newNetEnv(t *testing.T, failures, session int) (*catEnv, *testclock.Clock) {
	clk := testclock.New(catNow)
	env := catTestServer(t, Options{
		Failures: ratelimit.New(ratelimit.Policy{Name: "failures", Quota: failures, Window: 15 * time.Minute}, clk.Now),
		Session:  ratelimit.New(ratelimit.Policy{Name: "mcp", Quota: session, Window: time.Minute}, clk.Now),
	}, false)
	return env, clk
}

// TestRateLimit_BadCredentials: a bad bearer token or API key on /v1 and
// /mcp costs from the budget of that credential from that network (the
// same credential on both transports is one budget); when it is used up,
// that credential gets 429 before it is checked, until the window ends on
// the test clock. Another credential from the same network (a good one, or
// another bad one), anonymous calls and other networks are not affected
// (one client's bad credentials never lock out another).
func TestRateLimit_BadCredentials(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env, clk := newNetEnv(t, 3, 0)
	good := env.apiKey(t, "good@example.com")
	bad := map[string]string{"Authorization": "Bearer ld_key_not-a-real-key"}
	attacker, other := netClient(t, "127.0.0.2"), netClient(t, "127.0.0.3")

	for i, send := range []func() catResp{
		func() catResp { return netDo(t, attacker, env, "GET", "/v1/site", nil, bad) },
		func() catResp { return mcpPost(t, attacker, env, mcpInitialize, bad) },
		func() catResp { return netDo(t, attacker, env, "GET", "/v1/me", nil, bad) },
	} {
		r := send()
		if r.status != 401 {
			t.Fatalf("bad credential %d: status %d, want 401; %s", i+1, r.status, r.body)
		}
		wantLimit(t, r.header, "failures", 2-i, 900)
	}
	wantLimited(t, netDo(t, attacker, env, "GET", "/v1/site", nil, bad), "failures", 900)
	wantLimited(t, mcpPost(t, attacker, env, mcpInitialize, bad), "failures", 900)

	clk.Advance(5 * time.Minute)
	wantLimited(t, netDo(t, attacker, env, "GET", "/v1/site", nil, bad), "failures", 600)
	goodHdr := map[string]string{"Authorization": "Bearer " + good}
	if r := netDo(t, attacker, env, "GET", "/v1/me", nil, goodHdr); r.status != 200 {
		t.Fatalf("good key from the same network: %d %s", r.status, r.body)
	}
	if r := mcpPost(t, attacker, env, mcpInitialize, goodHdr); r.status != 200 {
		t.Fatalf("good key over MCP from the same network: %d %s", r.status, r.body)
	}
	basic := map[string]string{"Authorization": "Basic eDp5"}
	if r := netDo(t, attacker, env, "GET", "/v1/me", nil, basic); r.status != 401 {
		t.Fatalf("another bad credential from the same network: %d, want 401", r.status)
	}
	if r := netDo(t, attacker, env, "GET", "/v1/site", nil, nil); r.status != 200 {
		t.Fatalf("anonymous call from the limited network: %d, want 200", r.status)
	}
	if r := netDo(t, other, env, "GET", "/v1/site", nil, bad); r.status != 401 {
		t.Fatalf("bad key from another network: %d, want 401", r.status)
	}

	clk.Advance(10 * time.Minute)
	if r := netDo(t, attacker, env, "GET", "/v1/site", nil, bad); r.status != 401 {
		t.Fatalf("bad key after the window: %d, want 401 (checked again)", r.status)
	}
}

// TestRateLimit_MCPSession: initialize, tools/list and notifications count
// against the network's MCP budget and get an HTTP 429 with Retry-After
// when it is used up; tools/call is left to the per-client operation
// limiter; another network has its own budget.
func TestRateLimit_MCPSession(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env, clk := newNetEnv(t, 0, 3)
	flood, other := netClient(t, "127.0.0.2"), netClient(t, "127.0.0.3")
	for i, body := range []string{mcpInitialize, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, mcpToolsList} {
		r := mcpPost(t, flood, env, body, nil)
		if r.status >= 300 {
			t.Fatalf("session call %d: %d %s", i+1, r.status, r.body)
		}
		wantLimit(t, r.header, "mcp", 2-i, 60)
	}
	wantLimited(t, mcpPost(t, flood, env, mcpInitialize, nil), "mcp", 60)
	clk.Advance(20 * time.Second)
	wantLimited(t, mcpPost(t, flood, env, mcpToolsList, nil), "mcp", 40)
	wantLimited(t, mcpPost(t, flood, env, `[`+mcpToolsList+`,`+mcpCallSite+`]`, nil), "mcp", 40)
	wantLimited(t, netDo(t, flood, env, "GET", "/mcp", nil, map[string]string{"Accept": "text/event-stream"}), "mcp", 40)
	if r := mcpPost(t, flood, env, mcpCallSite, nil); r.status != 200 || r.header.Get("RateLimit") != "" {
		t.Fatalf("tools/call from the limited network: %d %v %s", r.status, r.header, r.body)
	}
	if r := mcpPost(t, other, env, mcpInitialize, nil); r.status != 200 {
		t.Fatalf("initialize from another network: %d %s", r.status, r.body)
	}
	clk.Advance(40 * time.Second)
	if r := mcpPost(t, flood, env, mcpToolsList, nil); r.status != 200 {
		t.Fatalf("tools/list after the window: %d %s", r.status, r.body)
	}
}

// TestRateLimit_OperationsHeaders: REST answers carry the per-client
// operation budget as RateLimit fields, and its 429 has r=0 with t equal
// to Retry-After.
func TestRateLimit_OperationsHeaders(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	// The clock stands still: no token comes back between the calls.
	env := catTestServer(t, Options{RateLimit: 1, RateBurst: 2, Now: testclock.New(catNow).Now}, false)
	r := catDo(t, env, "GET", "/v1/site", nil, nil)
	if r.status != 200 || r.header.Get("RateLimit-Policy") != `"operations";q=2;w=2` {
		t.Fatalf("first call: %d %v", r.status, r.header)
	}
	wantLimit(t, r.header, "operations", 1, 1)
	catDo(t, env, "GET", "/v1/site", nil, nil)
	r = catDo(t, env, "GET", "/v1/site", nil, nil)
	secs, err := strconv.Atoi(r.header.Get("Retry-After"))
	if r.status != 429 || err != nil || secs < 1 {
		t.Fatalf("third call: %d, Retry-After %q", r.status, r.header.Get("Retry-After"))
	}
	wantLimit(t, r.header, "operations", 0, secs)
}

func TestRateLimiter_State(t *testing.T) {
	clk := testclock.New(catNow)
	l := newOperationLimiter(2, 4, clk.Now) // 2/s, burst 4: an empty bucket fills in 2 s
	st, err := takeOperations(l, "k", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !st.OK || st.Remaining != 3 || st.ResetSeconds() != 1 || st.Policy.Quota != 4 || st.Policy.Window != 2*time.Second {
		t.Fatalf("after one call: %+v", st)
	}
	for i := 0; i < 3; i++ {
		takeOperations(l, "k", 1)
	}
	if st, err := takeOperations(l, "k", 1); err == nil || st.OK || st.Remaining != 0 || st.ResetSeconds() != 1 {
		t.Fatalf("refused: %+v (%v)", st, err)
	}
	clk.Advance(1500 * time.Millisecond) // 3 tokens back
	if st := l.Peek("k"); st.Remaining != 3 || st.ResetSeconds() != 1 {
		t.Fatalf("after 1.5 s: %+v", st)
	}
	if st, err := takeOperations(nil, "k", 1); err != nil || st.Policy.Name != "" {
		t.Fatalf("no limiter: no refusal and no state: %+v (%v)", st, err)
	}
}
