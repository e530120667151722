package tools

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
)

// TestRateLimit_MCPToolCallIs429: a tools/call over the
// caller's operation budget is answered HTTP 429 with Retry-After and the
// RateLimit / RateLimit-Policy fields of "operations", as REST is, and the
// problem+json body; within the budget each answer carries the fields, and
// each call counts once (not once in front of the MCP server and again in
// handle). Before, it was HTTP 200 with an isError result and no header.
func TestRateLimit_MCPToolCallIs429(t *testing.T) {
	t.Parallel()                 // owns its server, database copy and clock
	clk := testclock.New(catNow) // stands still: no token comes back between calls
	env := catTestServer(t, Options{RateLimit: 1, RateBurst: 3, Now: clk.Now}, false)
	key := env.apiKey(t, "busy@example.com")
	hdr := map[string]string{"Authorization": "Bearer " + key}
	call := func(name string) catResp {
		return mcpPost(t, http.DefaultClient, env, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"`+name+`","arguments":{}}}`, hdr)
	}
	for i, name := range []string{"get_site_info", "get_account", "list_interview_questions"} {
		r := call(name)
		if r.status != 200 {
			t.Fatalf("call %d within the budget: %d %s", i+1, r.status, r.body)
		}
		if res, _ := e2eRPCMessage(t, e2eResp(r))["result"].(map[string]any); res == nil || res["isError"] == true {
			t.Fatalf("call %d: %s", i+1, r.body)
		}
		wantLimit(t, r.header, "operations", 2-i, 3-(2-i))
	}
	r := call("get_site_info")
	if r.status != http.StatusTooManyRequests {
		t.Fatalf("fourth call: %d, want 429; %s", r.status, r.body)
	}
	secs, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || secs < 1 {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
	wantLimit(t, r.header, "operations", 0, secs)
	if p := catProblem(t, r); p.Code != domain.ERateLimited || p.RetryAfter != secs {
		t.Errorf("problem %+v", p)
	}
	// REST shares the caller's bucket and answers the same way.
	if r := catDo(t, env, "GET", "/v1/me", nil, hdr); r.status != 429 || r.header.Get("RateLimit") == "" {
		t.Errorf("REST of the same caller: %d %v", r.status, r.header)
	}
	// The go-sdk client sees the 429 as an error of the call.
	cs := catConnect(t, env.URL, "2025-11-25", hdr)
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_site_info"}); err == nil || !strings.Contains(err.Error(), "Too Many Requests") {
		t.Errorf("go-sdk client over the budget: %v", err)
	}
	clk.Advance(time.Duration(secs) * time.Second)
	if r := call("get_site_info"); r.status != 200 {
		t.Fatalf("after Retry-After: %d %s", r.status, r.body)
	}
}
