package tools

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/launchdir/launchdir/domain"
)

// tsGroups are the toolsets as docs/toolsets.md states them, written out
// here rather than derived from the table, so that a change of the table
// shows as a failing test. public is the tools of e2eRoutes (no sign-in).
var tsGroups = map[string][]string{
	"public":   slices.Sorted(maps.Keys(e2eRoutes)),
	"account":  {"get_account", "list_my_claims", "list_my_drafts", "list_my_listings", "list_my_orders", "list_my_trophies"},
	"drafts":   {"get_draft", "invite_cofounder", "list_my_drafts", "submit_draft", "submit_listing", "update_draft"},
	"listings": {"add_milestone", "answer_interview", "choose_free_listing", "delete_milestone", "get_my_listing", "list_my_listings", "post_listing_update", "set_founder_story", "update_my_listing"},
	"claims":   {"claim_listing", "list_my_claims", "verify_claim"},
	"orders":   {"create_checkout", "get_order", "list_my_orders", "list_products", "quote_order"},
	"trophies": {"add_trophy", "delete_trophy", "enter_programme", "get_hall_of_fame", "get_programme", "get_trophy_cabinet", "get_trophy_leaderboard",
		"list_my_trophies", "list_programmes", "withdraw_programme_entry"},
	"webhooks": {"create_webhook", "delete_webhook", "list_webhook_deliveries", "list_webhooks", "redeliver_webhook", "rotate_webhook_secret", "send_test_webhook", "update_webhook"},
}

// tsConnect connects the go-sdk client to /mcp<query> with extra headers.
func tsConnect(t *testing.T, e *catEnv, query, version string, hdr map[string]string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "toolsets-test", Version: "1.0.0"}, nil)
	tr := &mcp.StreamableClientTransport{Endpoint: e.URL + "/mcp" + query,
		HTTPClient: &http.Client{Transport: catHeaderTransport{hdr, http.DefaultTransport}}, DisableStandaloneSSE: true}
	var opts *mcp.ClientSessionOptions
	if version != "" {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := c.Connect(context.Background(), tr, opts)
	if err != nil {
		t.Fatalf("connect /mcp%s %v: %v", query, hdr, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// tsList lists the tools of a session: names sorted, and the tools by name.
func tsList(t *testing.T, cs *mcp.ClientSession) ([]string, map[string]*mcp.Tool) {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	by := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		by[tl.Name] = tl
	}
	return slices.Sorted(maps.Keys(by)), by
}

func tsUnion(names ...[]string) []string {
	var out []string
	for _, n := range names {
		out = append(out, n...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func tsFilter(names []string, keep func(string) bool) []string {
	var out []string
	for _, n := range names {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

// TestToolsets_EveryToolInAGroup: every catalog tool is in at least one
// group other than readonly, and the groups are the documented ones.
func TestToolsets_EveryToolInAGroup(t *testing.T) {
	t.Parallel()
	ops := Catalog()
	if len(ops) != 59 {
		t.Fatalf("catalog has %d operations, want 59", len(ops))
	}
	sets := Toolsets(ops)
	if got, want := ToolsetNames(), []string{"public", "account", "drafts", "listings", "claims", "orders", "trophies", "webhooks", "readonly"}; !slices.Equal(got, want) {
		t.Fatalf("toolsets %v, want %v", got, want)
	}
	in := map[string]int{}
	for _, ts := range sets {
		if ts.Modifier != (ts.Name == "readonly") {
			t.Errorf("%s: Modifier=%v", ts.Name, ts.Modifier)
		}
		if ts.Cost <= 0 || ts.CostUnit != "bytes" || ts.Summary == "" {
			t.Errorf("%s: cost %d %s, summary %q", ts.Name, ts.Cost, ts.CostUnit, ts.Summary)
		}
		if ts.Modifier {
			var ro []string
			for _, op := range ops {
				if op.ReadOnly {
					ro = append(ro, op.Name)
				}
			}
			if !slices.Equal(ts.Tools, ro) {
				t.Errorf("readonly lists %v, want every read-only tool %v", ts.Tools, ro)
			}
			continue
		}
		if got, want := slices.Sorted(slices.Values(ts.Tools)), tsGroups[ts.Name]; !slices.Equal(got, want) {
			t.Errorf("toolset %s = %v, want %v", ts.Name, got, want)
		}
		for _, n := range ts.Tools {
			in[n]++
		}
	}
	for _, op := range ops {
		if in[op.Name] == 0 {
			t.Errorf("%s is in no toolset", op.Name)
		}
	}
	if ToolsetCost("drafts") != sets[2].Cost || ToolsetCost("nope") != 0 {
		t.Errorf("ToolsetCost(drafts) = %d, want %d", ToolsetCost("drafts"), sets[2].Cost)
	}
}

// TestToolsets_MCP connects the go-sdk client over HTTP with each toolset and
// combinations: tools/list names exactly the chosen tools, a tool outside is
// an unknown tool (not a sign-in), a tool inside works.
func TestToolsets_MCP(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	all, byName := tsList(t, tsConnect(t, e, "", "", nil))
	if len(all) != 59 {
		t.Fatalf("default selection lists %d tools, want 59", len(all))
	}
	// readOnlyHint as the client sees it.
	readOnly := func(n string) bool { return byName[n].Annotations != nil && byName[n].Annotations.ReadOnlyHint }
	allRO := tsFilter(all, readOnly)

	cases := []struct {
		name, query string
		hdr         map[string]string
		want        []string
	}{
		{"all", "?toolsets=all", nil, all},
		{"readonly", "?toolsets=readonly", nil, allRO},
		{"public,drafts", "?toolsets=public,drafts", nil, tsUnion(tsGroups["public"], tsGroups["drafts"])},
		{"spaces and case", "?toolsets=%20Drafts%20,PUBLIC,drafts", nil, tsUnion(tsGroups["public"], tsGroups["drafts"])},
		{"repeated param", "?toolsets=claims&toolsets=orders", nil, tsUnion(tsGroups["claims"], tsGroups["orders"])},
		{"drafts,readonly", "?toolsets=drafts,readonly", nil, tsFilter(tsGroups["drafts"], readOnly)},
		{"listings,orders,readonly", "?toolsets=listings,orders,readonly", nil, tsFilter(tsUnion(tsGroups["listings"], tsGroups["orders"]), readOnly)},
		{"header", "", map[string]string{ToolsetsHeader: "claims"}, tsGroups["claims"]},
		{"header readonly", "", map[string]string{ToolsetsHeader: "drafts", ReadonlyHeader: "true"}, tsFilter(tsGroups["drafts"], readOnly)},
		{"readonly header alone", "", map[string]string{ReadonlyHeader: "1"}, allRO},
		{"readonly header false", "", map[string]string{ReadonlyHeader: "false"}, all},
		{"blank header is absent", "", map[string]string{ToolsetsHeader: " "}, all},
		{"URL wins over header", "?toolsets=orders", map[string]string{ToolsetsHeader: "claims"}, tsGroups["orders"]},
		{"URL and readonly header", "?toolsets=orders", map[string]string{ReadonlyHeader: "yes"}, tsFilter(tsGroups["orders"], readOnly)},
	}
	for g, want := range tsGroups {
		cases = append(cases, struct {
			name, query string
			hdr         map[string]string
			want        []string
		}{g, "?toolsets=" + g, nil, want})
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			version := ""
			if i%2 == 1 { // both the initialize handshake and 2026-07-28
				version = "2025-11-25"
			}
			cs := tsConnect(t, e, tc.query, version, tc.hdr)
			got, _ := tsList(t, cs)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("tools/list = %v\nwant %v", got, tc.want)
			}
			outside := tsFilter(all, func(n string) bool { return !slices.Contains(tc.want, n) })
			for _, n := range outside {
				_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: n, Arguments: map[string]any{}})
				if err == nil || !strings.Contains(err.Error(), "unknown tool") {
					t.Errorf("call %s outside the selection: %v, want unknown tool", n, err)
				}
			}
			inside := "get_site_info"
			if !slices.Contains(tc.want, inside) {
				inside = tc.want[0]
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: inside, Arguments: map[string]any{}})
			switch {
			case byName[inside].Annotations == nil:
				t.Fatalf("%s has no annotations", inside)
			case inside == "get_site_info" && (err != nil || res.IsError):
				t.Errorf("call %s inside the selection: %v %+v", inside, err, res)
			case inside != "get_site_info" && (err == nil || !strings.Contains(err.Error(), "Unauthorized")):
				// A protected tool inside the selection asks for sign-in.
				t.Errorf("call protected %s inside the selection without a token: %v, want a 401", inside, err)
			}
		})
	}
}

// TestToolsets_SameServer: equivalent spellings of a selection share one
// MCP server (a session stays with the server that made it), and the
// default selection is the MCPServer.
func TestToolsets_SameServer(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	sel := func(q string) selection {
		s, fe := selectionOf(&http.Request{URL: &url.URL{RawQuery: q}, Header: http.Header{}})
		if fe != nil {
			t.Fatalf("%s: %v", q, fe)
		}
		return s
	}
	ts := e.tools.toolsets
	if a, b := ts.get(sel("toolsets=drafts,public")), ts.get(sel("toolsets=public,%20drafts,drafts")); a != b {
		t.Error("drafts,public and public,drafts have different servers")
	}
	if ts.get(sel("toolsets=drafts")) == ts.get(sel("toolsets=drafts,readonly")) {
		t.Error("drafts and drafts,readonly share a server")
	}
	if ts.get(sel("")) != e.tools.MCPServer() || ts.get(sel("toolsets=all")) != e.tools.MCPServer() ||
		ts.get(sel("toolsets=public,account,drafts,listings,claims,orders,trophies,webhooks")) != e.tools.MCPServer() {
		t.Error("the default selection is not MCPServer()")
	}
}

// TestToolsets_BadSelection400: an unknown name, an empty list or a bad
// boolean is a 400 problem naming the parameter and the allowed values,
// before any MCP exchange.
func TestToolsets_BadSelection400(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	init := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	hdr := func(kv ...string) map[string]string {
		m := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		name, method, query string
		hdr                 map[string]string
		field, rule, detail string
	}{
		{"unknown", "POST", "?toolsets=public,bogus", hdr(), "toolsets", "enum", `unknown toolset "bogus"; allowed: public, account, drafts, listings, claims, orders, trophies, webhooks, readonly`},
		{"unknown on GET", "GET", "?toolsets=write", hdr(), "toolsets", "enum", `unknown toolset "write"`},
		{"empty", "POST", "?toolsets=", hdr(), "toolsets", "minItems", "toolsets is empty"},
		{"only commas", "POST", "?toolsets=,%20,", hdr(), "toolsets", "minItems", "toolsets is empty"},
		{"header unknown", "POST", "", hdr(ToolsetsHeader, "drafts,nope"), ToolsetsHeader, "enum", `unknown toolset "nope"`},
		{"readonly header", "POST", "", hdr(ReadonlyHeader, "maybe"), ReadonlyHeader, "enum", `"maybe" is not a boolean`},
		{"URL bad, header good", "POST", "?toolsets=nope", hdr(ToolsetsHeader, "drafts"), "toolsets", "enum", `unknown toolset "nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body []byte
			if tc.method == "POST" {
				body = init
			}
			r := catDo(t, e, tc.method, "/mcp"+tc.query, body, tc.hdr)
			if r.status != 400 {
				t.Fatalf("status %d, want 400; body %s", r.status, r.body)
			}
			p := catProblem(t, r)
			if p.Code != domain.EInvalid || len(p.Errors) != 1 || p.Errors[0].Field != tc.field || p.Errors[0].Rule != tc.rule ||
				!strings.Contains(p.Detail, tc.detail) || r.header.Get("Mcp-Session-Id") != "" {
				t.Errorf("problem %s, want field %s rule %s detail with %q", r.body, tc.field, tc.rule, tc.detail)
			}
		})
	}
}

// TestToolsets_SameResourceAndSignIn: a 401 on /mcp?toolsets=drafts is the
// one of /mcp: it names the resource metadata of /mcp (the token's resource
// is /mcp whatever the selection).
func TestToolsets_SameResourceAndSignIn(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_draft","arguments":{"id":"x"}}}`)
	hdr := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25"}
	var challenges []string
	for _, q := range []string{"", "?toolsets=drafts", "?toolsets=drafts,readonly"} {
		r := catDo(t, e, "POST", "/mcp"+q, call, hdr)
		wantChallenge(t, e, r, 401, e.auth.MCPResource(), "", "account:read")
		challenges = append(challenges, r.header.Get("WWW-Authenticate"))
	}
	if challenges[0] != challenges[1] || challenges[0] != challenges[2] {
		t.Errorf("challenges differ by selection: %q", challenges)
	}
	// A protected tool outside the selection is unknown, not a sign-in.
	r := catDo(t, e, "POST", "/mcp?toolsets=public", call, hdr)
	if r.status != 200 || !strings.Contains(string(r.body), "unknown tool") || r.header.Get("WWW-Authenticate") != "" {
		t.Errorf("get_draft on ?toolsets=public: %d %s %q, want 200 with unknown tool", r.status, r.body, r.header.Get("WWW-Authenticate"))
	}
}

// TestToolsets_OAuthGoSDKClient: the go-sdk client connected to
// /mcp?toolsets=account signs in through OAuth (discovery from the 401,
// dynamic registration, consent) exactly as on /mcp and calls get_account.
func TestToolsets_OAuthGoSDKClient(t *testing.T) {
	t.Parallel()
	const redirect = "http://127.0.0.1:33419/callback"
	s := newOAuthStack(t, nil)
	var consents atomic.Int32
	h, err := sdkauth.NewAuthorizationCodeHandler(&sdkauth.AuthorizationCodeHandlerConfig{
		RedirectURL: redirect, AuthorizationCodeFetcher: s.browser(t, "ts@example.com", redirect, &consents), Client: s.srv.Client(),
		DynamicClientRegistrationConfig: &sdkauth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Toolsets Assistant", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "toolsets-oauth", Version: "1.0.0"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: s.srv.URL + "/mcp?toolsets=account", HTTPClient: s.srv.Client(), OAuthHandler: h,
	}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	// The metadata of /mcp names /mcp; asked with the selection's query (RFC
	// 9728 path insertion, as go-sdk does when the first resource does not
	// match its URL) it names the URL the client uses.
	for q, want := range map[string]string{"": s.srv.URL + "/mcp", "?toolsets=account": s.srv.URL + "/mcp?toolsets=account"} {
		res, err := s.srv.Client().Get(s.srv.URL + "/.well-known/oauth-protected-resource/mcp" + q)
		if err != nil {
			t.Fatal(err)
		}
		var meta struct {
			Resource string `json:"resource"`
		}
		err = json.NewDecoder(res.Body).Decode(&meta)
		res.Body.Close()
		if err != nil || res.StatusCode != 200 || meta.Resource != want {
			t.Errorf("resource metadata%s: %d %q %v, want resource %s", q, res.StatusCode, meta.Resource, err, want)
		}
	}
	names, _ := tsList(t, cs)
	if !slices.Equal(names, tsGroups["account"]) {
		t.Fatalf("tools %v, want %v", names, tsGroups["account"])
	}
	r, text := catCall(t, cs, "get_account", nil)
	var a domain.Account
	if r.IsError || json.Unmarshal([]byte(text), &a) != nil || a.Email != "ts@example.com" || consents.Load() != 1 {
		t.Fatalf("get_account after sign-in: %s (consents %d)", text, consents.Load())
	}
	// The token was issued for /mcp: it works on every selection and on /mcp.
	ts, err := h.TokenSource(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.auth.Verify(context.Background(), tok.AccessToken, s.auth.MCPResource()); err != nil {
		t.Errorf("token of ?toolsets=account does not verify for %s: %v", s.auth.MCPResource(), err)
	}
}

// TestToolsets_CostIsWhatClientsReceive: a toolset's cost is the size of its
// tool definitions as a client receives them in tools/list (within 1%: the
// client re-encodes the schemas with its own key order and escapes).
func TestToolsets_CostIsWhatClientsReceive(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	for _, ts := range Toolsets(Catalog()) {
		_, tools := tsList(t, tsConnect(t, e, "?toolsets="+ts.Name, "", nil))
		got := 0
		for _, tl := range tools {
			b, err := json.Marshal(tl)
			if err != nil {
				t.Fatal(err)
			}
			got += len(b)
		}
		if d := got - ts.Cost; d*100 > ts.Cost || -d*100 > ts.Cost {
			t.Errorf("%s: cost %d bytes, tools/list carries %d", ts.Name, ts.Cost, got)
		}
		t.Logf("%-9s %2d tools %7d %s", ts.Name, len(ts.Tools), ts.Cost, ts.CostUnit)
	}
}

// TestToolsets_CORSPreflight: a browser-based client may send the toolset
// headers cross-origin.
func TestToolsets_CORSPreflight(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	r := catDo(t, e, "OPTIONS", "/mcp?toolsets=drafts", nil, map[string]string{"Origin": "https://inspector.example",
		"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, x-mcp-toolsets, x-mcp-readonly"})
	allow := strings.ToLower(r.header.Get("Access-Control-Allow-Headers"))
	if r.status != 204 || !strings.Contains(allow, "x-mcp-toolsets") || !strings.Contains(allow, "x-mcp-readonly") {
		t.Errorf("preflight: %d, allow-headers %q", r.status, allow)
	}
}

// TestToolsets_BuiltOnFirstUse: New builds no MCP server (most servers of a
// test binary never serve /mcp); the default selection's is built when first
// asked for, once.
func TestToolsets_BuiltOnFirstUse(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	ts := e.tools.toolsets
	count := func() int {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		return len(ts.by)
	}
	if n := count(); n != 0 {
		t.Fatalf("New built %d MCP servers, want none before /mcp is asked", n)
	}
	if a, b := e.tools.MCPServer(), e.tools.MCPServer(); a == nil || a != b || count() != 1 {
		t.Errorf("MCPServer: %p then %p, %d servers built; want one, built once", a, b, count())
	}
}
