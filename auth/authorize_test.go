package auth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// asRedirectError checks an error redirect to the client: status 302,
// the registered redirect URI, error, state and iss (#13).
func asRedirectError(t *testing.T, e *env, resp *http.Response, redirect, code string) {
	t.Helper()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("status %d, want 302 with error %s", resp.StatusCode, code)
	}
	u := asLocation(t, resp)
	q := u.Query()
	u.RawQuery = ""
	if u.String() != redirect || q.Get("error") != code || q.Get("state") != "st-123" || q.Get("iss") != e.srv.URL {
		t.Fatalf("redirect %s?%s, want %s with error=%s, state and iss", u, q.Encode(), redirect, code)
	}
}

// asErrorPage checks a 400 HTML error page that redirects nowhere.
func asErrorPage(t *testing.T, resp *http.Response, body string) {
	t.Helper()
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("status %d Location %q, want a 400 page: %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	asPageHeaders(t, resp)
}

// asPageHeaders checks the anti-framing and no-leak headers (#11).
func asPageHeaders(t *testing.T, resp *http.Response) {
	t.Helper()
	h := resp.Header
	if !strings.Contains(h.Get("Content-Security-Policy"), "frame-ancestors 'none'") || h.Get("X-Frame-Options") != "DENY" ||
		h.Get("Cache-Control") != "no-store" || h.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("page headers %v", h)
	}
}

// #1 PKCE at /authorize: missing, plain, absent method, malformed challenge.
func TestAuthorizePKCERequired(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	b, _ := e.signedIn("ada@example.com")
	_, challenge := asPKCE()
	for name, change := range map[string]func(url.Values){
		"missing challenge": func(p url.Values) { p.Del("code_challenge"); p.Del("code_challenge_method") },
		"plain":             func(p url.Values) { p.Set("code_challenge_method", "plain") },
		"no method":         func(p url.Values) { p.Del("code_challenge_method") },
		"short challenge":   func(p url.Values) { p.Set("code_challenge", challenge[:42]) },
		"not base64url":     func(p url.Values) { p.Set("code_challenge", strings.Repeat("+", 43)) },
	} {
		t.Run(name, func(t *testing.T) {
			p := asParams(id, redirect, challenge)
			change(p)
			resp, _ := e.asGet(b, "/authorize?"+p.Encode())
			asRedirectError(t, e, resp, redirect, "invalid_request")
		})
	}
	p := asParams(id, redirect, challenge)
	p.Set("response_type", "token")
	resp, _ := e.asGet(b, "/authorize?"+p.Encode())
	asRedirectError(t, e, resp, redirect, "unsupported_response_type")
}

// #2 exact redirect URI matching: every trick is a 400 page, never a redirect.
func TestAuthorizeRedirectURITricks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect, "https://app.test/other")
	b, _ := e.signedIn("ada@example.com")
	_, challenge := asPKCE()
	for _, bad := range []string{
		"https://app.test/cb/", "https://app.test/cb?x=1", "https://app.test/cb#f", "https://app.test.evil/cb",
		"http://app.test/cb", "javascript:alert(1)", "https://APP.test/cb", "https://app.test:443/cb",
		"https://evil@app.test/cb", "//app.test/cb", "",
	} {
		resp, body := e.asGet(b, "/authorize?"+asParams(id, bad, challenge).Encode())
		t.Run(bad, func(t *testing.T) { asErrorPage(t, resp, body) })
	}
	// unknown client: a page, even with a valid-looking redirect URI
	resp, body := e.asGet(b, "/authorize?"+asParams("ld_client_nope", redirect, challenge).Encode())
	asErrorPage(t, resp, body)
	resp, body = e.asGet(b, "/authorize?"+asParams("", redirect, challenge).Encode())
	asErrorPage(t, resp, body)
	// an error before the redirect URI is checked still does not redirect
	p := asParams(id, "https://evil.test/cb", challenge)
	p.Del("code_challenge")
	resp, body = e.asGet(b, "/authorize?"+p.Encode())
	asErrorPage(t, resp, body)
}

// #2 loopback redirect URIs: any port, but the same path.
func TestAuthorizeLoopbackPorts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	id := e.asClient("CLI", "http://127.0.0.1/callback", "http://localhost:8080/cb")
	b, _ := e.signedIn("ada@example.com")
	for _, ok := range []string{"http://127.0.0.1:53123/callback", "http://127.0.0.1/callback", "http://localhost:1/cb"} {
		code, verifier := e.asCode(b, id, ok, nil)
		if resp, m := e.asRedeem(id, ok, code, verifier); resp.StatusCode != 200 {
			t.Errorf("%s: %d %v", ok, resp.StatusCode, m)
		}
	}
	_, challenge := asPKCE()
	for _, bad := range []string{"http://127.0.0.1:53123/other", "http://127.0.0.1:53123/callback/", "http://localhost:53123/callback",
		"https://127.0.0.1:53123/callback", "http://127.0.0.1:53123/callback?x=1", "http://127.0.0.2:53123/callback",
		"http://127.0.0.1:abc/callback"} {
		resp, body := e.asGet(b, "/authorize?"+asParams(id, bad, challenge).Encode())
		t.Run(bad, func(t *testing.T) { asErrorPage(t, resp, body) })
	}
}

// A client with one redirect URI may omit redirect_uri; with several it may not.
func TestAuthorizeRedirectOmitted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	one := e.asClient("One", "https://one.test/cb")
	two := e.asClient("Two", "https://two.test/a", "https://two.test/b")
	b, _ := e.signedIn("ada@example.com")
	verifier, challenge := asPKCE()
	p := asParams(one, "", challenge)
	p.Del("redirect_uri")
	u := e.asAllow(b, p)
	if u.Host != "one.test" {
		t.Fatalf("redirected to %s", u)
	}
	resp, m := e.asToken(url.Values{"grant_type": {"authorization_code"}, "client_id": {one},
		"code": {u.Query().Get("code")}, "code_verifier": {verifier}}, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("token without redirect_uri: %d %v", resp.StatusCode, m)
	}
	p = asParams(two, "", challenge)
	p.Del("redirect_uri")
	resp, body := e.asGet(b, "/authorize?"+p.Encode())
	asErrorPage(t, resp, body)
}

// #4 resource at /authorize: unknown → invalid_target; trailing slash OK;
// scopes: unknown → invalid_scope.
func TestAuthorizeResourceAndScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	b, _ := e.signedIn("ada@example.com")
	_, challenge := asPKCE()
	for _, bad := range []string{"https://evil.test", e.srv.URL + "/mcp//", e.srv.URL, e.srv.URL + "/mcpx", e.srv.URL + "/MCP"} {
		p := asParams(id, redirect, challenge)
		p.Set("resource", bad)
		resp, _ := e.asGet(b, "/authorize?"+p.Encode())
		t.Run(bad, func(t *testing.T) { asRedirectError(t, e, resp, redirect, "invalid_target") })
	}
	p := asParams(id, redirect, challenge)
	p["resource"] = []string{e.auth.MCPResource(), e.auth.APIResource()}
	resp, _ := e.asGet(b, "/authorize?"+p.Encode())
	asRedirectError(t, e, resp, redirect, "invalid_target")

	p = asParams(id, redirect, challenge)
	p.Set("scope", "account:read admin")
	resp, _ = e.asGet(b, "/authorize?"+p.Encode())
	asRedirectError(t, e, resp, redirect, "invalid_scope")

	// offline_access is accepted; a trailing slash on the resource is tolerated
	code, verifier := e.asCode(b, id, redirect, url.Values{"scope": {"offline_access account:read"}, "resource": {e.auth.APIResource() + "/"}})
	resp, m := e.asRedeem(id, redirect, code, verifier)
	if resp.StatusCode != 200 || m["scope"] != "account:read" {
		t.Fatalf("%d %v", resp.StatusCode, m)
	}
	access := m["access_token"].(string)
	if !e.asValid(access, e.auth.APIResource()) || e.asValid(access, e.auth.MCPResource()) {
		t.Fatal("a /v1 token must verify for /v1 only")
	}
}

// Not signed in: the request is stored, sign-in comes back to consent.
func TestAuthorizeSignInFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	_, challenge := asPKCE()
	anon := e.browser()
	resp, _ := e.asGet(anon, "/authorize?"+asParams(id, redirect, challenge).Encode())
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("status %d", resp.StatusCode)
	}
	u := asLocation(t, resp)
	next := u.Query().Get("next")
	if u.Path != "/signin" || !strings.HasPrefix(next, "/authorize/continue?request=") {
		t.Fatalf("redirect to %s", u)
	}
	b, _ := e.signedIn("ada@example.com")
	resp, body := e.asGet(b, next)
	if resp.StatusCode != 200 || !strings.Contains(body, "App") {
		t.Fatalf("continue: %d %s", resp.StatusCode, body)
	}
	request, csrf := asConsentForm(t, body)
	resp, _ = e.asPost(b, "/authorize/decision", url.Values{"request": {request}, "csrf": {csrf}, "action": {"allow"}}, nil)
	if q := asLocation(t, resp).Query(); resp.StatusCode != http.StatusSeeOther || q.Get("code") == "" || q.Get("state") != "st-123" {
		t.Fatalf("decision: %d %v", resp.StatusCode, q)
	}
	// the continue handle is single-use and does not work unknown
	resp, body = e.asGet(b, next)
	asErrorPage(t, resp, body)
	resp, body = e.asGet(b, "/authorize/continue?request=nope")
	asErrorPage(t, resp, body)
	// expired
	resp, _ = e.asGet(anon, "/authorize?"+asParams(id, redirect, challenge).Encode())
	e.advance(11 * 60e9)
	resp, body = e.asGet(b, asLocation(t, resp).Query().Get("next"))
	asErrorPage(t, resp, body)
}

// #10 CSRF on the decision; #12 303 on Allow and Deny; #13 iss.
func TestDecisionCSRF(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	b, _ := e.signedIn("ada@example.com")
	other, _ := e.signedIn("bob@example.com")
	_, challenge := asPKCE()
	consent := func() (string, string) {
		resp, body := e.asGet(b, "/authorize?"+asParams(id, redirect, challenge).Encode())
		if resp.StatusCode != 200 {
			t.Fatalf("authorize %d", resp.StatusCode)
		}
		return asConsentForm(t, body)
	}
	request, csrf := consent()
	_, otherBody := e.asGet(other, "/authorize?"+asParams(id, redirect, challenge).Encode())
	otherRequest, otherCSRF := asConsentForm(t, otherBody)

	allow := url.Values{"request": {request}, "action": {"allow"}}
	for name, tc := range map[string]struct {
		form   url.Values
		header http.Header
	}{
		"no token":          {allow, nil},
		"other's token":     {url.Values{"request": {request}, "csrf": {otherCSRF}, "action": {"allow"}}, nil},
		"cross-site":        {url.Values{"request": {request}, "csrf": {csrf}, "action": {"allow"}}, http.Header{"Sec-Fetch-Site": {"cross-site"}}},
		"foreign origin":    {url.Values{"request": {request}, "csrf": {csrf}, "action": {"allow"}}, http.Header{"Origin": {"https://evil.test"}}},
		"empty token":       {url.Values{"request": {request}, "csrf": {""}, "action": {"allow"}}, nil},
		"other's csrf form": {url.Values{"request": {otherRequest}, "csrf": {otherCSRF}, "action": {"allow"}}, nil},
	} {
		resp, _ := e.asPost(b, "/authorize/decision", tc.form, tc.header)
		if name == "other's csrf form" {
			// b's session with bob's token and bob's request: refused
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("%s: %d", name, resp.StatusCode)
			}
			continue
		}
		if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Location") != "" {
			t.Errorf("%s: %d %s", name, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	// another person's request handle with their own token: not theirs
	resp, _ := e.asPost(other, "/authorize/decision", url.Values{"request": {request}, "csrf": {otherCSRF}, "action": {"allow"}}, nil)
	if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
		t.Errorf("other person's request: %d", resp.StatusCode)
	}
	// GET never approves
	resp, _ = e.asGet(b, "/authorize/decision?"+url.Values{"request": {request}, "csrf": {csrf}, "action": {"allow"}}.Encode())
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Location") != "" {
		t.Errorf("GET decision: %d", resp.StatusCode)
	}
	// the request is still pending: Deny it (303, access_denied, iss)
	resp, _ = e.asPost(b, "/authorize/decision", url.Values{"request": {request}, "csrf": {csrf}, "action": {"deny"}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("deny: %d", resp.StatusCode)
	}
	q := asLocation(t, resp).Query()
	if q.Get("error") != "access_denied" || q.Get("state") != "st-123" || q.Get("iss") != e.srv.URL || q.Get("code") != "" {
		t.Fatalf("deny redirect %v", q)
	}
	// a decided request cannot be decided again
	resp, body := e.asPost(b, "/authorize/decision", url.Values{"request": {request}, "csrf": {csrf}, "action": {"allow"}}, nil)
	asErrorPage(t, resp, body)

	// Allow: 303 (never 307) with code, state and iss equal to the issuer
	request, csrf = consent()
	resp, _ = e.asPost(b, "/authorize/decision", url.Values{"request": {request}, "csrf": {csrf}, "action": {"allow"}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("allow: %d", resp.StatusCode)
	}
	u := asLocation(t, resp)
	q = u.Query()
	u.RawQuery = ""
	if u.String() != redirect || q.Get("code") == "" || q.Get("state") != "st-123" || q.Get("iss") != e.srv.URL {
		t.Fatalf("allow redirect %s %v", u, q)
	}
	if resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Error("no Referrer-Policy on the code redirect")
	}
}

// #11 #14 the consent page: headers, escaped names, hosts, scopes, the
// local-app warning; the form may redirect to the client (CSP form-action).
func TestConsentPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "http://127.0.0.1:7777/cb"
	id := e.asClient(`<script>alert("x")</script>`, redirect)
	b, _ := e.signedIn("ada@example.com")
	_, challenge := asPKCE()
	p := asParams(id, redirect, challenge)
	p.Set("scope", "account:read orders:write")
	resp, body := e.asGet(b, "/authorize?"+p.Encode())
	if resp.StatusCode != 200 {
		t.Fatal(resp.StatusCode)
	}
	asPageHeaders(t, resp)
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "form-action 'self' http://127.0.0.1:7777") {
		t.Errorf("CSP %q", csp)
	}
	if strings.Contains(body, "<script>alert") || !strings.Contains(body, "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;") {
		t.Errorf("client name not escaped:\n%s", body)
	}
	for _, want := range []string{"127.0.0.1:7777", "account:read", "orders:write", e.auth.MCPResource(), "ada@example.com",
		"not a website", id} {
		if !strings.Contains(body, want) {
			t.Errorf("consent page lacks %q", want)
		}
	}
	if strings.Contains(body, "listings:write") {
		t.Error("consent page shows a scope not requested")
	}

	// an https client: no local warning
	id2 := e.asClient("Web App", "https://web.test/cb")
	_, body = e.asGet(b, "/authorize?"+asParams(id2, "https://web.test/cb", challenge).Encode())
	if strings.Contains(body, "not a website") || !strings.Contains(body, "web.test") {
		t.Errorf("https client consent:\n%s", body)
	}
	// error pages carry the same headers
	resp, _ = e.asGet(b, "/authorize?client_id=nope")
	asPageHeaders(t, resp)
}

// #14 consent is remembered per client for ⊆ scopes and the same resource,
// and asked again for wider scopes, another resource or another client.
func TestConsentRemembered(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	other := e.asClient("Other", redirect)
	b, _ := e.signedIn("ada@example.com")
	e.asCode(b, id, redirect, url.Values{"scope": {"account:read listings:write"}})

	_, challenge := asPKCE()
	skip := func(client string, extra url.Values) bool {
		p := asParams(client, redirect, challenge)
		for k, v := range extra {
			p[k] = v
		}
		resp, _ := e.asGet(b, "/authorize?"+p.Encode())
		switch resp.StatusCode {
		case http.StatusSeeOther:
			if q := asLocation(t, resp).Query(); q.Get("code") == "" || q.Get("iss") != e.srv.URL || q.Get("state") != "st-123" {
				t.Fatalf("skip redirect %v", q)
			}
			return true
		case http.StatusOK:
			return false
		}
		t.Fatalf("status %d", resp.StatusCode)
		return false
	}
	if !skip(id, url.Values{"scope": {"account:read"}}) || !skip(id, url.Values{"scope": {"listings:write account:read"}}) {
		t.Error("consent asked again for the same client and fewer scopes")
	}
	if skip(id, url.Values{"scope": {"orders:write"}}) || skip(id, nil) {
		t.Error("consent skipped for wider scopes")
	}
	if skip(id, url.Values{"scope": {"account:read"}, "resource": {e.auth.APIResource()}}) {
		t.Error("consent skipped for another resource")
	}
	if skip(other, url.Values{"scope": {"account:read"}}) {
		t.Error("consent skipped for another client")
	}
	// widening by consent: now everything is remembered
	e.asCode(b, id, redirect, nil)
	if !skip(id, nil) {
		t.Error("consent not remembered after widening")
	}
	// a skipped request's code works
	verifier, challenge2 := asPKCE()
	resp, _ := e.asGet(b, "/authorize?"+asParams(id, redirect, challenge2).Encode())
	resp2, m := e.asRedeem(id, redirect, asLocation(t, resp).Query().Get("code"), verifier)
	if resp2.StatusCode != 200 {
		t.Fatalf("%d %v", resp2.StatusCode, m)
	}
}

// A local (loopback) client is asked every time: its identity cannot be
// proven, so any local program could reuse its client_id (RFC 8252 §8.6).
func TestConsentAlwaysForLoopback(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "http://127.0.0.1:4000/cb"
	id := e.asClient("CLI", redirect)
	b, _ := e.signedIn("ada@example.com")
	e.asCode(b, id, redirect, nil)
	_, challenge := asPKCE()
	resp, _ := e.asGet(b, "/authorize?"+asParams(id, redirect, challenge).Encode())
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want the consent page", resp.StatusCode)
	}
}
