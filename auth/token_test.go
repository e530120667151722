package auth_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// #1 PKCE at /token: missing, wrong and short verifiers are invalid_grant.
func TestTokenPKCE(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	b, _ := e.signedIn("ada@example.com")
	other, _ := asPKCE()
	for name, verifier := range map[string]func(v string) string{
		"missing": func(string) string { return "" },
		"wrong":   func(string) string { return other },
		"short":   func(v string) string { return v[:42] },
		"plain":   func(string) string { return "" }, // replaced below
	} {
		code, v := e.asCode(b, id, redirect, nil)
		send := verifier(v)
		if name == "plain" {
			// the challenge itself as the verifier (a plain-method downgrade)
			_, challenge := asPKCE()
			p := asParams(id, redirect, challenge)
			code = e.asAllow(b, p).Query().Get("code")
			send = challenge
		}
		resp, m := e.asRedeem(id, redirect, code, send)
		t.Run(name, func(t *testing.T) { asOAuthError(t, resp, m, 400, "invalid_grant") })
	}
}

// #2 the token request's redirect_uri must be the authorization request's.
func TestTokenRedirectURIMismatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.asClient("App", "https://app.test/cb", "https://app.test/other")
	b, _ := e.signedIn("ada@example.com")
	code, verifier := e.asCode(b, id, "https://app.test/cb", nil)
	resp, m := e.asRedeem(id, "https://app.test/other", code, verifier)
	asOAuthError(t, resp, m, 400, "invalid_grant")
	// omitted, with two registered URIs
	code, verifier = e.asCode(b, id, "https://app.test/cb", nil)
	resp, m = e.asRedeem(id, "", code, verifier)
	asOAuthError(t, resp, m, 400, "invalid_grant")
}

// #3 a code is single-use (a replay revokes its tokens), bound to its
// client, and expires after 60 s.
func TestTokenCodeReuseClientExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	otherID := e.asClient("Other", redirect)
	b, _ := e.signedIn("ada@example.com")

	code, verifier := e.asCode(b, id, redirect, nil)
	resp, m := e.asRedeem(id, redirect, code, verifier)
	if resp.StatusCode != 200 {
		t.Fatal(m)
	}
	access, refresh := m["access_token"].(string), m["refresh_token"].(string)
	resp, m = e.asRedeem(id, redirect, code, verifier)
	asOAuthError(t, resp, m, 400, "invalid_grant")
	if e.asValid(access, e.auth.MCPResource()) {
		t.Error("the first access token still verifies after the code was replayed")
	}
	resp, m = e.asToken(url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {refresh}}, nil)
	asOAuthError(t, resp, m, 400, "invalid_grant")

	code, verifier = e.asCode(b, id, redirect, nil)
	resp, m = e.asRedeem(otherID, redirect, code, verifier)
	asOAuthError(t, resp, m, 400, "invalid_grant")

	code, verifier = e.asCode(b, id, redirect, nil)
	e.advance(61 * time.Second)
	resp, m = e.asRedeem(id, redirect, code, verifier)
	asOAuthError(t, resp, m, 400, "invalid_grant")

	resp, m = e.asRedeem(id, redirect, "no-such-code", verifier)
	asOAuthError(t, resp, m, 400, "invalid_grant")
}

// #4 the token's audience: resource at /token must match; a token for one
// resource fails on the other; no resource means /mcp.
func TestTokenResource(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	b, _ := e.signedIn("ada@example.com")
	code, verifier := e.asCode(b, id, redirect, nil)
	resp, m := e.asToken(url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "code": {code},
		"redirect_uri": {redirect}, "code_verifier": {verifier}, "resource": {e.auth.APIResource()}}, nil)
	asOAuthError(t, resp, m, 400, "invalid_target")

	code, verifier = e.asCode(b, id, redirect, nil)
	_, m = e.asRedeem(id, redirect, code, verifier)
	access := m["access_token"].(string)
	if !e.asValid(access, e.auth.MCPResource()) || e.asValid(access, e.auth.APIResource()) {
		t.Error("the default resource is not /mcp only")
	}
	code, verifier = e.asCode(b, id, redirect, url.Values{"resource": {e.auth.APIResource()}})
	resp, m = e.asToken(url.Values{"grant_type": {"authorization_code"}, "client_id": {id}, "code": {code},
		"redirect_uri": {redirect}, "code_verifier": {verifier}, "resource": {e.auth.APIResource()}}, nil)
	if resp.StatusCode != 200 {
		t.Fatal(m)
	}
	if v1 := m["access_token"].(string); e.asValid(v1, e.auth.MCPResource()) || !e.asValid(v1, e.auth.APIResource()) {
		t.Error("a /v1 token must not verify for /mcp")
	}
}

// #5 refresh rotation and replay.
func TestRefreshRotationAndReplay(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	otherID := e.asClient("Other", redirect)
	b, u := e.signedIn("ada@example.com")
	code, verifier := e.asCode(b, id, redirect, url.Values{"scope": {"account:read listings:write"}})
	_, m := e.asRedeem(id, redirect, code, verifier)
	a1, r1 := m["access_token"].(string), m["refresh_token"].(string)
	refresh := func(client, rt string, extra url.Values) (*http.Response, map[string]any) {
		f := url.Values{"grant_type": {"refresh_token"}, "client_id": {client}, "refresh_token": {rt}}
		for k, v := range extra {
			f[k] = v
		}
		return e.asToken(f, nil)
	}

	// other client, wider scope, other resource: refused, and r1 stays usable
	resp, m := refresh(otherID, r1, nil)
	asOAuthError(t, resp, m, 400, "invalid_grant")
	resp, m = refresh(id, r1, url.Values{"scope": {"account:read orders:write"}})
	asOAuthError(t, resp, m, 400, "invalid_scope")
	resp, m = refresh(id, r1, url.Values{"resource": {e.auth.APIResource()}})
	asOAuthError(t, resp, m, 400, "invalid_target")

	// narrower scope is allowed; the refresh token keeps the grant's scopes
	resp, m = refresh(id, r1, url.Values{"scope": {"account:read"}})
	if resp.StatusCode != 200 || m["scope"] != "account:read" {
		t.Fatalf("%d %v", resp.StatusCode, m)
	}
	a2, r2 := m["access_token"].(string), m["refresh_token"].(string)
	resp, m = refresh(id, r2, url.Values{"scope": {"account:read listings:write"}})
	if resp.StatusCode != 200 {
		t.Fatalf("the rotated refresh token lost scopes: %v", m)
	}
	a3, r3 := m["access_token"].(string), m["refresh_token"].(string)
	if !e.asValid(a1, e.auth.MCPResource()) || !e.asValid(a3, e.auth.MCPResource()) {
		t.Fatal("tokens of the family should be valid before any replay")
	}

	// replaying r1 kills the whole family
	resp, m = refresh(id, r1, nil)
	asOAuthError(t, resp, m, 400, "invalid_grant")
	for _, a := range []string{a1, a2, a3} {
		if e.asValid(a, e.auth.MCPResource()) {
			t.Error("an access token of the family survived the replay")
		}
	}
	resp, m = refresh(id, r3, nil)
	asOAuthError(t, resp, m, 400, "invalid_grant")

	// a revoked grant ends refreshing
	code, verifier = e.asCode(b, id, redirect, nil)
	_, m = e.asRedeem(id, redirect, code, verifier)
	r := m["refresh_token"].(string)
	if err := e.store.RevokeGrant(t.Context(), u.ID, id, e.clock()); err != nil {
		t.Fatal(err)
	}
	resp, m = refresh(id, r, nil)
	asOAuthError(t, resp, m, 400, "invalid_grant")

	// expiry
	e2 := newEnv(t, nil)
	id = e2.asClient("App", redirect)
	b, _ = e2.signedIn("ada@example.com")
	code, verifier = e2.asCode(b, id, redirect, nil)
	_, m = e2.asRedeem(id, redirect, code, verifier)
	e2.advance(31 * 24 * time.Hour)
	resp, m = e2.asToken(url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {m["refresh_token"].(string)}}, nil)
	asOAuthError(t, resp, m, 400, "invalid_grant")
}

// #16 token endpoint hygiene: no-store and JSON errors everywhere, 401
// invalid_client with a Basic challenge, unsupported grant types.
func TestTokenEndpointHygiene(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	for name, tc := range map[string]struct {
		form   url.Values
		status int
		code   string
	}{
		"no client":      {url.Values{"grant_type": {"authorization_code"}}, 401, "invalid_client"},
		"unknown client": {url.Values{"grant_type": {"authorization_code"}, "client_id": {"nope"}}, 401, "invalid_client"},
		"password grant": {url.Values{"grant_type": {"password"}, "client_id": {e.asClient("A", "https://a.test/cb")}}, 400, "unsupported_grant_type"},
		"no grant type":  {url.Values{"client_id": {e.asClient("A", "https://a.test/cb")}}, 400, "invalid_request"},
	} {
		resp, m := e.asToken(tc.form, nil)
		t.Run(name, func(t *testing.T) {
			asOAuthError(t, resp, m, tc.status, tc.code)
			if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Pragma") != "no-cache" ||
				resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("headers %v", resp.Header)
			}
		})
	}
}

// Confidential clients: basic and post, each only by its registered
// method; bad secrets are 401 with WWW-Authenticate: Basic for Basic.
func TestTokenClientSecret(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	reg := func(method string) (string, string) {
		resp, m := e.asRegister(map[string]any{"redirect_uris": []string{redirect}, "token_endpoint_auth_method": method})
		if resp.StatusCode != 201 || !strings.HasPrefix(m["client_secret"].(string), "ld_cs_") || m["client_secret_expires_at"] != float64(0) {
			t.Fatalf("%d %v", resp.StatusCode, m)
		}
		return m["client_id"].(string), m["client_secret"].(string)
	}
	basicID, basicSecret := reg("client_secret_basic")
	postID, postSecret := reg("client_secret_post")
	b, _ := e.signedIn("ada@example.com")
	basic := func(id, secret string) http.Header {
		r, _ := http.NewRequest("POST", "/", nil)
		r.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
		return r.Header
	}
	exchange := func(id string, form url.Values, h http.Header) (*http.Response, map[string]any) {
		code, verifier := e.asCode(b, id, redirect, nil)
		f := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirect}, "code_verifier": {verifier}}
		for k, v := range form {
			f[k] = v
		}
		return e.asToken(f, h)
	}
	if resp, m := exchange(basicID, nil, basic(basicID, basicSecret)); resp.StatusCode != 200 {
		t.Errorf("basic: %v", m)
	}
	if resp, m := exchange(postID, url.Values{"client_id": {postID}, "client_secret": {postSecret}}, nil); resp.StatusCode != 200 {
		t.Errorf("post: %v", m)
	}
	resp, m := exchange(basicID, nil, basic(basicID, basicSecret+"x"))
	asOAuthError(t, resp, m, 401, "invalid_client")
	if !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Basic") {
		t.Errorf("no Basic challenge: %v", resp.Header)
	}
	resp, m = exchange(postID, url.Values{"client_id": {postID}, "client_secret": {"ld_cs_wrong"}}, nil)
	asOAuthError(t, resp, m, 401, "invalid_client")
	// the wrong method, or none at all, for a confidential client
	resp, m = exchange(basicID, url.Values{"client_id": {basicID}, "client_secret": {basicSecret}}, nil)
	asOAuthError(t, resp, m, 401, "invalid_client")
	resp, m = exchange(postID, url.Values{"client_id": {postID}}, nil)
	asOAuthError(t, resp, m, 401, "invalid_client")
	// a public client cannot be used with a made-up secret
	pub := e.asClient("Pub", redirect)
	resp, m = exchange(pub, url.Values{"client_id": {pub}, "client_secret": {"x"}}, nil)
	asOAuthError(t, resp, m, 401, "invalid_client")
}

// A code issued before the person disconnected the app is refused: the
// consent behind it was withdrawn.
func TestTokenCodeAfterDisconnect(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	b, u := e.signedIn("ada@example.com")
	code, verifier := e.asCode(b, id, redirect, nil)
	if err := e.store.RevokeGrant(context.Background(), u.ID, id, e.clock()); err != nil {
		t.Fatal(err)
	}
	resp, m := e.asRedeem(id, redirect, code, verifier)
	asOAuthError(t, resp, m, 400, "invalid_grant")
}
