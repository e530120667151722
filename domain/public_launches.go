package domain

import (
	"context"
	"time"
)

// DateLayout is the spec's date format.
const DateLayout = "2006-01-02"

// Monday returns 00:00 UTC of the Monday of t's week. Weeks run Monday to Sunday UTC.
func Monday(t time.Time) time.Time {
	t = t.UTC()
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	offset := (int(d.Weekday()) + 6) % 7 // Monday=0 ... Sunday=6
	return d.AddDate(0, 0, -offset)
}

// ParseWeek resolves "this", "next", "last" or a YYYY-MM-DD date (snapped to its
// Monday) relative to now. field names the input for the error.
func ParseWeek(field, s string, now time.Time) (time.Time, error) {
	this := Monday(now)
	switch s {
	case "", "this":
		return this, nil
	case "next":
		return this.AddDate(0, 0, 7), nil
	case "last":
		return this.AddDate(0, 0, -7), nil
	}
	d, err := time.Parse(DateLayout, s)
	if err != nil {
		return time.Time{}, Invalid(field, "week", "%s must be this, next, last or a date YYYY-MM-DD; %q is neither.", field, s)
	}
	return Monday(d), nil
}

// GetLaunchWeekInput is the input of get_launch_week (GET /launches/weeks/{week}).
type GetLaunchWeekInput struct {
	Week string `json:"week" jsonschema:"maxLength=10,pattern=^(this|next|last|[0-9]{4}-[0-9]{2}-[0-9]{2})$" jsonschema_description:"this, next, last or a date YYYY-MM-DD (snapped to the Monday of its week)."`
}

// WeekLaunch is a launch of a week with its rank by that week's votes.
type WeekLaunch struct {
	Rank      int            `json:"rank"`
	WeekVotes int            `json:"week_votes" jsonschema_description:"Community votes received during this week."`
	Listing   ListingSummary `json:"listing"`
}

// GetLaunchWeekOutput is one launch week.
type GetLaunchWeekOutput struct {
	Week      string           `json:"week" jsonschema_description:"Monday of the week, YYYY-MM-DD."`
	StartsAt  time.Time        `json:"starts_at"`
	EndsAt    time.Time        `json:"ends_at" jsonschema_description:"End of Sunday, exclusive: the next Monday 00:00 UTC."`
	When      string           `json:"when" jsonschema:"enum=past,enum=current,enum=future"`
	Previous  string           `json:"previous_week,omitempty" jsonschema_description:"Monday of the week before, when the site has it (weeks run from the site's first launch week to a year ahead)."`
	Next      string           `json:"next_week,omitempty" jsonschema_description:"Monday of the week after, when the site has it."`
	Items     []WeekLaunch     `json:"items" jsonschema_description:"Live launches of the week ranked by that week's community votes."`
	Scheduled []ListingSummary `json:"scheduled" jsonschema_description:"Launches scheduled for this week that are not live yet (current and future weeks)."`
}

// GetLaunchWeek returns the launches of one week.
func (s *Service) GetLaunchWeek(ctx context.Context, in GetLaunchWeekInput) (GetLaunchWeekOutput, error) {
	now := s.now()
	monday, err := ParseWeek("week", in.Week, now)
	if err != nil {
		return GetLaunchWeekOutput{}, err
	}
	this := Monday(now)
	first, last, err := s.launchWeekExists(ctx, monday)
	if err != nil {
		return GetLaunchWeekOutput{}, err
	}
	live, scheduled, err := s.Store.WeekLaunches(ctx, monday)
	if err != nil {
		return GetLaunchWeekOutput{}, err
	}
	when := "current"
	switch {
	case monday.Before(this):
		when = "past"
	case monday.After(this):
		when = "future"
	}
	out := GetLaunchWeekOutput{
		Week: monday.Format(DateLayout), StartsAt: monday, EndsAt: monday.AddDate(0, 0, 7), When: when,
		Items: nonNil(live), Scheduled: nonNil(scheduled),
	}
	if prev := monday.AddDate(0, 0, -7); !prev.Before(first) {
		out.Previous = prev.Format(DateLayout)
	}
	if next := monday.AddDate(0, 0, 7); !next.After(last) {
		out.Next = next.Format(DateLayout)
	}
	return out, nil
}

// launchWeekExists returns the site's range of launch weeks, or the
// not_found error of a week outside it. It is the one rule of every read
// that names a week (get_launch_week, the community-weekly board): a week
// before the site's first launch week or more than a year ahead of this week
// does not exist (404), and a week inside the range exists even with no
// launches (docs/weeks.md "Which weeks exist").
func (s *Service) launchWeekExists(ctx context.Context, monday time.Time) (first, last time.Time, err error) {
	first, last, err = s.LaunchWeekRange(ctx)
	if err != nil {
		return first, last, err
	}
	if monday.Before(first) || monday.After(last) {
		return first, last, Errorf(ENotFound, "No launch week %s on this site: weeks run from %s to a year ahead of this week (%s).",
			monday.Format(DateLayout), first.Format(DateLayout), last.Format(DateLayout))
	}
	return first, last, nil
}

// LaunchWeekRange returns the first and the last Monday that have a launch
// week (get_launch_week): from the site's first launch week (this week on a
// new site) to a year ahead of this week.
func (s *Service) LaunchWeekRange(ctx context.Context) (first, last time.Time, err error) {
	this := Monday(s.now())
	st, err := s.Store.SiteStats(ctx)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	first = this
	if !st.FirstWeek.IsZero() && st.FirstWeek.Before(this) {
		first = Monday(st.FirstWeek)
	}
	return first, this.AddDate(1, 0, 0), nil
}

// ListLaunchesInput is the input of list_launches (GET /launches).
type ListLaunchesInput struct {
	Section string `json:"section,omitempty" jsonschema:"enum=today,enum=this-week,enum=trending,enum=most-voted,enum=recent,enum=most-viewed,enum=most-followed,enum=upcoming,default=this-week" jsonschema_description:"Feed section: today, this-week (default), trending (time-decayed votes), most-voted, recent, most-viewed, most-followed or upcoming."`
	Pagination
}

// LaunchQuery is a normalised launch feed request for the Store.
type LaunchQuery struct {
	Section string
	Now     time.Time
	Offset  int
	Limit   int
}

// ListLaunchesOutput is one page of a launch feed.
type ListLaunchesOutput struct {
	Section string           `json:"section"`
	Items   []ListingSummary `json:"items"`
	Page
}

// ListLaunches returns one section of the launch feeds.
func (s *Service) ListLaunches(ctx context.Context, in ListLaunchesInput) (ListLaunchesOutput, error) {
	section := in.Section
	if section == "" {
		section = "this-week"
	}
	page, perPage := in.Norm()
	items, total, err := s.Store.Launches(ctx, LaunchQuery{Section: section, Now: s.now(), Offset: in.Offset(), Limit: perPage})
	if err != nil {
		return ListLaunchesOutput{}, err
	}
	return ListLaunchesOutput{Section: section, Items: nonNil(items), Page: NewPage(page, perPage, total)}, nil
}
