package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Trophy cabinets (migration 0030, docs/trophies.md).

var _ domain.TrophyStore = (*Store)(nil)

// trophyCols are the columns scanTrophy reads, from trophies t joined with listings l.
const trophyCols = `t.id, t.listing_id, t.platform, t.title, COALESCE(t.rank, 0), t.won_on, t.award_url, t.state, t.method, t.reason,
	t.evidence, t.failures, t.created_at, t.checked_at, t.verified_at, t.unconfirmed_since, t.next_check_at,
	l.slug, l.name, COALESCE(l.url, ''), COALESCE(l.domain, ''), l.status, COALESCE(t.paid_order, '')`

const trophyFrom = ` FROM trophies t JOIN listings l ON l.id = t.listing_id `

func scanTrophy(row interface{ Scan(...any) error }) (domain.TrophyRecord, error) {
	var r domain.TrophyRecord
	var created int64
	var checked, verified, since, next sql.NullInt64
	err := row.Scan(&r.ID, &r.ListingID, &r.Platform, &r.Title, &r.Rank, &r.Date, &r.AwardURL, &r.State, &r.Method, &r.Reason,
		&r.Evidence, &r.Failures, &created, &checked, &verified, &since, &next,
		&r.Slug, &r.ListingName, &r.URL, &r.Domain, &r.ListingStatus, &r.PaidOrder)
	r.CreatedAt = time.Unix(created, 0).UTC()
	r.CheckedAt, r.VerifiedAt, r.UnconfirmedSince, r.NextCheckAt = unixTime(checked), unixTime(verified), unixTime(since), unixTime(next)
	return r, err
}

func unixOrNil(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.Unix()
}

func (s *Store) trophyListing(ctx context.Context, q queryRower, where string, args ...any) (*domain.TrophyListing, error) {
	var l domain.TrophyListing
	err := q.QueryRowContext(ctx, `SELECT l.id, l.slug, l.name, COALESCE(l.url, ''), COALESCE(l.domain, ''), l.status FROM listings l
		WHERE l.site_id = ? AND `+where, append([]any{s.siteID}, args...)...).Scan(&l.ID, &l.Slug, &l.Name, &l.URL, &l.Domain, &l.Status)
	return &l, err
}

// PublicTrophyListing implements domain.TrophyStore.
func (s *Store) PublicTrophyListing(ctx context.Context, slug string) (*domain.TrophyListing, error) {
	l, err := s.trophyListing(ctx, s.db.sql, `l.slug = ? AND `+publicStatus, slug)
	if err != nil {
		return nil, mapErr(err, "listing", slug)
	}
	return l, nil
}

// OwnedTrophyListing implements domain.TrophyStore.
func (s *Store) OwnedTrophyListing(ctx context.Context, userID, id int64) (*domain.TrophyListing, error) {
	l, err := s.trophyListing(ctx, s.db.sql, `l.id = ? AND `+s.db.eng.ownedBy(), id, userID, userID)
	if err == sql.ErrNoRows {
		return nil, notOwned(id)
	}
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	return l, nil
}

func (s *Store) queryTrophies(ctx context.Context, q string, args ...any) ([]domain.TrophyRecord, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+trophyCols+trophyFrom+q, args...)
	if err != nil {
		return nil, mapErr(err, "trophy", "")
	}
	defer rows.Close()
	out := []domain.TrophyRecord{}
	for rows.Next() {
		r, err := scanTrophy(rows)
		if err != nil {
			return nil, mapErr(err, "trophy", "")
		}
		out = append(out, r)
	}
	return out, mapErr(rows.Err(), "trophy", "")
}

// ListingTrophies implements domain.TrophyStore.
func (s *Store) ListingTrophies(ctx context.Context, listingID int64) ([]domain.TrophyRecord, error) {
	return s.queryTrophies(ctx, `WHERE t.site_id = ? AND t.listing_id = ? ORDER BY t.won_on DESC, t.id DESC`, s.siteID, listingID)
}

// Trophy implements domain.TrophyStore.
func (s *Store) Trophy(ctx context.Context, id int64) (*domain.TrophyRecord, error) {
	r, err := scanTrophy(s.db.sql.QueryRowContext(ctx, `SELECT `+trophyCols+trophyFrom+`WHERE t.site_id = ? AND t.id = ?`, s.siteID, id))
	if err != nil {
		return nil, mapErr(err, "trophy", strconv.FormatInt(id, 10))
	}
	return &r, nil
}

// TrophiesInState implements domain.TrophyStore.
func (s *Store) TrophiesInState(ctx context.Context, state string, limit int) ([]domain.TrophyRecord, error) {
	return s.queryTrophies(ctx, `WHERE t.site_id = ? AND t.state = ? ORDER BY t.paid_order IS NULL, t.created_at, t.id LIMIT ?`, s.siteID, state, limit)
}

// AddTrophy implements domain.TrophyStore.
func (s *Store) AddTrophy(ctx context.Context, userID int64, rec *domain.TrophyRecord, job func(id int64) domain.JobSpec) error {
	return s.db.inTx(ctx, func(tx *Tx) error {
		l, err := s.trophyListing(ctx, tx, `l.id = ? AND `+s.db.eng.ownedBy(), rec.ListingID, userID, userID)
		if err == sql.ErrNoRows {
			return notOwned(rec.ListingID)
		}
		if err != nil {
			return mapErr(err, "listing", "")
		}
		var n int
		var same sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT count(*), max(CASE WHEN award_url = ? THEN id END) FROM trophies WHERE listing_id = ?`,
			rec.AwardURL, l.ID).Scan(&n, &same); err != nil {
			return mapErr(err, "trophy", "")
		}
		if same.Valid {
			return domain.Errorf(domain.EConflict, "%s already has trophy %d with this award_url; delete it first to add it again.", l.Name, same.Int64)
		}
		var unlocked string
		if err := tx.QueryRowContext(ctx, `SELECT unlocked_sections FROM listings WHERE id = ?`, l.ID).Scan(&unlocked); err != nil {
			return mapErr(err, "listing", "")
		}
		var sections []string
		if err := json.Unmarshal([]byte(unlocked), &sections); err != nil {
			return fmt.Errorf("listing %d: unlocked_sections %q: %w", l.ID, unlocked, err)
		}
		if slices.Contains(sections, domain.SectionTrophies) {
			if n >= domain.BoughtCabinetTrophies {
				return domain.Invalid("listing_id", "cabinet_limit", "%s's trophy cabinet holds %d trophies won elsewhere, the most a bought cabinet holds; delete one (delete_trophy) to add another.",
					l.Name, domain.BoughtCabinetTrophies)
			}
		} else if n >= domain.FreeCabinetTrophies {
			return domain.Invalid("listing_id", "cabinet_limit", "%s's free trophy cabinet holds %d trophies won elsewhere, the most a free cabinet holds; the trophy_cabinet product (list_products, quote_order) makes room for %d, or delete one (delete_trophy) to add another.",
				l.Name, domain.FreeCabinetTrophies, domain.BoughtCabinetTrophies)
		}
		var rank any
		if rec.Rank > 0 {
			rank = rec.Rank
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO trophies (site_id, listing_id, platform, title, rank, won_on, award_url, state,
			added_by, created_at, next_check_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) RETURNING id`,
			s.siteID, l.ID, rec.Platform, rec.Title, rank, rec.Date, rec.AwardURL, userID, rec.CreatedAt.Unix(), unixOrNil(rec.NextCheckAt)).
			Scan(&rec.ID); err != nil {
			return mapErr(err, "trophy", "")
		}
		rec.State, rec.Slug, rec.ListingName, rec.URL, rec.Domain, rec.ListingStatus = domain.TrophyPending, l.Slug, l.Name, l.URL, l.Domain, l.Status
		return s.db.enqueueTx(ctx, tx, job(rec.ID))
	})
}

// DeleteTrophy implements domain.TrophyStore.
func (s *Store) DeleteTrophy(ctx context.Context, userID, listingID, id int64) (*domain.TrophyRecord, error) {
	var out *domain.TrophyRecord
	err := s.db.inTx(ctx, func(tx *Tx) error {
		if _, err := s.trophyListing(ctx, tx, `l.id = ? AND `+s.db.eng.ownedBy(), listingID, userID, userID); err == sql.ErrNoRows {
			return notOwned(listingID)
		} else if err != nil {
			return mapErr(err, "listing", "")
		}
		r, err := scanTrophy(tx.QueryRowContext(ctx, `SELECT `+trophyCols+trophyFrom+`WHERE t.site_id = ? AND t.id = ? AND t.listing_id = ?`,
			s.siteID, id, listingID))
		if err == sql.ErrNoRows {
			return domain.Errorf(domain.ENotFound, "Listing %d has no trophy %d (list_my_trophies shows its trophies).", listingID, id)
		}
		if err != nil {
			return mapErr(err, "trophy", "")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM trophies WHERE id = ?`, id); err != nil {
			return mapErr(err, "trophy", "")
		}
		out = &r
		return nil
	})
	return out, err
}

// RecordTrophyCheck implements domain.TrophyStore.
func (s *Store) RecordTrophyCheck(ctx context.Context, id int64, due time.Time, d domain.TrophyDecision, next *domain.JobSpec) (bool, error) {
	changed := false
	err := s.db.inTx(ctx, func(tx *Tx) error {
		changed = false
		was, err := s.trophyTx(ctx, tx, id)
		if err == sql.ErrNoRows {
			return nil // deleted since: its old job does nothing
		} else if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE trophies SET state = ?, method = ?, reason = ?, evidence = ?, failures = ?, checked_at = ?,
			verified_at = ?, unconfirmed_since = ?, next_check_at = ? WHERE site_id = ? AND id = ? AND next_check_at = ?`,
			d.State, d.Method, d.Reason, d.Evidence, d.Failures, d.CheckedAt.Unix(), unixOrNil(d.VerifiedAt), unixOrNil(d.UnconfirmedSince),
			unixOrNil(d.NextCheckAt), s.siteID, id, due.Unix())
		if err != nil {
			return mapErr(err, "trophy", "")
		}
		n, err := res.RowsAffected()
		if err != nil || n == 0 {
			return err
		}
		changed = true
		if err := s.trophyVerifiedTx(ctx, tx, was, d); err != nil {
			return err
		}
		if next != nil {
			return s.db.enqueueTx(ctx, tx, *next)
		}
		return nil
	})
	return changed, err
}

// trophyTx reads trophy id of this site inside tx (sql.ErrNoRows: none).
func (s *Store) trophyTx(ctx context.Context, tx *Tx, id int64) (domain.TrophyRecord, error) {
	return scanTrophy(tx.QueryRowContext(ctx, `SELECT `+trophyCols+trophyFrom+`WHERE t.site_id = ? AND t.id = ?`, s.siteID, id))
}

// trophyVerifiedTx writes trophy.verified inside tx when decision d verifies
// trophy was, which was not verified before (pending, rejected or unconfirmed).
func (s *Store) trophyVerifiedTx(ctx context.Context, tx *Tx, was domain.TrophyRecord, d domain.TrophyDecision) error {
	if d.State != domain.TrophyVerified || was.State == domain.TrophyVerified {
		return nil
	}
	at := d.CheckedAt
	if d.VerifiedAt != nil {
		at = *d.VerifiedAt
	}
	return s.addListingEventsTx(ctx, tx, was.ListingID, domain.TrophyVerifiedEvent(&was, d.Method, at))
}

// DecideTrophy implements domain.TrophyStore.
func (s *Store) DecideTrophy(ctx context.Context, id int64, d domain.TrophyDecision) (*domain.TrophyRecord, error) {
	err := s.db.inTx(ctx, func(tx *Tx) error {
		was, err := s.trophyTx(ctx, tx, id)
		if err == sql.ErrNoRows {
			return domain.NotFound("trophy", strconv.FormatInt(id, 10))
		} else if err != nil {
			return mapErr(err, "trophy", "")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE trophies SET state = ?, method = ?, reason = ?, failures = 0, checked_at = ?,
		verified_at = ?, unconfirmed_since = NULL, next_check_at = NULL WHERE site_id = ? AND id = ?`,
			d.State, d.Method, d.Reason, d.CheckedAt.Unix(), unixOrNil(d.VerifiedAt), s.siteID, id); err != nil {
			return mapErr(err, "trophy", "")
		}
		return s.trophyVerifiedTx(ctx, tx, was, d)
	})
	if err != nil {
		return nil, err
	}
	return s.Trophy(ctx, id)
}

// trophyPoints is domain.TrophyPoints in SQL, of a column holding the rank.
func trophyPoints(col string) string {
	return `CASE ` + col + ` WHEN 1 THEN 5 WHEN 2 THEN 3 WHEN 3 THEN 2 ELSE 1 END`
}

// TrophyBoard implements domain.TrophyStore.
func (s *Store) TrophyBoard(ctx context.Context, year, offset, limit int) ([]domain.TrophyBoardEntry, int, error) {
	tWhere, aWhere, pWhere := ``, ``, ``
	args := []any{s.siteID}
	if year > 0 {
		tWhere = ` AND t.won_on >= ? AND t.won_on < ?`
		args = append(args, strconv.Itoa(year)+"-01-01", strconv.Itoa(year+1)+"-01-01")
	}
	args = append(args, s.siteID)
	if year > 0 {
		aWhere = ` AND a.week >= ? AND a.week < ?`
		args = append(args, strconv.Itoa(year)+"-01-01", strconv.Itoa(year+1)+"-01-01")
	}
	args = append(args, s.siteID)
	if year > 0 {
		// A programme win is dated by its last day of voting (voting_closes - 1 s).
		pWhere = ` AND p.voting_closes > ? AND p.voting_closes <= ?`
		jan := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
		args = append(args, jan.Unix(), jan.AddDate(1, 0, 0).Unix())
	}
	from := ` FROM (SELECT x.listing_id, SUM(x.points) AS points, SUM(x.firsts) AS firsts, COUNT(*) AS n FROM (
		SELECT t.listing_id, ` + trophyPoints("t.rank") + ` AS points, CASE WHEN t.rank = 1 THEN 1 ELSE 0 END AS firsts
			FROM trophies t WHERE t.site_id = ? AND t.state = 'verified'` + tWhere + `
		UNION ALL
		SELECT a.listing_id, ` + trophyPoints("a.rank") + `, CASE WHEN a.rank = 1 THEN 1 ELSE 0 END
			FROM awards a WHERE a.site_id = ?` + aWhere + `
		UNION ALL
		SELECT w.listing_id, ` + trophyPoints("w.rank") + `, CASE WHEN w.rank = 1 THEN 1 ELSE 0 END
			FROM programme_winners w JOIN programmes p ON p.id = w.programme_id WHERE p.site_id = ?` + pWhere + `
	) x GROUP BY x.listing_id) b JOIN listings l ON l.id = b.listing_id`
	where := ` WHERE l.site_id = ? AND ` + publicStatus
	args = append(args, s.siteID)
	total, err := s.count(ctx, `SELECT COUNT(*)`+from+where, args...)
	if err != nil || total == 0 {
		return []domain.TrophyBoardEntry{}, total, err
	}
	out := []domain.TrophyBoardEntry{}
	var points, firsts, n int
	err = s.querySummaries(ctx, `SELECT `+summaryCols+`, b.points, b.firsts, b.n`+from+summaryJoins+where+
		` ORDER BY b.points DESC, b.firsts DESC, b.n DESC, l.name, l.id LIMIT ? OFFSET ?`, append(args, limit, offset),
		func() []any { return []any{&points, &firsts, &n} },
		func(ls domain.ListingSummary) {
			out = append(out, domain.TrophyBoardEntry{Rank: offset + len(out) + 1, Listing: ls, Points: points, Trophies: n, Firsts: firsts})
		})
	return out, total, err
}

// FirstPlaces implements domain.TrophyStore.
func (s *Store) FirstPlaces(ctx context.Context, year int) ([]domain.Award, error) {
	where := `a.site_id = ? AND a.rank = 1 AND ` + publicStatus
	args := []any{s.siteID}
	if year > 0 {
		where += ` AND a.week >= ? AND a.week < ?`
		args = append(args, strconv.Itoa(year)+"-01-01", strconv.Itoa(year+1)+"-01-01")
	}
	out := []domain.Award{}
	var week string
	var rank, votes int
	err := s.querySummaries(ctx, `SELECT `+summaryCols+`, a.week, a.rank, a.votes FROM awards a JOIN listings l ON l.id = a.listing_id`+
		summaryJoins+` WHERE `+where+` ORDER BY a.week`, args,
		func() []any { return []any{&week, &rank, &votes} },
		func(ls domain.ListingSummary) {
			out = append(out, domain.Award{Week: week, Rank: rank, Title: awardTitle(rank), Votes: votes, Listing: ls})
		})
	return out, err
}
