package auth_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
)

// acctCSRF returns the CSRF token of a browser from signedIn.
func (e *env) acctCSRF(b *http.Client) string { return auth.CSRFToken(e.siSessionCookie(b)) }

// acctCreateKey creates an API key through the account page and returns
// the plaintext shown.
func (e *env) acctCreateKey(b *http.Client, name string) string {
	e.t.Helper()
	resp, body := siDo(e.t, b, http.MethodPost, e.srv.URL+"/account/keys", url.Values{"csrf": {e.acctCSRF(b)}, "name": {name}}, nil)
	siWantStatus(e.t, resp, body, http.StatusOK)
	siWantPageHeaders(e.t, resp)
	keys := siKeyRE.FindAllString(body, -1)
	if len(keys) == 0 {
		e.t.Fatalf("no key on the page:\n%s", body)
	}
	for _, k := range keys[1:] {
		if k != keys[0] {
			e.t.Fatalf("several keys on the page: %q", keys)
		}
	}
	if !strings.Contains(body, "not be shown again") {
		e.t.Errorf("the page does not say the key will not be shown again:\n%s", body)
	}
	return keys[0]
}

func (e *env) acctKeys(userID int64) []auth.APIKey {
	e.t.Helper()
	k, err := e.store.ListAPIKeys(context.Background(), userID)
	if err != nil {
		e.t.Fatal(err)
	}
	return k
}

// acctDBBytes returns the bytes of the env's SQLite files (db, -wal, -shm).
func (e *env) acctDBBytes() []byte {
	e.t.Helper()
	// newEnv's database lives in one of this test's temp dirs.
	files, err := filepath.Glob(filepath.Join(filepath.Dir(e.t.TempDir()), "*", "launchdir.db*"))
	if err != nil || len(files) == 0 {
		e.t.Fatalf("no database file found (%v)", err)
	}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			e.t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

func TestAccountRequiresSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	resp, body := siDo(t, e.browser(), http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/signin?next=%2Faccount" {
		t.Errorf("Location = %q", loc)
	}
	resp, body = siDo(t, e.browser(), http.MethodPost, e.srv.URL+"/account/keys", url.Values{"name": {"x"}}, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
}

func TestAccountPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b, _ := e.signedIn("owner@example.com")
	resp, body := siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	siWantPageHeaders(t, resp)
	for _, want := range []string{"owner@example.com", `action="/signout"`, `action="/account/keys"`, e.acctCSRF(b), "no API keys", "No apps"} {
		if !strings.Contains(body, want) {
			t.Errorf("account page lacks %q", want)
		}
	}
}

func TestAccountAPIKeyLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	b, u := e.signedIn("keys@example.com")

	key := e.acctCreateKey(b, "deploy <script>")
	if !strings.HasPrefix(key, auth.PrefixAPIKey) {
		t.Fatalf("key %q lacks the prefix", key)
	}
	caller, err := e.auth.Verify(ctx, key, e.auth.MCPResource())
	if err != nil {
		t.Fatal(err)
	}
	if caller.Via != domain.ViaAPIKey || caller.UserID != u.ID || caller.KeyName != "deploy <script>" {
		t.Errorf("caller = %+v", caller)
	}
	if _, err := e.auth.Verify(ctx, key, e.auth.APIResource()); err != nil {
		t.Errorf("key on the REST API: %v", err)
	}

	keys := e.acctKeys(u.ID)
	if len(keys) != 1 || keys[0].Prefix != key[:12] || keys[0].Hash != auth.Hash(key) {
		t.Fatalf("stored keys = %+v", keys)
	}
	if db := e.acctDBBytes(); bytes.Contains(db, []byte(key)) || bytes.Contains(db, []byte(key[12:])) {
		t.Error("the database files contain the plaintext key")
	}

	// The list shows the prefix and escaped name, never the key.
	resp, body := siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	if strings.Contains(body, key) || !strings.Contains(body, key[:12]) {
		t.Error("account page shows the key, or not its prefix")
	}
	if strings.Contains(body, "<script>") || !strings.Contains(body, "deploy &lt;script&gt;") {
		t.Error("key name not escaped")
	}

	revoke := fmt.Sprintf("%s/account/keys/%d/revoke", e.srv.URL, keys[0].ID)

	// Without the CSRF token nothing changes.
	resp, body = siDo(t, b, http.MethodPost, revoke, url.Values{}, nil)
	siWantStatus(t, resp, body, http.StatusForbidden)
	siWantPageHeaders(t, resp)
	resp, body = siDo(t, b, http.MethodPost, revoke, url.Values{"csrf": {"csrf-forged"}}, nil)
	siWantStatus(t, resp, body, http.StatusForbidden)
	if _, err := e.auth.Verify(ctx, key, e.auth.MCPResource()); err != nil {
		t.Fatalf("key revoked without a CSRF token: %v", err)
	}
	// Nor cross-origin with it.
	resp, body = siDo(t, b, http.MethodPost, revoke, url.Values{"csrf": {e.acctCSRF(b)}}, http.Header{"Sec-Fetch-Site": {"cross-site"}})
	siWantStatus(t, resp, body, http.StatusForbidden)

	resp, body = siDo(t, b, http.MethodPost, revoke, url.Values{"csrf": {e.acctCSRF(b)}}, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/account" {
		t.Errorf("Location = %q", loc)
	}
	if _, err := e.auth.Verify(ctx, key, e.auth.MCPResource()); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("revoked key: Verify err = %v, want ErrInvalidToken", err)
	}
	resp, body = siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	if !strings.Contains(body, "revoked") {
		t.Error("account page does not show the key as revoked")
	}
}

func TestAccountCreateKeyWithoutCSRF(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b, u := e.signedIn("csrf@example.com")
	for _, form := range []url.Values{{"name": {"x"}}, {"name": {"x"}, "csrf": {"nope"}}, {"name": {"x"}, "csrf": {""}}} {
		resp, body := siDo(t, b, http.MethodPost, e.srv.URL+"/account/keys", form, nil)
		siWantStatus(t, resp, body, http.StatusForbidden)
		if siKeyRE.MatchString(body) {
			t.Error("a key was shown")
		}
	}
	if k := e.acctKeys(u.ID); len(k) != 0 {
		t.Errorf("keys created without CSRF: %+v", k)
	}
}

func TestAccountKeyName(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b, u := e.signedIn("names@example.com")
	for _, name := range []string{"", "   ", strings.Repeat("n", 101), "tab\there"} {
		resp, body := siDo(t, b, http.MethodPost, e.srv.URL+"/account/keys", url.Values{"csrf": {e.acctCSRF(b)}, "name": {name}}, nil)
		siWantStatus(t, resp, body, http.StatusBadRequest)
		if siKeyRE.MatchString(body) || !strings.Contains(body, "1 to 100 characters") {
			t.Errorf("name %q: page:\n%s", name, body)
		}
	}
	if k := e.acctKeys(u.ID); len(k) != 0 {
		t.Errorf("keys created with bad names: %+v", k)
	}
	e.acctCreateKey(b, strings.Repeat("é", 100)) // 100 characters, 200 bytes
}

func TestAccountKeyLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	b, u := e.signedIn("many@example.com")
	var first auth.APIKey
	for i := range 25 {
		_, k, err := e.auth.CreateAPIKey(ctx, "many@example.com", fmt.Sprintf("key %d", i))
		if err != nil {
			t.Fatal(err)
		}
		if k.UserID != u.ID {
			t.Fatalf("CreateAPIKey used user %d, want %d", k.UserID, u.ID)
		}
		if i == 0 {
			first = k
		}
	}
	resp, body := siDo(t, b, http.MethodPost, e.srv.URL+"/account/keys", url.Values{"csrf": {e.acctCSRF(b)}, "name": {"one more"}}, nil)
	siWantStatus(t, resp, body, http.StatusBadRequest)
	if _, _, err := e.auth.CreateAPIKey(ctx, "many@example.com", "one more"); err == nil {
		t.Error("CreateAPIKey beyond the limit succeeded")
	}
	// Revoked keys do not count.
	if err := e.store.RevokeAPIKey(ctx, u.ID, first.ID, e.clock()); err != nil {
		t.Fatal(err)
	}
	e.acctCreateKey(b, "one more")
}

func TestAccountOtherUsersKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	b, _ := e.signedIn("me@example.com")
	theirs, k, err := e.auth.CreateAPIKey(ctx, "them@example.com", "theirs")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{fmt.Sprint(k.ID), "999999", "abc", "-1"} {
		resp, body := siDo(t, b, http.MethodPost, e.srv.URL+"/account/keys/"+id+"/revoke", url.Values{"csrf": {e.acctCSRF(b)}}, nil)
		siWantStatus(t, resp, body, http.StatusNotFound)
		siWantPageHeaders(t, resp)
	}
	if _, err := e.auth.Verify(ctx, theirs, e.auth.MCPResource()); err != nil {
		t.Errorf("another user's key was revoked: %v", err)
	}
}

func TestAccountCreateAPIKeyOperator(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	plain, k, err := e.auth.CreateAPIKey(ctx, "Ops@Example.com", "ops")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(plain, auth.PrefixAPIKey) || k.Prefix != plain[:12] || k.Hash != auth.Hash(plain) || k.ID == 0 {
		t.Errorf("key = %+v for %q", k, plain)
	}
	u, err := e.store.UserByID(ctx, k.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if u.Issuer != auth.EmailIssuer || u.Subject != "ops@example.com" {
		t.Errorf("user = %+v", u)
	}
	c, err := e.auth.Verify(ctx, plain, e.auth.APIResource())
	if err != nil || c.Via != domain.ViaAPIKey || c.UserID != u.ID {
		t.Errorf("Verify = %+v, %v", c, err)
	}
	// The same person again: the same user.
	_, k2, err := e.auth.CreateAPIKey(ctx, "ops@example.com", "ops 2")
	if err != nil || k2.UserID != u.ID {
		t.Errorf("second key: %+v, %v", k2, err)
	}
	for _, bad := range [][2]string{{"not an address", "x"}, {"ops@example.com", ""}, {"ops@example.com", strings.Repeat("x", 101)}} {
		if _, _, err := e.auth.CreateAPIKey(ctx, bad[0], bad[1]); err == nil {
			t.Errorf("CreateAPIKey(%q, %q) succeeded", bad[0], bad[1])
		}
	}
}

func TestAccountConnectedApps(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	b, u := e.signedIn("apps@example.com")
	now := e.clock()

	const clientID = "https://app.example/oauth/client.json"
	if err := e.store.CreateClient(ctx, auth.Client{ID: clientID, Name: "Example <App>", RedirectURIs: []string{"https://app.example/cb"},
		AuthMethod: "none", Kind: auth.ClientMetadata, CreatedAt: now, LastUsedAt: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.SaveGrant(ctx, auth.Grant{UserID: u.ID, ClientID: clientID, Scopes: []string{domain.ScopeAccountRead},
		Resource: e.auth.MCPResource()}, now); err != nil {
		t.Fatal(err)
	}
	access := auth.NewSecret(auth.PrefixAccess)
	if err := e.store.CreateToken(ctx, auth.Token{Hash: auth.Hash(access), Kind: auth.TokenAccess, UserID: u.ID, ClientID: clientID,
		Family: "fam1", Scopes: []string{domain.ScopeAccountRead}, Resource: e.auth.MCPResource(), CreatedAt: now,
		ExpiresAt: now.Add(auth.AccessTTL)}); err != nil {
		t.Fatal(err)
	}
	if c, err := e.auth.Verify(ctx, access, e.auth.MCPResource()); err != nil || c.Via != domain.ViaOAuth {
		t.Fatalf("token before revocation: %+v, %v", c, err)
	}

	resp, body := siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	for _, want := range []string{"Example &lt;App&gt;", "app.example", domain.ScopeAccountRead, `name="client_id" value="` + clientID + `"`} {
		if !strings.Contains(body, want) {
			t.Errorf("account page lacks %q:\n%s", want, body)
		}
	}

	// Without CSRF nothing changes; an unknown client is 404.
	resp, body = siDo(t, b, http.MethodPost, e.srv.URL+"/account/apps/revoke", url.Values{"client_id": {clientID}}, nil)
	siWantStatus(t, resp, body, http.StatusForbidden)
	resp, body = siDo(t, b, http.MethodPost, e.srv.URL+"/account/apps/revoke", url.Values{"client_id": {"https://other.example/c"}, "csrf": {e.acctCSRF(b)}}, nil)
	siWantStatus(t, resp, body, http.StatusNotFound)
	if _, err := e.auth.Verify(ctx, access, e.auth.MCPResource()); err != nil {
		t.Fatalf("token revoked early: %v", err)
	}
	// Another user cannot disconnect it.
	other, _ := e.signedIn("other@example.com")
	resp, body = siDo(t, other, http.MethodPost, e.srv.URL+"/account/apps/revoke", url.Values{"client_id": {clientID}, "csrf": {e.acctCSRF(other)}}, nil)
	siWantStatus(t, resp, body, http.StatusNotFound)

	resp, body = siDo(t, b, http.MethodPost, e.srv.URL+"/account/apps/revoke", url.Values{"client_id": {clientID}, "csrf": {e.acctCSRF(b)}}, nil)
	siWantStatus(t, resp, body, http.StatusSeeOther)
	if loc := resp.Header.Get("Location"); loc != "/account" {
		t.Errorf("Location = %q", loc)
	}
	if _, err := e.auth.Verify(ctx, access, e.auth.MCPResource()); !errors.Is(err, auth.ErrInvalidToken) {
		t.Errorf("token after disconnecting: err = %v, want ErrInvalidToken", err)
	}
	if g, err := e.store.ListGrants(ctx, u.ID); err != nil || len(g) != 0 {
		t.Errorf("grants after disconnecting: %+v, %v", g, err)
	}
	resp, body = siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil)
	siWantStatus(t, resp, body, http.StatusOK)
	if strings.Contains(body, "Example &lt;App&gt;") {
		t.Error("the app is still listed")
	}
}
