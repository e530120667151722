package auth_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestSuspendedAccount: once users.suspended_at is set (the site team's
// console, docs/console.md "People"), the account's session signs nobody
// in, its access token does not verify, its refresh token gets no new
// tokens, and signing in by an emailed link is refused with a page that
// says why; clearing it lets the person sign in again.
func TestSuspendedAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	redirect := "https://app.test/cb"
	id := e.asClient("App", redirect)
	b, u := e.signedIn("ada@example.com")
	code, verifier := e.asCode(b, id, redirect, nil)
	resp, m := e.asRedeem(id, redirect, code, verifier)
	if resp.StatusCode != 200 {
		t.Fatal(m)
	}
	access, refresh := m["access_token"].(string), m["refresh_token"].(string)
	if !e.asValid(access, e.auth.MCPResource()) {
		t.Fatal("the access token does not verify before the suspension")
	}
	set := func(v any) {
		t.Helper()
		if _, err := e.db.UpdateRows(context.Background(), "users", map[string]any{"suspended_at": v}, map[string]any{"id": u.ID}); err != nil {
			t.Fatal(err)
		}
	}
	set(e.clock().Unix())

	if resp, _ := siDo(t, b, http.MethodGet, e.srv.URL+"/account", nil, nil); resp.StatusCode != http.StatusSeeOther ||
		!strings.HasPrefix(resp.Header.Get("Location"), "/signin") {
		t.Errorf("/account with a suspended account's session: %d to %q, want the sign-in page", resp.StatusCode, resp.Header.Get("Location"))
	}
	if e.asValid(access, e.auth.MCPResource()) {
		t.Error("a suspended account's access token verifies")
	}
	resp, m = e.asToken(url.Values{"grant_type": {"refresh_token"}, "client_id": {id}, "refresh_token": {refresh}}, nil)
	asOAuthError(t, resp, m, 400, "invalid_grant")
	link := e.siRequestLink(e.browser(), "ada@example.com", "/account")
	resp, body := siDo(t, e.browser(), http.MethodGet, link, nil, nil)
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "suspended") {
		t.Errorf("the sign-in link of a suspended account: %d, want 403 saying it is suspended", resp.StatusCode)
	}

	set(nil)
	link = e.siRequestLink(e.browser(), "ada@example.com", "/account")
	if resp, _ := siDo(t, e.browser(), http.MethodGet, link, nil, nil); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the sign-in link after unsuspending: %d, want 303", resp.StatusCode)
	}
	if !e.asValid(access, e.auth.MCPResource()) {
		t.Error("the access token does not verify after unsuspending")
	}
}
