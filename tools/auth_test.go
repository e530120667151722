package tools

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
)

// accessToken issues an OAuth access token for a new user directly in the
// store (the authorization server's own tests cover how tokens are issued).
func (e *catEnv) accessToken(t *testing.T, email, resource string, scopes ...string) string {
	t.Helper()
	ctx := context.Background()
	u, err := e.store.UpsertUser(ctx, auth.EmailIssuer, email, email, "", catNow)
	if err != nil {
		t.Fatal(err)
	}
	cl := auth.Client{ID: auth.NewSecret(auth.PrefixClient), Name: "Test Assistant", RedirectURIs: []string{"http://127.0.0.1/cb"},
		AuthMethod: "none", Kind: auth.ClientDynamic, CreatedAt: catNow}
	if err := e.store.CreateClient(ctx, cl); err != nil {
		t.Fatal(err)
	}
	tok := auth.NewSecret(auth.PrefixAccess)
	if err := e.store.CreateToken(ctx, auth.Token{Hash: auth.Hash(tok), Kind: auth.TokenAccess, UserID: u.ID, ClientID: cl.ID,
		Family: auth.NewSecret(""), Scopes: scopes, Resource: resource, CreatedAt: catNow, ExpiresAt: catNow.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	return tok
}

func bearer(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }

// wantChallenge checks a 401/403 answer: status, WWW-Authenticate with the
// resource metadata URL, the scopes, the RFC 6750 error, and the problem code.
func wantChallenge(t *testing.T, e *catEnv, r catResp, status int, resource, errCode, scope string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
	h := r.header.Get("WWW-Authenticate")
	want := []string{`Bearer `, `resource_metadata="` + e.auth.ResourceMetadataURL(resource) + `"`}
	if scope != "" {
		want = append(want, `scope="`+scope+`"`)
	}
	if errCode != "" {
		want = append(want, `error="`+errCode+`"`)
	} else if strings.Contains(h, "error=") {
		t.Errorf("WWW-Authenticate %q has an error, want none (no credential was sent)", h)
	}
	for _, w := range want {
		if !strings.Contains(h, w) {
			t.Errorf("WWW-Authenticate %q lacks %s", h, w)
		}
	}
	p := catProblem(t, r)
	if wantCode := map[int]domain.Code{401: domain.EUnauthenticated, 403: domain.EForbidden}[status]; p.Code != wantCode {
		t.Errorf("problem code %q, want %q", p.Code, wantCode)
	}
}

func TestAuth_REST(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	api := e.auth.APIResource()

	t.Run("AnonymousProtected401", func(t *testing.T) {
		wantChallenge(t, e, catDo(t, e, "GET", "/v1/me", nil, nil), 401, api, "", "account:read")
	})
	t.Run("APIKey", func(t *testing.T) {
		key := e.apiKey(t, "Ada@Example.com")
		r := catDo(t, e, "GET", "/v1/me", nil, bearer(key))
		if r.status != 200 {
			t.Fatalf("status %d: %s", r.status, r.body)
		}
		var a domain.Account
		if err := json.Unmarshal(r.body, &a); err != nil {
			t.Fatal(err)
		}
		if a.Email != "Ada@Example.com" || a.SignedInWith != "api_key" || a.APIKey == nil || a.Client != nil ||
			strings.Join(a.Scopes, " ") != "account:read listings:write orders:write" || !strings.HasSuffix(a.AccountURL, "/account") {
			t.Errorf("account %+v", a)
		}
		// A key works on public operations too.
		if r := catDo(t, e, "GET", "/v1/site", nil, bearer(key)); r.status != 200 {
			t.Errorf("public op with key: %d", r.status)
		}
	})
	t.Run("RevokedKey401", func(t *testing.T) {
		key := e.apiKey(t, "rev@example.com")
		k, err := e.store.APIKeyByHash(context.Background(), auth.Hash(key))
		if err != nil {
			t.Fatal(err)
		}
		if err := e.store.RevokeAPIKey(context.Background(), k.UserID, k.ID, catNow); err != nil {
			t.Fatal(err)
		}
		wantChallenge(t, e, catDo(t, e, "GET", "/v1/me", nil, bearer(key)), 401, api, "invalid_token", "account:read")
		// A credential that is sent must be valid, on public operations too.
		wantChallenge(t, e, catDo(t, e, "GET", "/v1/site", nil, bearer(key)), 401, api, "invalid_token", "")
	})
	t.Run("UnknownAndMalformed401", func(t *testing.T) {
		wantChallenge(t, e, catDo(t, e, "GET", "/v1/me", nil, bearer("ld_sk_nope")), 401, api, "invalid_token", "account:read")
		wantChallenge(t, e, catDo(t, e, "GET", "/v1/me", nil, map[string]string{"Authorization": "Basic Zm9vOmJhcg=="}), 401, api, "invalid_request", "account:read")
	})
	t.Run("TokenInQueryRefused", func(t *testing.T) {
		key := e.apiKey(t, "query@example.com")
		wantChallenge(t, e, catDo(t, e, "GET", "/v1/me?access_token="+key, nil, nil), 401, api, "invalid_request", "account:read")
	})
	t.Run("OAuthTokenAudience", func(t *testing.T) {
		tokAPI := e.accessToken(t, "aud@example.com", api, "account:read")
		r := catDo(t, e, "GET", "/v1/me", nil, bearer(tokAPI))
		if r.status != 200 || !strings.Contains(string(r.body), `"signed_in_with":"oauth"`) || !strings.Contains(string(r.body), `"Test Assistant"`) {
			t.Errorf("token for /v1 on /v1: %d %s", r.status, r.body)
		}
		tokMCP := e.accessToken(t, "aud2@example.com", e.auth.MCPResource(), "account:read")
		wantChallenge(t, e, catDo(t, e, "GET", "/v1/me", nil, bearer(tokMCP)), 401, api, "invalid_token", "account:read")
	})
	t.Run("InsufficientScope403", func(t *testing.T) {
		tok := e.accessToken(t, "scope@example.com", api, "listings:write")
		wantChallenge(t, e, catDo(t, e, "GET", "/v1/me", nil, bearer(tok)), 403, api, "insufficient_scope", "account:read")
	})
	t.Run("Metadata", func(t *testing.T) {
		// The protected resource metadata is served by auth, on the site's mux;
		// here only the URL the challenge names is checked for shape.
		if got := e.auth.ResourceMetadataURL(api); got != e.URL+"/.well-known/oauth-protected-resource/v1" {
			t.Errorf("resource metadata URL %s", got)
		}
	})
}

func TestAuth_MCP(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, true)
	res := e.auth.MCPResource()
	post := func(body string, hdr map[string]string) catResp {
		h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
			"Mcp-Protocol-Version": "2025-03-26"}
		for k, v := range hdr {
			h[k] = v
		}
		return catDo(t, e, "POST", "/mcp", []byte(body), h)
	}
	call := func(id int, name string) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + name + `","arguments":{}}}`
	}

	t.Run("AnonymousPublic", func(t *testing.T) {
		cs := catConnect(t, e.URL, "2026-07-28", nil)
		if r, text := catCall(t, cs, "get_site_info", nil); r.IsError {
			t.Fatalf("anonymous public tool: %s", text)
		}
		if r := post(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil); r.status != 200 {
			t.Errorf("anonymous tools/list: %d %s", r.status, r.body)
		}
	})
	t.Run("AnonymousProtected401", func(t *testing.T) {
		wantChallenge(t, e, post(call(1, "get_account"), nil), 401, res, "", "account:read")
	})
	t.Run("BatchNamesEveryScope", func(t *testing.T) {
		r := post("["+call(1, "get_site_info")+","+call(2, "get_account")+"]", nil)
		wantChallenge(t, e, r, 401, res, "", "account:read")
		r = post("["+call(1, "get_site_info")+","+call(2, "list_categories")+"]", nil)
		if r.status == 401 || r.status == 403 {
			t.Errorf("a batch of public tools was challenged: %d", r.status)
		}
	})
	t.Run("InsufficientScope403", func(t *testing.T) {
		tok := e.accessToken(t, "mcp-scope@example.com", res, "orders:write")
		wantChallenge(t, e, post(call(1, "get_account"), bearer(tok)), 403, res, "insufficient_scope", "account:read")
	})
	t.Run("WrongAudience401", func(t *testing.T) {
		tok := e.accessToken(t, "mcp-aud@example.com", e.auth.APIResource(), "account:read")
		wantChallenge(t, e, post(call(1, "get_account"), bearer(tok)), 401, res, "invalid_token", "account:read")
	})
	t.Run("TokenInQueryRefused", func(t *testing.T) {
		tok := e.accessToken(t, "mcp-q@example.com", res, "account:read")
		r := catDo(t, e, "POST", "/mcp?access_token="+tok, []byte(call(1, "get_account")),
			map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"})
		wantChallenge(t, e, r, 401, res, "invalid_request", "account:read")
	})
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-03-26"} {
		t.Run("GetAccount/"+version, func(t *testing.T) {
			tok := e.accessToken(t, "mcp-"+version+"@example.com", res, "account:read")
			cs := catConnect(t, e.URL, version, bearer(tok))
			r, text := catCall(t, cs, "get_account", nil)
			if r.IsError {
				t.Fatalf("get_account: %s", text)
			}
			var a domain.Account
			if err := json.Unmarshal([]byte(text), &a); err != nil {
				t.Fatal(err)
			}
			if a.Email != "mcp-"+version+"@example.com" || a.SignedInWith != "oauth" || strings.Join(a.Scopes, " ") != "account:read" ||
				a.Client == nil || a.Client.Name != "Test Assistant" {
				t.Errorf("account %+v", a)
			}
			// Public tools work with the token too.
			if r, text := catCall(t, cs, "list_categories", nil); r.IsError {
				t.Errorf("public tool with a token: %s", text)
			}
		})
	}
	t.Run("APIKeyOverMCP", func(t *testing.T) {
		cs := catConnect(t, e.URL, "2026-07-28", bearer(e.apiKey(t, "mcp-key@example.com")))
		r, text := catCall(t, cs, "get_account", nil)
		if r.IsError || !strings.Contains(text, `"signed_in_with":"api_key"`) {
			t.Errorf("get_account with a key: %s", text)
		}
	})
}

// TestAuth_ScopeCheckedInCore checks the operation-level check behind the
// transports: a protected operation never runs for a caller without its
// scope, whatever transport or middleware let the call through.
func TestAuth_ScopeCheckedInCore(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	b := e.tools.byName["get_account"]
	anon := context.Background()
	if _, err := e.tools.handle(anon, mcpCall(anon, b, nil, nil)); domain.ErrorCode(err) != domain.EUnauthenticated {
		t.Errorf("anonymous: %v", err)
	}
	ctx := domain.WithCaller(context.Background(), domain.Caller{UserID: 1, Via: domain.ViaOAuth, Scopes: []string{"orders:write"}})
	if _, err := e.tools.handle(ctx, mcpCall(ctx, b, nil, nil)); domain.ErrorCode(err) != domain.EForbidden {
		t.Errorf("without the scope: %v", err)
	}
}
