package storage

import (
	"context"
	"database/sql"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// The site team's review queue (docs/moderation.md): every decision changes
// its row and writes its moderation_log row in one transaction, after
// checking that the row is still waiting for that decision.

var _ console.ModerationStore = (*Store)(nil)

// voterOwns is the SQL condition "the account x.user_id owns listing l"
// (its submitter or a co-owner), for a vote or review x.
func voterOwns(e engine, x string) string {
	return `(` + x + `.user_id IS NOT NULL AND (` + e.same("l.owner_id", x+".user_id") + ` OR EXISTS (SELECT 1 FROM listing_owners lo
		WHERE lo.listing_id = l.id AND lo.user_id = ` + x + `.user_id)))`
}

// logDecision writes one moderation_log row.
func (s *Store) logDecision(ctx context.Context, tx *Tx, actor, action string, voteID, reviewID, listingID int64, week, reason string, at time.Time) error {
	null := func(id int64) any {
		if id == 0 {
			return nil
		}
		return id
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO moderation_log (site_id, actor, action, vote_id, review_id, listing_id, week, reason, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, s.siteID, actor, action, null(voteID), null(reviewID), null(listingID), week, reason, at.Unix())
	return err
}

// DecideVote implements console.ModerationStore.
func (s *Store) DecideVote(ctx context.Context, actor string, id int64, count bool, at time.Time) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.decideVote(ctx, actor, id, count, at) })
	return err
}

// decideVote is DecideVote in one transaction (retried by DecideVote).
func (s *Store) decideVote(ctx context.Context, actor string, id int64, count bool, at time.Time) error {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var listingID int64
	var name, status, reason string
	var discarded, owner bool
	err = tx.QueryRowContext(ctx, `SELECT v.listing_id, l.name, v.status, v.held_reason, v.discarded_at IS NOT NULL, `+voterOwns(s.db.eng, "v")+`
		FROM votes v JOIN listings l ON l.id = v.listing_id WHERE v.id = ? AND l.site_id = ?`, id, s.siteID).
		Scan(&listingID, &name, &status, &reason, &discarded, &owner)
	switch {
	case err == sql.ErrNoRows:
		return domain.Errorf(domain.ENotFound, "There is no vote %d: it was taken back by the person, or never existed.", id)
	case err != nil:
		return mapErr(err, "vote", "")
	case status == domain.VoteCounted:
		return domain.Errorf(domain.EConflict, "Vote %d for %s counts already (counted by the site team, or its account became old enough): nothing to decide.", id, name)
	case discarded:
		return domain.Errorf(domain.EConflict, "Vote %d for %s was discarded already: a discarded vote is never counted.", id, name)
	case count && (reason == domain.HeldOwner || owner):
		return domain.Errorf(domain.EConflict, "Vote %d is by an owner of %s: an owner's vote never counts. Discard it to take it out of the queue.", id, name)
	}
	action := console.ModDiscardVote
	if count {
		action = console.ModCountVote
		// The votes_count triggers count it; trending follows its counted votes.
		if _, err := tx.ExecContext(ctx, `UPDATE votes SET status = 'counted', held_reason = '', count_at = NULL WHERE id = ?`, id); err != nil {
			return mapErr(err, "vote", "")
		}
		if err := recomputeTrending(ctx, tx, listingID); err != nil {
			return mapErr(err, "vote", "")
		}
	} else if _, err := tx.ExecContext(ctx, `UPDATE votes SET discarded_at = ?, count_at = NULL WHERE id = ?`, at.Unix(), id); err != nil {
		return mapErr(err, "vote", "")
	}
	if err := s.logDecision(ctx, tx, actor, action, id, 0, listingID, "", reason, at); err != nil {
		return mapErr(err, "moderation log", "")
	}
	return mapErr(tx.Commit(), "vote", "")
}

// reviewDecisions maps a decision on a review to the status it needs and
// the status it sets.
var reviewDecisions = map[string]struct{ from, to, verb string }{
	console.ModCountReview:   {domain.ReviewHeld, domain.ReviewCounted, "counted"},
	console.ModDiscardReview: {domain.ReviewHeld, domain.ReviewDiscarded, "discarded"},
	console.ModHideReview:    {domain.ReviewCounted, domain.ReviewHidden, "hidden"},
	console.ModUnhideReview:  {domain.ReviewHidden, domain.ReviewCounted, "shown again"},
}

// DecideReview implements console.ModerationStore.
func (s *Store) DecideReview(ctx context.Context, actor string, id int64, action string, at time.Time) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.decideReview(ctx, actor, id, action, at) })
	return err
}

// decideReview is DecideReview's transaction (DecideReview retries it).
func (s *Store) decideReview(ctx context.Context, actor string, id int64, action string, at time.Time) error {
	d, ok := reviewDecisions[action]
	if !ok {
		return domain.Invalid("action", "enum", "%q is not a decision on a review.", action)
	}
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var listingID int64
	var name, status, reason string
	var owner bool
	err = tx.QueryRowContext(ctx, `SELECT r.listing_id, l.name, r.status, r.held_reason, `+voterOwns(s.db.eng, "r")+`
		FROM reviews r JOIN listings l ON l.id = r.listing_id WHERE r.id = ? AND l.site_id = ?`, id, s.siteID).
		Scan(&listingID, &name, &status, &reason, &owner)
	switch {
	case err == sql.ErrNoRows:
		return domain.Errorf(domain.ENotFound, "There is no review %d: its author deleted it, or it never existed.", id)
	case err != nil:
		return mapErr(err, "review", "")
	case status != d.from:
		return domain.Errorf(domain.EConflict, "Review %d of %s is %s, so it cannot be %s: only a %s review can.", id, name, status, d.verb, d.from)
	case action == console.ModCountReview && (reason == domain.HeldOwner || owner):
		return domain.Errorf(domain.EConflict, "Review %d is by an owner of %s: an owner's review never counts. Discard it to take it out of the queue.", id, name)
	}
	set := `status = ?`
	if d.to == domain.ReviewCounted {
		set += `, held_reason = '', count_at = NULL`
	}
	if _, err := tx.ExecContext(ctx, `UPDATE reviews SET `+set+` WHERE id = ?`, d.to, id); err != nil {
		return mapErr(err, "review", "")
	}
	if err := s.logDecision(ctx, tx, actor, action, 0, id, listingID, "", reason, at); err != nil {
		return mapErr(err, "moderation log", "")
	}
	if action == console.ModCountReview { // a held review published: review.posted (not on unhide: posted before)
		if err := s.reviewPostedTx(ctx, tx, id, at); err != nil {
			return mapErr(err, "webhook event", "")
		}
	}
	return mapErr(tx.Commit(), "review", "")
}

// Disqualify implements console.ModerationStore.
func (s *Store) Disqualify(ctx context.Context, d console.Disqualification, lift bool) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.disqualify(ctx, d, lift) })
	return err
}

// disqualify is Disqualify's transaction (Disqualify retries it).
func (s *Store) disqualify(ctx context.Context, d console.Disqualification, lift bool) error {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var listingID int64
	var name string
	var week sql.NullString
	err = tx.QueryRowContext(ctx, `SELECT id, name, launch_week FROM listings WHERE site_id = ? AND slug = ?`, s.siteID, d.Slug).
		Scan(&listingID, &name, &week)
	if err == sql.ErrNoRows {
		return domain.Invalid("listing", "exists", "There is no listing %q on this site: give the slug of its page, /listings/<slug>.", d.Slug)
	}
	if err != nil {
		return mapErr(err, "listing", d.Slug)
	}
	var finalised bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM finalised_weeks WHERE site_id = ? AND week = ?)`, s.siteID, d.Week).
		Scan(&finalised); err != nil {
		return mapErr(err, "week", d.Week)
	}
	var reason string
	err = tx.QueryRowContext(ctx, `SELECT reason FROM week_disqualifications WHERE site_id = ? AND week = ? AND listing_id = ?`,
		s.siteID, d.Week, listingID).Scan(&reason)
	if err != nil && err != sql.ErrNoRows {
		return mapErr(err, "disqualification", d.Slug)
	}
	disqualified := err == nil
	action := console.ModDisqualify
	switch {
	case lift && !disqualified:
		return domain.Errorf(domain.ENotFound, "%s is not disqualified from the week of %s: there is nothing to lift.", name, d.Week)
	case !lift && week.String != d.Week:
		launch := "has no launch week yet"
		if week.Valid {
			launch = "launches in the week of " + week.String
		}
		return domain.Invalid("week", "launch_week", "%s %s, not %s: a listing competes only in its launch week.", name, launch, d.Week)
	case finalised:
		return domain.Errorf(domain.EConflict, "The week of %s is finalised already: its awards are written, so its disqualifications can no longer change.", d.Week)
	case !lift && disqualified:
		return domain.Errorf(domain.EConflict, "%s is disqualified from the week of %s already (%s).", name, d.Week, reason)
	case lift:
		action = console.ModRequalify
		_, err = tx.ExecContext(ctx, `DELETE FROM week_disqualifications WHERE site_id = ? AND week = ? AND listing_id = ?`, s.siteID, d.Week, listingID)
	default:
		reason = d.Reason
		_, err = tx.ExecContext(ctx, `INSERT INTO week_disqualifications (site_id, week, listing_id, reason, decided_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, s.siteID, d.Week, listingID, reason, d.Actor, d.At.Unix())
	}
	if err != nil {
		return mapErr(err, "disqualification", d.Slug)
	}
	if err := s.logDecision(ctx, tx, d.Actor, action, 0, 0, listingID, d.Week, reason, d.At); err != nil {
		return mapErr(err, "moderation log", "")
	}
	return mapErr(tx.Commit(), "disqualification", d.Slug)
}
