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
// the target's public page.
func TestBrowser_CategoryMerge(t *testing.T) {
	b := browsertest.Start(t)
	s, origin, _ := browserServe(t, "--admin-emails", "team@example.com")
	for _, vp := range browsertest.Viewports {
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

			p.Go(origin + "/admin/audit?action=category.merge")
			if got := p.Text("main"); !strings.Contains(got, "category.merge") || !strings.Contains(got, fmt.Sprintf("notes-%s", vp.Name)) {
				t.Errorf("the audit log after the merge:\n%s", got)
			}
		})
	}
}
