package demo

import (
	"strings"
	"time"
)

// Trophy is a demo trophy won on another launch site (docs/trophies.md). The
// demo's trophies are verified by the site team (they are never read by the
// crawler: their award pages are on reserved .example hosts), and one is
// unconfirmed since its page went away.
type Trophy struct {
	Listing          int // index in Dataset.Listings
	Platform, Title  string
	Rank             int
	Date             time.Time
	AwardURL         string
	State, Reason    string
	VerifiedAt       time.Time
	UnconfirmedSince time.Time
}

// trophyAwards are the awards demo trophies are made of: platform, title, rank.
var trophyAwards = []struct {
	platform, title string
	rank            int
}{
	{"Product Hunt", "Product of the Day", 1},
	{"Uneed", "Product of the Day", 2},
	{"Peerlist", "Project of the Week", 1},
	{"DevHunt", "Tool of the Week", 3},
	{"BetaList", "Featured startup", 0},
	{"Product Hunt", "Product of the Week", 2},
	{"Fazier", "Launch of the Day", 1},
}

// Trophies returns the demo trophies of d: one to three for every 37th live
// listing (eight at most), dated in the days after its launch, in order.
func Trophies(d *Dataset) []Trophy {
	var out []Trophy
	n := 0
	for _, l := range d.Listings {
		if l.Status != "live" || l.Index%37 != 0 || l.LaunchedAt.IsZero() {
			continue
		}
		k := 1 + l.Index%3
		for i := range k {
			a := trophyAwards[(l.Index/37+i*3)%len(trophyAwards)]
			date := l.LaunchedAt.Add(time.Duration(1+i*2) * 24 * time.Hour).Truncate(24 * time.Hour)
			if date.After(d.Now) {
				date = d.Now.Truncate(24 * time.Hour)
			}
			host := strings.ToLower(strings.ReplaceAll(a.platform, " ", "")) + ".example"
			t := Trophy{Listing: l.Index, Platform: a.platform, Title: a.title, Rank: a.rank, Date: date,
				AwardURL: "https://" + host + "/awards/" + date.Format("2006-01-02") + "/" + l.Slug, State: "verified",
				Reason: "Checked by hand against the platform's archive (demo data).", VerifiedAt: date.Add(30 * time.Hour)}
			if t.VerifiedAt.After(d.Now) {
				t.VerifiedAt = d.Now
			}
			if n == 2 && i == k-1 { // one whose page went away
				t.State, t.UnconfirmedSince = "unconfirmed", t.VerifiedAt.Add(24*time.Hour)
				if t.UnconfirmedSince.After(d.Now) {
					t.UnconfirmedSince = d.Now
				}
				t.Reason = "The award page could not be read: " + t.AwardURL + " answered 404 Not Found."
			}
			out = append(out, t)
		}
		if n++; n == 8 {
			break
		}
	}
	return out
}
