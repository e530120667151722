//go:build e2e

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// withCommas formats n as the pages do (1,234).
func withCommas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestBrowser_Vote: a visitor presses "Sign in to vote" on a listing page,
// signs in by the emailed link, comes back to the page, upvotes and sees the
// count move, takes the vote back; then votes from the week page's row and
// comes back to the week page. serve runs with --vote-min-account-age 0 so
// that a fresh account's vote counts at once (docs/votes.md).
func TestBrowser_Vote(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, key := browserServe(t, "--vote-min-account-age", "0")
	var week struct {
		Week  string `json:"week"`
		Items []struct {
			Listing struct {
				Slug string `json:"slug"`
			} `json:"listing"`
			WeekVotes int `json:"week_votes"`
		} `json:"items"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/launches/weeks/this", key, nil, &week); st != 200 || len(week.Items) == 0 {
		t.Fatalf("GET /v1/launches/weeks/this: %d, %d items", st, len(week.Items))
	}
	slug := week.Items[len(week.Items)-1].Listing.Slug
	listingPath := "/listings/" + slug
	votes := func() int {
		var l struct {
			Votes int `json:"votes"`
		}
		if st := apiJSON(t, "GET", origin+"/v1"+listingPath, key, nil, &l); st != 200 {
			t.Fatalf("get_listing: %d", st)
		}
		return l.Votes
	}
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + listingPath)
			p.Shot("listing-visitor")
			p.Click("a.vote-signin")
			s.emailedLink(t, p, "voter-"+vp.Name+"@example.com")
			if u := p.URL(); u != origin+listingPath {
				t.Fatalf("after signing in: %s, want back on %s", u, listingPath)
			}
			before := votes()
			p.Click("form.vote-form button")
			if u := p.URL(); u != origin+listingPath {
				t.Errorf("after voting: %s", u)
			}
			if got := votes(); got != before+1 {
				t.Errorf("get_listing votes after voting: %d, want %d", got, before+1)
			}
			if btn := p.Text("form.vote-form button"); !strings.Contains(btn, "Voted") {
				t.Errorf("the button after voting reads %q", btn)
			}
			shown := withCommas(before+1) + " votes"
			if before+1 == 1 {
				shown = "1 vote"
			}
			if main := p.Text("main"); !strings.Contains(main, shown+" ·") {
				t.Errorf("the page does not show %q", shown)
			}
			p.Shot("listing-voted")
			p.CheckClean("listing voted")
			p.Click("form.vote-form button")
			if got := votes(); got != before {
				t.Errorf("get_listing votes after unvoting: %d, want %d", got, before)
			}
			if btn := p.Text("form.vote-form button"); !strings.Contains(btn, "Upvote") {
				t.Errorf("the button after unvoting reads %q", btn)
			}
			p.Shot("listing-unvoted")

			weekPath := "/launches/weeks/" + week.Week
			row := "ol.ranked > li:has(a.name[href='" + listingPath + "'])"
			p.Go(origin + weekPath)
			weekBefore := p.Text(row + " .metric")
			p.Click(row + " form.vote-form button")
			if u := p.URL(); u != origin+weekPath {
				t.Errorf("after voting on the week page: %s", u)
			}
			if after := p.Text(row + " .metric"); after == weekBefore {
				t.Errorf("the week count did not move: %q", after)
			}
			p.Shot("week-voted")
			p.CheckClean("week voted")
			checkRowsDoNotOverlap(t, p, "week voted")
			p.Click(row + " form.vote-form button")
			if after := p.Text(row + " .metric"); after != weekBefore {
				t.Errorf("the week count after unvoting: %q, want %q", after, weekBefore)
			}
		})
	}
}
