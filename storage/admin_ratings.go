package storage

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// Domain Rating imports and revenue figures (domain/console/ratings.go,
// domain/console/revenue.go; migration 0023).

var (
	_ console.RatingsStore = (*Store)(nil)
	_ console.RevenueStore = (*Store)(nil)
)

// CreateRatingImport implements console.RatingsStore: the import and its
// rows in one transaction, the rows through one prepared statement.
func (s *Store) CreateRatingImport(ctx context.Context, imp *console.RatingImport) (int64, error) {
	var id int64
	err := s.db.inTx(ctx, func(tx *Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO rating_imports (site_id, file_name, source, actor, status, accepted, refused, created_at)
		VALUES (?, ?, ?, ?, 'pending', ?, ?, ?) RETURNING id`,
			s.siteID, imp.FileName, imp.Source, imp.Actor, imp.Accepted, imp.Refused, imp.CreatedAt.Unix()).Scan(&id)
		if err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO rating_import_rows (import_id, line, domain, date, value, reason, raw) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer ins.Close()
		for _, r := range imp.Rows {
			if _, err := ins.ExecContext(ctx, id, r.Line, r.Domain, r.Date, r.Value, r.Reason, r.Raw); err != nil {
				return mapErr(err, "rating import row", "")
			}
		}
		return nil
	})
	if err != nil {
		return 0, mapErr(err, "rating import", "")
	}
	return id, nil
}

const ratingImportCols = `id, file_name, source, actor, status, accepted, refused, added, updated, unchanged, created_at, decided_by, decided_at`

func scanRatingImport(sc interface{ Scan(...any) error }) (console.RatingImport, error) {
	var imp console.RatingImport
	var created int64
	var decided sql.NullInt64
	err := sc.Scan(&imp.ID, &imp.FileName, &imp.Source, &imp.Actor, &imp.Status, &imp.Accepted, &imp.Refused,
		&imp.Added, &imp.Updated, &imp.Unchanged, &created, &imp.DecidedBy, &decided)
	imp.CreatedAt, imp.DecidedAt = time.Unix(created, 0).UTC(), unixTime(decided)
	return imp, err
}

// RatingImport implements console.RatingsStore.
func (s *Store) RatingImport(ctx context.Context, id int64) (*console.RatingImport, error) {
	return s.ratingImport(ctx, s.db.sql, id)
}

type queryRowQueryer interface {
	queryer
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Store) ratingImport(ctx context.Context, q queryRowQueryer, id int64) (*console.RatingImport, error) {
	imp, err := scanRatingImport(q.QueryRowContext(ctx, `SELECT `+ratingImportCols+` FROM rating_imports WHERE id = ? AND site_id = ?`, id, s.siteID))
	if err != nil {
		return nil, mapErr(err, "rating import", "#"+strconv.FormatInt(id, 10))
	}
	err = queryEach(ctx, q, func(rows *sql.Rows) error {
		var r console.RatingRow
		var stored sql.NullInt64
		if err := rows.Scan(&r.Line, &r.Domain, &r.Date, &r.Value, &r.Reason, &r.Raw, &r.Listing, &stored); err != nil {
			return err
		}
		if stored.Valid {
			v := int(stored.Int64)
			r.Stored = &v
		}
		imp.Rows = append(imp.Rows, r)
		return nil
	}, `SELECT r.line, r.domain, r.date, r.value, r.reason, r.raw,
			COALESCE((SELECT l.name FROM listings l WHERE l.site_id = ? AND l.domain = r.domain AND r.domain <> '' ORDER BY l.id LIMIT 1), ''),
			(SELECT d.value FROM domain_ratings d WHERE d.domain = r.domain AND d.date = r.date AND d.source = ?)
		FROM rating_import_rows r WHERE r.import_id = ? ORDER BY r.line`, s.siteID, imp.Source, id)
	if err != nil {
		return nil, mapErr(err, "rating import", "")
	}
	return &imp, nil
}

// RatingImports implements console.RatingsStore.
func (s *Store) RatingImports(ctx context.Context, limit int) ([]console.RatingImport, error) {
	out := []console.RatingImport{}
	err := queryEach(ctx, s.db.sql, func(rows *sql.Rows) error {
		imp, err := scanRatingImport(rows)
		out = append(out, imp)
		return err
	}, `SELECT `+ratingImportCols+` FROM rating_imports WHERE site_id = ? ORDER BY id DESC LIMIT ?`, s.siteID, limit)
	return out, mapErr(err, "rating imports", "")
}

// DecideRatingImport implements console.RatingsStore. A confirmation writes
// each accepted row into domain_ratings keyed by (domain, date, source),
// with the site's listing of that domain when there is one, and counts the
// readings added, updated (another value was stored for the same key) and
// unchanged.
func (s *Store) DecideRatingImport(ctx context.Context, id int64, status, actor string, at time.Time, audit func(console.RatingImport) *console.AuditEntry) (*console.RatingImport, error) {
	var imp *console.RatingImport
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var err error
		imp, err = s.decideRatingImport(ctx, tx, id, status, actor, at, audit)
		return err
	})
	if err != nil {
		return nil, mapErr(err, "rating import", "")
	}
	return imp, nil
}

// decideRatingImport is DecideRatingImport's transaction. Two decisions of
// one import race on its pending status: on SQLite the writers are
// serialised, on PostgreSQL the loser's transaction fails to serialize and
// is run again by DB.inTx, and then finds the import decided (EConflict).
func (s *Store) decideRatingImport(ctx context.Context, tx *Tx, id int64, status, actor string, at time.Time, audit func(console.RatingImport) *console.AuditEntry) (*console.RatingImport, error) {
	imp, err := s.ratingImport(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if imp.Status != console.ImportPending {
		return nil, domain.Errorf(domain.EConflict, "Import #%d was %s already.", id, imp.Status)
	}
	if status == console.ImportConfirmed {
		for _, r := range imp.Rows {
			switch {
			case r.Refused():
				continue
			case r.Stored == nil:
				imp.Added++
			case *r.Stored != r.Value:
				imp.Updated++
			default:
				imp.Unchanged++
				continue
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO domain_ratings (domain, listing_id, date, value, source)
				VALUES (?1, (SELECT id FROM listings WHERE site_id = ?5 AND domain = ?1 ORDER BY id LIMIT 1), ?2, ?3, ?4)
				ON CONFLICT (domain, date, source) DO UPDATE SET value = excluded.value,
					listing_id = COALESCE(excluded.listing_id, domain_ratings.listing_id)`,
				r.Domain, r.Date, r.Value, imp.Source, s.siteID)
			if err != nil {
				return nil, mapErr(err, "domain rating", r.Domain)
			}
		}
	}
	imp.Status, imp.DecidedBy = status, actor
	t := at.UTC().Truncate(time.Second)
	imp.DecidedAt = &t
	_, err = tx.ExecContext(ctx, `UPDATE rating_imports SET status = ?, added = ?, updated = ?, unchanged = ?, decided_by = ?, decided_at = ?
		WHERE id = ? AND status = 'pending'`, status, imp.Added, imp.Updated, imp.Unchanged, actor, at.Unix(), id)
	if err != nil {
		return nil, mapErr(err, "rating import", "")
	}
	if e := audit(*imp); e != nil {
		if err := s.writeAudit(ctx, tx, *e); err != nil {
			return nil, err
		}
	}
	return imp, nil
}

// RevenueListing implements console.RevenueStore.
func (s *Store) RevenueListing(ctx context.Context, slug string) (int64, string, error) {
	var id int64
	var name string
	err := s.db.sql.QueryRowContext(ctx, `SELECT id, name FROM listings WHERE site_id = ? AND slug = ?`, s.siteID, slug).Scan(&id, &name)
	return id, name, mapErr(err, "listing", slug)
}

// RevenueFigures implements console.RevenueStore.
func (s *Store) RevenueFigures(ctx context.Context, listingID int64, limit int) ([]console.RevenueFigure, error) {
	out := []console.RevenueFigure{}
	err := queryEach(ctx, s.db.sql, func(rows *sql.Rows) error {
		var f console.RevenueFigure
		var at int64
		if err := rows.Scan(&f.ListingID, &f.Listing, &f.Slug, &f.Month, &f.AmountCents, &f.Currency, &f.Source, &f.SetBy, &at); err != nil {
			return err
		}
		f.SetAt = time.Unix(at, 0).UTC()
		out = append(out, f)
		return nil
	}, `SELECT r.listing_id, l.name, l.slug, r.month, r.amount_cents, r.currency, r.source, r.set_by, r.set_at
		FROM revenue_figures r JOIN listings l ON l.id = r.listing_id
		WHERE l.site_id = ?1 AND (?2 = 0 OR r.listing_id = ?2)
		ORDER BY r.set_at DESC, r.month DESC, r.listing_id, r.source DESC LIMIT ?3`, s.siteID, listingID, limit)
	return out, mapErr(err, "revenue figures", "")
}

// SetRevenueFigure implements console.RevenueStore.
func (s *Store) SetRevenueFigure(ctx context.Context, f console.RevenueFigure, audit func(before *console.RevenueFigure) *console.AuditEntry) error {
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var before *console.RevenueFigure
		b := f
		err := tx.QueryRowContext(ctx, `SELECT amount_cents, currency FROM revenue_figures WHERE listing_id = ? AND month = ? AND source = ?`,
			f.ListingID, f.Month, f.Source).Scan(&b.AmountCents, &b.Currency)
		switch {
		case err == nil:
			before = &b
		case err != sql.ErrNoRows:
			return mapErr(err, "revenue figure", "")
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO revenue_figures (listing_id, month, amount_cents, currency, source, set_by, set_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (listing_id, month, source) DO UPDATE SET amount_cents = excluded.amount_cents, currency = excluded.currency,
			set_by = excluded.set_by, set_at = excluded.set_at`,
			f.ListingID, f.Month, f.AmountCents, f.Currency, f.Source, f.SetBy, f.SetAt.Unix())
		if err != nil {
			return mapErr(err, "revenue figure", "")
		}
		if e := audit(before); e != nil {
			if err := s.writeAudit(ctx, tx, *e); err != nil {
				return err
			}
		}
		return nil
	})
	return mapErr(err, "revenue figure", "")
}

// listingRevenue is the latest month's figure of a listing, the verified
// one when the month has both, or nil.
func listingRevenue(ctx context.Context, q queryRowQueryer, id int64) (*domain.ListingRevenue, error) {
	var r domain.ListingRevenue
	err := q.QueryRowContext(ctx, `SELECT month, amount_cents, currency, source FROM revenue_figures WHERE listing_id = ?
		ORDER BY month DESC, source = 'verified' DESC LIMIT 1`, id).Scan(&r.Month, &r.AmountCents, &r.Currency, &r.Source)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, mapErr(err, "revenue figure", "")
	}
	return &r, nil
}
