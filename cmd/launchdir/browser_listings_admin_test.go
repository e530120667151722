//go:build e2e

package main

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_ModeratorHidesListing: a moderator opens Listings from
// /admin, finds a live listing by name, opens it and hides it with a
// reason; the public page is gone, and the listing's owner sees the reason
// on /account (docs/console.md "Listings"). Desktop and phone each hide
// their own demo listing, which an admin first transferred to the owner.
func TestBrowser_ModeratorHidesListing(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t, "--admin-emails", "team@example.com")
	admin := s.signIn(t, origin, "team@example.com")
	s.signIn(t, origin, "owner@example.com") // the account the listings go to
	post := func(path string, form url.Values) {
		t.Helper()
		res, err := admin.PostForm(origin+path, form)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s: %d", path, res.StatusCode)
		}
	}
	post("/admin/team", url.Values{"email": {"mod@example.com"}, "role": {"moderator"}})
	var live struct {
		Items []struct{ Slug, Name string } `json:"items"`
	}
	s.get(t, origin+"/v1/listings?per_page=2", "", "", &live)
	if len(live.Items) < len(browsertest.Viewports) {
		t.Fatalf("the demo has %d live listings", len(live.Items))
	}
	idOf := regexp.MustCompile(`href="/admin/listings/(\d+)"`)
	ids := make([]string, len(browsertest.Viewports))
	for i := range browsertest.Viewports {
		res, err := admin.Get(origin + "/admin/listings?q=" + url.QueryEscape(live.Items[i].Slug))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		m := idOf.FindStringSubmatch(string(body))
		if m == nil {
			t.Fatalf("the admin's search for %s found no listing", live.Items[i].Slug)
		}
		ids[i] = m[1]
		post("/admin/listings/"+m[1]+"/transfer", url.Values{"email": {"owner@example.com"}})
	}

	for i, vp := range browsertest.Viewports {
		l := live.Items[i]
		reason := "The homepage promises features the product does not have (" + vp.Name + "). Fix the claims and write to us."
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, p, "mod@example.com")
			p.Click("a[href='/admin/listings']")
			if h := p.Text("h1"); !strings.Contains(h, "Listings") {
				t.Fatalf("the admin page's link led to %q", h)
			}
			p.Fill("#listings-q", l.Name)
			p.Click("form[action='/admin/listings'] button[type=submit]")
			p.Shot("found")
			p.CheckClean("search results")
			p.Click("table.listings-found a[href^='/admin/listings/']")
			if h := p.Text("h1"); h != l.Name {
				t.Fatalf("opened %q, want %q", h, l.Name)
			}
			if n := p.Count("form[action$='/unpublish']") + p.Count("form[action$='/merge']"); n != 0 {
				t.Errorf("a moderator sees %d admin-only forms", n)
			}
			p.Click("form[action$='/hide'] button[type=submit]") // no reason yet
			if got := p.Text("#hide-reason-problem"); !strings.Contains(got, "1-500 characters") {
				t.Errorf("no problem next to the empty reason: %q", got)
			}
			p.TakeConsoleErrors() // the refused form's 400, on purpose
			p.Shot("refused")
			p.Fill("#hide-reason", reason)
			p.Click("form[action$='/hide'] button[type=submit]")
			if got := p.Text("dl.facts"); !strings.Contains(got, "hidden") || !strings.Contains(got, reason) {
				t.Errorf("after hiding, the listing reads:\n%s", got)
			}
			p.Shot("hidden")
			p.CheckClean("hidden listing")

			p.Go(origin + "/listings/" + l.Slug)
			if got := p.Text("main"); strings.Contains(got, l.Name) && !strings.Contains(strings.ToLower(got), "not found") {
				t.Errorf("the public page still shows the listing:\n%s", got)
			}
			p.TakeConsoleErrors() // the 404, on purpose
			p.Shot("public-gone")

			t.Run("owner", func(t *testing.T) { // its own screenshot folder
				o := b.NewPage(t, vp)
				o.Go(origin + "/signin?next=/account")
				s.emailedLink(t, o, "owner@example.com")
				if got := o.Text("main"); !strings.Contains(got, l.Name) || !strings.Contains(got, reason) {
					t.Errorf("the owner's /account:\n%s", got)
				}
				o.Shot("owner-account")
				o.CheckClean("owner's account")
				// The owner reaches the revenue page of the listing from there.
				o.Click(".account-listings a[href='/account/listings/" + ids[i] + "/revenue']")
				if got := o.Text("main"); !strings.HasSuffix(o.URL(), "/revenue") || !strings.Contains(got, l.Name) {
					t.Errorf("the owner's revenue page (%s):\n%s", o.URL(), got)
				}
				o.Shot("owner-revenue")
				o.CheckClean("owner's revenue page")
			})
		})
	}
}
