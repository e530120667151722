package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// wireMCPHeaders are the headers of a tools/call POST in protocol proto.
func wireMCPHeaders(proto, method, name string) map[string]string {
	h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"Mcp-Protocol-Version": proto}
	if proto == "2026-07-28" {
		h["Mcp-Method"] = method
		if name != "" {
			h["Mcp-Name"] = name
		}
	}
	return h
}

// wireMCPBody is a JSON-RPC request of method with params in protocol proto
// (2026-07-28 carries its _meta; older versions need no initialize on a
// stateless server).
func wireMCPBody(t *testing.T, proto, method string, id int, params map[string]any) []byte {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	if proto == "2026-07-28" {
		params["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    proto,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "wire-test", "version": "1"},
		}
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wireToolResult is a tools/call result as it travels.
type wireToolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// wireSearchCall calls search_listings over /mcp by hand and checks the
// answer is one application/json JSON-RPC response (the SDK's JSON response
// mode), a result whose structured content and text content hold the same
// JSON. It returns that JSON (the text).
func wireSearchCall(t *testing.T, env *catEnv, proto string, id int, args map[string]any) string {
	t.Helper()
	r := catDo(t, env, "POST", "/mcp", wireMCPBody(t, proto, "tools/call", id, map[string]any{"name": "search_listings", "arguments": args}),
		wireMCPHeaders(proto, "tools/call", "search_listings"))
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("%s tools/call: status %d, Content-Type %q (want 200 application/json): %.300s", proto, r.status, r.header.Get("Content-Type"), r.body)
	}
	var msg struct {
		ID     int             `json:"id"`
		Result *wireToolResult `json:"result"`
	}
	if err := json.Unmarshal(r.body, &msg); err != nil || msg.Result == nil || msg.ID != id {
		t.Fatalf("%s tools/call: not one JSON-RPC response with id %d (%v): %.300s", proto, id, err, r.body)
	}
	res := msg.Result
	if res.IsError || len(res.Content) != 1 || res.Content[0].Type != "text" {
		t.Fatalf("%s tools/call: want one text content and no isError: %.300s", proto, r.body)
	}
	if !jsonBytesEqual(t, res.StructuredContent, []byte(res.Content[0].Text)) {
		t.Fatalf("%s: structuredContent and text differ:\n%.300s\n%.300s", proto, res.StructuredContent, res.Content[0].Text)
	}
	return res.Content[0].Text
}

func jsonBytesEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("not JSON: %v: %.200s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("not JSON: %v: %.200s", err, b)
	}
	return jsonEqual(x, y)
}

// wireREST gets path and returns the body, checking it is a 200 JSON body
// sent with its exact Content-Length (not chunked).
func wireREST(t *testing.T, env *catEnv, path string) []byte {
	t.Helper()
	r := catDo(t, env, "GET", path, nil, nil)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET %s: status %d %q: %.300s", path, r.status, r.header.Get("Content-Type"), r.body)
	}
	if cl := r.header.Get("Content-Length"); cl != strconv.Itoa(len(r.body)) {
		t.Errorf("GET %s: Content-Length %q for a body of %d bytes", path, cl, len(r.body))
	}
	return r.body
}

// One search over REST and over MCP in both protocol generations: MCP
// answers application/json with the same JSON as structured content and as
// text, and that JSON is byte for byte the REST body (one encoding of the
// result, which the SDK passes on). Integers written as 3.0 are read as 3 on
// both transports (the arguments are re-encoded only then).
func TestWire_OneEncodingBothTransports(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	rest := wireREST(t, env, "/v1/listings?"+url.Values{"q": {"app"}, "per_page": {"3"}}.Encode())
	var page struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(rest, &page); err != nil || len(page.Items) != 3 {
		t.Fatalf("REST page: %v, %d items: %.300s", err, len(page.Items), rest)
	}
	for i, proto := range []string{"2026-07-28", "2025-11-25", "2025-06-18"} {
		for j, perPage := range []any{3, json.Number("3.0")} {
			text := wireSearchCall(t, env, proto, 10*i+j+1, map[string]any{"q": "app", "per_page": perPage})
			if text != string(rest) {
				t.Errorf("%s per_page %v: MCP text differs from the REST body:\n got %.300s\nwant %.300s", proto, perPage, text, rest)
			}
		}
	}
	if again := wireREST(t, env, "/v1/listings?q=app&per_page=3.0"); !bytes.Equal(again, rest) {
		t.Errorf("per_page=3.0 over REST differs from per_page=3:\n%.300s\n%.300s", again, rest)
	}
}

// Results are encoded into pooled buffers: concurrent calls with different
// arguments on both transports each get their own answer, the one a lone
// call gets (run under -race).
func TestWire_ConcurrentCallsKeepTheirOwnResults(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	queries := []string{"app", "note", "design", "team", "data", "ai"}
	want := map[string]string{}
	for _, q := range queries {
		want[q] = string(wireREST(t, env, "/v1/listings?"+url.Values{"q": {q}, "per_page": {"5"}}.Encode()))
	}
	distinct := map[string]bool{}
	for _, w := range want {
		distinct[w] = true
	}
	if len(distinct) < 3 {
		t.Fatalf("the queries find too few different pages (%d) to tell answers apart", len(distinct))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for g := range 8 {
		wg.Go(func() {
			for i := range 6 {
				q := queries[(g+i)%len(queries)]
				var got string
				if (g+i)%2 == 0 {
					got = string(wireREST(t, env, "/v1/listings?"+url.Values{"q": {q}, "per_page": {"5"}}.Encode()))
				} else {
					got = wireSearchCall(t, env, "2026-07-28", 100*g+i+1, map[string]any{"q": q, "per_page": 5})
				}
				if got != want[q] {
					errs <- fmt.Sprintf("q=%s: got %.200s, want %.200s", q, got, want[q])
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// In JSON response mode what has to stream still streams: the 2026-07-28
// subscriptions/listen is answered as an SSE stream, and GET (the standalone
// stream of the older versions) is 405 on a stateless server, as the spec
// allows. A POST whose Accept lacks text/event-stream is refused as before.
func TestWire_SSEWhereTheSpecWantsIt(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	t.Run("list is JSON", func(t *testing.T) {
		r := catDo(t, env, "POST", "/mcp", wireMCPBody(t, "2026-07-28", "tools/list", 1, nil), wireMCPHeaders("2026-07-28", "tools/list", ""))
		if r.status != 200 || r.header.Get("Content-Type") != "application/json" || !bytes.Contains(r.body, []byte(`"search_listings"`)) {
			t.Errorf("tools/list: %d %q %.200s", r.status, r.header.Get("Content-Type"), r.body)
		}
	})
	t.Run("subscriptions/listen streams", func(t *testing.T) {
		// The stream stays open until the client goes away: read only the headers.
		req := wireRequest(t, env, "2026-07-28", "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}})
		res, err := env.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
			t.Errorf("subscriptions/listen: status %d, Content-Type %q; want 200 text/event-stream", res.StatusCode, res.Header.Get("Content-Type"))
		}
	})
	t.Run("GET is 405", func(t *testing.T) {
		r := catDo(t, env, "GET", "/mcp", nil, map[string]string{"Accept": "text/event-stream", "Mcp-Protocol-Version": "2025-11-25"})
		if r.status != 405 {
			t.Errorf("GET /mcp: status %d, want 405", r.status)
		}
	})
	t.Run("Accept without SSE is refused", func(t *testing.T) {
		h := wireMCPHeaders("2025-11-25", "tools/call", "")
		h["Accept"] = "application/json"
		r := catDo(t, env, "POST", "/mcp", wireMCPBody(t, "2025-11-25", "tools/list", 1, nil), h)
		if r.status != 400 {
			t.Errorf("Accept: application/json only: status %d, want 400 (the SDK asks for both)", r.status)
		}
	})
}

// wireRequest is a POST of method in protocol proto whose context ends with
// the test (for a stream that stays open).
func wireRequest(t *testing.T, env *catEnv, proto, method string, params map[string]any) *http.Request {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "POST", env.URL+"/mcp", bytes.NewReader(wireMCPBody(t, proto, method, 1, params)))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range wireMCPHeaders(proto, method, "") {
		req.Header.Set(k, v)
	}
	return req
}
