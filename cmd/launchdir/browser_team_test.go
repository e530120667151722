//go:build e2e

package main

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_SiteTeam: an admin (--admin-emails) opens the site team from
// /admin, is refused an address that is not one (the problem next to the
// field), makes a colleague moderator, and finds the grant in the audit
// log; the moderator then signs in and sees only the review queue.
func TestBrowser_SiteTeam(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t, "--admin-emails", "team@example.com")
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			mod := "mod-" + vp.Name + "@example.com"
			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, p, "team@example.com")
			p.Click("a[href='/admin/team']")
			if u := p.URL(); u != origin+"/admin/team" {
				t.Fatalf("the admin page's link led to %s", u)
			}
			p.Fill("#team-email", "not an address")
			p.Click("form[action='/admin/team'] button[type=submit]")
			if got := p.Text("#team-email-problem"); !strings.Contains(got, "is not one") {
				t.Errorf("the refused address reads %q next to the field", got)
			}
			p.Shot("refused")
			p.TakeConsoleErrors() // the refused form's 400, on purpose
			p.Fill("#team-email", mod)
			p.Click("form[action='/admin/team'] button[type=submit]")
			if got := p.Text("table.team-members"); !strings.Contains(got, mod) || !strings.Contains(got, "moderator") {
				t.Errorf("the team after the grant:\n%s", got)
			}
			p.Shot("team")
			p.CheckClean("site team")
			p.Click("a[href='/admin/audit']")
			if got := p.Text("table.audit-log"); !strings.Contains(got, "team.grant") || !strings.Contains(got, "member:"+mod) {
				t.Errorf("the audit log lacks the grant:\n%s", got)
			}
			p.Shot("audit")
			p.CheckClean("audit log")

			m := b.NewPage(t, vp)
			m.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, m, mod)
			if got := m.Text("main"); !strings.Contains(got, "You are a moderator") || strings.Contains(got, "Product prices") {
				t.Errorf("the moderator's /admin:\n%s", got)
			}
			m.Shot("moderator")
			m.Click("a[href='/admin/queue']")
			if u := m.URL(); u != origin+"/admin/queue" {
				t.Errorf("the moderator's queue link led to %s", u)
			}
		})
	}
}
