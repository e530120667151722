package web

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// pageText is what a person reads of a page: its text without tags, scripts
// and styles, with runs of white space as one space.
func pageText(body string) string {
	tags := regexp.MustCompile(`(?s)<(script|style)[^>]*>.*?</(script|style)>|<[^>]*>`)
	return strings.Join(strings.Fields(html2text(tags.ReplaceAllString(body, " "))), " ")
}

func html2text(s string) string {
	return strings.NewReplacer("&#39;", "'", "&amp;", "&", "&quot;", `"`, "&lt;", "<", "&gt;", ">").Replace(s)
}

// machineWords are what a page for people must not say: snake_case names of
// fields and enum values, amounts in cents, a sentence written for a model.
var machineWords = regexp.MustCompile(`\b[a-z]+_[a-z_]+\b|\bcents\b|present it as paid|\b1 (results|votes|views|followers|reviews)\b`)

// TestPages_NoMachineWords reads the public pages of the demo data as a
// person does and finds none of the words written for programs and models
// (the API's own names on /docs, in code, are meant for developers).
func TestPages_NoMachineWords(t *testing.T) {
	ctx := context.Background()
	paths := []string{"/", "/search?q=note", "/search?q=notewise", "/categories", "/launches", "/leaderboards",
		"/founders", "/awards", "/launches/weeks/this", "/launches/weeks/last"}
	for _, b := range boardOrder {
		paths = append(paths, "/leaderboards/"+b)
	}
	live := must(demo().svc.SearchListings(ctx, domain.SearchListingsInput{Pagination: domain.Pagination{PerPage: 100}})).get(t)
	for _, l := range live.Items {
		paths = append(paths, "/listings/"+l.Slug)
	}
	for _, p := range paths {
		res := demo().get(t, p)
		if res.status != http.StatusOK {
			t.Errorf("GET %s: %d", p, res.status)
			continue
		}
		text := pageText(res.body)
		for _, m := range machineWords.FindAllStringIndex(text, -1) {
			if w := text[m[0]:m[1]]; w == "get_badges" { // named in <code> for developers
				continue
			}
			t.Errorf("GET %s says %q: …%s…", p, text[m[0]:m[1]], text[max(0, m[0]-80):min(len(text), m[1]+80)])
		}
		if strings.Contains(text, "→ 0") {
			t.Errorf("GET %s shows a Domain Rating change as \"→ 0\", which reads as a fall to zero", p)
		}
	}
}

// TestPages_HumanWords checks the words each of the defects of issue 28
// item 4 now uses in their place.
func TestPages_HumanWords(t *testing.T) {
	ctx := context.Background()
	t.Run("NotFoundOnWebsite", func(t *testing.T) {
		// The demo's captionkit does not state its founding year.
		res := demo().get(t, "/listings/captionkit")
		text := pageText(res.body)
		if !strings.Contains(text, "Not found on the website") || !strings.Contains(text, "Year founded") || strings.Contains(text, "founded_year") {
			t.Errorf("captionkit's not-found facts: %s", snippet(text, "Not found on the website"))
		}
	})
	t.Run("Leaderboards", func(t *testing.T) {
		for _, p := range []string{"/leaderboards", "/leaderboards/billboard", "/docs"} {
			text := pageText(demo().get(t, p).body)
			if strings.Contains(text, "present it as paid") || !strings.Contains(text, "A PAID ranking") {
				t.Errorf("GET %s: %s", p, snippet(text, "PAID"))
			}
		}
	})
	t.Run("OneResult", func(t *testing.T) {
		text := pageText(demo().get(t, "/search?q=notewise").body)
		if !strings.Contains(text, "1 result for “notewise”") {
			t.Errorf("one hit: %s", snippet(text, "for “notewise”"))
		}
		text = pageText(demo().get(t, "/search?q=note").body)
		if !regexp.MustCompile(`\d+ results for “note”`).MatchString(text) {
			t.Errorf("several hits: %s", snippet(text, "for “note”"))
		}
	})
	t.Run("SortAndBadgeMenus", func(t *testing.T) {
		body := demo().get(t, "/search?q=note").body
		for _, w := range []string{`<option value="most_viewed">Most viewed</option>`, `<option value="most_followed">Most followed</option>`} {
			if !strings.Contains(body, w) {
				t.Errorf("the sort menu lacks %s", w)
			}
		}
		body = demo().get(t, "/listings/notewise").body
		for _, w := range []string{`<option value="s">Small</option>`, `<option value="l">Large</option>`, `>Light or dark, as the reader&#39;s system</option>`} {
			if !strings.Contains(body, w) {
				t.Errorf("the badge style menu lacks %s", w)
			}
		}
	})
	t.Run("DomainRating", func(t *testing.T) {
		// A flat rating says "unchanged since" (it showed "→ 0"), a moving
		// one "up/down N since", each with a line chart of its readings.
		var flat, moving string
		live := must(demo().svc.SearchListings(ctx, domain.SearchListingsInput{Pagination: domain.Pagination{PerPage: 100}})).get(t)
		for _, s := range live.Items {
			l := must(demo().svc.GetListing(ctx, domain.SlugInput{Slug: s.Slug})).get(t)
			if l.DomainRating == nil || len(l.DomainRating.History) < 2 {
				continue
			}
			if l.DomainRating.Change == 0 && flat == "" {
				flat = s.Slug
			}
			if l.DomainRating.Change != 0 && moving == "" {
				moving = s.Slug
			}
		}
		if flat == "" || moving == "" {
			t.Fatalf("the demo data lacks a listing with a flat Domain Rating (%q) or a moving one (%q)", flat, moving)
		}
		for _, slug := range []string{flat, moving} {
			dr := must(demo().svc.GetListing(ctx, domain.SlugInput{Slug: slug})).get(t).DomainRating
			res := demo().get(t, "/listings/"+slug)
			text := pageText(res.body)
			change := "unchanged since " + formatDay(dr.History[0].Date)
			switch {
			case dr.Change > 0:
				change = fmt.Sprintf("up %d since %s", dr.Change, formatDay(dr.History[0].Date))
			case dr.Change < 0:
				change = fmt.Sprintf("down %d since %s", -dr.Change, formatDay(dr.History[0].Date))
			}
			if !strings.Contains(text, fmt.Sprintf("Domain Rating %d ", dr.Current)) || !strings.Contains(text, change) {
				t.Errorf("%s: want the change %q: %s", slug, change, snippet(text, "Domain Rating"))
			}
			svg := chartOf(t, res.body, `aria-label="Domain Rating from`)
			if n := strings.Count(svg, "<circle "); n != len(dr.History) {
				t.Errorf("%s's Domain Rating chart has %d points for %d readings", slug, n, len(dr.History))
			}
			if !strings.Contains(svg, fmt.Sprintf(`aria-label="Domain Rating from %d on %s to %d on %s, %d readings"`,
				dr.History[0].Value, formatDay(dr.History[0].Date), dr.Current, formatDay(dr.AsOf), len(dr.History))) {
				t.Errorf("%s's chart label: %.300s", slug, svg)
			}
		}
		// One reading has no change and no history to draw.
		one := &domain.DomainRating{Current: 37, Trend: "flat", AsOf: "2026-11-01", History: []domain.DRPoint{{Date: "2026-11-01", Value: 37}}}
		if c, s := drChange(one), drChart(one); c != "" || s != "" {
			t.Errorf("one reading: change %q, chart %q; want neither", c, s)
		}
	})
	t.Run("LaunchWeekVotes", func(t *testing.T) {
		// A listing of last week: its chart has seven bars whose counts are
		// its counted votes of each day, as the votes table holds them.
		last := must(demo().svc.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: "last"})).get(t)
		if len(last.Items) == 0 {
			t.Fatal("no launches last week in the demo data")
		}
		slug := last.Items[0].Listing.Slug
		l := must(demo().svc.GetListing(ctx, domain.SlugInput{Slug: slug})).get(t)
		start, err := time.Parse(time.DateOnly, l.LaunchWeek)
		if err != nil {
			t.Fatal(err)
		}
		res := demo().get(t, "/listings/"+slug)
		svg := chartOf(t, res.body, `aria-label="Votes on each day of the launch week`)
		if n := strings.Count(svg, `<rect class="bar"`); n != 7 {
			t.Errorf("%d bars, want 7", n)
		}
		lr, err := demo().db.Rows(ctx, "listings", map[string]any{"slug": slug})
		if err != nil || len(lr) != 1 {
			t.Fatalf("listing %s: %d rows, %v", slug, len(lr), err)
		}
		rows, err := demo().db.Rows(ctx, "votes", map[string]any{"listing_id": lr[0]["id"], "status": "counted", "discarded_at": nil})
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for i := range 7 {
			day := start.AddDate(0, 0, i)
			n := 0
			for _, r := range rows {
				if at, _ := strconv.ParseInt(r["created_at"], 10, 64); at >= day.Unix() && at < day.AddDate(0, 0, 1).Unix() {
					n++
				}
			}
			total += n
			votes := fmt.Sprintf("%d vote", n)
			if n != 1 {
				votes += "s"
			}
			if w := fmt.Sprintf("<title>%s: %s</title>", day.Format("Mon Jan 2"), votes); !strings.Contains(svg, w) {
				t.Errorf("%s's chart lacks %s", slug, w)
			}
		}
		if total == 0 {
			t.Errorf("%s got no counted votes in its launch week: the test shows nothing", slug)
		}
		if !strings.Contains(res.body, "Votes each day of the launch week of "+formatDay(l.LaunchWeek)) {
			t.Errorf("%s: the chart's caption is missing", slug)
		}
		// An upcoming listing has no launch week chart.
		up := must(demo().svc.ListLaunches(ctx, domain.ListLaunchesInput{Section: "upcoming", Pagination: domain.Pagination{PerPage: 1}})).get(t)
		if len(up.Items) > 0 && strings.Contains(demo().get(t, "/listings/"+up.Items[0].Slug).body, `aria-label="Votes on each day`) {
			t.Errorf("upcoming %s shows a launch week votes chart", up.Items[0].Slug)
		}
	})
	t.Run("Checkout", func(t *testing.T) {
		e := newOrderEnv(t, nil)
		_, token := e.checkout(t, domain.OrderItem{Product: domain.ProductLaunch, ListingID: e.listing},
			domain.OrderItem{Product: domain.ProductBillboardMin, ListingID: e.listing, AmountCents: 1500})
		res := e.get(t, domain.CheckoutPath+token)
		text := pageText(res.body)
		if strings.Contains(text, "cents") || !strings.Contains(text, "$15.00") || !strings.Contains(text, "added to the listing's billboard total") {
			t.Errorf("the checkout page of a billboard contribution: %s", snippet(text, "Billboard"))
		}
	})
}

// chartOf returns the <svg> element of body that carries marker.
func chartOf(t *testing.T, body, marker string) string {
	t.Helper()
	i := strings.Index(body, marker)
	if i < 0 {
		t.Fatalf("no chart with %s on the page", marker)
	}
	start := strings.LastIndex(body[:i], "<svg")
	end := strings.Index(body[i:], "</svg>")
	if start < 0 || end < 0 {
		t.Fatalf("the chart with %s is not an <svg> element", marker)
	}
	return body[start : i+end+len("</svg>")]
}

// snippet is text around the first match of near, for a failure message.
func snippet(text, near string) string {
	i := max(0, strings.Index(text, near))
	return text[max(0, i-100):min(len(text), i+300)]
}
