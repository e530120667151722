//go:build e2e

package main

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_WrongAddresses: a person who guessed a listing's address
// ("study-loop" for "studyloop") is offered the listing and reaches it in
// one click; one who followed a search link to a category that is none is
// told so and reaches all categories in one click. On a desktop and a phone.
func TestBrowser_WrongAddresses(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	_, origin, key := browserServe(t)
	var page struct {
		Items []struct{ Slug, Name string } `json:"items"`
	}
	if st := apiJSON(t, "GET", origin+"/v1/listings?sort=votes&per_page=100", key, nil, &page); st != 200 {
		t.Fatalf("GET /v1/listings: %d", st)
	}
	var slug, name string
	for _, l := range page.Items {
		if len(l.Slug) >= 6 && !strings.Contains(l.Slug, "-") && strings.EqualFold(l.Slug, l.Name) {
			slug, name = l.Slug, l.Name
			break
		}
	}
	if slug == "" {
		t.Fatal("no live demo listing whose slug is its name in one word of 6 letters or more")
	}
	guess := slug[:3] + "-" + slug[3:]
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/listings/" + guess)
			if h := p.Text("h1"); h != "Page not found" {
				t.Errorf("/listings/%s heading %q", guess, h)
			}
			if got := p.Text("p.suggest"); got != "Did you mean "+name+"?" {
				t.Errorf("/listings/%s suggests %q, want %q", guess, got, "Did you mean "+name+"?")
			}
			p.Shot("guessed-listing")
			p.TakeConsoleErrors() // the 404 of the page itself
			p.Click("p.suggest a")
			if u := p.URL(); u != origin+"/listings/"+slug {
				t.Errorf("the suggestion led to %s, want %s/listings/%s", u, origin, slug)
			}
			if h := p.Text("h1"); !strings.HasPrefix(h, name) {
				t.Errorf("listing page heading %q, want %q", h, name)
			}
			p.CheckClean("the suggested listing")

			p.Go(origin + "/search?category=ai-toolz")
			if got := p.Text("main"); !strings.Contains(got, `No category "ai-toolz" exists.`) || strings.Contains(got, "list_categories") {
				t.Errorf("search by a category that is none says:\n%s", got)
			}
			p.Shot("unknown-category")
			p.TakeConsoleErrors() // the 400 of the page itself
			p.Click("p.suggest a")
			if u := p.URL(); u != origin+"/categories" {
				t.Errorf("See all categories led to %s", u)
			}
			p.CheckClean("all categories")
		})
	}
}
