//go:build e2e

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web/browsertest"
)

// TestBrowser_DomainRatingAndRevenue: an admin opens Domain Rating from
// /admin, uploads a CSV export with a refused row, reads the preview (line
// and reason, nothing stored yet), stores it, and on Revenue sees a refused
// amount next to its field, then saves a verified figure. Desktop and phone.
func TestBrowser_DomainRatingAndRevenue(t *testing.T) {
	t.Parallel() // its own server; one shared Chromium, a browser context per page
	b := browsertest.Shared(t)
	s, origin, _ := browserServe(t, "--admin-emails", "team@example.com")
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := b.NewPage(t, vp)
			p.Go(origin + "/signin?next=/admin")
			s.emailedLink(t, p, "team@example.com")
			p.Click("a[href='/admin/ratings']")
			csv := "Target,Domain Rating,Date\\nhttps://www.example.com/,41,2025-01-01\\nexample.com,43,2025-02-01\\nsome-very-long-subdomain-name.example.org,101,2025-02-01\\n"
			if !browsertest.Eval[bool](p, fmt.Sprintf(`(() => { const dt = new DataTransfer();
				dt.items.add(new File(["%s"], "ahrefs-export-%s.csv", {type: "text/csv"}));
				const e = document.querySelector("#ratings-file"); e.files = dt.files; return e.files.length === 1; })()`, csv, vp.Name)) {
				t.Fatal("could not choose the file")
			}
			p.Fill("#ratings-source", "ahrefs")
			p.Click("form[action='/admin/ratings'] button[type=submit]")
			if got := p.Text("main"); !strings.Contains(got, "2 row(s) accepted, 1 refused") || !strings.Contains(got, "rating: 101 is above 100") ||
				!strings.Contains(got, "Nothing is stored yet") {
				t.Errorf("the preview:\n%s", got)
			}
			p.Shot("preview")
			p.CheckClean("preview")
			p.Click("form[action$='/confirm'] button[type=submit]")
			if got := p.Text("main"); !strings.Contains(got, "Stored.") {
				t.Errorf("after storing:\n%s", got)
			}
			p.Shot("stored")
			p.Go(origin + "/admin/revenue")
			p.Fill("#revenue-listing", "no-such-listing")
			p.Fill("#revenue-month", "2025-01")
			p.Fill("#revenue-amount", "12.345")
			p.Click("form[action='/admin/revenue'] button[type=submit]")
			if got := p.Text("#revenue-amount-problem"); !strings.Contains(got, "at most 2 decimals") {
				t.Errorf("the refused amount reads %q", got)
			}
			if got := p.Text("#revenue-listing-problem"); !strings.Contains(got, "no listing with the slug") {
				t.Errorf("the refused listing reads %q", got)
			}
			p.Shot("revenue-refused")
			p.TakeConsoleErrors() // the refused form's 400, on purpose
			p.Go(origin + "/admin/ratings")
			p.Shot("imports")
			p.CheckClean("imports")
		})
	}
}
