package storage

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// People on the console (docs/console.md "People", migration
// 0019_suspensions): finding accounts, what each did, and suspending one.

var _ console.PeopleStore = (*Store)(nil)

// accountCols are the columns scanAccount reads, from users u.
const accountCols = `u.id, COALESCE(u.email, ''), COALESCE(u.name, ''), COALESCE(u.created_at, 0), u.issuer,
	u.suspended_at, u.suspended_reason, u.suspended_by`

func scanAccount(row interface{ Scan(...any) error }) (console.PersonAccount, error) {
	var a console.PersonAccount
	var created int64
	var issuer string
	var suspended sql.NullInt64
	if err := row.Scan(&a.ID, &a.Email, &a.Name, &created, &issuer, &suspended, &a.SuspendedReason, &a.SuspendedBy); err != nil {
		return a, err
	}
	a.CreatedAt = time.Unix(created, 0).UTC()
	a.SignIn = issuer
	if issuer == auth.EmailIssuer {
		a.SignIn = "email link"
	}
	if suspended.Valid {
		a.Suspended, a.SuspendedAt = true, time.Unix(suspended.Int64, 0).UTC()
	}
	return a, nil
}

// FindAccounts implements console.PeopleStore.
func (s *Store) FindAccounts(ctx context.Context, q string, limit int) ([]console.PersonAccount, error) {
	id, _ := strconv.ParseInt(q, 10, 64)
	like := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(q)) + "%"
	out := []console.PersonAccount{}
	err := queryEach(ctx, s.db.sql, func(rows *sql.Rows) error {
		a, err := scanAccount(rows)
		out = append(out, a)
		return err
	}, `SELECT `+accountCols+` FROM users u WHERE u.id = ? OR lower(COALESCE(u.email, '')) LIKE ? ESCAPE '\'
		ORDER BY u.id = ? DESC, u.created_at DESC, u.id DESC LIMIT ?`, id, like, id, limit)
	return out, mapErr(err, "account", q)
}

// AccountDetail implements console.PeopleStore.
func (s *Store) AccountDetail(ctx context.Context, id int64) (*console.AccountDetail, error) {
	db := s.db.sql
	a, err := scanAccount(db.QueryRowContext(ctx, `SELECT `+accountCols+` FROM users u WHERE u.id = ?`, id))
	if err == sql.ErrNoRows {
		return nil, domain.Errorf(domain.ENotFound, "There is no account %d.", id)
	}
	if err != nil {
		return nil, mapErr(err, "account", "")
	}
	d := &console.AccountDetail{PersonAccount: a, Listings: []console.AccountListing{}, Votes: []console.AccountVote{},
		Reviews: []console.AccountReview{}, Orders: []console.AccountOrder{}}
	if err := db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM api_keys WHERE user_id = ? AND revoked_at IS NULL),
		(SELECT count(*) FROM grants WHERE user_id = ?)`, id, id).Scan(&d.APIKeys, &d.Apps); err != nil {
		return nil, mapErr(err, "account", "")
	}
	err = queryEach(ctx, db, func(rows *sql.Rows) error {
		var l console.AccountListing
		d.Listings = append(d.Listings, l)
		return rows.Scan(&d.Listings[len(d.Listings)-1].Slug, &d.Listings[len(d.Listings)-1].Name,
			&d.Listings[len(d.Listings)-1].Status, &d.Listings[len(d.Listings)-1].Owner)
	}, `SELECT l.slug, l.name, l.status, `+s.db.eng.same("l.owner_id", "?")+` FROM listings l WHERE l.site_id = ? AND (l.owner_id = ?
		OR EXISTS (SELECT 1 FROM listing_owners lo WHERE lo.listing_id = l.id AND lo.user_id = ?)) ORDER BY l.name, l.id`, id, s.siteID, id, id)
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	err = queryEach(ctx, db, func(rows *sql.Rows) error {
		var v console.AccountVote
		var at int64
		if err := rows.Scan(&v.ID, &v.ListingSlug, &v.ListingName, &v.Status, &v.Reason, &at); err != nil {
			return err
		}
		v.At = time.Unix(at, 0).UTC()
		d.Votes = append(d.Votes, v)
		return nil
	}, `SELECT v.id, l.slug, l.name, CASE WHEN v.discarded_at IS NOT NULL THEN 'discarded' ELSE v.status END,
		`+heldReason("vote", "v")+`, v.created_at
		FROM votes v JOIN listings l ON l.id = v.listing_id WHERE v.user_id = ? AND l.site_id = ?
		ORDER BY v.created_at DESC, v.id DESC`, id, s.siteID)
	if err != nil {
		return nil, mapErr(err, "vote", "")
	}
	err = queryEach(ctx, db, func(rows *sql.Rows) error {
		var r console.AccountReview
		var at int64
		if err := rows.Scan(&r.ID, &r.ListingSlug, &r.ListingName, &r.Stars, &r.Status, &r.Reason, &at); err != nil {
			return err
		}
		r.At = time.Unix(at, 0).UTC()
		d.Reviews = append(d.Reviews, r)
		return nil
	}, `SELECT r.id, l.slug, l.name, r.stars, r.status, `+heldReason("review", "r")+`, r.created_at
		FROM reviews r JOIN listings l ON l.id = r.listing_id WHERE r.user_id = ? AND l.site_id = ?
		ORDER BY r.created_at DESC, r.id DESC`, id, s.siteID)
	if err != nil {
		return nil, mapErr(err, "review", "")
	}
	err = queryEach(ctx, db, func(rows *sql.Rows) error {
		var o console.AccountOrder
		var at int64
		if err := rows.Scan(&o.Number, &o.Status, &o.Currency, &o.TotalCents, &at); err != nil {
			return err
		}
		o.CreatedAt = time.Unix(at, 0).UTC()
		d.Orders = append(d.Orders, o)
		return nil
	}, `SELECT number, status, currency, total_cents, created_at FROM orders WHERE user_id = ? AND site_id = ?
		ORDER BY created_at DESC, id DESC`, id, s.siteID)
	if err != nil {
		return nil, mapErr(err, "order", "")
	}
	return d, nil
}

// heldReason is the SQL expression of why vote or review x is held:
// "suspended" while its account's suspension holds it (the columns'
// CHECK constraints allow no new reason, so suspension_holds says it).
func heldReason(kind, x string) string {
	return `CASE WHEN EXISTS (SELECT 1 FROM suspension_holds h WHERE h.kind = '` + kind + `' AND h.item_id = ` + x + `.id)
		AND ` + x + `.status = 'held' THEN '` + console.HeldSuspended + `' ELSE ` + x + `.held_reason END`
}

// SuspendAccount implements console.PeopleStore. Suspending holds the
// account's counted votes and reviews and those held only for the account's
// age (count_at cleared, so the age job leaves them alone), keeping each
// one's state in suspension_holds; unsuspending restores every one still
// held (the site team did not count or discard it meanwhile). The listings'
// vote counts follow through the votes_count triggers and trending is
// recomputed; finalised weeks read week_results and do not change.
func (s *Store) SuspendAccount(ctx context.Context, id int64, suspend bool, reason string, e console.AuditEntry) error {
	return s.db.inTx(ctx, func(tx *Tx) error {
		var email string
		var suspended bool
		err := tx.QueryRowContext(ctx, `SELECT COALESCE(email, ''), suspended_at IS NOT NULL FROM users WHERE id = ?`, id).Scan(&email, &suspended)
		switch {
		case err == sql.ErrNoRows:
			return domain.Errorf(domain.ENotFound, "There is no account %d.", id)
		case err != nil:
			return mapErr(err, "account", "")
		case suspend && suspended:
			return domain.Errorf(domain.EConflict, "The account %s is suspended already.", email)
		case !suspend && !suspended:
			return domain.Errorf(domain.EConflict, "The account %s is not suspended.", email)
		}
		// The listings whose votes change, for their trending scores.
		var listings []int64
		err = queryEach(ctx, tx, func(rows *sql.Rows) error {
			var l int64
			listings = append(listings, l)
			return rows.Scan(&listings[len(listings)-1])
		}, `SELECT DISTINCT listing_id FROM votes WHERE user_id = ?`, id)
		if err != nil {
			return mapErr(err, "vote", "")
		}
		var steps []sqlStep
		// restored is what a held vote or review goes back to; one held only
		// for the account's age whose time came while suspended counts now.
		now := e.At.Unix()
		const restored = `CASE WHEN h.prev_reason = 'new_account' AND h.prev_count_at <= ? THEN 'counted' ELSE h.prev_status END,
		CASE WHEN h.prev_reason = 'new_account' AND h.prev_count_at <= ? THEN '' ELSE h.prev_reason END,
		CASE WHEN h.prev_reason = 'new_account' AND h.prev_count_at <= ? THEN NULL ELSE h.prev_count_at END`
		if suspend {
			steps = append(steps,
				sqlStep{`UPDATE users SET suspended_at = ?, suspended_reason = ?, suspended_by = ? WHERE id = ?`, []any{e.At.Unix(), reason, e.Actor, id}},
				// Its sessions end (auth also refuses them while suspended):
				// after unsuspending, the person signs in again.
				sqlStep{`DELETE FROM sessions WHERE user_id = ?`, []any{id}},
				sqlStep{`INSERT INTO suspension_holds (user_id, kind, item_id, prev_status, prev_reason, prev_count_at)
				SELECT user_id, 'vote', id, status, held_reason, count_at FROM votes WHERE user_id = ? AND discarded_at IS NULL
				AND (status = 'counted' OR held_reason = 'new_account')`, []any{id}},
				sqlStep{`UPDATE votes SET status = 'held', count_at = NULL
				WHERE id IN (SELECT item_id FROM suspension_holds WHERE kind = 'vote' AND user_id = ?)`, []any{id}},
				sqlStep{`INSERT INTO suspension_holds (user_id, kind, item_id, prev_status, prev_reason, prev_count_at)
				SELECT user_id, 'review', id, status, held_reason, count_at FROM reviews WHERE user_id = ?
				AND (status = 'counted' OR (status = 'held' AND held_reason = 'new_account'))`, []any{id}},
				sqlStep{`UPDATE reviews SET status = 'held', count_at = NULL
				WHERE id IN (SELECT item_id FROM suspension_holds WHERE kind = 'review' AND user_id = ?)`, []any{id}},
			)
		} else {
			steps = append(steps,
				sqlStep{`UPDATE users SET suspended_at = NULL, suspended_reason = '', suspended_by = '' WHERE id = ?`, []any{id}},
				// Only what is still held and not discarded goes back: a vote or
				// review the site team decided meanwhile keeps the decision.
				sqlStep{`UPDATE votes SET (status, held_reason, count_at) = (SELECT ` + restored + `
					FROM suspension_holds h WHERE h.kind = 'vote' AND h.item_id = votes.id)
				WHERE id IN (SELECT item_id FROM suspension_holds WHERE kind = 'vote' AND user_id = ?)
				AND status = 'held' AND discarded_at IS NULL`, []any{now, now, now, id}},
				sqlStep{`UPDATE reviews SET (status, held_reason, count_at) = (SELECT ` + restored + `
					FROM suspension_holds h WHERE h.kind = 'review' AND h.item_id = reviews.id)
				WHERE id IN (SELECT item_id FROM suspension_holds WHERE kind = 'review' AND user_id = ?)
				AND status = 'held'`, []any{now, now, now, id}},
				sqlStep{`DELETE FROM suspension_holds WHERE user_id = ?`, []any{id}},
			)
		}
		for _, st := range steps {
			if _, err := tx.ExecContext(ctx, st.q, st.args...); err != nil {
				return mapErr(err, "suspension", "")
			}
		}
		for _, l := range listings {
			if err := recomputeTrending(ctx, tx, l); err != nil {
				return mapErr(err, "vote", "")
			}
		}
		if err := s.writeAudit(ctx, tx, e); err != nil {
			return err
		}
		return nil
	})
}

// sqlStep is one statement of a change.
type sqlStep struct {
	q    string
	args []any
}
