package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// The weekly clock's store (domain.WeekStore, docs/weeks.md): finalised
// weeks, their frozen rankings (week_results, 0015) and awards, and the
// go-live of a week's scheduled launches.

var _ domain.WeekStore = (*Store)(nil)

// The one ranking of a week's launches, used by the clock (FinaliseWeek),
// get_launch_week and the week page (WeekLaunches), the this-week feed and
// the weekly board: more counted votes cast during the week first; on a tie,
// the listing that reached its count first (its last counted vote of the
// week cast earlier); then the one launched earlier; then the one submitted
// first (lower id). ?1 and ?2 bound the week (Unix seconds).
const (
	// weekLastVoteCol is when listing l's last counted vote of the week was cast.
	weekLastVoteCol = `(SELECT MAX(v.created_at) FROM votes v WHERE v.listing_id = l.id AND v.status = 'counted' AND v.created_at >= ?1 AND v.created_at < ?2)`
	weekRankOrder   = weekVotesCol + ` DESC, ` + weekLastVoteCol + `, l.launched_at, l.id`
	// weekLaunchesWhere is the live launches of week ?4 of site ?3.
	weekLaunchesWhere = `l.site_id = ?3 AND l.status = 'live' AND l.launch_week = ?4`
)

// weekArgs are the arguments ?1-?4 of the week ranking for the week of monday.
func (s *Store) weekArgs(monday time.Time) []any {
	return []any{monday.Unix(), monday.AddDate(0, 0, 7).Unix(), s.siteID, monday.Format(domain.DateLayout)}
}

// weekFinalised reports whether week (YYYY-MM-DD) of this site is finalised.
func (s *Store) weekFinalised(ctx context.Context, q queryRower, week string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM finalised_weeks WHERE site_id = ? AND week = ?`, s.siteID, week).Scan(&n)
	return n > 0, mapErr(err, "week", week)
}

// NextUnfinalisedWeek implements domain.WeekStore.
func (s *Store) NextUnfinalisedWeek(ctx context.Context) (time.Time, error) {
	var last, first sql.NullString
	if err := s.db.sql.QueryRowContext(ctx, `SELECT MAX(week) FROM finalised_weeks WHERE site_id = ?`, s.siteID).Scan(&last); err != nil {
		return time.Time{}, mapErr(err, "week", "")
	}
	if last.Valid {
		mon, err := weekStart(last.String)
		return mon.AddDate(0, 0, 7), err
	}
	if err := s.db.sql.QueryRowContext(ctx, `SELECT MIN(launch_week) FROM listings
		WHERE site_id = ? AND status IN ('live', 'scheduled') AND launch_week IS NOT NULL`, s.siteID).Scan(&first); err != nil {
		return time.Time{}, mapErr(err, "week", "")
	}
	if !first.Valid {
		return time.Time{}, nil
	}
	d, err := time.Parse(domain.DateLayout, first.String)
	if err != nil {
		return time.Time{}, fmt.Errorf("storage: launch week %q: %w", first.String, err)
	}
	return domain.Monday(d), nil
}

// StartWeekLaunches implements domain.WeekStore with startWeek, the go-live
// of the paid orders' week-start job.
func (s *Store) StartWeekLaunches(ctx context.Context, week string) (int, error) {
	mon, err := weekStart(week)
	if err != nil {
		return 0, err
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT id FROM listings WHERE site_id = ?1 AND status = 'scheduled' AND launch_week = ?2
		UNION SELECT r.listing_id FROM relaunches r JOIN listings l ON l.id = r.listing_id
		WHERE l.site_id = ?1 AND r.week = ?2 AND r.state = 'booked' ORDER BY 1`, s.siteID, week)
	if err != nil {
		return 0, mapErr(err, "listing", "")
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, mapErr(err, "listing", "")
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, mapErr(err, "listing", "")
	}
	n := 0
	for _, id := range ids {
		ok, err := startWeek(ctx, s.db, s.site, s.siteID, id, week, mon)
		if err != nil {
			return n, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// rankedLaunch is a live launch of a week in the week's ranking.
type rankedLaunch struct {
	id    int64
	slug  string
	votes int
}

// FinaliseWeek implements domain.WeekStore. The week is one transaction,
// retried on PostgreSQL after a serialization failure (DB.inTx): two clocks
// finalising the same week at once (two processes) conflict on its
// finalised_weeks row, and the one run again finds the week finalised.
func (s *Store) FinaliseWeek(ctx context.Context, week string, at time.Time) (*domain.FinalisedWeek, error) {
	mon, err := weekStart(week)
	if err != nil {
		return nil, err
	}
	var out *domain.FinalisedWeek
	err = s.db.inTx(ctx, func(tx *Tx) error {
		out, err = s.finaliseWeek(ctx, tx, week, mon, at)
		return err
	})
	if err != nil {
		return nil, mapErr(err, "week", week)
	}
	return out, nil
}

// finaliseWeek is FinaliseWeek's transaction: nil when week was finalised.
func (s *Store) finaliseWeek(ctx context.Context, tx *Tx, week string, mon, at time.Time) (*domain.FinalisedWeek, error) {
	if done, err := s.weekFinalised(ctx, tx, week); err != nil || done {
		return nil, err
	}
	ranked, err := rankWeek(ctx, tx, s.weekArgs(mon))
	if err != nil {
		return nil, err
	}
	out := &domain.FinalisedWeek{Week: week, FinalisedAt: at.UTC(), Skipped: []domain.SkippedListing{}}
	disq, err := weekDisqualified(ctx, tx, s.siteID, week)
	if err != nil {
		return nil, err
	}
	// Awards are written by the clock alone: rows of an older version that
	// wrote them otherwise (the demo seeder) give way to the clock's.
	if _, err := tx.ExecContext(ctx, `DELETE FROM awards WHERE site_id = ? AND week = ?`, s.siteID, week); err != nil {
		return nil, mapErr(err, "award", week)
	}
	for i, r := range ranked {
		if _, err := tx.ExecContext(ctx, `INSERT INTO week_results (site_id, week, listing_id, rank, votes) VALUES (?, ?, ?, ?, ?)`,
			s.siteID, week, r.id, i+1, r.votes); err != nil {
			return nil, weekErr(err, "week", week)
		}
		if reason, ok := disq[r.id]; ok {
			out.Skipped = append(out.Skipped, domain.SkippedListing{ListingID: r.id, Slug: r.slug, Reason: reason})
			continue
		}
		if len(out.Awards) == domain.AwardPlaces || r.votes == 0 {
			continue
		}
		a := domain.WeekAward{Rank: len(out.Awards) + 1, ListingID: r.id, Slug: r.slug, Votes: r.votes}
		if err := tx.QueryRowContext(ctx, `INSERT INTO awards (site_id, week, rank, listing_id, votes) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			s.siteID, week, a.Rank, a.ListingID, a.Votes).Scan(&a.ID); err != nil {
			return nil, weekErr(err, "award", week)
		}
		if err := notifyAward(ctx, tx, a, at); err != nil {
			return nil, err
		}
		if err := s.addListingEventsTx(ctx, tx, a.ListingID, domain.AwardWonEvent(a, week, at)); err != nil {
			return nil, err
		}
		out.Awards = append(out.Awards, a)
	}
	skipped, err := json.Marshal(out.Skipped)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO finalised_weeks (site_id, week, finalised_at, skipped) VALUES (?, ?, ?, ?)`,
		s.siteID, week, at.Unix(), string(skipped)); err != nil {
		return nil, weekErr(err, "week", week)
	}
	return out, nil
}

// weekErr is mapErr for the rows finaliseWeek inserts. Each is keyed by the
// week, which the transaction read as not finalised: a unique violation means
// a concurrent clock finalised it since (PostgreSQL reports it as such, not
// as a serialization failure, when the row is not the one read), so the
// transaction is marked raced and runs again, finding the week finalised.
func weekErr(err error, kind, week string) error {
	if isPGUniqueViolation(err) {
		return raced{err}
	}
	return mapErr(err, kind, week)
}

// rankWeek returns the live launches of a week in the week's ranking
// (weekRankOrder); args are weekArgs.
func rankWeek(ctx context.Context, tx *Tx, args []any) ([]rankedLaunch, error) {
	rows, err := tx.QueryContext(ctx, `SELECT l.id, l.slug, `+weekVotesCol+` FROM listings l
		WHERE `+weekLaunchesWhere+` ORDER BY `+weekRankOrder, args...)
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	defer rows.Close()
	var out []rankedLaunch
	for rows.Next() {
		var r rankedLaunch
		if err := rows.Scan(&r.id, &r.slug, &r.votes); err != nil {
			return nil, mapErr(err, "listing", "")
		}
		out = append(out, r)
	}
	return out, mapErr(rows.Err(), "listing", "")
}

// weekDisqualified returns the listings the site team disqualified from
// week, each with its reason.
func weekDisqualified(ctx context.Context, tx *Tx, siteID int64, week string) (map[int64]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT listing_id, reason FROM week_disqualifications WHERE site_id = ? AND week = ?`, siteID, week)
	if err != nil {
		return nil, mapErr(err, "week", week)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var reason string
		if err := rows.Scan(&id, &reason); err != nil {
			return nil, mapErr(err, "week", week)
		}
		out[id] = reason
	}
	return out, mapErr(rows.Err(), "week", week)
}

// notifyAward adds a notification of award a for each owner (submitter or
// co-owner) and signed-in follower of the winner, once each, in the order of
// their account ids on both engines (SQLite's UNION returns them sorted,
// PostgreSQL's in hash order), so the mails go out in the same order.
func notifyAward(ctx context.Context, tx *Tx, a domain.WeekAward, at time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO notifications (user_id, listing_id, award_id, created_at)
		SELECT id, ?1, ?2, ?3 FROM (
			SELECT owner_id AS id FROM listings WHERE id = ?1 AND owner_id IS NOT NULL
			UNION SELECT user_id FROM listing_owners WHERE listing_id = ?1
			UNION SELECT u.id FROM follows f JOIN users u ON f.follower_key = 'user:' || u.id WHERE f.listing_id = ?1) AS recipients
		WHERE true ORDER BY id ON CONFLICT (award_id, user_id) DO NOTHING`, a.ListingID, a.ID, at.Unix())
	return mapErr(err, "notification", "")
}

// AwardRecipients implements domain.WeekStore.
func (s *Store) AwardRecipients(ctx context.Context, week string) ([]domain.AwardRecipient, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT n.id, u.email,
		(`+s.db.eng.same("l.owner_id", "u.id")+` OR EXISTS (SELECT 1 FROM listing_owners lo WHERE lo.listing_id = l.id AND lo.user_id = u.id)), l.slug, l.name, a.week, a.rank, a.votes
		FROM notifications n JOIN awards a ON a.id = n.award_id JOIN listings l ON l.id = a.listing_id JOIN users u ON u.id = n.user_id
		WHERE a.site_id = ? AND a.week = ? AND n.mailed_at IS NULL ORDER BY a.rank, n.id`, s.siteID, week)
	if err != nil {
		return nil, mapErr(err, "notification", "")
	}
	defer rows.Close()
	var out []domain.AwardRecipient
	for rows.Next() {
		var r domain.AwardRecipient
		if err := rows.Scan(&r.NotificationID, &r.Email, &r.Owner, &r.ListingSlug, &r.ListingName, &r.Week, &r.Rank, &r.Votes); err != nil {
			return nil, mapErr(err, "notification", "")
		}
		out = append(out, r)
	}
	return out, mapErr(rows.Err(), "notification", "")
}

// FinalisedWeekInfo returns when week was finalised and the listings it
// skipped; ENotFound when it is not finalised.
func (s *Store) FinalisedWeekInfo(ctx context.Context, week string) (*domain.FinalisedWeek, error) {
	var at int64
	var skipped string
	err := s.db.sql.QueryRowContext(ctx, `SELECT finalised_at, skipped FROM finalised_weeks WHERE site_id = ? AND week = ?`,
		s.siteID, week).Scan(&at, &skipped)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, domain.NotFound("finalised week", week)
	}
	if err != nil {
		return nil, mapErr(err, "week", week)
	}
	f := &domain.FinalisedWeek{Week: week, FinalisedAt: time.Unix(at, 0).UTC()}
	return f, decodeJSON(skipped, &f.Skipped, "finalised_weeks skipped")
}
