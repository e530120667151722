//go:build e2e

package main

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_VoteReviewFollow is the browser test: on a listing
// page a visitor presses "Sign in to vote", signs in by the emailed link,
// comes back, upvotes and sees the count move, takes the vote back, writes a
// review (stars and text) and sees it on the page and in get_listing, then
// follows the listing. serve runs with --vote-min-account-age 0 so that a
// fresh account's vote and review count at once (docs/votes.md,
// docs/reviews.md). Every step leaves a screenshot at desktop and phone
// widths.
func TestBrowser_VoteReviewFollow(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, key := browserServe(t, "--vote-min-account-age", "0")
	var week struct {
		Items []struct {
			Listing struct {
				Slug string `json:"slug"`
			} `json:"listing"`
		} `json:"items"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/launches/weeks/this", key, nil, &week); st != 200 || len(week.Items) < 2 {
		t.Fatalf("GET /v1/launches/weeks/this: %d, %d items", st, len(week.Items))
	}
	slug := week.Items[0].Listing.Slug
	listingPath := "/listings/" + slug
	type listing struct {
		Votes   int `json:"votes"`
		Follows int `json:"follows"`
		Rating  *struct {
			Average float64 `json:"average"`
			Count   int     `json:"count"`
		} `json:"community_rating"`
		Reviews struct {
			Count int `json:"count"`
			Items []struct {
				Author string `json:"author"`
				Stars  int    `json:"stars"`
				Body   string `json:"body"`
			} `json:"items"`
		} `json:"reviews"`
	}
	get := func() listing {
		var l listing
		if st := apiJSON(t, "GET", origin+"/v1"+listingPath, key, nil, &l); st != 200 {
			t.Fatalf("get_listing: %d", st)
		}
		return l
	}
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + listingPath)
			if got := p.Text("#reviews .review-signin"); !strings.Contains(got, "Sign in to review") {
				t.Errorf("a visitor's reviews section: %q", got)
			}
			p.Shot("listing-visitor")
			p.CheckClean("listing visitor")
			p.Click("a.vote-signin")
			reviewer := "reviewer-" + vp.Name
			s.emailedLink(t, p, reviewer+"@example.com")
			if u := p.URL(); u != origin+listingPath {
				t.Fatalf("after signing in: %s, want back on %s", u, listingPath)
			}

			// Vote: the count moves; unvote: it comes back.
			before := get()
			p.Click("form.vote-form button")
			if got := get().Votes; got != before.Votes+1 {
				t.Errorf("get_listing votes after voting: %d, want %d", got, before.Votes+1)
			}
			if btn := p.Text("form.vote-form button"); !strings.Contains(btn, "Voted") {
				t.Errorf("the button after voting reads %q", btn)
			}
			if main := p.Text("main"); !strings.Contains(main, withCommas(before.Votes+1)+" vote") {
				t.Errorf("the page does not show %d votes", before.Votes+1)
			}
			p.Shot("listing-voted")
			p.Click("form.vote-form button")
			if got := get().Votes; got != before.Votes {
				t.Errorf("get_listing votes after unvoting: %d, want %d", got, before.Votes)
			}
			p.Shot("listing-unvoted")

			// Write a review: four stars (the radio's label) and some text.
			if !browsertest.Eval[bool](p, `(document.querySelector("label[for='stars-4']").click(), document.querySelector('#stars-4').checked)`) {
				t.Fatalf("clicking the fourth star's label does not choose 4 stars")
			}
			// Too short: the page comes back (400) saying why, the stars and
			// text kept (the browser's own check is off, as in an old browser).
			browsertest.Eval[bool](p, `(document.querySelector('form.review-form').noValidate = true)`)
			p.Fill("#review-body", "Nice tool!")
			p.Click("form.review-form button[type=submit]")
			if got := p.Text("form.review-form .form-problem"); !strings.Contains(got, "body: write at least 20 characters (you wrote 10).") {
				t.Errorf("a short review: %q", got)
			}
			if u := p.URL(); !strings.HasSuffix(u, "#reviews") || browsertest.Eval[float64](p, `window.scrollY`) == 0 {
				t.Errorf("the refused review's page (%s) is not scrolled to the form", u)
			}
			if !browsertest.Eval[bool](p, `document.querySelector('#stars-4').checked && document.querySelector('#review-body').value === 'Nice tool!'`) {
				t.Errorf("the refused review's stars and text are not kept in the form")
			}
			p.Shot("review-refused")
			for _, m := range p.TakeConsoleErrors() { // the refused post's own 400 only
				if !strings.Contains(m, "status of 400") {
					t.Errorf("review refused (%s): %s", vp.Name, m)
				}
			}
			body := "Set it up for our team in ten minutes.\n\nThe weekly digest is the part we actually read."
			p.Fill("#review-body", body)
			p.Shot("review-form")
			p.Click("form.review-form button[type=submit]")
			if u := p.URL(); u != origin+listingPath+"#reviews" {
				t.Errorf("after posting the review: %s", u)
			}
			after := get()
			if after.Rating == nil || after.Reviews.Count != before.Reviews.Count+1 || len(after.Reviews.Items) == 0 ||
				after.Reviews.Items[0].Author != reviewer || after.Reviews.Items[0].Stars != 4 || after.Reviews.Items[0].Body != body {
				t.Errorf("get_listing after the review: rating %+v, reviews %+v", after.Rating, after.Reviews)
			}
			if got := p.Text("#reviews .own-review"); !strings.Contains(got, "counted in the rating") || !strings.Contains(got, "weekly digest") {
				t.Errorf("the person's own review: %q", got)
			}
			if got := p.Text("#reviews .review-list .review"); !strings.Contains(got, reviewer) || !strings.Contains(got, "The weekly digest") {
				t.Errorf("the newest review in the list: %q", got)
			}
			if n := p.Count(".review-list .review-body p"); n < 2 {
				t.Errorf("the review's two paragraphs: %d <p> in the list", n)
			}
			if got := p.Text("#reviews .rating-summary"); !strings.Contains(got, "from "+withCommas(after.Reviews.Count)+" review") {
				t.Errorf("the rating summary: %q", got)
			}
			if got := p.Text("details.edit-review summary"); got != "Edit or delete your review" {
				t.Errorf("the form after posting: %q, want it folded to edit the review", got)
			}
			p.Shot("listing-reviewed")
			p.CheckClean("listing reviewed")

			// Follow.
			p.Click("form.follow button")
			if btn := p.Text("form.follow button"); btn != "Unfollow" {
				t.Errorf("the follow button after following reads %q", btn)
			}
			if got := get().Follows; got != before.Follows+1 {
				t.Errorf("get_listing follows after following: %d, want %d", got, before.Follows+1)
			}
			p.Shot("listing-followed")
			p.CheckClean("listing followed")
		})
	}
}
