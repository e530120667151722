package web

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestTrophyPages_LeaderboardAndHallOfFame: the site's trophy leaderboard
// (all-time and per year) and Hall of Fame pages, through the real router:
// the site's layout, the points rule on the page, only verified trophies
// and awards here counted, no vote buttons (a ranking apart from the
// community boards), a year out of range a 400 naming year; the footer and
// the listing's cabinet link the pages, not the JSON.
func TestTrophyPages_LeaderboardAndHallOfFame(t *testing.T) {
	t.Parallel()
	e := newQueueEnv(t)
	l := e.rows(t, "listings", map[string]any{"id": e.listing})[0]
	slug, name := fmt.Sprint(l["slug"]), fmt.Sprint(l["name"])
	site := fixtures.First(t, e.db, "sites")
	at := testNow.Unix()
	add := func(title, state, won string, rank int) {
		fixtures.Insert(t, e.db, "trophies", fixtures.Cols{"site_id": site, "listing_id": e.listing, "platform": "Hunt", "title": title, "rank": rank,
			"won_on": won, "award_url": "https://hunt.test/" + title, "state": state, "method": "page", "verified_at": at, "checked_at": at, "created_at": at})
	}
	add("Verified-2025", "verified", "2025-06-01", 2) // 3 points in 2025
	add("Pending-2024", "pending", "2024-03-01", 1)   // nothing anywhere
	add("Rejected-2024", "rejected", "2024-03-02", 1) // nothing anywhere
	fixtures.Insert(t, e.db, "awards", fixtures.Cols{"site_id": site, "week": "2026-11-09", "rank": 1, "listing_id": e.listing, "votes": 7})

	board := e.do(t, http.MethodGet, "/trophies/leaderboard", nil)
	want(t, "the all-time board", board, http.StatusOK, "<title>Trophy leaderboard", "Trophy leaderboard, all-time", "Points rule:", "#1 = 5 points",
		`<span class="rank">#1</span>`, name, "/listings/"+slug+"#trophies", "8</strong> points", "2 verified trophies", `href="/trophies/leaderboard?year=2025"`,
		"PAID billboard", `<footer class="site">`)
	wantNot(t, "the all-time board", board, `action="/votes`, "Pending-2024")
	want(t, "the 2025 board", e.do(t, http.MethodGet, "/trophies/leaderboard?year=2025", nil), http.StatusOK,
		"Trophy leaderboard 2025", name, "3</strong> points", "1 verified trophy<", `aria-current="page">2025`)
	want(t, "the 2024 board", e.do(t, http.MethodGet, "/trophies/leaderboard?year=2024", nil), http.StatusOK, "No verified trophies dated in 2024 yet.")
	want(t, "year 1999", e.do(t, http.MethodGet, "/trophies/leaderboard?year=1999", nil), http.StatusBadRequest, "year")
	want(t, "year abc", e.do(t, http.MethodGet, "/trophies/leaderboard?year=abc", nil), http.StatusBadRequest, "year")

	hall := e.do(t, http.MethodGet, "/hall-of-fame", nil)
	want(t, "the Hall of Fame", hall, http.StatusOK, "<title>Hall of Fame", `<h2 id="year-2026">2026</h2>`, "Launch of the Week #1", name,
		`href="/launches/weeks/2026-11-09"`, "7</strong> votes", `href="/trophies/leaderboard"`)
	want(t, "the Hall of Fame of 2025", e.do(t, http.MethodGet, "/hall-of-fame?year=2025", nil), http.StatusOK, "No winners in 2025 yet.")
	want(t, "the Hall of Fame of 2101", e.do(t, http.MethodGet, "/hall-of-fame?year=2101", nil), http.StatusBadRequest, "year")

	page := e.do(t, http.MethodGet, "/listings/"+slug, nil)
	want(t, "the listing page", page, http.StatusOK, `<a href="/trophies/leaderboard">trophy leaderboard</a>`, `<a href="/hall-of-fame">Hall of Fame</a>`)
	wantNot(t, "the listing page", page, `href="/v1/trophies/leaderboard"`)
}
