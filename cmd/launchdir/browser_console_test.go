//go:build e2e

package main

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_ConsoleSettingsAndPeople: an admin opens the site settings
// from /admin, is refused a weekly capacity out of bounds (the problem next
// to the field, nothing saved), renames the site and sees the new name in
// the page header at once; then finds a person on People and opens their
// page.
func TestBrowser_ConsoleSettingsAndPeople(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t, "--admin-emails", "team@example.com")
	s.signIn(t, origin, "someone@example.com") // a person to find
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, p, "team@example.com")
			p.Click("a[href='/admin/settings']")
			if h := p.Text("h1"); !strings.Contains(h, "Site settings") {
				t.Fatalf("the admin page's link led to %q", h)
			}
			p.Fill("#setting-free_week_capacity", "1001")
			p.Click("form[action='/admin/settings'] button[type=submit]")
			if got := p.Text("#setting-free_week_capacity-problem"); got == "" {
				t.Errorf("no problem next to the refused capacity:\n%s", p.Text("main"))
			}
			p.Shot("refused")
			p.TakeConsoleErrors() // the refused form's 400, on purpose
			name := "Launchpad " + vp.Name
			p.Fill("#setting-free_week_capacity", "25")
			p.Fill("#setting-site_name", name)
			p.Click("form[action='/admin/settings'] button[type=submit]")
			p.Go(origin + "/")
			if got := p.Text("header"); !strings.Contains(got, name) {
				t.Errorf("the header after renaming reads %q, want %q", got, name)
			}
			p.Shot("renamed")
			p.CheckClean("home after renaming")

			p.Go(origin + "/admin/people")
			p.Fill("#people-q", "someone@")
			p.Click("form[action='/admin/people'] button[type=submit]")
			p.Click("main a[href^='/admin/people/']")
			if got := p.Text("main"); !strings.Contains(got, "someone@example.com") {
				t.Errorf("the person's page:\n%s", got)
			}
			p.Shot("person")
			p.CheckClean("person")
		})
	}
}
