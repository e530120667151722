package domain

import (
	"context"
	"time"
)

// VoteDay is the number of counted votes a listing got on one day (UTC).
type VoteDay struct {
	Day   string // YYYY-MM-DD
	Votes int
}

// VoteDayCounter tells when a listing's counted votes were cast
// (Service.VoteDays).
type VoteDayCounter interface {
	// CountedVoteTimes returns the times of listing slug's counted votes cast
	// in [from, to), in any order.
	CountedVoteTimes(ctx context.Context, slug string, from, to time.Time) ([]time.Time, error)
}

// LaunchWeekVotes returns the counted votes listing slug got on each day of
// its launch week (week is its Monday, YYYY-MM-DD), up to today: nil when
// the week has not started, the week does not parse or the store cannot tell.
// The listing page draws them.
func (s *Service) LaunchWeekVotes(ctx context.Context, slug, week string) ([]VoteDay, error) {
	c := s.VoteDays
	if c == nil || week == "" {
		return nil, nil
	}
	start, err := time.Parse(time.DateOnly, week)
	if err != nil {
		return nil, nil
	}
	now := s.now()
	if now.Before(start) {
		return nil, nil
	}
	days := 7
	if d := int(now.Sub(start)/(24*time.Hour)) + 1; d < days {
		days = d // the week is under way: its days so far
	}
	times, err := c.CountedVoteTimes(ctx, slug, start, start.AddDate(0, 0, days))
	if err != nil {
		return nil, err
	}
	out := make([]VoteDay, days)
	for i := range out {
		out[i].Day = start.AddDate(0, 0, i).Format(time.DateOnly)
	}
	for _, t := range times {
		if i := int(t.UTC().Sub(start) / (24 * time.Hour)); i >= 0 && i < days {
			out[i].Votes++
		}
	}
	return out, nil
}
