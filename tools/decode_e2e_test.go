package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tests of the one input decoder (decodeJSON) and of the body limits, over
// the real router, the real /mcp endpoint and a real SQLite file.

// TestInput_DuplicateKeys sends update_my_listing bodies that name one key
// twice, at every depth: each is a 400 naming the field path and rule
// duplicateKey over REST and over MCP, and nothing is stored. encoding/json
// would have kept the last value.
func TestInput_DuplicateKeys(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	id := env.ownedListing(t, "owner@example.com")
	rows := []struct {
		name, args, field string // args: the JSON arguments without listing_id
	}{
		{"top level", `{"fields":{"tagline":"First"},"fields":{"tagline":"Second"}}`, "fields"},
		{"nested", `{"fields":{"tagline":"First","tagline":"Second"}}`, "fields.tagline"},
		{"escaped spelling", `{"fields":{"tagline":"First","tag\u006cine":"Second"}}`, "fields.tagline"},
		{"in an array item", `{"faqs":[{"question":"Q?","answer":"A.","answer":"B."}]}`, "faqs[0].answer"},
		{"null then value", `{"fields":{"city":null,"city":"Berlin"}}`, "fields.city"},
	}
	check := func(t *testing.T, what string, st int, p map[string]any, field string) {
		t.Helper()
		wantInvalid(t, what, st, p, field, RuleDuplicateKey)
		if got := listingColumn(t, env, id, "tagline"); got != "" {
			t.Fatalf("%s: tagline stored %q", what, got)
		}
		if n := versionCount(t, env, id); n != "0" {
			t.Fatalf("%s: %s versions stored", what, n)
		}
	}
	t.Run("rest", func(t *testing.T) {
		for _, r := range rows {
			res := catDo(t, env, "PATCH", fmt.Sprintf("/v1/me/listings/%d", id), []byte(r.args),
				map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json"})
			var p map[string]any
			if err := json.Unmarshal(res.body, &p); err != nil {
				t.Fatalf("%s: %d %s", r.name, res.status, res.body)
			}
			check(t, r.name, res.status, p, r.field)
		}
	})
	t.Run("mcp", func(t *testing.T) {
		cs := catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + key})
		for _, r := range rows {
			// The raw arguments go on the wire as written, duplicate included.
			args := json.RawMessage(fmt.Sprintf(`{"listing_id":%d,%s`, id, r.args[1:]))
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "update_my_listing", Arguments: args})
			if err != nil {
				t.Fatalf("%s: protocol error %v", r.name, err)
			}
			var p map[string]any
			if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &p); err != nil || !res.IsError {
				t.Fatalf("%s: isError %v, %v", r.name, res.IsError, res.Content[0])
			}
			check(t, r.name, int(p["status"].(float64)), p, r.field)
		}
	})
	t.Run("distinct keys still pass", func(t *testing.T) {
		res := catDo(t, env, "PATCH", fmt.Sprintf("/v1/me/listings/%d", id),
			[]byte(`{"fields":{"tagline":"Once"},"faqs":[{"question":"Q?","answer":"A."},{"question":"Q?","answer":"A."}]}`),
			map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json"})
		if res.status != 200 || listingColumn(t, env, id, "tagline") != "Once" {
			t.Fatalf("%d %s", res.status, res.body)
		}
	})
}

// TestInput_BodyTooLarge: a body over the limit, the same 1 MiB on both
// transports, is a 413 naming the limit in bytes (REST: problem+json; /mcp:
// a JSON-RPC error whose data is the same problem), and nothing is stored; a
// body of exactly the limit is read and runs.
func TestInput_BodyTooLarge(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	id := env.ownedListing(t, "owner@example.com")
	auth := map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json"}
	path := fmt.Sprintf("/v1/me/listings/%d", id)
	// padded is a valid edit padded with spaces to n bytes.
	padded := func(tagline string, n int) []byte {
		b := []byte(fmt.Sprintf(`{"fields":{"tagline":%q}}`, tagline))
		return append(b, bytes.Repeat([]byte(" "), n-len(b))...)
	}
	t.Run("rest", func(t *testing.T) {
		for _, n := range []int{maxBodyBytes + 1, 10 << 20} {
			res := catDo(t, env, "PATCH", path, padded("Too big", n), auth)
			if res.status != 413 {
				t.Fatalf("%d bytes: status %d, want 413; %.200s", n, res.status, res.body)
			}
			p := catProblem(t, res)
			if p.Code != "payload_too_large" || p.MaxBytes != maxBodyBytes || !strings.Contains(p.Detail, "1048576 bytes") {
				t.Errorf("%d bytes: problem %+v", n, p)
			}
			if got := listingColumn(t, env, id, "tagline"); got != "" {
				t.Fatalf("%d bytes: tagline stored %q", n, got)
			}
		}
		res := catDo(t, env, "PATCH", path, padded("Just fits", maxBodyBytes), auth)
		if res.status != 200 || listingColumn(t, env, id, "tagline") != "Just fits" {
			t.Fatalf("exactly %d bytes: %d %.200s", maxBodyBytes, res.status, res.body)
		}
	})
	t.Run("mcp", func(t *testing.T) {
		call := func(tagline string, n int) []byte {
			b := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_my_listing",`+
				`"arguments":{"listing_id":%d,"fields":{"tagline":%q}}}}`, id, tagline))
			return append(b, bytes.Repeat([]byte(" "), n-len(b))...)
		}
		hdr := map[string]string{"Authorization": "Bearer " + key,
			"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25"}
		before := listingColumn(t, env, id, "tagline")
		res := catDo(t, env, "POST", "/mcp", call("Too big over MCP", maxBodyBytes+1), hdr)
		if res.status != 413 || res.header.Get("Content-Type") != "application/json" {
			t.Fatalf("status %d (%s), want 413 JSON; %.300s", res.status, res.header.Get("Content-Type"), res.body)
		}
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
			ID      any    `json:"id"`
			Error   struct {
				Code    int     `json:"code"`
				Message string  `json:"message"`
				Data    Problem `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal(res.body, &msg); err != nil {
			t.Fatalf("not JSON-RPC: %v; %s", err, res.body)
		}
		if msg.JSONRPC != "2.0" || msg.ID != nil || msg.Error.Code != -32600 || msg.Error.Data.Code != "payload_too_large" ||
			msg.Error.Data.MaxBytes != maxBodyBytes || msg.Error.Data.Status != 413 || !strings.Contains(msg.Error.Message, "1048576 bytes") {
			t.Errorf("message %s", res.body)
		}
		if got := listingColumn(t, env, id, "tagline"); got != before {
			t.Fatalf("tagline is %q after a refused call", got)
		}
		res = catDo(t, env, "POST", "/mcp", call("Fits over MCP", maxBodyBytes), hdr)
		if m := e2eRPCMessage(t, e2eResp(res)); res.status != 200 || m["result"] == nil || listingColumn(t, env, id, "tagline") != "Fits over MCP" {
			t.Fatalf("exactly %d bytes: %d %.300s", maxBodyBytes, res.status, res.body)
		}
	})
}

// TestInput_Numbers: numbers the service cannot hold are a 400 naming the
// field, never a 500 and never seconds of big-number arithmetic; integers
// written 2.0 count as integers at any depth. Found by FuzzRESTInput and
// FuzzMCPArguments (an input of 2 KB took 3.4 s; 1e19 answered 500).
func TestInput_Numbers(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	auth := map[string]string{"Authorization": "Bearer " + key}
	e2eRun(t, env, []e2eScenario{
		{name: "query exponent", url: "/v1/listings?page=1e999999", headers: auth, wantStatus: 400, wantErrors: []e2eFieldRule{{"page", "type"}}},
		{name: "query leading zeros", url: "/v1/listings?page=007&per_page=%2B5", headers: auth, wantStatus: 200},
		{name: "body exponent", method: "POST", url: "/v1/orders/quote", headers: auth,
			body: `{"items":[{"product":"launch","listing_id":1e999999}]}`, wantStatus: 400, wantErrors: []e2eFieldRule{{"items[0].listing_id", RuleNumberRange}}},
		{name: "body many exponents", method: "POST", url: "/v1/orders/quote", headers: auth,
			body:       `{"items":[` + strings.Repeat(`{"product":"launch","listing_id":1e999999},`, 30) + `{}]}`,
			wantStatus: 400, wantErrors: []e2eFieldRule{{"items[0].listing_id", RuleNumberRange}}},
		{name: "body over int64", method: "POST", url: "/v1/orders/quote", headers: auth,
			body: `{"items":[{"product":"launch","listing_id":1e19}]}`, wantStatus: 400, wantErrors: []e2eFieldRule{{"items[0].listing_id", "maximum"}}},
		{name: "path over int64", url: "/v1/me/listings/9223372036854775808", headers: auth, wantStatus: 400, wantErrors: []e2eFieldRule{{"listing_id", "maximum"}}},
		{name: "nested 2.0 is an integer", method: "POST", url: "/v1/orders/quote", headers: auth,
			body: `{"items":[{"product":"launch","listing_id":2.0}]}`, wantStatus: 400, wantErrors: []e2eFieldRule{{"items[0].listing_id", "exists"}}},
	})
	cs := catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + key})
	for _, c := range []struct{ tool, args, field, rule string }{
		{"get_my_listing", `{"listing_id":1e19}`, "listing_id", "maximum"},
		{"get_my_listing", `{"listing_id":1e999999}`, "listing_id", RuleNumberRange},
		{"quote_order", `{"items":[{"product":"launch","listing_id":2.0}]}`, "items[0].listing_id", "exists"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.args, err)
		}
		var p map[string]any
		json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &p)
		st, _ := p["status"].(float64)
		wantInvalid(t, c.tool+" "+c.args, int(st), p, c.field, c.rule)
	}
}
