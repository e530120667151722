//go:build e2e

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_CategoryMerge: an admin opens Categories from /admin, is
// refused a category without a name (the problem next to the field),
// creates one, renames it (the old slug is listed as an old address),
// merges it into a category of the demo, lands on that category's page
// with the merge's result, and finds that the merged-away address leads to
// the target's public page. Then it merges two demo categories that have
// listings (a different pair per viewport): every listing of both is in
// the target afterwards, none lost.
func TestBrowser_CategoryMerge(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t, "--admin-emails", "team@example.com")
	var tree struct {
		Items []struct {
			Slug          string `json:"slug"`
			ListingCount  int    `json:"listing_count"`
			Subcategories []struct {
				Slug         string `json:"slug"`
				ListingCount int    `json:"listing_count"`
			} `json:"subcategories"`
		} `json:"items"`
	}
	s.get(t, origin+"/v1/categories?include_empty=false", "", "", &tree)
	var leaves []string // leaf categories with live listings
	for _, c := range tree.Items {
		for _, sub := range c.Subcategories {
			if sub.ListingCount > 0 && sub.Slug != "writing-assistants" { // the first merge's target
				leaves = append(leaves, sub.Slug)
			}
		}
	}
	if len(leaves) < 2*len(browsertest.Viewports) {
		t.Fatalf("the demo has %d leaf categories with listings", len(leaves))
	}
	listed := func(slug string) map[string]bool {
		out := map[string]bool{}
		for page := 1; ; page++ {
			var c struct {
				Items   []struct{ Slug string } `json:"items"`
				HasMore bool                    `json:"has_more"`
			}
			s.get(t, fmt.Sprintf("%s/v1/categories/%s?per_page=100&page=%d", origin, slug, page), "", "", &c)
			for _, l := range c.Items {
				out[l.Slug] = true
			}
			if !c.HasMore {
				return out
			}
		}
	}
	for i, vp := range browsertest.Viewports {
		from, into := leaves[2*i], leaves[2*i+1]
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, p, "team@example.com")
			p.Click("a[href='/admin/categories']")
			if h := p.Text("h1"); h != "Categories" {
				t.Fatalf("the admin page's link led to %q", h)
			}
			p.Shot("tree")
			p.CheckClean("category tree")

			p.Fill("#category-name", "")
			p.Click("form[action='/admin/categories'] button[type=submit]")
			if got := p.Text("#category-name-problem"); !strings.Contains(got, "it is empty") {
				t.Errorf("the refused name reads %q next to the field", got)
			}
			p.TakeConsoleErrors() // the refused form's 400, on purpose
			p.Fill("#category-name", "Note taking "+vp.Name)
			p.Click("form[action='/admin/categories'] button[type=submit]")
			if got := p.Text("main"); !strings.Contains(got, "Created.") || !strings.Contains(got, "note-taking-"+vp.Name) {
				t.Fatalf("after creating:\n%s", got)
			}

			p.Fill("#rename-name", "Notes "+vp.Name)
			p.Fill("#rename-slug", "notes-"+vp.Name)
			p.Click("form[action*='/rename'] button[type=submit]")
			if got := p.Text(".category-facts"); !strings.Contains(got, "notes-"+vp.Name) || !strings.Contains(got, "note-taking-"+vp.Name) {
				t.Errorf("the facts after the rename:\n%s", got)
			}
			p.Shot("renamed")
			p.CheckClean("renamed category")

			target := browsertest.Eval[string](p, `[...document.querySelectorAll('#merge-target option')].find(o => o.textContent.includes('(writing-assistants)')).value`)
			p.Fill("#merge-target", target)
			p.Click("form[action*='/merge'] button[type=submit]")
			if u := p.URL(); u != origin+"/admin/categories/"+target+"?merged=0#done" {
				t.Errorf("the merge led to %s", u)
			}
			if got := p.Text("main"); !strings.Contains(got, "Merged") || !strings.Contains(got, "notes-"+vp.Name) || !strings.Contains(got, "note-taking-"+vp.Name) {
				t.Errorf("the target after the merge:\n%s", got)
			}
			p.Shot("merged")
			p.CheckClean("merge target")

			p.Go(origin + "/categories/note-taking-" + vp.Name)
			if u := p.URL(); u != origin+"/categories/writing-assistants" {
				t.Errorf("the merged-away address led to %s", u)
			}
			if n := p.Count("main a[href^='/listings/']"); n == 0 {
				t.Errorf("the target's public page lists no listings:\n%s", p.Text("main"))
			}
			p.Shot("public")
			p.CheckClean("public page after the merge")

			// A merge that moves listings: every listing of both is in the target.
			want := listed(from)
			for l := range listed(into) {
				want[l] = true
			}
			p.Go(origin + "/admin/categories")
			p.Click(fmt.Sprintf("a[href^='/admin/categories/'][data-slug='%s']", from))
			target = browsertest.Eval[string](p, `[...document.querySelectorAll('#merge-target option')].find(o => o.textContent.includes('(`+into+`)')).value`)
			p.Fill("#merge-target", target)
			p.Click("form[action*='/merge'] button[type=submit]")
			if got := p.Text("main"); !strings.Contains(got, "Merged") || strings.Contains(got, "Merged: 0 ") {
				t.Errorf("merging %s into %s moved no listing:\n%s", from, into, got)
			}
			p.Shot("merged-with-listings")
			got := listed(into)
			for l := range want {
				if !got[l] {
					t.Errorf("after merging %s into %s, %s is not in %s", from, into, l, into)
				}
			}
			if len(got) != len(want) {
				t.Errorf("after the merge %s lists %d listings, want %d (the union)", into, len(got), len(want))
			}

			p.Go(origin + "/admin/audit?action=category.merge")
			if got := p.Text("main"); !strings.Contains(got, "category.merge") || !strings.Contains(got, fmt.Sprintf("notes-%s", vp.Name)) {
				t.Errorf("the audit log after the merge:\n%s", got)
			}
		})
	}
}
