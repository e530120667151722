package tools

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
)

// publicVotes is the all-time votes of listing slug as get_listing (REST) shows them.
func publicVotes(t *testing.T, env *catEnv, slug string) float64 {
	t.Helper()
	r := catDo(t, env, "GET", "/v1/listings/"+slug, nil, nil)
	var l struct {
		Votes *float64 `json:"votes"`
	}
	if err := json.Unmarshal(r.body, &l); err != nil || r.status != 200 || l.Votes == nil {
		t.Fatalf("get_listing %s: %d %s", slug, r.status, r.body)
	}
	return *l.Votes
}

// rowMetric is the metric (week votes) of the ranked row linking to path on a week page.
func rowMetric(body, path string) string {
	i := strings.Index(body, `<a class="name" href="`+path+`">`)
	if i < 0 {
		return ""
	}
	rest := body[i:]
	j := strings.Index(rest, `<span class="metric">`)
	if j < 0 {
		return ""
	}
	rest = rest[j+len(`<span class="metric">`):]
	for _, end := range []string{"<form", "<a ", "</div>"} { // the count ends where the button starts
		if k := strings.Index(rest, end); k >= 0 {
			rest = rest[:k]
		}
	}
	// The count's text: "<strong>12</strong> votes" reads "12 votes".
	return strings.TrimSpace(reTags.ReplaceAllString(rest, ""))
}

var reTags = regexp.MustCompile(`<[^>]*>`)

// voteRows are the stored votes of listing id (status/held_reason each).
func voteRows(t *testing.T, env *catEnv, id int64) []storage.Row {
	t.Helper()
	return fixtures.Rows(t, env.db, "votes", fixtures.Cols{"listing_id": id})
}

// TestVotes_OnTheSite votes through the real pages with signed-in people:
// counted, held for a fresh account until it is old enough (the job on the
// test clock), held forever for an owner, held for a burst from one network;
// one vote per person, unvote, cross-site forms and visitors change nothing.
func TestVotes_OnTheSite(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	env.svc.RegisterVoteJobs(env.quietRunner())
	signIn := withPages(t, env)
	env.apiKey(t, "owner@example.com")
	week := "/launches/weeks/2026-11-16"
	live := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16", "launched_at": catNow.Unix()})
	slug := slugOf(t, env, live)
	listingPage := "/listings/" + slug
	visitor := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	// A visitor is asked to sign in, and a post stores nothing.
	if _, body, _ := page(t, visitor, "GET", env.URL+listingPage, nil); !strings.Contains(strings.ToLower(body), strings.ToLower(`href="/signin?next=`+url.QueryEscape(listingPage)+`">Sign in to vote`)) || strings.Contains(body, "/vote\"") {
		t.Fatalf("a visitor is not offered 'Sign in to vote': %s", body)
	}
	if st, _, loc := page(t, visitor, "POST", env.URL+listingPage+"/vote", url.Values{"next": {week}}); st != http.StatusSeeOther || loc != "/signin?next="+url.QueryEscape(week) {
		t.Fatalf("a visitor's vote: %d %s", st, loc)
	}
	if n := len(voteRows(t, env, live)); n != 0 {
		t.Fatalf("a visitor's vote stored %d rows", n)
	}

	// A fresh account: held, nothing counted, until the account is 24 hours old.
	ann := signIn("ann@example.com")
	if st, _, _ := page(t, ann, "POST", env.URL+listingPage+"/vote", url.Values{}, "Sec-Fetch-Site", "cross-site"); st != http.StatusForbidden {
		t.Fatalf("a cross-site vote form: %d", st)
	}
	if n := len(voteRows(t, env, live)); n != 0 {
		t.Fatalf("a cross-site vote stored %d rows", n)
	}
	if st, _, loc := page(t, ann, "POST", env.URL+listingPage+"/vote", url.Values{"next": {listingPage}}); st != http.StatusSeeOther || loc != listingPage {
		t.Fatalf("vote: %d %s", st, loc)
	}
	rows := voteRows(t, env, live)
	if len(rows) != 1 || rows[0]["status"] != "held" || rows[0]["held_reason"] != "new_account" || rows[0]["user_id"] == "" ||
		len(rows[0]["ip_hash"]) != 64 || len(rows[0]["ua_hash"]) != 64 || strings.Contains(rows[0]["ip_hash"], "127.0.0.1") {
		t.Fatalf("a fresh account's vote: %v", rows)
	}
	if v := publicVotes(t, env, slug); v != 0 {
		t.Fatalf("a held vote counts: %v", v)
	}
	if _, body, _ := page(t, ann, "GET", env.URL+listingPage, nil); !strings.Contains(body, "▲ Voted") || !strings.Contains(body, "counts once your account is old enough") {
		t.Fatalf("the page does not show ann's held vote: %s", body)
	}
	if _, body, _ := page(t, visitor, "GET", env.URL+week, nil); rowMetric(body, listingPage) != "0 votes" {
		t.Fatalf("the week page counts a held vote: %s", body)
	}
	env.clock.Advance(23 * time.Hour)
	env.runJobs(t)
	if v := publicVotes(t, env, slug); v != 0 {
		t.Fatalf("counted before the account is old enough: %v", v)
	}
	env.clock.Advance(2 * time.Hour)
	if n := env.runJobs(t); n != 1 {
		t.Fatalf("vote jobs run: %d, want 1", n)
	}
	if v := publicVotes(t, env, slug); v != 1 {
		t.Fatalf("after the account is 24 hours old: %v votes, want 1", v)
	}
	if _, body, _ := page(t, visitor, "GET", env.URL+week, nil); rowMetric(body, listingPage) != "1 vote" {
		t.Fatalf("the week page does not count the released vote: %s", body)
	}
	if _, body, _ := page(t, visitor, "GET", env.URL+listingPage, nil); !strings.Contains(body, "1 vote · ") {
		t.Fatalf("the listing page does not say \"1 vote\": %s", body)
	}

	// An old enough account counts at once, from the week page, once.
	bob := signIn("bob@example.com")
	env.clock.Advance(25 * time.Hour)
	if _, body, _ := page(t, bob, "GET", env.URL+week, nil); !strings.Contains(body, `action="`+listingPage+`/vote"`) || !strings.Contains(body, `value="`+week+`"`) {
		t.Fatalf("the week page has no vote form for bob: %s", body)
	}
	for range 2 {
		if st, _, loc := page(t, bob, "POST", env.URL+listingPage+"/vote", url.Values{"next": {week}}); st != http.StatusSeeOther || loc != week {
			t.Fatalf("vote from the week page: %d %s", st, loc)
		}
	}
	if v, n := publicVotes(t, env, slug), len(voteRows(t, env, live)); v != 2 || n != 2 {
		t.Fatalf("after bob voted twice: %v votes, %d rows; want 2, 2", v, n)
	}
	if _, body, _ := page(t, bob, "GET", env.URL+listingPage, nil); !strings.Contains(body, "2 votes ·") || !strings.Contains(body, "▲ Voted") {
		t.Fatalf("the listing page after bob's vote: %s", body)
	}
	if _, body, _ := page(t, bob, "GET", env.URL+"/", nil); !strings.Contains(body, `action="`+listingPage+`/unvote"`) {
		t.Fatalf("the home list does not show bob's vote: %s", body)
	}
	if score := listingColumn(t, env, live, "trending_score"); score == "0" || score == "0.0" {
		t.Fatalf("trending score after counted votes: %s", score)
	}
	// Unvote: -1; a redirect to another site is refused (back to the listing).
	for _, next := range []string{"https://evil.example/", "//evil.example/x", "/\\evil.example"} {
		page(t, bob, "POST", env.URL+listingPage+"/vote", url.Values{})
		if st, _, loc := page(t, bob, "POST", env.URL+listingPage+"/unvote", url.Values{"next": {next}}); st != http.StatusSeeOther || loc != listingPage {
			t.Fatalf("unvote with next=%s: %d %s", next, st, loc)
		}
	}
	if v := publicVotes(t, env, slug); v != 1 {
		t.Fatalf("after bob's unvote: %v, want 1", v)
	}

	// An owner's vote is held for good.
	owner := signIn("owner@example.com")
	page(t, owner, "POST", env.URL+listingPage+"/vote", url.Values{})
	env.clock.Advance(30 * 24 * time.Hour)
	env.runJobs(t)
	if v := publicVotes(t, env, slug); v != 1 {
		t.Fatalf("an owner's vote counts: %v", v)
	}
	if n := fixtures.Count(t, env.db, "votes", fixtures.Cols{"listing_id": live, "held_reason": "owner", "status": "held"}); n != 1 {
		t.Fatalf("owner's vote rows: %d", n)
	}

}

// TestVotes_BurstAndLimits holds a burst of young accounts voting for one
// listing from one network, and limits vote posts per account.
func TestVotes_BurstAndLimits(t *testing.T) {
	env := catTestServer(t, Options{}, true)
	env.svc.RegisterVoteJobs(env.quietRunner())
	perAccount := ratelimit.New(ratelimit.Policy{Name: "votes", Quota: 3, Window: time.Hour}, env.clock.Now)
	signIn := withPages(t, env, web.WithVoteLimits(perAccount, nil))
	env.apiKey(t, "owner@example.com")
	live := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16", "launched_at": catNow.Unix()})
	slug := slugOf(t, env, live)
	listingPage := "/listings/" + slug
	var people []*http.Client
	for _, e := range []string{"c1@example.com", "c2@example.com", "c3@example.com", "d@example.com"} {
		people = append(people, signIn(e))
	}
	// The accounts are a day old, old enough to count, younger than a week;
	// every test browser comes from 127.0.0.1.
	env.clock.Advance(25 * time.Hour)
	for i, c := range people[:2] {
		page(t, c, "POST", env.URL+listingPage+"/vote", url.Values{})
		if v := publicVotes(t, env, slug); v != float64(i+1) {
			t.Fatalf("vote %d of the network: %v counted", i+1, v)
		}
	}
	page(t, people[2], "POST", env.URL+listingPage+"/vote", url.Values{})
	if v := publicVotes(t, env, slug); v != 0 {
		t.Fatalf("a burst of three young accounts from one network: %v counted, want 0", v)
	}
	if n := fixtures.Count(t, env.db, "votes", fixtures.Cols{"listing_id": live, "status": "held", "held_reason": "burst"}); n != 3 {
		t.Fatalf("burst votes held: %d, want 3", n)
	}
	if score := listingColumn(t, env, live, "trending_score"); score != "0" && score != "0.0" {
		t.Fatalf("trending score of held votes only: %s", score)
	}
	if _, body, _ := page(t, people[2], "GET", env.URL+listingPage, nil); !strings.Contains(body, "held for review") {
		t.Fatalf("the page does not say the vote is held for review")
	}

	// Per account: 3 posts an hour in this test.
	d := people[3]
	for i, op := range []string{"unvote", "unvote", "unvote"} {
		if st, _, _ := page(t, d, "POST", env.URL+listingPage+"/"+op, url.Values{}); st != http.StatusSeeOther {
			t.Fatalf("post %d: %d", i+1, st)
		}
	}
	if st, _, _ := page(t, d, "POST", env.URL+listingPage+"/vote", url.Values{}); st != http.StatusTooManyRequests {
		t.Fatalf("a fourth vote post within the hour: %d, want 429", st)
	}
	if n := fixtures.Count(t, env.db, "votes", fixtures.Cols{"listing_id": live}); n != 3 {
		t.Fatalf("a refused vote was stored: %d rows", n)
	}
}

// TestVotes_NotInTheAPI holds that votes are cast on the site only: no
// operation, REST route or MCP tool casts or removes one.
func TestVotes_NotInTheAPI(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	for _, op := range Catalog() {
		if strings.Contains(strings.ToLower(op.Name+op.Path), "vote") && op.Method != http.MethodGet {
			t.Errorf("operation %s (%s %s) writes votes", op.Name, op.Method, op.Path)
		}
	}
	for _, name := range catListTools(t, env.URL, "2025-11-25") {
		if strings.Contains(strings.ToLower(name), "vote") {
			t.Errorf("MCP tool %s", name)
		}
	}
	r := catDo(t, env, "GET", "/v1/openapi.json", nil, nil)
	var doc struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil || len(doc.Paths) == 0 {
		t.Fatalf("openapi: %v", err)
	}
	for p, methods := range doc.Paths {
		for m := range methods {
			if strings.Contains(strings.ToLower(p), "vote") && m != "get" {
				t.Errorf("REST %s %s", m, p)
			}
		}
	}
	for _, p := range []string{"/v1/listings/x/vote", "/v1/listings/x/votes", "/v1/votes"} {
		if r := catDo(t, env, "POST", p, []byte(`{}`), map[string]string{"Content-Type": "application/json"}); r.status != 404 && r.status != 405 {
			t.Errorf("POST %s: %d", p, r.status)
		}
	}
}
