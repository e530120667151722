package web

import (
	"hash/fnv"

	"github.com/launchdir/launchdir/domain"
)

// Launch rows: every list of listings on the pages (the home page, a week,
// the launch feeds, a category, search results, a founder's products, the
// leaderboards and the awards) shows one row per listing, drawn by the
// "row" template (templates/row.html): rank, logo, name, tagline, a count
// and the vote button, the way Product Hunt and Uneed rows read
// (docs/pages.md). The functions below build a row from each kind of item.

// launchRow is the data of the "row" template.
type launchRow struct {
	Rank int // 0: no rank shown
	L    domain.ListingSummary
	// Count and Unit ("vote", "follower": singular) say what the row counts;
	// Label, when set, is shown instead (a board's amount, "DR 54").
	Count    int64
	Unit     string
	Label    string
	Note     string // after the count, e.g. "this week"
	Paid     bool   // a PAID placement (the billboard), PaidNote says what that means
	PaidNote string
	Award    string // "Launch of the Week #1" on the awards page
	Vote     voteButton
}

// Plural is the count's unit for Count ("1 vote", "2 votes").
func (r launchRow) Plural() string {
	if r.Count == 1 {
		return r.Unit
	}
	return r.Unit + "s"
}

// Live reports whether the row's listing takes votes (a scheduled one does
// not yet: its row counts followers and links to the page to follow it).
func (r launchRow) Live() bool { return r.L.Status == domain.StatusLive }

// listingRows are the rows of listings in a feed, a category, search
// results or a founder's products: all-time votes, or followers when the
// listing is upcoming.
func listingRows(v voteState, ls []domain.ListingSummary) []launchRow {
	out := make([]launchRow, 0, len(ls))
	for _, l := range ls {
		r := launchRow{L: l, Count: int64(l.Votes), Unit: "vote", Vote: v.button(l.Slug)}
		if !r.Live() {
			r.Count, r.Unit = int64(l.Follows), "follower"
		}
		out = append(out, r)
	}
	return out
}

// founderRows are the rows of a founder's products.
func founderRows(v voteState, cs []domain.FounderCompany) []launchRow {
	ls := make([]domain.ListingSummary, 0, len(cs))
	for _, c := range cs {
		ls = append(ls, c.Listing)
	}
	return listingRows(v, ls)
}

// weekRows are the rows of a week's ranking, counting the votes of that
// week; note follows each count ("this week" on the home page).
func weekRows(v voteState, items []domain.WeekLaunch, note string) []launchRow {
	out := make([]launchRow, 0, len(items))
	for _, it := range items {
		out = append(out, launchRow{Rank: it.Rank, L: it.Listing, Count: int64(it.WeekVotes), Unit: "vote", Note: note, Vote: v.button(it.Listing.Slug)})
	}
	return out
}

// boardRows are the rows of a leaderboard: each item's metric in the
// board's unit (votes, cents or DR).
func boardRows(v voteState, items []domain.BoardItem, unit string) []launchRow {
	out := make([]launchRow, 0, len(items))
	for _, it := range items {
		r := launchRow{Rank: it.Rank, L: it.Listing, Count: it.Metric, Paid: it.Paid, PaidNote: it.Note, Vote: v.button(it.Listing.Slug)}
		switch unit {
		case "votes":
			r.Unit = "vote"
		case "cents":
			r.Label = formatCents(it.Metric)
			if it.Paid {
				r.Note = "contributed"
			} else {
				r.Note = "a month"
				if it.Source != "" { // the revenue board: whose figure it is
					r.Note += ", " + domain.RevenueSourceLabel(it.Source)
				}
			}
		default:
			r.Label = unit + " " + formatInt(it.Metric)
			if it.Trend != "" { // the Domain Rating board
				r.Note = trendArrow(it.Trend) + " " + it.Trend
			}
		}
		out = append(out, r)
	}
	return out
}

// awardRows are the rows of awards: the award, and the votes of that week
// that decided it.
func awardRows(v voteState, awards []domain.Award) []launchRow {
	out := make([]launchRow, 0, len(awards))
	for _, a := range awards {
		out = append(out, launchRow{Rank: a.Rank, L: a.Listing, Count: int64(a.Votes), Unit: "vote", Note: "that week", Award: a.Title, Vote: v.button(a.Listing.Slug)})
	}
	return out
}

// logoTints is how many colours the monogram tiles come in (.tint-0 ..
// .tint-7 in style.css).
const logoTints = 8

// logoTint picks a listing's monogram colour from its slug, so that a
// listing keeps its colour on every page and neighbours seldom share one.
func logoTint(slug string) int {
	h := fnv.New32a()
	h.Write([]byte(slug))
	return int(h.Sum32() % logoTints)
}
