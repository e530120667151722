package domain

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// The weekly clock (docs/weeks.md): one durable job per week boundary
// (Monday 00:00 UTC) finalises the week that ended (its Launch of the Week
// awards, from counted votes only), makes the new week's scheduled launches
// live, tells the winners' owners and followers, and enqueues the next
// boundary's job. After downtime it catches up every missed week in order.
// awards rows are written by this job alone.

// WeekClockJob is the weekly clock; its key is the Monday of the boundary it
// is due at (YYYY-MM-DD).
const WeekClockJob = "week_clock"

// AwardPlaces is how many awards a week has: Launch of the Week #1 to #3.
const AwardPlaces = 3

type weekClockPayload struct {
	Week string `json:"week"`
}

// WeekAward is one award a finalisation decided.
type WeekAward struct {
	ID        int64
	Rank      int
	ListingID int64
	Slug      string
	Votes     int
}

// SkippedListing is a launch of a finalised week left out of its awards
// because the site team disqualified it, with their reason
// (finalised_weeks.skipped).
type SkippedListing struct {
	ListingID int64  `json:"listing_id"`
	Slug      string `json:"slug"`
	Reason    string `json:"reason"`
}

// FinalisedWeek is what finalising a week decided.
type FinalisedWeek struct {
	Week        string
	FinalisedAt time.Time
	Awards      []WeekAward
	Skipped     []SkippedListing
}

// AwardRecipient is a person told about an award whose mail is not sent yet.
type AwardRecipient struct {
	NotificationID int64
	Email          string
	Owner          bool // an owner of the winning listing; else a follower
	ListingSlug    string
	ListingName    string
	Week           string
	Rank           int
	Votes          int
}

// WeekStore keeps what the weekly clock reads and writes (storage.Store
// implements it).
type WeekStore interface {
	// NextUnfinalisedWeek is the Monday after the site's last finalised
	// week, or, before any, the site's first launch week (the earliest
	// launch_week of a live or scheduled listing); zero when the site has
	// neither.
	NextUnfinalisedWeek(ctx context.Context) (time.Time, error)
	// StartWeekLaunches makes the launches of week happen at the Monday:
	// each listing scheduled for week, or with a relaunch booked for it,
	// goes through the same go-live as the week-start job of a paid order
	// (OrderStore.StartWeek). It returns how many started; 0 when run again.
	StartWeekLaunches(ctx context.Context, week string) (int, error)
	// FinaliseWeek ranks week's live launches (the ranking of
	// get_launch_week), freezes that ranking, awards the top AwardPlaces
	// listings with at least one counted vote that the site team did not
	// disqualify for week, adds a notification per award for each owner and
	// signed-in follower of the winner, and records the week finalised at
	// at, all in one transaction. nil when week was finalised already
	// (nothing changes).
	FinaliseWeek(ctx context.Context, week string, at time.Time) (*FinalisedWeek, error)
	// AwardRecipients lists the notifications of week's awards whose mail
	// is not sent yet.
	AwardRecipients(ctx context.Context, week string) ([]AwardRecipient, error)
	// ClaimMail and ReleaseMail mark a notification's mail sent and unmark
	// it after the mailer failed (as OwnerNewsStore's).
	mailClaims
}

func (s *Service) weekStore() (WeekStore, error) {
	if s.Weeks == nil {
		return nil, Errorf(EInternal, "the weekly clock is not configured")
	}
	return s.Weeks, nil
}

// RegisterWeekJobs registers the weekly clock with the runner. Each run
// turns every week due by now and enqueues the job of the next boundary.
func (s *Service) RegisterWeekJobs(r *Runner) {
	r.Handle(WeekClockJob, JobKind{Run: func(ctx context.Context, j Job) error {
		if _, err := s.TurnWeeks(ctx); err != nil {
			return err
		}
		return s.ScheduleWeekClock(ctx, r.EnqueueAt)
	}, MaxAttempts: 20})
}

// EnsureWeekClock enqueues the clock's job for this week's boundary, due at
// once: at start, serve calls it so that a site always has its clock and a
// process that was down catches up. Idempotent: a queued job of the same week
// is reused, and a run that finds nothing to do only schedules the next one.
func (s *Service) EnsureWeekClock(ctx context.Context, r *Runner) error {
	this := Monday(s.now())
	return r.EnqueueAt(ctx, WeekClockJob, this.Format(DateLayout), weekClockPayload{Week: this.Format(DateLayout)}, this)
}

// ScheduleWeekClock enqueues the clock's job for the next boundary (next
// Monday 00:00 UTC), keyed by that Monday.
func (s *Service) ScheduleWeekClock(ctx context.Context, enqueueAt func(ctx context.Context, kind, key string, payload any, runAt time.Time) error) error {
	next := Monday(s.now()).AddDate(0, 0, 7)
	key := next.Format(DateLayout)
	return enqueueAt(ctx, WeekClockJob, key, weekClockPayload{Week: key}, next)
}

// TurnWeeks brings the site's calendar up to now: for each week from the
// first unfinalised one through last week, in order, it starts that week's
// scheduled launches (if a boundary was missed), finalises the week and
// tells its winners; then it starts this week's scheduled launches. It
// returns what it finalised. Every step is idempotent, so it may run again
// (a retry, a restart, a second process) without deciding anything twice.
func (s *Service) TurnWeeks(ctx context.Context) ([]FinalisedWeek, error) {
	st, err := s.weekStore()
	if err != nil {
		return nil, Permanent(err)
	}
	this := Monday(s.now())
	from, err := st.NextUnfinalisedWeek(ctx)
	if err != nil {
		return nil, err
	}
	var done []FinalisedWeek
	for w := from; !w.IsZero() && w.Before(this); w = w.AddDate(0, 0, 7) {
		week := w.Format(DateLayout)
		if _, err := st.StartWeekLaunches(ctx, week); err != nil {
			return done, fmt.Errorf("start the launches of %s: %w", week, err)
		}
		f, err := st.FinaliseWeek(ctx, week, s.now())
		if err != nil {
			return done, fmt.Errorf("finalise %s: %w", week, err)
		}
		if f != nil {
			done = append(done, *f)
		}
		if err := s.tellWinners(ctx, st, week); err != nil {
			return done, err
		}
	}
	if _, err := st.StartWeekLaunches(ctx, this.Format(DateLayout)); err != nil {
		return done, fmt.Errorf("start this week's launches: %w", err)
	}
	return done, nil
}

// tellWinners mails each notification of week's awards not mailed yet, once
// (mailOnce, as TellFollowers does).
func (s *Service) tellWinners(ctx context.Context, st WeekStore, week string) error {
	if s.Owner == nil || s.Owner.Mailer == nil {
		return nil // no mail configured: the notifications tell them
	}
	to, err := st.AwardRecipients(ctx, week)
	if err != nil {
		return err
	}
	site := s.SiteNow(ctx) // the name in effect now
	for _, r := range to {
		subject, body := awardMail(site, r)
		if err := s.mailOnce(ctx, st, s.Owner.Mailer, r.NotificationID, r.Email, subject, body); err != nil {
			return fmt.Errorf("mail the award %s of %s: %w", AwardTitle(r.Rank), r.ListingSlug, err)
		}
	}
	return nil
}

// AwardTitle is the name of an award of rank 1-3: "Launch of the Week #1".
func AwardTitle(rank int) string { return fmt.Sprintf("Launch of the Week #%d", rank) }

// awardMail is the plain-text mail about an award: to an owner, or to a
// follower of the winner.
func awardMail(site Site, r AwardRecipient) (subject, body string) {
	title := AwardTitle(r.Rank)
	votes := fmt.Sprintf("%d votes", r.Votes)
	if r.Votes == 1 {
		votes = "1 vote"
	}
	var b strings.Builder
	if r.Owner {
		subject = fmt.Sprintf("%s is %s", r.ListingName, title)
		fmt.Fprintf(&b, "Congratulations: %s is %s on %s for the week of %s, with %s from the community.\n\n",
			r.ListingName, title, site.Name, r.Week, votes)
		fmt.Fprintf(&b, "The award is on its page: %s\n", site.ListingPageURL(r.ListingSlug))
		fmt.Fprintf(&b, "All awards: %s\n\n", site.URL("/awards"))
		fmt.Fprintf(&b, "You get this because you own %s on %s.\n", r.ListingName, site.Name)
	} else {
		subject = fmt.Sprintf("%s, which you follow, is %s", r.ListingName, title)
		fmt.Fprintf(&b, "%s is %s on %s for the week of %s, with %s from the community.\n\n",
			r.ListingName, title, site.Name, r.Week, votes)
		fmt.Fprintf(&b, "See it: %s\n", site.ListingPageURL(r.ListingSlug))
		fmt.Fprintf(&b, "Your notifications: %s\n\n", site.URL(NotificationsPath))
		fmt.Fprintf(&b, "You get this because you follow %s. Unfollow on its page to stop.\n", r.ListingName)
	}
	return subject, b.String()
}
