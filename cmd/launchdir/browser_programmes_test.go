//go:build e2e

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_ProgrammesAndTrophies (issue 33): in headless Chromium at
// 1280 and 390 px, an admin creates an award programme in the console
// (/admin/programmes); an owner enters a listing over the API; a person
// signs in by the emailed link and votes for it on the programme's page
// (the page's Upvote form: the vote counts once the account is old
// enough, the page says so, and then counts); /programmes lists it; the
// demo's finished programme shows its winners; a winner's listing page
// shows its trophy cabinet with a programme win and a Launch of the Week
// award, each with a badge image that loads, and links the site's trophy
// leaderboard; the footer links the Hall of Fame; the console's product prices
// (trophy products included) fit the phone. Every page is clean (no
// console error, no broken image, no sideways scroll) and is kept as a
// screenshot.
func TestBrowser_ProgrammesAndTrophies(t *testing.T) {
	t.Parallel()
	b := browsertest.Shared(t)
	s, origin, key, data := browserServeData(t, "--admin-emails", "team@example.com")
	db, err := storage.Open(filepath.Join(data, "launchdir.db"), storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	// The entrants: the API key's account owns two live demo listings, one
	// entered per viewport (two votes for one listing from one address in a
	// minute would be a burst, held for the site team).
	buyer := fixtures.ID(t, db, "users", fixtures.Cols{"email": "buyer@example.com"})
	type listing struct {
		ID         int64
		Slug, Name string
	}
	var entries []listing
	for _, id := range fixtures.IDs(t, db, "listings", fixtures.Cols{"status": "live"})[:2] {
		fixtures.Update(t, db, "listings", fixtures.Cols{"owner_id": buyer}, fixtures.Cols{"id": id})
		entries = append(entries, listing{id, fixtures.Column(t, db, "listings", id, "slug"), fixtures.Column(t, db, "listings", id, "name")})
	}

	today := time.Now().UTC()
	day := func(d int) string { return today.AddDate(0, 0, d).Format(time.DateOnly) }
	for i, vp := range browsertest.Viewports {
		entry := entries[i]
		t.Run(vp.Name, func(t *testing.T) {
			// The admin creates a programme in the console.
			admin := b.NewPage(t, vp)
			admin.Go(origin + "/signin?next=/admin/programmes")
			s.emailedLink(t, admin, "team@example.com")
			name := fmt.Sprintf("Browser Makers %d", i+1)
			admin.Fill("input[name=name]", name)
			admin.Fill("textarea[name=description]", "The makers' favourites, voted by the community.")
			admin.Fill("input[name=entry_opens]", day(0))
			admin.Fill("input[name=entry_closes]", day(6))
			admin.Fill("input[name=voting_opens]", day(0))
			admin.Fill("input[name=voting_closes]", day(13))
			admin.Fill("input[name=winners]", "3")
			admin.Click("form[action='/admin/programmes'] button[type=submit]")
			if got := admin.Text("main"); !strings.Contains(got, name) {
				t.Fatalf("the console after creating %s:\n%s", name, got)
			}
			admin.Shot("admin-programmes")
			admin.CheckClean("the programmes console")
			slug := fmt.Sprintf("browser-makers-%d", i+1)
			admin.Go(origin + "/admin#prices")
			if got := admin.Text("table.admin-prices"); !strings.Contains(got, "trophy_verification") || !strings.Contains(got, "trophy_cabinet") {
				t.Errorf("the price list lacks the trophy products:\n%s", got)
			}
			admin.Shot("admin-prices")
			admin.CheckClean("the console's prices")

			// The owner enters the listing over the API.
			var entered map[string]any
			if st := apiJSON(t, "POST", fmt.Sprintf("%s/v1/me/listings/%d/programmes", origin, entry.ID), key, map[string]any{"programme": slug}, &entered); st != 201 {
				t.Fatalf("enter_programme: %d %v", st, entered)
			}

			// A person votes on the programme's page.
			p := b.NewPage(t, vp)
			p.Go(origin + "/programmes")
			if got := p.Text("main"); !strings.Contains(got, name) || !strings.Contains(got, "Autumn Makers") {
				t.Errorf("/programmes lacks %s or the demo's finished programme:\n%s", name, got)
			}
			p.Shot("programmes")
			p.CheckClean("/programmes")
			p.Go(origin + "/programmes/" + slug)
			p.Click("a.vote-signin")
			voter := "voter-" + vp.Name + "@example.com"
			s.emailedLink(t, p, voter)
			if u := p.URL(); !strings.HasSuffix(u, "/programmes/"+slug) {
				t.Fatalf("signing in to vote led to %s", u)
			}
			// An account old enough for its vote to count.
			fixtures.Update(t, db, "users", fixtures.Cols{"created_at": today.AddDate(0, -1, 0).Unix()}, fixtures.Cols{"email": voter})
			vote := "form.vote-form[action='/listings/" + entry.Slug + "/vote'] button"
			if n := p.Count(vote); n != 1 {
				t.Fatalf("the programme page has %d Upvote buttons for %s", n, entry.Slug)
			}
			// The demo's own votes of today count too (cast in the window).
			votes := func() int {
				return browsertest.Eval[int](p, `parseInt(document.querySelector('ol.rows li .metric strong').innerText.replace(/\D/g, ''), 10)`)
			}
			before := votes()
			p.Click(vote)
			if u := p.URL(); !strings.HasSuffix(u, "/programmes/"+slug) {
				t.Errorf("after voting: %s, want the programme page", u)
			}
			row := p.Text("ol.rows li")
			if n := votes(); !strings.Contains(row, entry.Name) || n != before+1 || !strings.Contains(row, "Voted") {
				t.Errorf("the entry after the vote: %q (%d votes, %d before), want one more and Voted", row, n, before)
			}
			p.Shot("voted")
			p.CheckClean("the programme page after voting")

			// The demo's finished programme and a winner's cabinet.
			p.Go(origin + "/programmes/autumn-makers-choice")
			if n := p.Count("span.rank"); n == 0 {
				t.Errorf("the finished programme shows no winners")
			}
			p.Shot("finished-programme")
			p.CheckClean("the finished programme")
			p.Click("ol.rows li a.name")
			if n := p.Count("section.trophies li.trophy"); n == 0 {
				t.Fatalf("the winner's page %s has no trophy cabinet", p.URL())
			}
			cab := p.Text("section.trophies")
			if !strings.Contains(cab, "Autumn Makers") {
				t.Errorf("the winner's cabinet lacks the programme win:\n%s", cab)
			}
			Eval := browsertest.Eval[int]
			if n := Eval(p, `(document.querySelectorAll('details.trophy-badge').forEach(d => d.open = true), document.querySelectorAll('details.trophy-badge img').length)`); n == 0 {
				t.Errorf("the cabinet has no badge images")
			}
			p.Shot("cabinet")
			// The cabinet alone, to look at without the whole page.
			if err := os.WriteFile(filepath.Join(browsertest.ScreenshotDir(t), "cabinet-section-"+vp.Name+".png"), p.ShotOf("section.trophies"), 0o644); err != nil {
				t.Fatal(err)
			}
			p.CheckClean("the winner's listing page with its cabinet")

			// The cabinet links the site's trophy leaderboard (not the JSON);
			// the footer links the Hall of Fame.
			p.Click("section.trophies a[href='/trophies/leaderboard']")
			if u := p.URL(); !strings.HasSuffix(u, "/trophies/leaderboard") {
				t.Fatalf("the cabinet's leaderboard link led to %s", u)
			}
			if got := p.Text("main"); !strings.Contains(got, "Points rule") || p.Count("ol.trophy-board li") == 0 {
				t.Errorf("the trophy leaderboard has no points rule or no rows:\n%s", got)
			}
			p.Shot("trophy-leaderboard")
			p.CheckClean("the trophy leaderboard")
			p.Go(origin + "/trophies/leaderboard?year=" + fmt.Sprint(today.Year()))
			p.Shot("trophy-leaderboard-year")
			p.CheckClean("the trophy leaderboard of this year")
			p.Click("footer.site a[href='/hall-of-fame']")
			if got := p.Text("main"); !strings.Contains(got, "Autumn Makers") || !strings.Contains(got, "Launch of the Week #1") {
				t.Errorf("the Hall of Fame lacks the demo programme's winners or a Launch of the Week #1:\n%s", got)
			}
			p.Shot("hall-of-fame")
			p.CheckClean("the Hall of Fame")
		})
	}
}
