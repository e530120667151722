package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/domain"
)

var _ domain.FreeStore = (*Store)(nil)

// The free queue (docs/free-launch.md): listings.launch_week and status are
// the queue; free_queue holds when each listing joined and its badge check
// schedule; badge_checks every check.

// freeCounted is the SQL condition "listing q takes a place in its launch
// week": free, and awaiting the badge, scheduled or live (skip_queue weeks
// included, since they are launch_week too).
const freeCounted = `q.plan = 'free' AND q.status IN ('awaiting_badge', 'scheduled', 'live')`

// FreeSettings implements domain.FreeStore.
func (s *Store) FreeSettings(ctx context.Context) (domain.FreeSettings, error) {
	return s.freeSettings(ctx, s.db.sql)
}

func (s *Store) freeSettings(ctx context.Context, q queryRower) (domain.FreeSettings, error) {
	var raw string
	if err := q.QueryRowContext(ctx, `SELECT settings FROM sites WHERE id = ?`, s.siteID).Scan(&raw); err != nil {
		return domain.FreeSettings{}, mapErr(err, "site", s.site.Key)
	}
	var set domain.FreeSettings
	if err := decodeJSON(raw, &set, "site settings"); err != nil {
		return set, err
	}
	if err := s.overlayFreeSettings(ctx, q, &set); err != nil {
		return set, err
	}
	return set.Norm(), nil
}

// JoinFreeQueue implements domain.FreeStore. The write transaction starts
// IMMEDIATE (the DSN's _txlock), so two joins never count a week at once and
// a week never takes more than its capacity.
func (s *Store) JoinFreeQueue(ctx context.Context, userID, id int64, now, check time.Time, jobs ...domain.JobSpec) (bool, error) {
	return retry(ctx, func() (bool, error) { return s.joinFreeQueue(ctx, userID, id, now, check, jobs...) })
}

// joinFreeQueue is JoinFreeQueue's transaction (JoinFreeQueue retries it).
func (s *Store) joinFreeQueue(ctx context.Context, userID, id int64, now, check time.Time, jobs ...domain.JobSpec) (bool, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return false, mapErr(err, "listing", "")
	}
	defer tx.Rollback()
	if _, err := s.OwnedListingSlug(ctx, tx, userID, id); err != nil {
		return false, err
	}
	var status, plan, week string
	if err := tx.QueryRowContext(ctx, `SELECT status, plan, COALESCE(launch_week, '') FROM listings WHERE id = ?`, id).
		Scan(&status, &plan, &week); err != nil {
		return false, mapErr(err, "listing", strconv.FormatInt(id, 10))
	}
	if err := joinRule(id, status, plan, week); err != nil {
		return false, err
	}
	if status == domain.ListingAwaitingBadge {
		// Queued already (by an earlier call, or by a skip_queue order from a
		// draft): it keeps its week; the row orders it in that week.
		if _, err := tx.ExecContext(ctx, `INSERT INTO free_queue (listing_id, queued_at) VALUES (?, ?)
			ON CONFLICT (listing_id) DO NOTHING`, id, now.Unix()); err != nil {
			return false, mapErr(err, "free queue", "")
		}
		return false, mapErr(tx.Commit(), "free queue", "")
	}
	set, err := s.freeSettings(ctx, tx)
	if err != nil {
		return false, err
	}
	weeks := set.FreeWeeks(now)
	chosen, err := s.weekWithRoom(ctx, tx, weeks, set.WeekCapacity)
	if err != nil {
		return false, err
	}
	if chosen == "" {
		return false, domain.Errorf(domain.EConflict, "Every free launch week from %s to %s is full (%d free listings a week). "+
			"Try again later, or launch now or in a week of your choice with a paid launch: create_checkout with an item "+
			"{\"product\": \"launch\", \"listing_id\": %d}.", weeks[0], weeks[len(weeks)-1], set.WeekCapacity, id)
	}
	mon, err := weekStart(chosen)
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE listings SET status = 'awaiting_badge', launch_week = ?, scheduled_at = ?,
		updated_at = ? WHERE id = ?`, chosen, mon.Unix(), now.Unix(), id); err != nil {
		return false, mapErr(err, "listing", "")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO free_queue (listing_id, queued_at, next_check_at) VALUES (?, ?, ?)
		ON CONFLICT (listing_id) DO UPDATE SET queued_at = excluded.queued_at, next_check_at = excluded.next_check_at, misses = 0`,
		id, now.Unix(), check.Unix()); err != nil {
		return false, mapErr(err, "free queue", "")
	}
	if err := s.db.enqueueTx(ctx, tx, jobs...); err != nil {
		return false, err
	}
	return true, mapErr(tx.Commit(), "free queue", "")
}

// joinRule says why a listing in status on plan cannot join the free queue
// (nil when it can, or is in it already).
func joinRule(id int64, status, plan, week string) error {
	conflict := func(format string, args ...any) error {
		return domain.Errorf(domain.EConflict, "Listing %d "+format, append([]any{id}, args...)...)
	}
	if plan == domain.PlanPaid {
		if status == domain.ListingLive {
			return conflict("is live on the paid plan; the free queue is for listings not launched yet (relaunch is in list_products).")
		}
		if week == "" {
			week = "not chosen yet"
		}
		return conflict("is on the paid plan: it launches with its paid launch (week %s), not in the free queue.", week)
	}
	switch status {
	case domain.ListingDraft, domain.ListingSubmitted, domain.ListingAwaitingBadge:
		return nil
	case domain.ListingScheduled:
		return conflict("is already scheduled for the week of %s and goes live when it starts: keep our badge on its homepage until then "+
			"(get_my_listing shows the checks).", week)
	case domain.ListingLive:
		return conflict("is already live. To launch it again, order relaunch (list_products).")
	case domain.ListingRejected:
		return conflict("was rejected by the site team and cannot be launched; edit it with update_my_listing and write to the site team.")
	case domain.ListingArchived:
		return conflict("is archived and cannot be launched; write to the site team to restore it.")
	}
	return conflict("is %s and cannot join the free queue.", status)
}

// weekWithRoom returns the first of weeks taking fewer than capacity free
// listings, inside tx; "" when all are full.
func (s *Store) weekWithRoom(ctx context.Context, tx *Tx, weeks []string, capacity int) (string, error) {
	for _, w := range weeks {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM listings q WHERE q.site_id = ? AND q.launch_week = ? AND `+
			freeCounted, s.siteID, w).Scan(&n); err != nil {
			return "", mapErr(err, "free queue", w)
		}
		if n < capacity {
			return w, nil
		}
	}
	return "", nil
}

// freeTargetSQL reads a listing for a badge check (freeTarget).
const freeTargetSQL = `SELECT l.id, l.slug, l.name, l.url, l.status, l.plan, COALESCE(l.launch_week, ''), l.launched_at,
	COALESCE(fq.misses, 0), fq.next_check_at, fq.listing_id IS NOT NULL, COALESCE(u.email, '')
	FROM listings l LEFT JOIN free_queue fq ON fq.listing_id = l.id LEFT JOIN users u ON u.id = l.owner_id
	WHERE l.site_id = ? AND l.id = ?`

func (s *Store) freeTarget(ctx context.Context, q queryRower, id int64) (*domain.FreeTarget, error) {
	var t domain.FreeTarget
	var week string
	var launched, next sql.NullInt64
	err := q.QueryRowContext(ctx, freeTargetSQL, s.siteID, id).Scan(&t.ID, &t.Slug, &t.Name, &t.URL, &t.State.Status,
		&t.State.Plan, &week, &launched, &t.State.Misses, &next, &t.Queued, &t.OwnerEmail)
	if err != nil {
		return nil, mapErr(err, "listing", strconv.FormatInt(id, 10))
	}
	if week != "" {
		if t.State.Week, err = weekStart(week); err != nil {
			return nil, err
		}
	}
	t.State.LaunchedAt = unixTime(launched)
	if next.Valid {
		t.NextCheckAt = time.Unix(next.Int64, 0).UTC()
	}
	return &t, nil
}

// FreeTarget implements domain.FreeStore.
func (s *Store) FreeTarget(ctx context.Context, id int64) (*domain.FreeTarget, error) {
	return s.freeTarget(ctx, s.db.sql, id)
}

// RecordBadgeCheck implements domain.FreeStore.
func (s *Store) RecordBadgeCheck(ctx context.Context, id int64, c *domain.BadgeCheck, now time.Time,
	jobs func(*domain.FreeOutcome) []domain.JobSpec) (*domain.FreeOutcome, error) {
	return retry(ctx, func() (*domain.FreeOutcome, error) { return s.recordBadgeCheck(ctx, id, c, now, jobs) })
}

// recordBadgeCheck is RecordBadgeCheck's transaction (RecordBadgeCheck retries it).
func (s *Store) recordBadgeCheck(ctx context.Context, id int64, c *domain.BadgeCheck, now time.Time,
	jobs func(*domain.FreeOutcome) []domain.JobSpec) (*domain.FreeOutcome, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	defer tx.Rollback()
	t, err := s.freeTarget(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	st := t.State
	exec := func(query string, args ...any) error {
		_, err := tx.ExecContext(ctx, query, args...)
		return mapErr(err, "free queue", strconv.FormatInt(id, 10))
	}
	if c == nil || !domain.FreeCheckable(st, now) {
		// Not checked (any more): end the checks, record nothing.
		if err := exec(`UPDATE free_queue SET next_check_at = NULL WHERE listing_id = ?`, id); err != nil {
			return nil, err
		}
		out := &domain.FreeOutcome{Step: domain.FreeStep{Status: st.Status, Misses: st.Misses, Stop: true}}
		if !st.Week.IsZero() {
			out.Week = st.Week.Format(domain.DateLayout)
		}
		if err := s.withJobs(ctx, tx, out, jobs); err != nil {
			return nil, err
		}
		return out, mapErr(tx.Commit(), "free queue", "")
	}
	set, err := s.freeSettings(ctx, tx)
	if err != nil {
		return nil, err
	}
	mark, err := listingMarkTx(ctx, tx, id) // for the listing state events
	if err != nil {
		return nil, err
	}
	step := domain.FreeTransition(st, c.Found, now)
	week, launched := st.Week, st.LaunchedAt
	if step.MoveWeek {
		w, err := s.weekWithRoom(ctx, tx, domain.LaterWeeks(now), set.WeekCapacity)
		if err != nil {
			return nil, err
		}
		if w == "" { // a year of full weeks: keep the week and try at the next check
			step.MoveWeek, step.Mail = false, ""
		} else if week, err = weekStart(w); err != nil {
			return nil, err
		}
	}
	switch {
	case step.Live:
		week, launched = domain.Monday(now), &now
		err = exec(`UPDATE listings SET status = 'live', launch_week = ?, launched_at = ?, updated_at = ? WHERE id = ?`,
			week.Format(domain.DateLayout), now.Unix(), now.Unix(), id)
	case step.Status == domain.ListingDraft: // unpublished: out of the queue
		week, launched = time.Time{}, nil
		err = exec(`UPDATE listings SET status = 'draft', launch_week = NULL, scheduled_at = NULL, launched_at = NULL,
			updated_at = ? WHERE id = ?`, now.Unix(), id)
	case step.Status != st.Status || step.MoveWeek:
		err = exec(`UPDATE listings SET status = ?, launch_week = ?, scheduled_at = ?, updated_at = ? WHERE id = ?`,
			step.Status, week.Format(domain.DateLayout), week.Unix(), now.Unix(), id)
	}
	if err != nil {
		return nil, err
	}
	var next time.Time
	if !step.Stop {
		next = domain.NextFreeCheck(step.Status, week, launched, now, set)
	}
	moved := 0
	if step.MoveWeek {
		moved = 1
	}
	if err := exec(`INSERT INTO free_queue (listing_id, queued_at, next_check_at, misses, moves) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (listing_id) DO UPDATE SET next_check_at = excluded.next_check_at, misses = excluded.misses,
		moves = free_queue.moves + excluded.moves`, id, now.Unix(), nullUnix(next), step.Misses, moved); err != nil {
		return nil, err
	}
	// badge.found / badge.lost when this check's finding differs from the
	// previous check's (the first check raises badge.found when it finds it).
	var before sql.NullBool
	if err := tx.QueryRowContext(ctx, `SELECT found FROM badge_checks WHERE listing_id = ? ORDER BY checked_at DESC, id DESC LIMIT 1`,
		id).Scan(&before); err != nil && err != sql.ErrNoRows {
		return nil, mapErr(err, "badge check", "")
	}
	switch was := before.Valid && before.Bool; {
	case c.Found && !was:
		err = s.addListingEventsTx(ctx, tx, id, domain.BadgeFoundEvent(id, t.Slug, c))
	case !c.Found && was:
		err = s.addListingEventsTx(ctx, tx, id, domain.BadgeLostEvent(id, t.Slug, c))
	}
	if err != nil {
		return nil, err
	}
	// listing.published / scheduled / live of what the check did: a free
	// listing scheduled for its week, or live when its week has started.
	if err := s.db.addListingStateEventsTx(ctx, tx, s.site, s.siteID, id, mark, now); err != nil {
		return nil, err
	}
	if err := exec(`INSERT INTO badge_checks (listing_id, checked_at, page_url, found, link, error, status)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, id, c.CheckedAt.Unix(), c.PageURL, c.Found, c.Link, c.Error, step.Status); err != nil {
		return nil, err
	}
	out := &domain.FreeOutcome{Step: step, NextCheckAt: next}
	if !week.IsZero() {
		out.Week = week.Format(domain.DateLayout)
	}
	if err := s.withJobs(ctx, tx, out, jobs); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, mapErr(err, "free queue", "")
	}
	return out, nil
}

// withJobs stores in tx the jobs that the outcome of a badge check needs.
func (s *Store) withJobs(ctx context.Context, tx *Tx, out *domain.FreeOutcome, jobs func(*domain.FreeOutcome) []domain.JobSpec) error {
	if jobs == nil {
		return nil
	}
	return s.db.enqueueTx(ctx, tx, jobs(out)...)
}

// nullUnix is t as Unix seconds, NULL for the zero time.
func nullUnix(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.Unix()
}

// FreeQueue implements domain.FreeStore. The queue position of a listing is
// 1 + the free listings awaiting the badge or scheduled for an earlier week,
// or for the same week and queued before it (free_queue.queued_at; a listing
// without a row, queued by a skip_queue order alone, counts from its
// creation; ties by id).
func (s *Store) FreeQueue(ctx context.Context, ids []int64) (map[int64]domain.FreeQueueFacts, error) {
	out := map[int64]domain.FreeQueueFacts{}
	if len(ids) == 0 {
		return out, nil
	}
	set, err := s.FreeSettings(ctx)
	if err != nil {
		return nil, err
	}
	args := []any{s.siteID}
	for _, id := range ids {
		args = append(args, id)
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT l.id, fq.listing_id IS NOT NULL, fq.next_check_at,
		CASE WHEN l.plan = 'free' AND l.status IN ('awaiting_badge', 'scheduled') AND l.launch_week IS NOT NULL THEN
			1 + (SELECT count(*) FROM listings q LEFT JOIN free_queue qf ON qf.listing_id = q.id
				WHERE q.site_id = l.site_id AND q.plan = 'free' AND q.status IN ('awaiting_badge', 'scheduled')
				AND (q.launch_week < l.launch_week OR (q.launch_week = l.launch_week
					AND (COALESCE(qf.queued_at, q.created_at), q.id) < (COALESCE(fq.queued_at, l.created_at), l.id))))
		ELSE 0 END
		FROM listings l LEFT JOIN free_queue fq ON fq.listing_id = l.id
		WHERE l.site_id = ? AND l.id IN (`+placeholders(len(ids))+`)`, args...)
	if err != nil {
		return nil, mapErr(err, "free queue", "")
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var queued bool
		var next sql.NullInt64
		var pos int
		if err := rows.Scan(&id, &queued, &next, &pos); err != nil {
			return nil, mapErr(err, "free queue", "")
		}
		if !queued && pos == 0 {
			continue
		}
		f := domain.FreeQueueFacts{Position: pos, Checks: domain.BadgeChecks{EveryHours: set.CheckHours, NextCheckAt: unixTime(next)}}
		out[id] = f
	}
	if err := rows.Err(); err != nil {
		return nil, mapErr(err, "free queue", "")
	}
	for id, f := range out {
		if f.Checks.Last, err = s.lastBadgeCheck(ctx, id); err != nil {
			return nil, err
		}
		out[id] = f
	}
	return out, nil
}

// lastBadgeCheck is listing id's latest check, nil before the first.
func (s *Store) lastBadgeCheck(ctx context.Context, id int64) (*domain.BadgeCheck, error) {
	var c domain.BadgeCheck
	var at int64
	err := s.db.sql.QueryRowContext(ctx, `SELECT checked_at, page_url, found, link, error, status FROM badge_checks
		WHERE listing_id = ? ORDER BY id DESC LIMIT 1`, id).Scan(&at, &c.PageURL, &c.Found, &c.Link, &c.Error, &c.Status)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("storage: badge check of listing %d: %w", id, err)
	}
	c.CheckedAt = time.Unix(at, 0).UTC()
	return &c, nil
}
