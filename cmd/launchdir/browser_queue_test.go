//go:build e2e

package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_ReviewQueue: two fresh accounts vote for a listing of this
// week (held: their accounts are younger than a day); a member of the site
// team (--admin-emails) signs in by the emailed link, opens the review
// queue from /admin, counts one vote and discards the other: the listing's
// count moves by one, the discarded vote leaves the queue without
// counting (its voter is told so on the listing's page), and the decisions
// are listed with the team member's email; then the team member
// disqualifies the listing from this week through the form (after a
// refused try) and lifts it.
func TestBrowser_ReviewQueue(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, key := browserServe(t, "--admin-emails", "team@example.com")
	_, items := thisWeek(t, origin, key)
	if len(items) < len(browsertest.Viewports) {
		t.Fatalf("this week has %d listings", len(items))
	}
	for i, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			// A listing per viewport: four fresh accounts voting for one
			// listing from one network would be a burst.
			slug, name := items[i].Slug, items[i].Name
			counted, discarded := "counted-"+vp.Name+"@example.com", "discarded-"+vp.Name+"@example.com"
			voters := map[string]*http.Client{}
			for _, email := range []string{counted, discarded} {
				voters[email] = s.signIn(t, origin, email)
				res, err := voters[email].PostForm(origin+"/listings/"+slug+"/vote", url.Values{})
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				if res.StatusCode != http.StatusSeeOther {
					t.Fatalf("the vote of %s: %d", email, res.StatusCode)
				}
			}
			before := apiVotes(t, origin, key, slug)

			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, p, "team@example.com")
			p.Click("a[href='/admin/queue']")
			if u := p.URL(); u != origin+"/admin/queue" {
				t.Fatalf("the admin page's link led to %s", u)
			}
			// The queue item of each voter.
			item := func(email string) string {
				return browsertest.Eval[string](p, fmt.Sprintf(`(() => { const li = [...document.querySelectorAll('#votes ~ ol.queue > li.queue-item')].find(li => li.innerText.includes(%q)); return li ? '#' + li.id : ''; })()`, email))
			}
			countItem, discardItem := item(counted), item(discarded)
			if countItem == "" || discardItem == "" {
				t.Fatalf("the queue lacks the held votes of %s (%q) and %s (%q):\n%s", counted, countItem, discarded, discardItem, p.Text("main"))
			}
			if why := p.Text(countItem); !strings.Contains(why, "New account: counts by itself on") || !strings.Contains(why, name) {
				t.Errorf("the held vote reads %q", why)
			}
			p.Shot("queue")
			p.CheckClean("review queue")

			p.Click(countItem + " form[action$='/count'] button")
			if u := p.URL(); u != origin+"/admin/queue#votes" {
				t.Errorf("after Count: %s", u)
			}
			if got := apiVotes(t, origin, key, slug); got != before+1 {
				t.Errorf("get_listing votes after Count: %d, want %d", got, before+1)
			}
			p.Shot("counted")
			p.Click(discardItem + " form[action$='/discard'] button")
			if got := apiVotes(t, origin, key, slug); got != before+1 {
				t.Errorf("get_listing votes after Discard: %d, want %d", got, before+1)
			}
			if n := p.Count(countItem + "," + discardItem); n != 0 {
				t.Errorf("%d decided votes are still in the queue", n)
			}
			log := p.Text("ol.queue-log")
			for _, want := range []string{"team@example.com counted vote #" + strings.TrimPrefix(countItem, "#vote-") + " for " + name,
				"team@example.com discarded vote #" + strings.TrimPrefix(discardItem, "#vote-") + " for " + name} {
				if !strings.Contains(log, want) {
					t.Errorf("the decisions lack %q:\n%s", want, log)
				}
			}
			p.Shot("discarded")
			p.CheckClean("review queue after the decisions")
			// The person whose vote was discarded is told it does not count.
			res, err := voters[discarded].Get(origin + "/listings/" + slug)
			if err != nil {
				t.Fatal(err)
			}
			page, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if !strings.Contains(string(page), "The site team reviewed your vote: it does not count.") {
				t.Errorf("the listing page does not tell %s that the vote was discarded", discarded)
			}

			// Disqualify the listing from this week, with a refused try first.
			p.Fill("#dq-listing", "no-such-listing")
			p.Fill("#dq-reason", "Votes bought from a click farm.")
			p.Click("form[action^='/admin/queue/disqualify'] button")
			if msg := p.Text(".form-problem"); !strings.Contains(msg, "listing") || !strings.Contains(msg, `"no-such-listing"`) {
				t.Errorf("the refused form says %q", msg)
			}
			p.Shot("disqualify-refused")
			// The form is half-way down the long page, below the part Shot captures.
			p.ShotSection("disqualify-refused-form", "form[action^='/admin/queue/disqualify']")
			// The browser logs the page's 400 status; nothing else may be wrong.
			for _, m := range p.TakeConsoleErrors() {
				if !strings.Contains(m, "status of 400") {
					t.Errorf("refused disqualification (%s): %s", vp.Name, m)
				}
			}
			p.CheckClean("refused disqualification")
			p.Fill("#dq-listing", slug)
			p.Click("form[action^='/admin/queue/disqualify'] button")
			if u := p.URL(); u != origin+"/admin/queue#weeks" {
				t.Errorf("after Disqualify: %s", u)
			}
			lift := "form[action='/admin/queue/requalify']:has(input[value='" + slug + "']) button"
			if n := p.Count(lift); n != 1 {
				t.Fatalf("the disqualified listings have %d Lift buttons for %s", n, slug)
			}
			if log := p.Text("ol.queue-log"); !strings.Contains(log, "team@example.com disqualified "+name+" from the week of") {
				t.Errorf("the decisions lack the disqualification:\n%s", log)
			}
			p.Shot("disqualified")
			p.ShotSection("disqualified-list", "#weeks ~ h3 + ol.queue")
			p.Click(lift)
			if n := p.Count(lift); n != 0 {
				t.Errorf("after Lift: %d Lift buttons for %s", n, slug)
			}
			if log := p.Text("ol.queue-log"); !strings.Contains(log, "team@example.com lifted the disqualification of "+name) {
				t.Errorf("the decisions lack the lift:\n%s", log)
			}
		})
	}
}

// weekListing is a listing of a launch week as get_launch_week lists it.
type weekListing struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// thisWeek returns this week's Monday and its live listings, ranked, as
// get_launch_week shows them.
func thisWeek(t *testing.T, origin, key string) (string, []weekListing) {
	t.Helper()
	var week struct {
		Week  string `json:"week"`
		Items []struct {
			Listing weekListing `json:"listing"`
		} `json:"items"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/launches/weeks/this", key, nil, &week); st != 200 || len(week.Items) == 0 {
		t.Fatalf("GET /v1/launches/weeks/this: %d, %d items", st, len(week.Items))
	}
	out := make([]weekListing, len(week.Items))
	for i, it := range week.Items {
		out[i] = it.Listing
	}
	return week.Week, out
}

// apiVotes is listing slug's all-time votes as get_listing shows them.
func apiVotes(t *testing.T, origin, key, slug string) int {
	t.Helper()
	var l struct {
		Votes int `json:"votes"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/listings/"+slug, key, nil, &l); st != 200 {
		t.Fatalf("get_listing %s: %d", slug, st)
	}
	return l.Votes
}
