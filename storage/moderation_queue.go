package storage

import (
	"context"
	"database/sql"
	"time"

	"github.com/launchdir/launchdir/domain/console"
)

// heldVotesWhere selects the held votes waiting for the site team.
const heldVotesWhere = `FROM votes v JOIN listings l ON l.id = v.listing_id LEFT JOIN users u ON u.id = v.user_id
	WHERE l.site_id = ? AND v.status = 'held' AND v.discarded_at IS NULL`

// queueReviewCols are the columns scanned by scanQueueReview.
// held_reason is "suspended" while the account's suspension holds the
// review (admin_people.go).
var queueReviewCols = `r.id, r.listing_id, l.slug, l.name, COALESCE(u.email, ''), r.author_name, r.stars, r.body,
	r.status, ` + heldReason("review", "r") + `, r.count_at, r.created_at, r.ip_hash, r.ua_hash
	FROM reviews r JOIN listings l ON l.id = r.listing_id LEFT JOIN users u ON u.id = r.user_id`

// ModerationQueue implements console.ModerationStore. Held votes and reviews
// are ordered by listing, then network, then time, so that a burst from one
// network reads as one block.
func (s *Store) ModerationQueue(ctx context.Context, limit int) (*console.ModerationQueue, error) {
	q := &console.ModerationQueue{Votes: []console.HeldVote{}, Reviews: []console.QueueReview{}, Recent: []console.QueueReview{},
		Disqualifications: []console.WeekDisqualification{}, Log: []console.ModerationEntry{}}
	db := s.db.sql
	if err := db.QueryRowContext(ctx, `SELECT count(*) `+heldVotesWhere, s.siteID).Scan(&q.HeldVotes); err != nil {
		return nil, mapErr(err, "vote", "")
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM reviews r JOIN listings l ON l.id = r.listing_id
		WHERE l.site_id = ? AND r.status = 'held'`, s.siteID).Scan(&q.HeldReviews); err != nil {
		return nil, mapErr(err, "review", "")
	}
	err := queryEach(ctx, db, func(rows *sql.Rows) error {
		var v console.HeldVote
		var account, at int64
		var countAt sql.NullInt64
		if err := rows.Scan(&v.ID, &v.ListingID, &v.ListingSlug, &v.ListingName, &v.Email, &account, &v.Reason, &countAt, &at,
			&v.Network, &v.Agent); err != nil {
			return err
		}
		v.AccountAt, v.CountAt, v.At = time.Unix(account, 0).UTC(), unixTime(countAt), time.Unix(at, 0).UTC()
		q.Votes = append(q.Votes, v)
		return nil
	}, `SELECT v.id, v.listing_id, l.slug, l.name, COALESCE(u.email, ''), COALESCE(u.created_at, 0), `+
		// "suspended" while the account's suspension holds it (admin_people.go).
		heldReason("vote", "v")+`, v.count_at,
		v.created_at, v.ip_hash, v.ua_hash `+heldVotesWhere+` ORDER BY l.name, l.id, v.ip_hash, v.created_at, v.id LIMIT ?`, s.siteID, limit)
	if err != nil {
		return nil, mapErr(err, "vote", "")
	}
	reviews := func(list *[]console.QueueReview, query string, args ...any) error {
		return queryEach(ctx, db, func(rows *sql.Rows) error {
			var r console.QueueReview
			var countAt sql.NullInt64
			var at int64
			if err := rows.Scan(&r.ID, &r.ListingID, &r.ListingSlug, &r.ListingName, &r.Email, &r.AuthorName, &r.Stars, &r.Body,
				&r.Status, &r.Reason, &countAt, &at, &r.Network, &r.Agent); err != nil {
				return err
			}
			r.CountAt, r.At = unixTime(countAt), time.Unix(at, 0).UTC()
			*list = append(*list, r)
			return nil
		}, query, args...)
	}
	if err := reviews(&q.Reviews, `SELECT `+queueReviewCols+` WHERE l.site_id = ? AND r.status = 'held'
		ORDER BY l.name, l.id, r.ip_hash, r.created_at, r.id LIMIT ?`, s.siteID, limit); err != nil {
		return nil, mapErr(err, "review", "")
	}
	// Hidden reviews first, so that each stays within reach of Unhide.
	if err := reviews(&q.Recent, `SELECT `+queueReviewCols+` WHERE l.site_id = ? AND r.status IN ('counted', 'hidden')
		ORDER BY r.status = 'hidden' DESC, r.created_at DESC, r.id DESC LIMIT ?`, s.siteID, limit); err != nil {
		return nil, mapErr(err, "review", "")
	}
	err = queryEach(ctx, db, func(rows *sql.Rows) error {
		var d console.WeekDisqualification
		var at int64
		if err := rows.Scan(&d.Week, &d.ListingID, &d.ListingSlug, &d.ListingName, &d.Reason, &d.By, &at, &d.Finalised); err != nil {
			return err
		}
		d.At = time.Unix(at, 0).UTC()
		q.Disqualifications = append(q.Disqualifications, d)
		return nil
	}, `SELECT d.week, d.listing_id, l.slug, l.name, d.reason, d.decided_by, d.created_at, f.week IS NOT NULL
		FROM week_disqualifications d JOIN listings l ON l.id = d.listing_id
		LEFT JOIN finalised_weeks f ON f.site_id = d.site_id AND f.week = d.week
		WHERE d.site_id = ? ORDER BY d.week DESC, l.name, l.id LIMIT ?`, s.siteID, limit)
	if err != nil {
		return nil, mapErr(err, "disqualification", "")
	}
	err = queryEach(ctx, db, func(rows *sql.Rows) error {
		var e console.ModerationEntry
		var at int64
		if err := rows.Scan(&e.ID, &e.Actor, &e.Action, &e.VoteID, &e.ReviewID, &e.ListingID, &e.ListingSlug, &e.ListingName,
			&e.Week, &e.Reason, &at); err != nil {
			return err
		}
		e.At = time.Unix(at, 0).UTC()
		q.Log = append(q.Log, e)
		return nil
	}, `SELECT m.id, m.actor, m.action, COALESCE(m.vote_id, 0), COALESCE(m.review_id, 0), COALESCE(m.listing_id, 0),
		COALESCE(l.slug, ''), COALESCE(l.name, ''), m.week, m.reason, m.created_at
		FROM moderation_log m LEFT JOIN listings l ON l.id = m.listing_id
		WHERE m.site_id = ? ORDER BY m.created_at DESC, m.id DESC LIMIT ?`, s.siteID, limit)
	if err != nil {
		return nil, mapErr(err, "moderation log", "")
	}
	return q, nil
}
