package auth_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
)

// pkce returns a fresh verifier and its S256 challenge.
func asPKCE() (verifier, challenge string) {
	verifier = strings.TrimPrefix(auth.NewSecret(""), "") // 43 base64url characters
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// do sends req with client b and returns the response with its body read.
func asDo(t *testing.T, b *http.Client, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := b.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func (e *env) asGet(b *http.Client, path string) (*http.Response, string) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	return asDo(e.t, b, req)
}

func (e *env) asPost(b *http.Client, path string, form url.Values, header http.Header) (*http.Response, string) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header[k] = v
	}
	return asDo(e.t, b, req)
}

// asRegister posts a registration and returns the response and its JSON.
func (e *env) asRegister(meta map[string]any) (*http.Response, map[string]any) {
	e.t.Helper()
	body, _ := json.Marshal(meta)
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/register", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, text := asDo(e.t, http.DefaultClient, req)
	var m map[string]any
	json.Unmarshal([]byte(text), &m)
	return resp, m
}

// client registers a public client with redirect URIs and returns its id.
func (e *env) asClient(name string, redirects ...string) string {
	e.t.Helper()
	resp, m := e.asRegister(map[string]any{"client_name": name, "redirect_uris": redirects})
	if resp.StatusCode != http.StatusCreated {
		e.t.Fatalf("register: %d %v", resp.StatusCode, m)
	}
	return m["client_id"].(string)
}

// asParams are the parameters of a valid authorization request.
func asParams(clientID, redirect, challenge string) url.Values {
	return url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "state": {"st-123"}}
}

var (
	asRequestRe = regexp.MustCompile(`name="request" value="([^"]+)"`)
	asCSRFRe    = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
)

// asConsentForm returns the request handle and CSRF token of a consent page.
func asConsentForm(t *testing.T, body string) (request, csrf string) {
	t.Helper()
	m1, m2 := asRequestRe.FindStringSubmatch(body), asCSRFRe.FindStringSubmatch(body)
	if m1 == nil || m2 == nil {
		t.Fatalf("not a consent page: %s", body)
	}
	return m1[1], m2[1]
}

// location parses a redirect's Location.
func asLocation(t *testing.T, resp *http.Response) *url.URL {
	t.Helper()
	loc := resp.Header.Get("Location")
	if loc == "" {
		t.Fatalf("no Location (status %d)", resp.StatusCode)
	}
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// asAllow runs /authorize with params for the signed-in browser b,
// allows on the consent page and returns the redirect to the client.
func (e *env) asAllow(b *http.Client, params url.Values) *url.URL {
	e.t.Helper()
	resp, body := e.asGet(b, "/authorize?"+params.Encode())
	if resp.StatusCode == http.StatusSeeOther && asLocation(e.t, resp).Query().Get("code") != "" {
		return asLocation(e.t, resp) // consent remembered
	}
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("authorize: %d %s %s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	request, csrf := asConsentForm(e.t, body)
	resp, _ = e.asPost(b, "/authorize/decision", url.Values{"request": {request}, "csrf": {csrf}, "action": {"allow"}}, nil)
	if resp.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("decision: %d", resp.StatusCode)
	}
	return asLocation(e.t, resp)
}

// code signs in (once per browser), consents and returns a code and its verifier.
func (e *env) asCode(b *http.Client, clientID, redirect string, extra url.Values) (code, verifier string) {
	e.t.Helper()
	verifier, challenge := asPKCE()
	p := asParams(clientID, redirect, challenge)
	for k, v := range extra {
		p[k] = v
	}
	u := e.asAllow(b, p)
	code = u.Query().Get("code")
	if code == "" {
		e.t.Fatalf("no code in %s", u)
	}
	return code, verifier
}

// asToken posts to /token and returns the response and its JSON body.
func (e *env) asToken(form url.Values, header http.Header) (*http.Response, map[string]any) {
	e.t.Helper()
	resp, body := e.asPost(http.DefaultClient, "/token", form, header)
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		e.t.Fatalf("token response is not JSON: %d %q", resp.StatusCode, body)
	}
	return resp, m
}

// asRedeem exchanges a code as a public client.
func (e *env) asRedeem(clientID, redirect, code, verifier string) (*http.Response, map[string]any) {
	e.t.Helper()
	return e.asToken(url.Values{"grant_type": {"authorization_code"}, "client_id": {clientID}, "code": {code},
		"redirect_uri": {redirect}, "code_verifier": {verifier}}, nil)
}

// asOAuthError checks a JSON error response.
func asOAuthError(t *testing.T, resp *http.Response, m map[string]any, status int, code string) {
	t.Helper()
	if resp.StatusCode != status || m["error"] != code {
		t.Fatalf("got %d %v, want %d %s", resp.StatusCode, m, status, code)
	}
}

// valid reports whether an access token verifies for resource.
func (e *env) asValid(token, resource string) bool {
	_, err := e.auth.Verify(context.Background(), token, resource)
	return err == nil
}

func TestMetadataDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	resp, body := e.asGet(http.DefaultClient, "/.well-known/oauth-authorization-server")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" ||
		resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	o := e.srv.URL
	want := map[string]any{
		"issuer":                                         o,
		"authorization_endpoint":                         o + "/authorize",
		"token_endpoint":                                 o + "/token",
		"registration_endpoint":                          o + "/register",
		"revocation_endpoint":                            o + "/revoke",
		"scopes_supported":                               []any{"account:read", "listings:write", "orders:write"},
		"response_types_supported":                       []any{"code"},
		"grant_types_supported":                          []any{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []any{"S256"},
		"token_endpoint_auth_methods_supported":          []any{"none", "client_secret_basic", "client_secret_post"},
		"revocation_endpoint_auth_methods_supported":     []any{"none", "client_secret_basic", "client_secret_post"},
		"client_id_metadata_document_supported":          true,
		"authorization_response_iss_parameter_supported": true,
		"service_documentation":                          o + domain.DocsPath,
	}
	for k, v := range want {
		if !reflect.DeepEqual(m[k], v) {
			t.Errorf("%s = %v, want %v", k, m[k], v)
		}
	}
	if _, ok := m["jwks_uri"]; ok {
		t.Error("jwks_uri is served")
	}
	if e.auth.Issuer() != o {
		t.Errorf("Issuer() = %q", e.auth.Issuer())
	}
}

// TestFullFlow: register → authorize (signed in) → allow → token → refresh
// → revoke.
func TestFullFlow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "http://127.0.0.1:9999/callback"
	id := e.asClient("Test App", redirect)
	b, u := e.signedIn("ada@example.com")
	code, verifier := e.asCode(b, id, redirect, nil)

	resp, m := e.asRedeem(id, redirect, code, verifier)
	if resp.StatusCode != 200 {
		t.Fatalf("token: %d %v", resp.StatusCode, m)
	}
	if resp.Header.Get("Cache-Control") != "no-store" || resp.Header.Get("Pragma") != "no-cache" {
		t.Errorf("token headers %v", resp.Header)
	}
	if m["token_type"] != "Bearer" || m["expires_in"] != float64(3600) || m["scope"] != "account:read listings:write orders:write" {
		t.Errorf("token response %v", m)
	}
	access, refresh := m["access_token"].(string), m["refresh_token"].(string)
	if !strings.HasPrefix(access, auth.PrefixAccess) || !strings.HasPrefix(refresh, auth.PrefixRefresh) {
		t.Fatalf("tokens %q %q", access, refresh)
	}
	c, err := e.auth.Verify(context.Background(), access, e.auth.MCPResource())
	if err != nil || c.UserID != u.ID || c.ClientID != id || c.ClientName != "Test App" || c.Via != domain.ViaOAuth {
		t.Fatalf("verify: %v %+v", err, c)
	}

	resp, m = e.asToken(url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {refresh}}, nil)
	if resp.StatusCode != 200 {
		t.Fatalf("refresh: %d %v", resp.StatusCode, m)
	}
	access2, refresh2 := m["access_token"].(string), m["refresh_token"].(string)
	if access2 == access || refresh2 == refresh || !e.asValid(access2, e.auth.MCPResource()) {
		t.Fatal("refresh did not rotate")
	}

	resp, _ = e.asPost(http.DefaultClient, "/revoke", url.Values{"client_id": {id}, "token": {refresh2}}, nil)
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("revoke: %d", resp.StatusCode)
	}
	if e.asValid(access2, e.auth.MCPResource()) || e.asValid(access, e.auth.MCPResource()) {
		t.Error("revoking the refresh token left the family's access tokens valid")
	}
	resp, m = e.asToken(url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {refresh2}}, nil)
	asOAuthError(t, resp, m, 400, "invalid_grant")

	// unknown tokens: 200 all the same
	resp, _ = e.asPost(http.DefaultClient, "/revoke", url.Values{"client_id": {id}, "token": {"nonsense"}}, nil)
	if resp.StatusCode != 200 {
		t.Errorf("revoke unknown: %d", resp.StatusCode)
	}
}

// TestRevokeAccessTokenOfOtherClient: a client cannot revoke another's token.
func TestRevokeOtherClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("A", redirect)
	other := e.asClient("B", redirect)
	b, _ := e.signedIn("ada@example.com")
	code, verifier := e.asCode(b, id, redirect, nil)
	_, m := e.asRedeem(id, redirect, code, verifier)
	access := m["access_token"].(string)
	resp, _ := e.asPost(http.DefaultClient, "/revoke", url.Values{"client_id": {other}, "token": {access}}, nil)
	if resp.StatusCode != 200 || !e.asValid(access, e.auth.MCPResource()) {
		t.Fatalf("another client revoked the token (%d)", resp.StatusCode)
	}
	resp, _ = e.asPost(http.DefaultClient, "/revoke", url.Values{"client_id": {id}, "token": {access}}, nil)
	if resp.StatusCode != 200 || e.asValid(access, e.auth.MCPResource()) {
		t.Fatal("the access token was not revoked")
	}
}

func TestCORSPreflight(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	for _, p := range []string{"/token", "/register", "/revoke"} {
		req, _ := http.NewRequest(http.MethodOptions, e.srv.URL+p, nil)
		req.Header.Set("Origin", "https://app.example")
		req.Header.Set("Access-Control-Request-Method", "POST")
		resp, _ := asDo(t, http.DefaultClient, req)
		if resp.StatusCode/100 != 2 || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
			!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
			t.Errorf("%s preflight: %d %v", p, resp.StatusCode, resp.Header)
		}
	}
}
