package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// TestE2E_DomainRatingAndRevenueBoards: after an import
// of two dates of one provider for a listing's domain, the Domain Rating
// board ranks it by the latest reading with that provider as its source
// and the trend of its readings (the latest minus the earliest, as the
// listing's profile says it), the same over REST and MCP; the demo's
// readings of another provider do not enter the trend. The revenue board
// and the profile say whose figure it is; a verified figure wins over the
// owner's for the same month, and a listing's first figure is on the board
// at once (the board's count is not cached).
func TestE2E_DomainRatingAndRevenueBoards(t *testing.T) {
	t.Parallel()
	e := e2eNewEnv(t, Options{}, true)
	cs := e2eConnect(t, e, "")
	ctx := context.Background()
	board := func(name string) map[string]domain.GetLeaderboardOutput {
		t.Helper()
		args := map[string]any{"board": name, "per_page": 50}
		var rest domain.GetLeaderboardOutput
		e.getJSON(t, e2eRESTURL(t, "get_leaderboard", args), &rest)
		res := e2eCall(t, cs, "get_leaderboard", args)
		var viaMCP domain.GetLeaderboardOutput
		if res.IsError || json.Unmarshal([]byte(e2eResultText(t, res)), &viaMCP) != nil {
			t.Fatalf("MCP get_leaderboard %v: %s", args, e2eResultText(t, res))
		}
		return map[string]domain.GetLeaderboardOutput{"REST": rest, "MCP": viaMCP}
	}
	profile := func(slug string) map[string]domain.Listing {
		t.Helper()
		var rest domain.Listing
		e.getJSON(t, e2eRESTURL(t, "get_listing", map[string]any{"slug": slug}), &rest)
		res := e2eCall(t, cs, "get_listing", map[string]any{"slug": slug})
		var viaMCP domain.Listing
		if res.IsError || json.Unmarshal([]byte(e2eResultText(t, res)), &viaMCP) != nil {
			t.Fatalf("MCP get_listing %s: %s", slug, e2eResultText(t, res))
		}
		return map[string]domain.Listing{"REST": rest, "MCP": viaMCP}
	}

	// Domain Rating: the board's last listing gets two readings of ahrefs.
	before := board("domain-rating")["REST"]
	if len(before.Items) < 2 {
		t.Fatalf("the demo's Domain Rating board has %d items", len(before.Items))
	}
	for _, it := range before.Items {
		if it.Source != "admin import (demo data)" || it.Trend == "" {
			t.Fatalf("demo item without source or trend: %+v", it)
		}
	}
	last := before.Items[len(before.Items)-1].Listing
	full := profile(last.Slug)["REST"]
	host := strings.TrimPrefix(strings.TrimPrefix(full.URL, "https://"), "http://")
	csv := fmt.Sprintf("Domain,DR,Date\nhttps://www.%s,40,2026-11-01\n%s,100,2026-11-18\n", strings.TrimSuffix(host, "/"), host)
	imp, err := e.console.ImportRatings(ctx, console.ActorCommandLine, "export.csv", "ahrefs", strings.NewReader(csv), false)
	if err != nil || imp.Added != 2 || imp.Refused != 0 {
		t.Fatalf("import: %+v %v (file %q)", imp, err, csv)
	}
	for tr, out := range board("domain-rating") {
		top := out.Items[0]
		if top.Listing.Slug != last.Slug || top.Metric != 100 || top.MetricLabel != "DR 100" || top.Source != "ahrefs" || top.Trend != "up" {
			t.Errorf("%s: top of the board %+v, want %s DR 100 ahrefs up", tr, top, last.Slug)
		}
		if out.Total != before.Total {
			t.Errorf("%s: %d ranked, was %d", tr, out.Total, before.Total)
		}
	}
	for tr, l := range profile(last.Slug) {
		dr := l.DomainRating
		if dr == nil || dr.Current != 100 || dr.Change != 60 || dr.Trend != "up" || dr.Source != "ahrefs" || dr.AsOf != "2026-11-18" ||
			fmt.Sprint(dr.History) != "[{2026-11-01 40} {2026-11-18 100}]" {
			t.Errorf("%s: profile's Domain Rating %+v", tr, dr)
		}
	}
	// A later reading lower than the first: down.
	if _, err := e.console.ImportRatings(ctx, console.ActorCommandLine, "later.csv", "ahrefs", strings.NewReader("domain,rating,date\n"+host+",30,2026-11-18\n"), false); err != nil {
		t.Fatal(err)
	}
	for tr, l := range profile(last.Slug) {
		if dr := l.DomainRating; dr == nil || dr.Current != 30 || dr.Change != -10 || dr.Trend != "down" {
			t.Errorf("%s: after the correction %+v", tr, dr)
		}
	}

	// Revenue: every demo figure is the owner's.
	rev := board("revenue")["REST"]
	for _, it := range rev.Items {
		if it.Source != domain.RevenueOwner || !strings.HasSuffix(it.MetricLabel, " per month (stated by the owner)") {
			t.Fatalf("demo revenue item %+v", it)
		}
	}
	if !strings.Contains(rev.Description, "verified by the site team") {
		t.Errorf("revenue board description %q", rev.Description)
	}
	second := rev.Items[1].Listing
	l := profile(second.Slug)["REST"]
	if l.Revenue == nil || l.Revenue.Source != domain.RevenueOwner {
		t.Fatalf("profile revenue %+v", l.Revenue)
	}
	month := l.Revenue.Month
	if _, err := e.console.SetVerifiedRevenue(ctx, "ops@launchdir.test", second.Slug, month, "99999999"); err != nil {
		t.Fatal(err)
	}
	for tr, out := range board("revenue") {
		top := out.Items[0]
		if top.Listing.Slug != second.Slug || top.Metric != 9999999900 || top.Source != domain.RevenueVerified ||
			top.MetricLabel != "$99,999,999.00 per month (verified by the site team)" {
			t.Errorf("%s: top of the revenue board %+v", tr, top)
		}
	}
	for tr, l := range profile(second.Slug) {
		if r := l.Revenue; r == nil || r.Source != domain.RevenueVerified || r.AmountCents != 9999999900 || r.Month != month {
			t.Errorf("%s: profile revenue %+v", tr, r)
		}
	}
	// A live listing without a figure joins the board with its first one.
	slugs := func(name string) map[string]bool {
		out := map[string]bool{}
		for page := 1; ; page++ {
			b, err := e.svc.GetLeaderboard(ctx, domain.GetLeaderboardInput{Board: name, Pagination: domain.Pagination{Page: page, PerPage: 50}})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range b.Items {
				out[it.Listing.Slug] = true
			}
			if len(b.Items) < 50 {
				return out
			}
		}
	}
	ranked := slugs("revenue")
	var newcomer string
	for s := range slugs("community-all-time") {
		if !ranked[s] && (newcomer == "" || s < newcomer) {
			newcomer = s
		}
	}
	if newcomer == "" || len(ranked) != rev.Total {
		t.Fatalf("no live listing without revenue; %d ranked of %d", len(ranked), rev.Total)
	}
	if _, err := e.console.SetVerifiedRevenue(ctx, "ops@launchdir.test", newcomer, "2026-11", "1"); err != nil {
		t.Fatal(err)
	}
	for tr, out := range board("revenue") {
		if out.Total != rev.Total+1 {
			t.Errorf("%s: %d ranked after a new figure, want %d", tr, out.Total, rev.Total+1)
		}
	}
}
