package main

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestServe_PeopleSuspend walks issue 16 item 7 through a real serve, with
// every person signed in by an emailed link: an admin finds an account on
// /admin/people (moderators and everyone else get a 404), sees its vote and
// review, is refused a reason just outside its bounds (400 next to the field,
// nothing changed) and an admin's suspension (409), suspends it with a
// reason just inside: its session is signed out, its OAuth token and API key
// get 401 with WWW-Authenticate on /v1/me and /mcp, signing in again is
// refused, its vote leaves the listing's count and waits in /admin/queue
// with the reason suspended, and the audit log has the entry. Unsuspending
// puts all of it back.
func TestServe_PeopleSuspend(t *testing.T) {
	t.Parallel()
	s := startServeDemoCopy(t, nil, "--admin-emails", "ops@example.com,boss@example.com", "--vote-min-account-age", "0")
	origin := "http://127.0.0.1:" + s.port
	api := origin + "/v1"
	type page struct {
		status int
		body   string
		hdr    http.Header
	}
	do := func(c *http.Client, method, path string, form url.Values, bearer string) page {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, origin+path, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		if path == "/mcp" {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return page{res.StatusCode, string(b), res.Header}
	}
	get := func(c *http.Client, path string) page { t.Helper(); return do(c, http.MethodGet, path, nil, "") }
	post := func(c *http.Client, path string, form url.Values) page {
		t.Helper()
		return do(c, http.MethodPost, path, form, "")
	}
	want := func(what string, p page, status int, subs ...string) {
		t.Helper()
		if p.status != status {
			t.Fatalf("%s: %d, want %d: %.400s", what, p.status, status, p.body)
		}
		for _, sub := range subs {
			if !strings.Contains(p.body, sub) {
				t.Errorf("%s: the page lacks %q", what, sub)
			}
		}
	}

	ops := s.signIn(t, origin, "ops@example.com")
	s.signIn(t, origin, "boss@example.com")
	want("grant a moderator", post(ops, "/admin/team", url.Values{"email": {"mod@example.com"}, "role": {"moderator"}}), 303)
	mod := s.signIn(t, origin, "mod@example.com")
	someone := s.signIn(t, origin, "someone@example.com")

	// The account to suspend: an OAuth token, a session and an API key.
	token := s.oauthSignIn(t, origin, "bad@example.com")
	bad := s.signIn(t, origin, "bad@example.com")
	acct := get(bad, "/account")
	m := reHiddenField.FindStringSubmatch(acct.body)
	if m == nil || m[1] != "csrf" {
		t.Fatalf("no csrf field on /account: %.300s", acct.body)
	}
	created := post(bad, "/account/keys", url.Values{"csrf": {m[2]}, "name": {"script"}})
	key := regexp.MustCompile(`ld_sk_[A-Za-z0-9_-]+`).FindString(created.body)
	if created.status != 200 || key == "" {
		t.Fatalf("creating an API key: %d", created.status)
	}
	mcp := func(bearer string) page {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, origin+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+bearer)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return page{res.StatusCode, string(b), res.Header}
	}
	me := func(bearer string) page {
		t.Helper()
		return do(http.DefaultClient, http.MethodGet, "/v1/me", nil, bearer)
	}
	for what, bearer := range map[string]string{"OAuth token": token, "API key": key} {
		want("/v1/me with the "+what, me(bearer), 200, "bad@example.com")
	}
	if p := mcp(key); p.status != 200 {
		t.Fatalf("/mcp initialize with the API key: %d %.300s", p.status, p.body)
	}

	// A vote and a review of one live listing.
	var list struct {
		Items []struct {
			Slug, Name string
			Votes      int
		}
	}
	s.get(t, api+"/listings?per_page=1", "", "", &list)
	if len(list.Items) != 1 {
		t.Fatal("no live listing")
	}
	slug, name := list.Items[0].Slug, list.Items[0].Name
	votes := func() int {
		t.Helper()
		var l struct{ Votes int }
		s.get(t, api+"/listings/"+slug, "", "", &l)
		return l.Votes
	}
	before := votes()
	want("vote", post(bad, "/listings/"+slug+"/vote", url.Values{}), 303)
	want("review", post(bad, "/listings/"+slug+"/review", url.Values{"stars": {"4"}, "body": {"Does what it says, and quickly."}}), 303)
	if got := votes(); got != before+1 {
		t.Fatalf("votes after the vote: %d, want %d", got, before+1)
	}

	// Permissions.
	for who, c := range map[string]*http.Client{"moderator": mod, "someone": someone, "visitor": s.client()} {
		want(who+" on /admin/people", get(c, "/admin/people?q=bad"), 404)
		want(who+" suspending", post(c, "/admin/people/1/suspend", url.Values{"reason": {"x"}}), 404)
	}
	found := get(ops, "/admin/people?q=BAD@EXAMPLE")
	want("search", found, 200, "bad@example.com")
	if strings.Contains(found.body, "ops@example.com</a>") {
		t.Error("the search for bad@ lists ops@")
	}
	idm := regexp.MustCompile(`href="/admin/people/(\d+)">bad@example.com`).FindStringSubmatch(found.body)
	if idm == nil {
		t.Fatalf("no link to bad@'s account: %.600s", found.body)
	}
	id := idm[1]
	want("search by id", get(ops, "/admin/people?q="+id), 200, "bad@example.com")
	want("search for nobody", get(ops, "/admin/people?q=nobody-here"), 200, "No account matches")
	want("search too long", get(ops, "/admin/people?q="+strings.Repeat("a", 255)), 400, `id="people-q-problem"`)
	person := "/admin/people/" + id
	want("the account page", get(ops, person), 200, "bad@example.com", "email link", "1 active API key", "1 connected app",
		`href="/listings/`+slug+`"`, "counted", "Active")
	want("an unknown account", get(ops, "/admin/people/999999"), 404)

	// Refusals change nothing.
	want("no reason", post(ops, person+"/suspend", url.Values{"reason": {" "}}), 400, `id="suspend-reason-problem"`, "1-500 characters")
	want("a reason too long", post(ops, person+"/suspend", url.Values{"reason": {strings.Repeat("é", 501)}}), 400,
		`id="suspend-reason-problem"`, "has 501")
	opsID := regexp.MustCompile(`href="/admin/people/(\d+)">ops@example.com`).FindStringSubmatch(get(ops, "/admin/people?q=ops@").body)
	bossID := regexp.MustCompile(`href="/admin/people/(\d+)">boss@example.com`).FindStringSubmatch(get(ops, "/admin/people?q=boss@").body)
	if opsID == nil || bossID == nil {
		t.Fatal("ops@ or boss@ not found")
	}
	want("suspend oneself", post(ops, "/admin/people/"+opsID[1]+"/suspend", url.Values{"reason": {"x"}}), 409, "your own account")
	want("suspend an admin", post(ops, "/admin/people/"+bossID[1]+"/suspend", url.Values{"reason": {"x"}}), 409, "an admin cannot be suspended")
	want("unsuspend an active account", post(ops, person+"/unsuspend", url.Values{}), 409, "is not suspended")
	want("/v1/me with the key after refusals", me(key), 200)
	want("/account after refusals", get(bad, "/account"), 200, "bad@example.com")
	if got := votes(); got != before+1 {
		t.Fatalf("votes after refused suspensions: %d, want %d", got, before+1)
	}

	// Suspend, with a reason of exactly 500 characters.
	reason := "Spam votes " + strings.Repeat("x", 489)
	want("suspend", post(ops, person+"/suspend", url.Values{"reason": {reason}}), 303)
	want("the suspended account's page", get(ops, person), 200, "Suspended", "ops@example.com", "Unsuspend", "suspended, <a href=\"/admin/queue\">queue")
	if p := get(bad, "/account"); p.status != http.StatusSeeOther || !strings.HasPrefix(p.hdr.Get("Location"), "/signin") {
		t.Errorf("/account with the suspended session: %d to %q, want 303 to /signin", p.status, p.hdr.Get("Location"))
	}
	for what, bearer := range map[string]string{"OAuth token": token, "API key": key} {
		p := me(bearer)
		if p.status != 401 || !strings.HasPrefix(p.hdr.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("/v1/me with the suspended account's %s: %d, WWW-Authenticate %q; want 401 with a challenge", what, p.status, p.hdr.Get("WWW-Authenticate"))
		}
	}
	if p := mcp(key); p.status != 401 || !strings.HasPrefix(p.hdr.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("/mcp with the suspended account's key: %d, WWW-Authenticate %q; want 401 with a challenge", p.status, p.hdr.Get("WWW-Authenticate"))
	}
	again := s.client()
	before2 := len(reLinkLine.FindAllString(s.logs.String(), -1))
	post(again, "/signin", url.Values{"email": {"bad@example.com"}})
	links := reLinkLine.FindAllString(s.logs.String(), -1)
	if len(links) != before2+1 {
		t.Fatalf("sign-in mailed %d links", len(links)-before2)
	}
	res, err := again.Get(links[len(links)-1])
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "suspended") {
		t.Errorf("signing in again while suspended: %d, want 403 saying the account is suspended", res.StatusCode)
	}
	if got := votes(); got != before {
		t.Errorf("votes while suspended: %d, want %d (the vote is held)", got, before)
	}
	queue := get(ops, "/admin/queue")
	want("queue", queue, 200, name)
	heldIDs := map[string]string{}
	for _, kind := range []string{"vote", "review"} {
		held := ""
		for _, li := range regexp.MustCompile(`(?s)<li class="queue-item" id="`+kind+`-\d+">.*?</li>`).FindAllString(queue.body, -1) {
			if strings.Contains(li, "bad@example.com") {
				held = li
				heldIDs[kind] = regexp.MustCompile(kind + `-(\d+)`).FindStringSubmatch(li)[1]
			}
		}
		if !strings.Contains(held, name) || !strings.Contains(held, `<span class="tag">suspended</span>`) || !strings.Contains(held, "Account suspended") {
			t.Errorf("the queue's held %s of bad@: %q, want one of %s with the reason suspended", kind, held, name)
		}
	}
	want("audit", get(ops, "/admin/audit?action=account.suspend"), 200, "account:"+id, reason, "ops@example.com")
	want("suspend twice", post(ops, person+"/suspend", url.Values{"reason": {"again"}}), 409, "suspended already")

	// The team discards the held review meanwhile: unsuspending keeps that decision.
	want("discard the held review", post(ops, "/admin/queue/reviews/"+heldIDs["review"]+"/discard", url.Values{}), 303)

	// Unsuspend.
	want("unsuspend", post(ops, person+"/unsuspend", url.Values{}), 303)
	want("/v1/me with the key after unsuspending", me(key), 200, "bad@example.com")
	want("/v1/me with the token after unsuspending", me(token), 200, "bad@example.com")
	if got := votes(); got != before+1 {
		t.Errorf("votes after unsuspending: %d, want %d", got, before+1)
	}
	if p := get(bad, "/account"); p.status != http.StatusSeeOther {
		t.Errorf("/account with the session from before the suspension: %d, want 303 to sign in again", p.status)
	}
	want("signed in again", get(s.signIn(t, origin, "bad@example.com"), "/account"), 200, "bad@example.com")
	want("audit of the unsuspension", get(ops, "/admin/audit?action=account.unsuspend"), 200, "account:"+id)
	after := get(ops, person)
	want("the account page after", after, 200, "Active")
	for _, kind := range []string{"votes", "reviews"} {
		table := regexp.MustCompile(`(?s)<table class="board person-` + kind + `">.*?</table>`).FindString(after.body)
		wantState := map[string]string{"votes": "<td>counted</td>", "reviews": "<td>discarded</td>"}[kind]
		if !strings.Contains(table, wantState) {
			t.Errorf("the account's %s after unsuspending: %q, want %s", kind, table, wantState)
		}
	}
}
