package domain_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
)

// TestBadgeLink_EveryBadge serves the embed code of every badge kind, shape,
// mode and size on a local homepage, reads it with the real page reader, and
// finds the link; near misses are not found.
func TestBadgeLink_EveryBadge(t *testing.T) {
	site := domain.Site{Name: "Launchdir", BaseURL: "https://launchdir.example"}
	var page string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><html><body><h1>Notely</h1>"+page+"</body></html>")
	}))
	defer srv.Close()
	f := fetch.New(fetch.Options{AllowLoopback: true})
	defer f.Close()
	read := func(html string) string {
		t.Helper()
		page = html
		p, err := f.FetchPage(context.Background(), srv.URL+"/", domain.FetchPageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return site.BadgeLink(p.Links, "notely")
	}
	n := 0
	for kind := range domain.BadgeKinds {
		for _, shape := range domain.BadgeShapes {
			for _, mode := range domain.BadgeModes {
				for _, size := range domain.BadgeSizes {
					if read(site.BadgeEmbedHTML("notely", "Notely", kind, shape, mode, size)) != "https://launchdir.example/listings/notely" {
						t.Fatalf("%s %s %s %s: not found", kind, shape, mode, size)
					}
					n++
				}
			}
		}
	}
	if n != 5*5*3*3 {
		t.Fatalf("%d badges read", n)
	}
	for _, c := range []struct {
		html string
		want bool
	}{
		{`<a href="https://launchdir.example/listings/notely">Notely on Launchdir</a>`, true},
		{`<a href="http://LAUNCHDIR.example:80/listings/notely/?ref=home#top">plain, http, default port, slash, query</a>`, true},
		{`<a href="https://launchdir.example:443/listings/notely">default https port</a>`, true},
		{`<a href="https://launchdir.example/listings/notely-pro">another listing</a>`, false},
		{`<a href="https://launchdir.example/listings/notely/reviews">a page below</a>`, false},
		{`<a href="https://launchdir.example/">the home page</a>`, false},
		{`<a href="https://www.launchdir.example/listings/notely">another host</a>`, false},
		{`<a href="https://launchdir.example:8443/listings/notely">another port</a>`, false},
		{`<img src="https://launchdir.example/badges/notely/listed.svg">`, false},
		{`<!-- <a href="https://launchdir.example/listings/notely">commented out</a> -->`, false},
		{`<script>var a = '<a href="https://launchdir.example/listings/notely">';</script>`, false},
	} {
		if got := read(c.html) != ""; got != c.want {
			t.Errorf("%s: found %v, want %v", c.html, got, c.want)
		}
	}
}

// TestFreeTransition is the policy table of docs/free-launch.md.
func TestFreeTransition(t *testing.T) {
	week := time.Date(2026, 12, 28, 0, 0, 0, 0, time.UTC)
	before, started := week.Add(-time.Hour), week
	launched := week
	inWindow, after := week.AddDate(0, 0, 27), week.AddDate(0, 0, 28)
	for _, c := range []struct {
		name  string
		st    domain.FreeState
		found bool
		now   time.Time
		want  domain.FreeStep
	}{
		{"awaiting, not found", domain.FreeState{Status: "awaiting_badge", Plan: "free", Week: week}, false, before,
			domain.FreeStep{Status: "awaiting_badge", Misses: 1}},
		{"awaiting, found", domain.FreeState{Status: "awaiting_badge", Plan: "free", Week: week, Misses: 3}, true, before,
			domain.FreeStep{Status: "scheduled", StartWeek: true}},
		{"awaiting, found as the week starts", domain.FreeState{Status: "awaiting_badge", Plan: "free", Week: week}, true, started,
			domain.FreeStep{Status: "live", Live: true}},
		{"awaiting, week started without", domain.FreeState{Status: "awaiting_badge", Plan: "free", Week: week}, false, started,
			domain.FreeStep{Status: "awaiting_badge", MoveWeek: true, Misses: 1, Mail: domain.MailFreeMoved}},
		{"scheduled, found", domain.FreeState{Status: "scheduled", Plan: "free", Week: week}, true, before,
			domain.FreeStep{Status: "scheduled"}},
		{"scheduled, gone", domain.FreeState{Status: "scheduled", Plan: "free", Week: week}, false, before,
			domain.FreeStep{Status: "awaiting_badge", Misses: 1, Mail: domain.MailBadgeGone}},
		{"live, found", domain.FreeState{Status: "live", Plan: "free", Week: week, LaunchedAt: &launched, Misses: 1}, true, inWindow,
			domain.FreeStep{Status: "live"}},
		{"live, first miss", domain.FreeState{Status: "live", Plan: "free", Week: week, LaunchedAt: &launched}, false, inWindow,
			domain.FreeStep{Status: "live", Misses: 1, Mail: domain.MailLiveMissing}},
		{"live, second miss in a row", domain.FreeState{Status: "live", Plan: "free", Week: week, LaunchedAt: &launched, Misses: 1}, false, inWindow,
			domain.FreeStep{Status: "draft", Misses: 2, Stop: true, Mail: domain.MailUnpublished}},
		{"live, after four weeks", domain.FreeState{Status: "live", Plan: "free", Week: week, LaunchedAt: &launched, Misses: 1}, false, after,
			domain.FreeStep{Status: "live", Misses: 1, Stop: true}},
		{"paid", domain.FreeState{Status: "scheduled", Plan: "paid", Week: week}, false, before,
			domain.FreeStep{Status: "scheduled", Stop: true}},
		{"draft", domain.FreeState{Status: "draft", Plan: "free"}, false, before,
			domain.FreeStep{Status: "draft", Stop: true}},
	} {
		if got := domain.FreeTransition(c.st, c.found, c.now); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestNextFreeCheck(t *testing.T) {
	set := domain.FreeSettings{CheckHours: 6}.Norm()
	week := time.Date(2026, 12, 28, 0, 0, 0, 0, time.UTC)
	launched := week
	for _, c := range []struct {
		name   string
		status string
		now    time.Time
		want   time.Time
	}{
		{"awaiting, far from the week", "awaiting_badge", week.Add(-7 * time.Hour), week.Add(-time.Hour)},
		{"awaiting, the Monday decides", "awaiting_badge", week.Add(-5 * time.Hour), week},
		{"awaiting, its week started", "awaiting_badge", week, week.Add(6 * time.Hour)},
		{"scheduled", "scheduled", week.Add(-5 * time.Hour), week.Add(time.Hour)},
		{"live, inside four weeks", "live", week.AddDate(0, 0, 28).Add(-7 * time.Hour), week.AddDate(0, 0, 28).Add(-time.Hour)},
		{"live, the next would be after four weeks", "live", week.AddDate(0, 0, 28).Add(-6 * time.Hour), time.Time{}},
		{"draft", "draft", week, time.Time{}},
	} {
		if got := domain.NextFreeCheck(c.status, week, &launched, c.now, set); !got.Equal(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestFreeSettings(t *testing.T) {
	got := domain.FreeSettings{WeeksMin: 0, WeeksMax: -1, WeekCapacity: 1, CheckHours: 0}.Norm()
	if got != (domain.FreeSettings{WeeksMin: 6, WeeksMax: 8, WeekCapacity: 1, CheckHours: 6}) {
		t.Fatalf("defaults: %+v", got)
	}
	if got := (domain.FreeSettings{WeeksMin: 9, WeeksMax: 8}).Norm(); got.WeeksMax != 9 {
		t.Fatalf("max below min: %+v", got)
	}
	now := time.Date(2026, 11, 22, 23, 59, 0, 0, time.UTC) // a Sunday
	weeks := domain.FreeSettings{}.Norm().FreeWeeks(now)
	if len(weeks) != 3 || weeks[0] != "2027-01-04" || weeks[2] != "2027-01-18" {
		t.Fatalf("weeks 6-8 out from Sunday 2026-11-22: %v (the first Monday at least 6 whole weeks later is 2027-01-04)", weeks)
	}
}

// TestFreeWeeks_WholeWeeksOnEveryDay: on each day of a week and at its first
// and last minute, the first free week starts at least WeeksMin whole weeks
// after the request and less than one week later than that, on a Monday, and
// the weeks follow each other (on a Sunday the week counted from that week's
// Monday was 36 days away).
func TestFreeWeeks_WholeWeeksOnEveryDay(t *testing.T) {
	set := domain.FreeSettings{WeeksMin: 6, WeeksMax: 8}.Norm()
	start := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC) // a Monday
	for d := 0; d < 7; d++ {
		for _, at := range []time.Duration{0, time.Minute, 12 * time.Hour, 24*time.Hour - time.Minute} {
			now := start.AddDate(0, 0, d).Add(at)
			weeks := set.FreeWeeks(now)
			if len(weeks) != 3 {
				t.Fatalf("%s: %d weeks, want 3", now, len(weeks))
			}
			for i, w := range weeks {
				day, err := time.Parse(domain.DateLayout, w)
				if err != nil || day.Weekday() != time.Monday {
					t.Fatalf("%s: week %q is no Monday", now, w)
				}
				if gap := day.Sub(now); i == 0 && (gap < 6*7*24*time.Hour || gap >= 7*7*24*time.Hour) {
					t.Errorf("%s (%s): first week %s is %.1f days away, want [42, 49)", now, now.Weekday(), w, gap.Hours()/24)
				}
				if i > 0 {
					prev, _ := time.Parse(domain.DateLayout, weeks[i-1])
					if day.Sub(prev) != 7*24*time.Hour {
						t.Errorf("%s: weeks %v do not follow each other", now, weeks)
					}
				}
			}
		}
	}
}
