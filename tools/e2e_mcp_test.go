package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

// e2eRoutes are the 17 public operations as the spec names them, and the
// public reads of the trophies toolset (programmes included): tool name and REST path.
var e2eRoutes = map[string]string{
	"get_site_info":            "/site",
	"search_listings":          "/listings",
	"get_listing":              "/listings/{slug}",
	"get_alternatives":         "/listings/{slug}/alternatives",
	"compare_listings":         "/compare",
	"list_categories":          "/categories",
	"get_category":             "/categories/{slug}",
	"get_launch_week":          "/launches/weeks/{week}",
	"list_launches":            "/launches",
	"get_leaderboard":          "/leaderboards/{board}",
	"list_founders":            "/founders",
	"get_founder":              "/founders/{slug}",
	"list_blog_posts":          "/blog",
	"get_blog_post":            "/blog/{slug}",
	"list_awards":              "/awards",
	"get_badges":               "/listings/{slug}/badges",
	"list_interview_questions": "/interview-questions",
	"list_products":            "/products",
	"get_trophy_cabinet":       "/listings/{slug}/trophies",
	"get_trophy_leaderboard":   "/trophies/leaderboard",
	"get_hall_of_fame":         "/hall-of-fame",
	"list_programmes":          "/programmes",
	"get_programme":            "/programmes/{slug}",
}

// e2eRESTURL turns tool arguments into the REST URL of the same call: path
// parameters go into the path, the rest into the query.
func e2eRESTURL(t *testing.T, tool string, args map[string]any) string {
	t.Helper()
	path, ok := e2eRoutes[tool]
	if !ok {
		t.Fatalf("unknown tool %q", tool)
	}
	q := url.Values{}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := fmt.Sprint(args[k])
		if strings.Contains(path, "{"+k+"}") {
			path = strings.ReplaceAll(path, "{"+k+"}", url.PathEscape(v))
			continue
		}
		q.Set(k, v)
	}
	if len(q) > 0 {
		return "/v1" + path + "?" + q.Encode()
	}
	return "/v1" + path
}

// e2eConnect connects the go-sdk client over real HTTP. version "" lets the
// client negotiate (2026-07-28 first); "2025-11-25" uses the initialize handshake.
func e2eConnect(t *testing.T, e *e2eEnv, version string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "launchdir-e2e", Version: "1.0.0"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: e.base + "/mcp", HTTPClient: e.http, DisableStandaloneSSE: true}
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := client.Connect(context.Background(), tr, opts)
	if err != nil {
		t.Fatalf("mcp connect (version %q): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// e2eCall calls a tool and fails on a protocol error (business errors are isError results).
func e2eCall(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s %v: protocol error %v (a failing operation must be an isError result)", tool, args, err)
	}
	return res
}

// e2eResultText returns the single text content of a tool result.
func e2eResultText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	if len(texts) != 1 {
		t.Fatalf("tool result has %d text contents, want 1: %+v", len(texts), res.Content)
	}
	return texts[0]
}

// e2eToolProblem returns the problem body of an isError result.
func e2eToolProblem(t *testing.T, res *mcp.CallToolResult) e2eProblem {
	t.Helper()
	if !res.IsError {
		t.Fatalf("result is not an error: %s", e2eClip(e2eJSON(t, res.StructuredContent)))
	}
	if res.StructuredContent != nil {
		t.Errorf("error result carries structuredContent %v", res.StructuredContent)
	}
	var p e2eProblem
	text := e2eResultText(t, res)
	if err := json.Unmarshal([]byte(text), &p); err != nil {
		t.Fatalf("error text is not a problem JSON: %v; %s", err, text)
	}
	if p.Code == "" || p.Status == 0 || p.Detail == "" {
		t.Errorf("problem lacks code, status or detail: %s", text)
	}
	if want := e2eCodeFor[p.Status]; want != p.Code {
		t.Errorf("problem status %d with code %q, want %q", p.Status, p.Code, want)
	}
	return p
}

// e2eJSON marshals v or fails.
func e2eJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

// e2eSchemaOf compiles a JSON Schema value (as decoded from tools/list) with santhosh-tekuri/jsonschema.
func e2eSchemaOf(t *testing.T, name string, schema any) *sjs.Schema {
	t.Helper()
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(e2eJSON(t, schema)))
	if err != nil {
		t.Fatalf("schema of %s: %v", name, err)
	}
	c := sjs.NewCompiler()
	loc := "mem://tools/" + name + ".json"
	if err := c.AddResource(loc, doc); err != nil {
		t.Fatalf("add schema of %s: %v", name, err)
	}
	sch, err := c.Compile(loc)
	if err != nil {
		t.Fatalf("compile schema of %s: %v", name, err)
	}
	return sch
}

// e2eValidate validates a JSON value against a compiled schema.
func e2eValidate(t *testing.T, sch *sjs.Schema, what string, v any) {
	t.Helper()
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(e2eJSON(t, v)))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s does not match its advertised outputSchema: %v", what, err)
	}
}

// e2eTools lists the tools and checks the catalog-wide invariants.
func e2eTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	out := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	var names, want []string
	for n := range out {
		names = append(names, n)
	}
	for n := range e2eRoutes {
		want = append(want, n)
	}
	for _, op := range Catalog() {
		if op.Scope != "" {
			want = append(want, op.Name) // listed to anonymous clients too; calling one asks for sign-in
		}
	}
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("tools/list has %d tools %v, want the public operations and the signed-in ones %v", len(res.Tools), names, want)
	}
	for _, tool := range res.Tools {
		in, _ := tool.InputSchema.(map[string]any)
		outS, _ := tool.OutputSchema.(map[string]any)
		if in == nil || in["type"] != "object" {
			t.Errorf("%s: inputSchema %v, want type object", tool.Name, tool.InputSchema)
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf", "$ref"} {
			if _, ok := in[k]; ok {
				t.Errorf("%s: inputSchema has top-level %s", tool.Name, k)
			}
		}
		if outS == nil || outS["type"] != "object" {
			t.Errorf("%s: outputSchema %v, want type object", tool.Name, tool.OutputSchema)
		}
		var spec Operation
		for _, op := range Catalog() {
			if op.Name == tool.Name {
				spec = op
			}
		}
		if a := tool.Annotations; a == nil || a.ReadOnlyHint != spec.ReadOnly {
			t.Errorf("%s: annotations %+v, want readOnlyHint %v", tool.Name, a, spec.ReadOnly)
		} else if destructive := a.DestructiveHint != nil && *a.DestructiveHint; destructive && (spec.ReadOnly || !spec.Destructive) {
			t.Errorf("%s: marked destructive, the catalog says it is not", tool.Name)
		}
		if strings.TrimSpace(tool.Description) == "" {
			t.Errorf("%s: no description", tool.Name)
		}
		props, _ := in["properties"].(map[string]any)
		req, _ := in["required"].([]any)
		for _, seg := range strings.Split(e2eRoutes[tool.Name], "/") {
			if strings.HasPrefix(seg, "{") {
				p := strings.Trim(seg, "{}")
				if _, ok := props[p]; !ok || !slices.Contains(req, any(p)) {
					t.Errorf("%s: path parameter %q is not a required input property (required %v)", tool.Name, p, req)
				}
			}
		}
		if slices.Contains([]string{"search_listings", "get_category", "list_launches", "get_leaderboard", "list_founders", "list_blog_posts", "list_awards"}, tool.Name) {
			pp, _ := props["per_page"].(map[string]any)
			if pp == nil || fmt.Sprint(pp["minimum"]) != "1" || fmt.Sprint(pp["maximum"]) != "100" || fmt.Sprint(pp["default"]) != "20" {
				t.Errorf("%s: per_page schema %v, want minimum 1, maximum 100, default 20", tool.Name, pp)
			}
		}
	}
	return out
}

// TestE2E_MCP lists and calls every tool with the go-sdk client over real HTTP,
// on the negotiated protocol (2026-07-28) and on the initialize-based 2025-11-25.
func TestE2E_MCP(t *testing.T) {
	t.Parallel()
	e := e2eNewEnv(t, Options{}, true)
	fx := e2eNewFixtures(t, e)
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("protocol="+version, func(t *testing.T) {
			cs := e2eConnect(t, e, version)
			if version != "" {
				if got := cs.InitializeResult().ProtocolVersion; got != version {
					t.Errorf("negotiated %q, want %q", got, version)
				}
			} else if got := cs.InitializeResult().ProtocolVersion; got != "2026-07-28" {
				t.Errorf("default negotiation gave %q, want 2026-07-28", got)
			}
			tools := e2eTools(t, cs)
			t.Run("parity", func(t *testing.T) { e2eParity(t, e, cs, tools, fx) })
			t.Run("invalid", func(t *testing.T) { e2eMCPInvalid(t, cs) })
		})
	}
	t.Run("raw_2026_07_28", func(t *testing.T) { e2eRaw2026(t, e, fx) })
	t.Run("cors", func(t *testing.T) {
		r := e.do(t, "OPTIONS", "/mcp", nil, map[string]string{"Origin": "https://inspector.example",
			"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,mcp-protocol-version"})
		if r.status >= 300 || r.header.Get("Access-Control-Allow-Origin") == "" ||
			!strings.Contains(strings.ToLower(r.header.Get("Access-Control-Allow-Headers")), "mcp-protocol-version") {
			t.Errorf("preflight: status %d, allow-origin %q, allow-headers %q", r.status, r.header.Get("Access-Control-Allow-Origin"), r.header.Get("Access-Control-Allow-Headers"))
		}
	})
}

// e2eMCPInvalid calls tools with arguments only MCP can send wrongly (JSON types, missing path params).
func e2eMCPInvalid(t *testing.T, cs *mcp.ClientSession) {
	for _, c := range []struct {
		tool  string
		args  map[string]any
		field string
		rule  string
	}{
		{"get_listing", map[string]any{}, "slug", "required"},
		{"get_listing", map[string]any{"slug": 7}, "slug", "type"},
		{"search_listings", map[string]any{"per_page": "5"}, "per_page", "type"},
		{"search_listings", map[string]any{"per_page": 2.5}, "per_page", "type"},
		{"list_categories", map[string]any{"include_empty": "false"}, "include_empty", "type"},
		{"compare_listings", map[string]any{"a": "x"}, "b", "required"},
		{"get_launch_week", map[string]any{}, "week", "required"},
		{"get_leaderboard", map[string]any{"board": "No Board"}, "board", "pattern"},
		{"get_site_info", map[string]any{"verbose": true}, "verbose", "additionalProperties"},
	} {
		t.Run(fmt.Sprintf("%s%v", c.tool, c.args), func(t *testing.T) {
			p := e2eToolProblem(t, e2eCall(t, cs, c.tool, c.args))
			if p.Code != "invalid" {
				t.Errorf("code %q, want invalid", p.Code)
			}
			e2eCheckFieldRules(t, p, []e2eFieldRule{{c.field, c.rule}})
		})
	}
}

// e2eRaw2026 sends tools/call by hand the way a 2026-07-28 client does: no
// initialize, protocol version and capabilities in _meta, Mcp-* headers.
func e2eRaw2026(t *testing.T, e *e2eEnv, fx e2eFixtures) {
	call := func(t *testing.T, name, headerName string, args map[string]any) (int, map[string]any) {
		body := e2eJSON(t, map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": map[string]any{
			"name": name, "arguments": args,
			"_meta": map[string]any{
				"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
				"io.modelcontextprotocol/clientCapabilities": map[string]any{},
				"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "raw-e2e", "version": "1"},
			}}})
		r := e.do(t, "POST", "/mcp", body, map[string]string{
			"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": headerName,
		})
		return r.status, e2eRPCMessage(t, r)
	}
	t.Run("OK", func(t *testing.T) {
		args := map[string]any{"q": "note-taking app", "per_page": 3}
		status, msg := call(t, "search_listings", "search_listings", args)
		res, _ := msg["result"].(map[string]any)
		if status != 200 || res == nil {
			t.Fatalf("status %d, message %v", status, msg)
		}
		if res["isError"] == true || res["resultType"] != "complete" {
			t.Errorf("isError %v, resultType %v", res["isError"], res["resultType"])
		}
		if meta, _ := res["_meta"].(map[string]any); meta == nil || meta["io.modelcontextprotocol/serverInfo"] == nil {
			t.Errorf("result _meta %v lacks serverInfo", res["_meta"])
		}
		var rest any
		e.getJSON(t, e2eRESTURL(t, "search_listings", args), &rest)
		if got, want := string(e2eJSON(t, res["structuredContent"])), string(e2eJSON(t, rest)); got != want {
			t.Errorf("structuredContent differs from REST:\n got %s\nwant %s", e2eClip([]byte(got)), e2eClip([]byte(want)))
		}
	})
	t.Run("InvalidIsToolError", func(t *testing.T) {
		status, msg := call(t, "get_listing", "get_listing", map[string]any{"slug": "Bad_Slug"})
		res, _ := msg["result"].(map[string]any)
		if status != 200 || res == nil || res["isError"] != true {
			t.Fatalf("status %d, message %v; want a 200 tool result with isError", status, msg)
		}
		if !strings.Contains(string(e2eJSON(t, res["content"])), `\"field\":\"slug\"`) {
			t.Errorf("error content does not name slug: %v", res["content"])
		}
	})
	t.Run("HeaderMismatch", func(t *testing.T) {
		status, msg := call(t, "get_site_info", "search_listings", map[string]any{})
		errObj, _ := msg["error"].(map[string]any)
		if status != 400 || errObj == nil || fmt.Sprint(errObj["code"]) != "-32020" {
			t.Errorf("Mcp-Name mismatch: status %d, message %v; want 400 with -32020", status, msg)
		}
	})
}

// e2eRPCMessage returns the JSON-RPC message of a Streamable HTTP response,
// whether it came as application/json or as one SSE event.
func e2eRPCMessage(t *testing.T, r e2eResp) map[string]any {
	t.Helper()
	data := r.body
	if strings.HasPrefix(r.header.Get("Content-Type"), "text/event-stream") {
		data = nil
		sc := bufio.NewScanner(bytes.NewReader(r.body))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "data:"); ok {
				data = append(data, strings.TrimSpace(line)...)
			}
		}
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("response (status %d, %s) is not a JSON-RPC message: %v; %s", r.status, r.header.Get("Content-Type"), err, e2eClip(r.body))
	}
	return m
}
