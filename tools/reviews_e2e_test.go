package tools

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
)

// reviewsOf reads get_listing of slug over REST and over MCP (whose client
// checks the result against the output schema), requires both to show the
// same community_rating and reviews, and returns them.
func reviewsOf(t *testing.T, env *catEnv, rest, mcp draftCaller, slug string) (rating map[string]any, reviews map[string]any) {
	t.Helper()
	var seen []string
	for _, call := range []draftCaller{rest, mcp} {
		st, l := call(t, "get_listing", map[string]any{"slug": slug})
		r, ok := l["community_rating"]
		if st != 200 || !ok {
			t.Fatalf("get_listing %s: %d, community_rating sent: %v; %v", slug, st, ok, l)
		}
		b, _ := json.Marshal([]any{r, l["reviews"]})
		seen = append(seen, string(b))
		rating, _ = r.(map[string]any)
		reviews, _ = l["reviews"].(map[string]any)
	}
	if seen[0] != seen[1] {
		t.Fatalf("REST and MCP differ:\n%s\n%s", seen[0], seen[1])
	}
	return rating, reviews
}

// reviewRows are the stored reviews of listing id.
func reviewRows(t *testing.T, env *catEnv, id int64) []storage.Row {
	t.Helper()
	return fixtures.Rows(t, env.db, "reviews", fixtures.Cols{"listing_id": id})
}

const reviewText = "We moved our team notes here in an afternoon.\n\nSearch is fast; the mobile app <b>needs work</b>."

// TestReviews_OnTheSite writes reviews through the real pages with
// signed-in people and reads them back with get_listing over REST and MCP:
// the rating is null until a review counts; a fresh account's review is
// held until the account is old enough (the job on the test clock); bad
// input is a 400 page keeping the text and stores nothing; one review per
// person, edited in place; delete; the owner is refused and answers once.
func TestReviews_OnTheSite(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	env.svc.RegisterReviewJobs(env.quietRunner())
	signIn := withPages(t, env)
	key := env.apiKey(t, "owner@example.com")
	live := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16", "launched_at": catNow.Unix()})
	slug := slugOf(t, env, live)
	listingPage := "/listings/" + slug
	back := listingPage + "#reviews"
	rest := restCaller(env, key)
	mcp := mcpCaller(env, key)(t)
	visitor := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := func(stars, body string) url.Values {
		return url.Values{"stars": {stars}, "body": {body}, "next": {back}}
	}

	if r, rv := reviewsOf(t, env, rest, mcp, slug); r != nil || rv["count"] != float64(0) || len(rv["items"].([]any)) != 0 {
		t.Fatalf("an unreviewed listing: rating %v, reviews %v; want null and none", r, rv)
	}
	// A visitor is asked to sign in, and a post stores nothing.
	if _, body, _ := page(t, visitor, "GET", env.URL+listingPage, nil); !strings.Contains(strings.ToLower(body), strings.ToLower(`href="/signin?next=`+url.QueryEscape(listingPage)+`">Sign in to review</a>`)) ||
		!strings.Contains(body, "No reviews yet") || strings.Contains(body, `action="`+listingPage+`/review#reviews"`) {
		t.Fatalf("a visitor is not offered 'Sign in to review': %s", body)
	}
	if st, _, loc := page(t, visitor, "POST", env.URL+listingPage+"/review", form("5", reviewText)); st != http.StatusSeeOther || loc != "/signin?next="+url.QueryEscape(listingPage) {
		t.Fatalf("a visitor's review: %d %s", st, loc)
	}

	// A fresh account: a cross-site form is refused; bad input is a 400
	// page with the message and the text kept; nothing is stored.
	ann := signIn("ann.lee@example.com")
	if st, _, _ := page(t, ann, "POST", env.URL+listingPage+"/review", form("5", reviewText), "Sec-Fetch-Site", "cross-site"); st != http.StatusForbidden {
		t.Fatalf("a cross-site review form: %d", st)
	}
	for _, tc := range []struct {
		name        string
		f           url.Values
		want, field string
	}{
		{"short", form("4", "  Nice tool.    "), "body: write at least 20 characters (you wrote 10).", "  Nice tool.    "},
		{"long", form("4", strings.Repeat("ä", 2001)), "body: at most 2000 characters (you wrote 2001).", strings.Repeat("ä", 2001)},
		{"no stars", form("", reviewText), "stars: choose from 1 to 5 stars.", html.EscapeString(reviewText)},
		{"six stars", form("6", reviewText), "stars: choose from 1 to 5 stars.", html.EscapeString(reviewText)},
	} {
		st, body, _ := page(t, ann, "POST", env.URL+listingPage+"/review", tc.f)
		if st != http.StatusBadRequest || !strings.Contains(body, html.EscapeString(tc.want)) || !strings.Contains(body, ">"+tc.field+"</textarea>") {
			t.Fatalf("%s: %d, want 400 saying %q with the text kept: %s", tc.name, st, tc.want, body)
		}
		if tc.f.Get("stars") == "4" && !strings.Contains(body, `value="4" checked`) {
			t.Fatalf("%s: the stars chosen are not kept", tc.name)
		}
	}
	if n := len(reviewRows(t, env, live)); n != 0 {
		t.Fatalf("refused reviews stored %d rows", n)
	}
	if st, _, loc := page(t, ann, "POST", env.URL+listingPage+"/review", form("4", reviewText)); st != http.StatusSeeOther || loc != back {
		t.Fatalf("review: %d %s", st, loc)
	}
	rows := reviewRows(t, env, live)
	if len(rows) != 1 || rows[0]["status"] != "held" || rows[0]["held_reason"] != "new_account" || len(rows[0]["ip_hash"]) != 64 ||
		rows[0]["author_name"] != "ann.lee" || rows[0]["count_at"] != "1795089600" {
		t.Fatalf("a fresh account's review: %v", rows)
	}
	if r, _ := reviewsOf(t, env, rest, mcp, slug); r != nil {
		t.Fatalf("a held review counts: %v", r)
	}
	if _, body, _ := page(t, ann, "GET", env.URL+listingPage, nil); !strings.Contains(body, "Your review counts from Nov 19, 2026") ||
		!strings.Contains(body, "Edit or delete your review") || !strings.Contains(body, "&lt;b&gt;needs work&lt;/b&gt;") || strings.Contains(body, "<b>needs work") {
		t.Fatalf("ann's page does not show her held review, escaped: %s", body)
	}
	if _, body, _ := page(t, visitor, "GET", env.URL+listingPage, nil); strings.Contains(body, "needs work") {
		t.Fatalf("a held review is shown to visitors")
	}
	env.clock.Advance(25 * time.Hour)
	if n := env.runJobs(t); n != 1 {
		t.Fatalf("review jobs run: %d, want 1", n)
	}
	r, rv := reviewsOf(t, env, rest, mcp, slug)
	items, _ := rv["items"].([]any)
	if r["average"] != float64(4) || r["count"] != float64(1) || rv["count"] != float64(1) || len(items) != 1 {
		t.Fatalf("after the account is old enough: rating %v, reviews %v", r, rv)
	}
	first := items[0].(map[string]any)
	if first["author"] != "ann.lee" || first["stars"] != float64(4) || first["body"] != reviewText || first["created_at"] != "2026-11-18T12:00:00Z" {
		t.Fatalf("the review in get_listing: %v", first)
	}
	if _, ok := first["updated_at"]; ok {
		t.Fatalf("a review never edited has updated_at: %v", first)
	}
	if _, body, _ := page(t, visitor, "GET", env.URL+listingPage, nil); !strings.Contains(body, "4.0 / 5 from 1 review") ||
		!strings.Contains(body, `aria-label="4 out of 5 stars"`) || !strings.Contains(body, "<p>Search is fast; the mobile app &lt;b&gt;needs work&lt;/b&gt;.</p>") {
		t.Fatalf("the listing page does not show the counted review: %s", body)
	}

	// One review per person: posting again edits it (it stays counted).
	if st, _, _ := page(t, ann, "POST", env.URL+listingPage+"/review", form("2", reviewText+" Update: it crashed twice.")); st != http.StatusSeeOther {
		t.Fatalf("edit: %d", st)
	}
	r, rv = reviewsOf(t, env, rest, mcp, slug)
	first = rv["items"].([]any)[0].(map[string]any)
	if n := len(reviewRows(t, env, live)); n != 1 || r["average"] != float64(2) || first["updated_at"] != "2026-11-19T13:00:00Z" {
		t.Fatalf("after editing: %d rows, rating %v, review %v", n, r, first)
	}

	// The owner is refused with a page saying why, and answers once.
	owner := signIn("owner@example.com")
	if st, body, _ := page(t, owner, "POST", env.URL+listingPage+"/review", form("5", reviewText)); st != http.StatusForbidden || !strings.Contains(body, "You own this listing, so you cannot review it") {
		t.Fatalf("the owner's review: %d %s", st, body)
	}
	if n := len(reviewRows(t, env, live)); n != 1 {
		t.Fatalf("the owner's review was stored")
	}
	answerPath := listingPage + "/reviews/" + rows[0]["id"] + "/answer"
	_, body, _ := page(t, owner, "GET", env.URL+listingPage, nil)
	if !strings.Contains(body, `action="`+answerPath+`#review-`+rows[0]["id"]+`"`) || strings.Contains(body, `action="`+listingPage+`/review#reviews"`) || !strings.Contains(body, "you cannot review it") {
		t.Fatalf("the owner's page: no answer form, or a review form: %s", body)
	}
	if st, _, _ := page(t, ann, "POST", env.URL+answerPath, url.Values{"answer": {"Me again"}}); st != http.StatusForbidden {
		t.Fatalf("a reviewer answering: %d", st)
	}
	if st, body, _ := page(t, owner, "POST", env.URL+answerPath, url.Values{"answer": {strings.Repeat("x", 2001)}}); st != http.StatusBadRequest ||
		!strings.Contains(body, "answer: at most 2000 characters (you wrote 2001).") || !strings.Contains(body, ">"+strings.Repeat("x", 2001)+"</textarea>") {
		t.Fatalf("a long answer: %d %s", st, body)
	}
	if st, _, loc := page(t, owner, "POST", env.URL+answerPath, url.Values{"answer": {"Thanks Ann, a fix for the crash ships Friday."}, "next": {back}}); st != http.StatusSeeOther || loc != back {
		t.Fatalf("answer: %d %s", st, loc)
	}
	if st, _, _ := page(t, owner, "POST", env.URL+answerPath, url.Values{"answer": {"Edited answer"}}); st != http.StatusConflict {
		t.Fatalf("a second answer: %d, want 409", st)
	}
	_, rv = reviewsOf(t, env, rest, mcp, slug)
	if a, _ := rv["items"].([]any)[0].(map[string]any)["answer"].(map[string]any); a["body"] != "Thanks Ann, a fix for the crash ships Friday." || a["answered_at"] != "2026-11-19T13:00:00Z" {
		t.Fatalf("the answer in get_listing: %v", a)
	}
	if _, body, _ := page(t, visitor, "GET", env.URL+listingPage, nil); !strings.Contains(body, "Answer from ") || !strings.Contains(body, "a fix for the crash ships Friday.") {
		t.Fatalf("the page does not show the answer")
	}

	// An old enough account counts at once; deleting takes it back.
	bob := signIn("bob@example.com")
	env.clock.Advance(25 * time.Hour)
	page(t, bob, "POST", env.URL+listingPage+"/review", form("5", "Solid, fast and the import from Notion just worked."))
	if r, _ := reviewsOf(t, env, rest, mcp, slug); r["count"] != float64(2) || r["average"] != 3.5 {
		t.Fatalf("with bob's review: %v", r)
	}
	if st, _, loc := page(t, bob, "POST", env.URL+listingPage+"/review/delete", url.Values{"next": {"https://evil.example/"}}); st != http.StatusSeeOther || loc != back {
		t.Fatalf("delete: %d %s", st, loc)
	}
	if r, _ := reviewsOf(t, env, rest, mcp, slug); r["count"] != float64(1) || len(reviewRows(t, env, live)) != 1 {
		t.Fatalf("after bob deleted his review: %v", r)
	}
}

// TestReviews_Limits limits review posts per account: over the budget a
// 429 page, nothing stored.
func TestReviews_Limits(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	perAccount := ratelimit.New(ratelimit.Policy{Name: "reviews", Quota: 2, Window: time.Hour}, env.clock.Now)
	signIn := withPages(t, env, web.WithReviewLimits(perAccount, nil))
	env.apiKey(t, "owner@example.com")
	live := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16"})
	listingPage := "/listings/" + slugOf(t, env, live)
	c := signIn("c@example.com")
	for i, body := range []string{"too short", "too short again"} {
		if st, _, _ := page(t, c, "POST", env.URL+listingPage+"/review", url.Values{"stars": {"3"}, "body": {body}}); st != http.StatusBadRequest {
			t.Fatalf("post %d: %d", i+1, st)
		}
	}
	if st, _, _ := page(t, c, "POST", env.URL+listingPage+"/review", url.Values{"stars": {"3"}, "body": {reviewText}}); st != http.StatusTooManyRequests {
		t.Fatalf("a third review post within the hour: %d, want 429", st)
	}
	if n := len(reviewRows(t, env, live)); n != 0 {
		t.Fatalf("a refused review was stored: %d rows", n)
	}
}
