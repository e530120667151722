package console

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// The site team's review queue (docs/moderation.md): held votes and reviews
// to count or discard, reviews to hide, listings to disqualify from a week
// before the weekly clock finalises it. Every decision is written to the
// moderation log with the team member's email, in the same transaction as
// the change. Like the rest of admin.go, these are not operations of the
// public catalog: the caller has checked that actor is on the site team.

// Moderation actions, as moderation_log.action stores them.
const (
	ModCountVote     = "count_vote"
	ModDiscardVote   = "discard_vote"
	ModCountReview   = "count_review"
	ModDiscardReview = "discard_review"
	ModHideReview    = "hide_review"
	ModUnhideReview  = "unhide_review"
	ModDisqualify    = "disqualify"
	ModRequalify     = "requalify"
)

// MaxModerationReason bounds the reason of a disqualification.
const MaxModerationReason = 500

// HeldVote is one held vote in the review queue.
type HeldVote struct {
	ID          int64
	ListingID   int64
	ListingSlug string
	ListingName string
	// Email is the voter's account ("" for a vote without an account).
	Email string
	// AccountAt is when the voter's account was created.
	AccountAt time.Time
	// Reason is why it is held (HeldNewAccount, HeldOwner, HeldBurst).
	Reason string
	// CountAt is when a vote held for its account's age counts by itself.
	CountAt *time.Time
	At      time.Time
	// Network and Agent are the stored keyed hashes of the voter's network
	// and User-Agent: equal hashes are the same network or browser.
	Network, Agent string
}

// QueueReview is a review as the site team sees it: held ones to count or
// discard, counted ones to hide, hidden ones to show again.
type QueueReview struct {
	ID          int64
	ListingID   int64
	ListingSlug string
	ListingName string
	// Email is the author's account; AuthorName the name of a review
	// without an account (the demo data's).
	Email      string
	AuthorName string
	Stars      int
	Body       string
	Status     string
	Reason     string
	CountAt    *time.Time
	At         time.Time
	Network    string
	Agent      string
}

// WeekDisqualification is a listing the site team disqualified from a week.
type WeekDisqualification struct {
	Week        string // Monday, YYYY-MM-DD
	ListingID   int64
	ListingSlug string
	ListingName string
	Reason      string
	By          string
	At          time.Time
	// Finalised is true once the weekly clock has finalised the week: the
	// disqualification can no longer be lifted.
	Finalised bool
}

// ModerationEntry is one decision of the moderation log.
type ModerationEntry struct {
	ID                          int64
	Actor                       string
	Action                      string
	VoteID, ReviewID, ListingID int64
	// ListingSlug and ListingName are "" when the listing is gone.
	ListingSlug, ListingName string
	Week, Reason             string
	At                       time.Time
}

// ModerationQueue is what the review queue page shows. The lists hold at
// most the limit asked for; the counts are of every row.
type ModerationQueue struct {
	Votes             []HeldVote
	HeldVotes         int
	Reviews           []QueueReview
	HeldReviews       int
	Recent            []QueueReview // counted and hidden reviews, newest first
	Disqualifications []WeekDisqualification
	Log               []ModerationEntry
}

// Disqualification is a decision to disqualify (or requalify) a listing
// from a week, checked by the Service.
type Disqualification struct {
	Actor  string
	Slug   string
	Week   string
	Reason string
	At     time.Time
}

// ModerationStore keeps the review queue's decisions (storage.Store
// implements it). Each decision method changes its row and writes the
// moderation_log row in one transaction; a decision that finds the row
// already decided is EConflict, a row that is gone ENotFound, and neither
// writes anything.
type ModerationStore interface {
	// ModerationQueue reads the queue, at most limit rows per list.
	ModerationQueue(ctx context.Context, limit int) (*ModerationQueue, error)
	// DecideVote counts (count) or discards held vote id.
	DecideVote(ctx context.Context, actor string, id int64, count bool, at time.Time) error
	// DecideReview applies action (ModCountReview, ModDiscardReview,
	// ModHideReview, ModUnhideReview) to review id.
	DecideReview(ctx context.Context, actor string, id int64, action string, at time.Time) error
	// Disqualify stores d (d.Reason set) or lifts the disqualification of
	// d.Slug from d.Week (lift).
	Disqualify(ctx context.Context, d Disqualification, lift bool) error
}

func (s *Console) moderationStore(actor string) (ModerationStore, error) {
	if s.Moderation == nil {
		return nil, domain.Errorf(domain.EInternal, "the review queue is not configured")
	}
	if strings.TrimSpace(actor) == "" {
		return nil, domain.Errorf(domain.EForbidden, "Only the site team decides in the review queue.")
	}
	return s.Moderation, nil
}

// ModerationQueue reads the site team's review queue, at most limit rows
// per list (limit <= 0: 100).
func (s *Console) ModerationQueue(ctx context.Context, limit int) (*ModerationQueue, error) {
	if s.Moderation == nil {
		return nil, domain.Errorf(domain.EInternal, "the review queue is not configured")
	}
	if limit <= 0 {
		limit = 100
	}
	return s.Moderation.ModerationQueue(ctx, limit)
}

// CountVote counts held vote id, by actor: the votes_count triggers count
// it and the listing's trending score is recomputed. An owner's vote never
// counts (EConflict).
func (s *Console) CountVote(ctx context.Context, actor string, id int64) error {
	st, err := s.moderationStore(actor)
	if err != nil {
		return err
	}
	return st.DecideVote(ctx, actor, id, true, s.now())
}

// DiscardVote discards held vote id, by actor: it stays held (the person
// cannot vote for the listing again) and leaves the queue.
func (s *Console) DiscardVote(ctx context.Context, actor string, id int64) error {
	st, err := s.moderationStore(actor)
	if err != nil {
		return err
	}
	return st.DecideVote(ctx, actor, id, false, s.now())
}

// DecideReview applies action (ModCountReview, ModDiscardReview,
// ModHideReview or ModUnhideReview) to review id, by actor.
func (s *Console) DecideReview(ctx context.Context, actor string, id int64, action string) error {
	st, err := s.moderationStore(actor)
	if err != nil {
		return err
	}
	switch action {
	case ModCountReview, ModDiscardReview, ModHideReview, ModUnhideReview:
	default:
		return domain.Invalid("action", "enum", "%q is not a decision on a review: count, discard, hide or unhide.", action)
	}
	return st.DecideReview(ctx, actor, id, action, s.now())
}

// Disqualify disqualifies listing slug from week (a Monday, YYYY-MM-DD) for
// reason, by actor: the weekly clock skips it when it finalises that week.
// A week already finalised is EConflict.
func (s *Console) Disqualify(ctx context.Context, actor, slug, week, reason string) error {
	st, err := s.moderationStore(actor)
	if err != nil {
		return err
	}
	d, err := checkDisqualification(actor, slug, week, reason, true)
	if err != nil {
		return err
	}
	d.At = s.now()
	return st.Disqualify(ctx, d, false)
}

// Requalify lifts the disqualification of listing slug from week, by
// actor, before the week is finalised (EConflict after).
func (s *Console) Requalify(ctx context.Context, actor, slug, week string) error {
	st, err := s.moderationStore(actor)
	if err != nil {
		return err
	}
	d, err := checkDisqualification(actor, slug, week, "", false)
	if err != nil {
		return err
	}
	d.At = s.now()
	return st.Disqualify(ctx, d, true)
}

// checkDisqualification checks the fields of a disqualification form.
func checkDisqualification(actor, slug, week, reason string, needReason bool) (Disqualification, error) {
	d := Disqualification{Actor: actor, Slug: strings.TrimSpace(slug), Week: strings.TrimSpace(week), Reason: strings.TrimSpace(reason)}
	if d.Slug == "" {
		return d, domain.Invalid("listing", "required", "Name the listing by its slug, as in /listings/<slug>.")
	}
	t, err := time.Parse(domain.DateLayout, d.Week)
	switch {
	case d.Week == "":
		return d, domain.Invalid("week", "required", "Give the week as its Monday, YYYY-MM-DD.")
	case err != nil:
		return d, domain.Invalid("week", "date", "%q is not a date: give the Monday of the week as YYYY-MM-DD.", d.Week)
	case t.Weekday() != time.Monday:
		return d, domain.Invalid("week", "monday", "%s is a %s: launch weeks start on Monday (%s).", d.Week, t.Weekday(), domain.Monday(t).Format(domain.DateLayout))
	}
	if !needReason {
		return d, nil
	}
	if d.Reason == "" {
		return d, domain.Invalid("reason", "required", "Give the reason for the disqualification: it is kept with the week's results.")
	}
	if n := utf8.RuneCountInString(d.Reason); n > MaxModerationReason {
		return d, domain.Invalid("reason", "maxLength", "The reason is at most %d characters; it has %s.", MaxModerationReason, fmt.Sprint(n))
	}
	return d, nil
}
