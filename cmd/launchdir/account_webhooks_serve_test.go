package main

import (
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var reCSRF = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
var reHookSecret = regexp.MustCompile(`whsec_[A-Za-z0-9+/=]{32}`)

// TestServe_AccountWebhooks: /account has a Webhooks section (issue 34):
// its form refuses a private address with the reason, creates an endpoint
// showing its secret once, lists it with its (empty) delivery log, and
// deletes it.
func TestServe_AccountWebhooks(t *testing.T) {
	t.Parallel()
	s := startServe(t)
	origin := "http://127.0.0.1:" + s.port
	c := s.signIn(t, origin, "hooks@example.com")
	page := func(res *http.Response, err error) (int, string) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return res.StatusCode, html.UnescapeString(string(b)) // html/template writes + as &#43;
	}
	st, body := page(c.Get(origin + "/account"))
	m := reCSRF.FindStringSubmatch(body)
	if st != 200 || m == nil || !strings.Contains(body, `id="webhooks"`) || !strings.Contains(body, "You have no webhooks.") {
		t.Fatalf("/account: %d, webhooks section: %t", st, strings.Contains(body, `id="webhooks"`))
	}
	csrf := m[1]
	post := func(path string, v url.Values) (int, string) {
		v.Set("csrf", csrf)
		return page(c.PostForm(origin+path, v))
	}
	if st, body := post("/account/webhooks", url.Values{"url": {"http://169.254.169.254/latest"}, "events": {"draft.ready"}}); st != 400 || !strings.Contains(body, "public address") {
		t.Fatalf("private address: %d, reason shown: %t", st, strings.Contains(body, "public address"))
	}
	st, body = post("/account/webhooks", url.Values{"url": {"https://hooks.example.com/launchdir"}, "events": {"draft.ready", "listing.live"}})
	secret := reHookSecret.FindString(body)
	if st != 200 || secret == "" || !strings.Contains(body, "https://hooks.example.com/launchdir") || !strings.Contains(body, "No deliveries yet.") {
		t.Fatalf("create: %d, secret shown: %t", st, secret != "")
	}
	st, body = page(c.Get(origin + "/account"))
	if st != 200 || strings.Contains(body, secret) || !strings.Contains(body, secret[:10]) || !strings.Contains(body, "draft.ready, listing.live") {
		t.Fatalf("/account after creating: %d, secret shown again: %t", st, strings.Contains(body, secret))
	}
	id := regexp.MustCompile(`/account/webhooks/([0-9]+)/delete`).FindStringSubmatch(body)
	if id == nil {
		t.Fatal("no delete form")
	}
	if st, _ := post("/account/webhooks/"+id[1]+"/delete", url.Values{}); st != http.StatusSeeOther {
		t.Fatalf("delete: %d", st)
	}
	if _, body = page(c.Get(origin + "/account")); !strings.Contains(body, "You have no webhooks.") {
		t.Fatal("the webhook is still listed after deleting it")
	}
}
