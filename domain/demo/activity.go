package demo

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// live returns the live listings in index order.
func (d *Dataset) live() []*Listing {
	var out []*Listing
	for _, l := range d.Listings {
		if l.Status == domain.StatusLive {
			out = append(out, l)
		}
	}
	return out
}

// addMoney adds Domain Rating history, billboard contributions and revenue figures.
func (d *Dataset) addMoney(r rnd) {
	live := d.live()
	month := time.Date(d.Now.Year(), d.Now.Month(), 1, 0, 0, 0, 0, time.UTC)
	for _, l := range live {
		if !r.chance(0.75) {
			continue
		}
		points := 6 + r.IntN(7)
		v := 3 + r.IntN(60)
		trend := r.IntN(3) // 0 up, 1 down, 2 flat
		for k := points - 1; k >= 0; k-- {
			l.DR = append(l.DR, domain.DRPoint{Date: month.AddDate(0, -k, 0).Format(domain.DateLayout), Value: min(max(v, 0), 100)})
			switch trend {
			case 0:
				v += 1 + r.IntN(4)
			case 1:
				v -= 1 + r.IntN(3)
			}
		}
	}
	order := r.Perm(len(live))
	for _, i := range order[:min(30, len(live))] {
		l := live[i]
		for k, n := 0, 1+r.IntN(3); k < n; k++ {
			cents := int64([]int{1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000}[r.IntN(8)])
			l.Billboard = append(l.Billboard, Money{At: r.between(l.LaunchedAt, d.Now), Cents: cents})
		}
		slices.SortFunc(l.Billboard, func(a, b Money) int { return a.At.Compare(b.At) })
	}
	for _, i := range order[30:min(90, len(live))] {
		l := live[i]
		cents := int64(20000 + r.IntN(2000000))
		for k := 2 + r.IntN(10); k >= 1; k-- {
			l.Revenue = append(l.Revenue, Money{At: month.AddDate(0, -k, 0), Cents: cents})
			cents = cents * int64(95+r.IntN(20)) / 100
		}
	}
}

var demoUpdates = []struct{ Title, Body string }{
	{"Dark mode is here", "You asked, we shipped: %s now follows your system's dark mode, and you can switch it per device."},
	{"Now on Android", "The %s Android app is out of beta. Everything syncs with the web and iOS apps."},
	{"Faster search", "Search in %s is now up to five times faster on large accounts, thanks to a new index."},
	{"New integrations", "%s now connects to Slack, Zapier and Google Drive. Set them up under Settings, Integrations."},
	{"Thank you for launch week", "Thank you to everyone who tried %s during launch week. We read every comment and have already fixed the top three requests."},
	{"Pricing update", "We simplified %s pricing: one paid plan, billed monthly or yearly, and the free plan stays."},
	{"Public roadmap", "The %s roadmap is now public. Vote on what we build next."},
	{"Security review done", "An independent firm reviewed %s. We fixed every finding and published a summary."},
}

// addUpdatesAndAlternatives adds listing updates on ~40 listings and
// owner-approved alternatives on ~20.
func (d *Dataset) addUpdatesAndAlternatives(r rnd) {
	live := d.live()
	for _, i := range r.Perm(len(live))[:min(40, len(live))] {
		l := live[i]
		for _, u := range r.Perm(len(demoUpdates))[:1+r.IntN(3)] {
			up := demoUpdates[u]
			l.Updates = append(l.Updates, domain.ListingUpdate{Title: up.Title, Body: fmt.Sprintf(up.Body, l.Name),
				PostedAt: r.between(l.LaunchedAt, d.Now).Truncate(time.Second)})
		}
		slices.SortFunc(l.Updates, func(a, b domain.ListingUpdate) int { return b.PostedAt.Compare(a.PostedAt) })
	}
	byCat := map[string][]*Listing{}
	for _, l := range live {
		byCat[l.Cat.Slug] = append(byCat[l.Cat.Slug], l)
	}
	n := 0
	for _, i := range r.Perm(len(live)) {
		l := live[i]
		peers := byCat[l.Cat.Slug]
		if n == 20 || len(peers) < 3 {
			continue
		}
		for _, p := range r.Perm(len(peers))[:1+r.IntN(3)] {
			if peers[p] != l {
				l.Alternatives = append(l.Alternatives, peers[p].Index)
			}
		}
		if len(l.Alternatives) > 0 {
			n++
		}
	}
}

// weekVotes counts the votes a listing received in the week starting at monday.
func (l *Listing) weekVotes(monday time.Time) int {
	end := monday.AddDate(0, 0, 7)
	n := 0
	for _, v := range l.Votes {
		if !v.At.Before(monday) && v.At.Before(end) {
			n++
		}
	}
	return n
}

// computeAwards ranks each past week's live launches by the votes cast during
// that week (ties: all-time votes, then name) and awards the top three.
func (d *Dataset) computeAwards() {
	d.Awards = nil
	for w := 1; w <= PastWeeks; w++ {
		monday := d.Monday.AddDate(0, 0, -7*w)
		type ranked struct {
			l    *Listing
			week int
		}
		var rs []ranked
		for _, l := range d.Listings {
			if l.Status == domain.StatusLive && l.LaunchWeek.Equal(monday) {
				rs = append(rs, ranked{l, l.weekVotes(monday)})
			}
		}
		slices.SortFunc(rs, func(a, b ranked) int {
			return cmp.Or(cmp.Compare(b.week, a.week), cmp.Compare(len(b.l.Votes), len(a.l.Votes)), strings.Compare(a.l.Name, b.l.Name))
		})
		for k := 0; k < 3 && k < len(rs); k++ {
			d.Awards = append(d.Awards, Award{Week: monday, Rank: k + 1, Listing: rs[k].l.Index, WeekVotes: rs[k].week})
		}
	}
}
