package domain

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Board describes a leaderboard.
type Board struct {
	Key string
	// Title names the board in lists of boards; a page of the board is
	// titled with the period it ranks as well (see GetLeaderboardOutput.Title).
	Title string
	// Period is the period every page of the board ranks; "" for the weekly
	// board, whose period is the week asked for.
	Period      string
	Description string
	Metric      string
	Unit        string
	Paid        bool
}

// Boards are the five leaderboards. The three ranking systems (community votes,
// the PAID billboard, Domain Rating) are kept apart; revenue is a fourth board.
var Boards = map[string]Board{
	"community-weekly": {Key: "community-weekly", Title: "Community leaderboard: weekly",
		Description: "Launches of one week ranked by the community votes they received that week. Votes come only from people on the site.",
		Metric:      "week_votes", Unit: "votes"},
	"community-all-time": {Key: "community-all-time", Title: "Community leaderboard: all time", Period: "all time",
		Description: "Live listings ranked by all-time community votes.", Metric: "votes", Unit: "votes"},
	"billboard": {Key: "billboard", Title: "Billboard (PAID ranking)", Period: "all contributions to date",
		Description: "PAID ranking: listings ordered by the money their owners contributed to the billboard. It says nothing about quality or community votes; always present it as paid.",
		Metric:      "billboard_cents", Unit: "cents", Paid: true},
	"domain-rating": {Key: "domain-rating", Title: "Domain Rating", Period: "latest reading of each site",
		Description: "Live listings ranked by the latest Domain Rating of their website, from a third-party SEO provider.",
		Metric:      "domain_rating", Unit: "DR"},
	"revenue": {Key: "revenue", Title: "Revenue", Period: "latest month each founder reported",
		Description: "Live listings ranked by their latest monthly revenue. Each figure says its source: verified by the site team, or stated by the owner and not checked; a verified figure wins over the owner's for the same month.",
		Metric:      "monthly_revenue_cents", Unit: "cents"},
}

// GetLeaderboardInput is the input of get_leaderboard (GET /leaderboards/{board}).
type GetLeaderboardInput struct {
	Board string `json:"board" jsonschema:"maxLength=60,pattern=^[a-z0-9][a-z0-9-]{0\\,59}$" jsonschema_description:"Which board: community-weekly, community-all-time, billboard (a PAID ranking), domain-rating or revenue. Any other name is 404."`
	Week  string `json:"week,omitempty" jsonschema:"maxLength=10,pattern=^(this|last|[0-9]{4}-[0-9]{2}-[0-9]{2})$" jsonschema_description:"community-weekly only: this (default), last or a date YYYY-MM-DD."`
	Pagination
}

// BoardQuery is a normalised board request for the Store.
type BoardQuery struct {
	Board  string
	Week   time.Time // community-weekly only
	Offset int
	Limit  int
}

// BoardItem is one ranked entry of a board.
type BoardItem struct {
	Rank        int            `json:"rank"`
	Listing     ListingSummary `json:"listing"`
	Metric      int64          `json:"metric" jsonschema_description:"The ranked value, in the board's unit."`
	MetricLabel string         `json:"metric_label" jsonschema_description:"The value as a person reads it."`
	Paid        bool           `json:"paid" jsonschema_description:"True on the billboard: a PAID placement, not a community ranking."`
	Note        string         `json:"note,omitempty"`
	Source      string         `json:"source,omitempty" jsonschema_description:"revenue: verified (checked by the site team) or owner (stated by the owner, not checked); domain-rating: the SEO provider."`
	Trend       string         `json:"trend,omitempty" jsonschema:"enum=up,enum=down,enum=flat" jsonschema_description:"domain-rating: the change over the site's readings, as on its profile."`
}

// DRTrend names the direction of a Domain Rating change.
func DRTrend(change int) string {
	switch {
	case change > 0:
		return "up"
	case change < 0:
		return "down"
	}
	return "flat"
}

// GetLeaderboardOutput is one page of a board.
type GetLeaderboardOutput struct {
	Board       string      `json:"board"`
	Title       string      `json:"title" jsonschema_description:"The board and the period it ranks, e.g. \"Community leaderboard: week of Monday 2026-09-07 (2026-W37)\"."`
	Description string      `json:"description"`
	Metric      string      `json:"metric"`
	Unit        string      `json:"unit"`
	Paid        bool        `json:"paid"`
	Week        string      `json:"week,omitempty"`
	Items       []BoardItem `json:"items"`
	Page
}

// WeekTitle names a launch week for a title: "week of Monday 2026-09-07
// (2026-W37)", after what and a colon.
func WeekTitle(what string, monday time.Time) string {
	y, wk := monday.ISOWeek()
	return fmt.Sprintf("%s: week of Monday %s (%d-W%02d)", what, monday.Format(DateLayout), y, wk)
}

// PaidNote is attached to every billboard item.
const PaidNote = "PAID ranking: placed by money contributed, not by community votes."

// GetLeaderboard returns one page of a leaderboard.
func (s *Service) GetLeaderboard(ctx context.Context, in GetLeaderboardInput) (GetLeaderboardOutput, error) {
	b, ok := Boards[in.Board]
	if !ok {
		return GetLeaderboardOutput{}, Errorf(ENotFound, "No leaderboard %q; the boards are community-weekly, community-all-time, billboard, domain-rating and revenue.", in.Board)
	}
	q := BoardQuery{Board: b.Key, Offset: in.Offset(), Limit: in.Limit()}
	out := GetLeaderboardOutput{Board: b.Key, Title: b.Title + ": " + b.Period, Description: b.Description, Metric: b.Metric, Unit: b.Unit, Paid: b.Paid}
	if strings.HasSuffix(b.Title, b.Period) {
		out.Title = b.Title // "Community leaderboard: all time" names its period already
	}
	if in.Week != "" && b.Key != "community-weekly" {
		return out, Invalid("week", "applies_to", "week applies only to the community-weekly board.")
	}
	if b.Key == "community-weekly" {
		w, err := ParseWeek("week", in.Week, s.now())
		if err != nil {
			return out, err
		}
		if _, _, err := s.launchWeekExists(ctx, w); err != nil {
			return out, err
		}
		q.Week = w
		out.Week = w.Format(DateLayout)
		out.Title = WeekTitle("Community leaderboard", w)
	}
	items, total, err := s.Store.Leaderboard(ctx, q)
	if err != nil {
		return out, err
	}
	for i := range items {
		if b.Paid {
			items[i].Paid = true
			items[i].Note = PaidNote
		}
	}
	page, perPage := in.Norm()
	out.Items, out.Page = nonNil(items), NewPage(page, perPage, total)
	return out, nil
}

// Award is a Launch of the Week award.
type Award struct {
	Week    string         `json:"week"`
	Rank    int            `json:"rank" jsonschema:"minimum=1,maximum=3"`
	Title   string         `json:"title" jsonschema_description:"Launch of the Week #1, #2 or #3."`
	Votes   int            `json:"votes" jsonschema_description:"Community votes in the week that decided the award."`
	Listing ListingSummary `json:"listing"`
}

// ListAwardsInput is the input of list_awards (GET /awards).
type ListAwardsInput struct {
	Listing string `json:"listing,omitempty" jsonschema:"maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"Only awards won by this listing (slug)."`
	Pagination
}

// ListAwardsOutput is one page of awards, newest week first.
type ListAwardsOutput struct {
	Items []Award `json:"items"`
	Page
}

// ListAwards lists Launch of the Week awards newest week first.
func (s *Service) ListAwards(ctx context.Context, in ListAwardsInput) (ListAwardsOutput, error) {
	if in.Listing != "" {
		if _, err := s.publicListing(ctx, in.Listing); err != nil {
			return ListAwardsOutput{}, err
		}
	}
	page, perPage := in.Norm()
	items, total, err := s.Store.Awards(ctx, in.Listing, in.Offset(), perPage)
	if err != nil {
		return ListAwardsOutput{}, err
	}
	return ListAwardsOutput{Items: nonNil(items), Page: NewPage(page, perPage, total)}, nil
}
