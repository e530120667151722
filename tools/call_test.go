package tools

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestHandle_StageOrder pins the order of the stages of handle (call.go)
// over REST and MCP: when a call breaks the rules of two stages, the
// earlier stage answers. Scope check, then rate limit, then validation,
// then idempotency: a bad body never claims or spends a key, even one
// already used for another request.
func TestHandle_StageOrder(t *testing.T) {
	t.Parallel()
	const burst = 10
	e := idemTestServerWith(t, true, Options{RateLimit: 0.001, RateBurst: burst})
	alice, bob, carol := e.apiKey(t, "alice@example.com"), e.apiKey(t, "bob@example.com"), e.apiKey(t, "carol@example.com")
	const badBody = `{"name":""}` // name minLength

	// rest sends a body to POST /v1/things.
	rest := func(t *testing.T, bearer, key, body string) (catResp, Problem) {
		t.Helper()
		hdr := map[string]string{"Content-Type": "application/json"}
		if bearer != "" {
			hdr["Authorization"] = "Bearer " + bearer
		}
		if key != "-" {
			hdr[IdempotencyKeyHeader] = key
		}
		r := catDo(t, e.catEnv, "POST", "/v1/things", []byte(body), hdr)
		if r.status < 300 {
			return r, Problem{}
		}
		return r, catProblem(t, r)
	}
	// mcpRaw sends one tools/call as raw JSON-RPC; name is spelt as given
	// (JSON escapes included) and args is raw JSON. It returns the HTTP
	// status and the tool result, if the call got that far.
	mcpRaw := func(t *testing.T, bearer, name, args string) (int, map[string]any) {
		t.Helper()
		hdr := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"Mcp-Protocol-Version": "2025-11-25"}
		if bearer != "" {
			hdr["Authorization"] = "Bearer " + bearer
		}
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"%s","arguments":%s}}`, name, args)
		r := catDo(t, e.catEnv, "POST", "/mcp", []byte(body), hdr)
		if r.status != 200 {
			return r.status, nil
		}
		res, _ := e2eRPCMessage(t, e2eResp(r))["result"].(map[string]any)
		if res == nil {
			t.Fatalf("no tool result: %s", r.body)
		}
		return r.status, res
	}
	// toolProblem is the problem of an isError tool result.
	toolProblem := func(t *testing.T, res map[string]any) Problem {
		t.Helper()
		content, _ := res["content"].([]any)
		if res["isError"] != true || len(content) != 1 {
			t.Fatalf("want an isError result with one content item: %v", res)
		}
		text, _ := content[0].(map[string]any)["text"].(string)
		var p Problem
		if err := json.Unmarshal([]byte(text), &p); err != nil {
			t.Fatalf("not a problem: %v; %s", err, text)
		}
		return p
	}
	// wantFields checks a 400 that names exactly these field/rule pairs.
	wantFields := func(t *testing.T, what string, p Problem, want ...string) {
		t.Helper()
		var got []string
		for _, f := range p.Errors {
			got = append(got, f.Field+" "+f.Rule)
		}
		if p.Code != domain.EInvalid || p.Status != 400 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %s %d %v, want invalid 400 naming %v", what, p.Code, p.Status, got, want)
		}
	}

	t.Run("ScopeBeforeValidation", func(t *testing.T) {
		r, p := rest(t, "", "-", badBody)
		if r.status != 401 || p.Code != domain.EUnauthenticated || r.header.Get("WWW-Authenticate") == "" {
			t.Errorf("REST: %d %s, want the 401 challenge", r.status, p.Code)
		}
		if st, _ := mcpRaw(t, "", "idem_create", badBody); st != 401 {
			t.Errorf("MCP: HTTP %d, want the 401 challenge", st)
		}
		// A tool name spelt with JSON escapes passes the HTTP challenge (the
		// middleware looks for the name as written); the scope stage of
		// handle still answers first.
		st, res := mcpRaw(t, "", `idem\u005fcreate`, badBody)
		if st != 200 {
			t.Fatalf("MCP, escaped name: HTTP %d, want a tool result", st)
		}
		if p := toolProblem(t, res); p.Code != domain.EUnauthenticated || p.Status != 401 {
			t.Errorf("MCP, escaped name: %s %d %v, want unauthenticated 401", p.Code, p.Status, p.Errors)
		}
	})

	t.Run("RateLimitBeforeValidation", func(t *testing.T) {
		// carol's budget is spent by invalid calls (each is a 400): they
		// count, and then the rate limit answers before validation, on both
		// transports (the budget is the caller's, whatever the transport).
		for i := range burst {
			r, p := rest(t, carol, "-", badBody)
			if r.status != 400 {
				t.Fatalf("call %d within the budget: %d %s", i+1, r.status, p.Code)
			}
		}
		if r, p := rest(t, carol, "-", badBody); r.status != 429 || p.Code != domain.ERateLimited || r.header.Get("Retry-After") == "" {
			t.Errorf("REST over the budget: %d %s, want 429 rate_limited", r.status, p.Code)
		}
		// Over MCP the refusal is the HTTP 429 of the request, before the
		// MCP server reads it.
		if st, _ := mcpRaw(t, carol, "idem_create", badBody); st != 429 {
			t.Fatalf("MCP over the budget: HTTP %d, want 429", st)
		}
	})

	t.Run("ValidationBeforeIdempotency", func(t *testing.T) {
		uid := idemUserID(t, e, "alice@example.com")
		first, _ := rest(t, alice, "order-1", `{"name":"first"}`)
		idemWantStatus(t, first, 201, "first")
		if r, p := rest(t, alice, "order-1", `{"name":"other"}`); r.status != 422 || p.Code != CodeIdempotencyKeyReused {
			t.Fatalf("the key is used: %d %s, want 422", r.status, p.Code)
		}
		// The used key with a bad body: the 400 of the body, not the 422 of the key.
		_, p := rest(t, alice, "order-1", badBody)
		wantFields(t, "REST, used key and bad body", p, "name minLength")
		// A bad key and a bad body: the body's errors only; the key is
		// checked by the idempotency stage.
		_, p = rest(t, alice, "", badBody)
		wantFields(t, "REST, bad key and bad body", p, "name minLength")
		_, p = rest(t, alice, "", `{"name":"ok"}`)
		wantFields(t, "REST, bad key", p, IdempotencyKeyHeader+" minLength")
		// Nothing of that touched the key: the first request still replays.
		again, _ := rest(t, alice, "order-1", `{"name":"first"}`)
		if again.status != 201 || !idemReplayed(again) || string(again.body) != string(first.body) {
			t.Errorf("replay after the refused calls: %d %s replayed=%v, want %s", again.status, again.body, idemReplayed(again), first.body)
		}
		if n := e.fx.count("idem_create", uid, "first"); n != 1 {
			t.Errorf("%d runs of the first request, want 1", n)
		}

		// MCP, with the key as the idempotency_key argument.
		_, res := mcpRaw(t, bob, "idem_create", `{"name":"first","idempotency_key":"order-m"}`)
		if res["isError"] == true {
			t.Fatalf("MCP first call: %v", res)
		}
		firstText := fmt.Sprint(res["structuredContent"])
		_, res = mcpRaw(t, bob, "idem_create", `{"name":"other","idempotency_key":"order-m"}`)
		if p := toolProblem(t, res); p.Code != CodeIdempotencyKeyReused {
			t.Fatalf("MCP, the key is used: %s, want %s", p.Code, CodeIdempotencyKeyReused)
		}
		_, res = mcpRaw(t, bob, "idem_create", `{"name":"","idempotency_key":"order-m"}`)
		wantFields(t, "MCP, used key and bad arguments", toolProblem(t, res), "name minLength")
		_, res = mcpRaw(t, bob, "idem_create", `{"name":"","idempotency_key":""}`)
		wantFields(t, "MCP, bad key and bad arguments", toolProblem(t, res), "name minLength")
		_, res = mcpRaw(t, bob, "idem_create", `{"name":"ok","idempotency_key":""}`)
		wantFields(t, "MCP, bad key", toolProblem(t, res), idemArgument+" minLength")
		_, res = mcpRaw(t, bob, "idem_create", `{"name":"first","idempotency_key":"order-m"}`)
		if res["isError"] == true || fmt.Sprint(res["structuredContent"]) != firstText {
			t.Errorf("MCP replay after the refused calls: %v, want %s", res, firstText)
		}
		if n := e.fx.count("idem_create", idemUserID(t, e, "bob@example.com"), "first"); n != 1 {
			t.Errorf("%d runs of bob's first request, want 1", n)
		}
	})
}
