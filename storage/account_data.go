package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// DeletedIssuer is the issuer of an account row after its person deleted
// the account (docs/privacy.md): the row stays, anonymised, for the paid
// orders and counted votes that refer to it, and no sign-in matches it.
const DeletedIssuer = "urn:launchdir:deleted"

// deletedActor replaces the person's email address where a record of
// someone else's (the audit log, an edit's history) named them.
const deletedActor = "[deleted account]"

// exportQueries are the sections of an account export on engine e: each query takes
// the user id (as often as it has ?) and its columns become the record's
// fields. No query reads a secret (hashes, tokens, link tokens).
func exportQueries(e engine) []exportQuery {
	return []exportQuery{
		{func(x *domain.AccountExport) *[]domain.Record { return &x.SignInMethods }, `SELECT CASE issuer WHEN 'urn:launchdir:email' THEN 'email_link' ELSE 'openid_connect' END AS method,
		issuer, subject, created_at FROM users WHERE id = ?`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Sessions }, `SELECT created_at, expires_at FROM sessions WHERE user_id = ? ORDER BY created_at`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.APIKeys }, `SELECT name, created_at, last_used_at, revoked_at FROM api_keys WHERE user_id = ? ORDER BY created_at, id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.ConnectedApps }, `SELECT g.client_id, c.name, g.scopes, g.resource, g.created_at, g.updated_at
		FROM grants g JOIN oauth_clients c ON c.id = g.client_id WHERE g.user_id = ? ORDER BY g.created_at, g.id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Drafts }, `SELECT id, url, status, phase, error, doc, listing_id, version, created_at, updated_at
		FROM drafts WHERE user_id = ? ORDER BY created_at, id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Invites }, `SELECT 'sent' AS direction, i.draft_id, i.email, i.created_at, i.accepted_at
		FROM draft_invites i JOIN drafts d ON d.id = i.draft_id WHERE d.user_id = ?
		UNION ALL SELECT 'accepted', draft_id, email, created_at, accepted_at FROM draft_invites WHERE accepted_by = ?`, 2},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Listings }, `SELECT l.id, l.slug, l.name, l.tagline, l.url, l.status, l.plan, l.contact_email,
		CASE WHEN l.owner_id = ? THEN 'submitted' ELSE (SELECT via FROM listing_owners o WHERE o.listing_id = l.id AND o.user_id = ?) END AS ownership,
		l.created_at, l.updated_at
		FROM listings l WHERE l.owner_id = ? OR l.id IN (SELECT listing_id FROM listing_owners WHERE user_id = ?) ORDER BY l.created_at, l.id`, 4},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Claims }, `SELECT c.id, c.listing_id, l.slug AS listing_slug, c.method, c.status, c.email, c.domain,
		c.created_at, c.expires_at, c.verified_at FROM claims c LEFT JOIN listings l ON l.id = c.listing_id WHERE c.user_id = ? ORDER BY c.created_at, c.id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Orders }, `SELECT number, status, currency, subtotal_cents, vat_cents, total_cents, vat, billing,
		test_mode, created_at, paid_at, canceled_at,
		(SELECT ` + e.jsonArrayOfObjects(`'product', product, 'name', name, 'listing_id', listing_id, 'listing_name', listing_name,
			'week', week, 'quantity', quantity, 'total_cents', total_cents, 'fulfilled_at', fulfilled_at`) + ` FROM order_lines WHERE order_id = orders.id) AS lines
		FROM orders WHERE user_id = ? ORDER BY created_at, id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Votes }, `SELECT v.listing_id, l.slug AS listing_slug, v.status, v.held_reason, v.created_at
		FROM votes v JOIN listings l ON l.id = v.listing_id WHERE v.user_id = ? ORDER BY v.created_at, v.id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Reviews }, `SELECT r.listing_id, l.slug AS listing_slug, r.stars, r.body, r.status, r.created_at, r.updated_at
		FROM reviews r JOIN listings l ON l.id = r.listing_id WHERE r.user_id = ? ORDER BY r.created_at, r.id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Follows }, `SELECT f.listing_id, l.slug AS listing_slug, f.created_at
		FROM follows f JOIN listings l ON l.id = f.listing_id WHERE f.follower_key = 'user:' || ? ORDER BY f.created_at, f.listing_id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.Notifications }, `SELECT listing_id, update_id, award_id, created_at, read_at, mailed_at
		FROM notifications WHERE user_id = ? ORDER BY created_at, id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.InterviewAnswers }, `SELECT a.question_id, q.question, a.answer, a.updated_at
		FROM interview_answers a LEFT JOIN interview_questions q ON q.id = a.question_id WHERE a.user_id = ? ORDER BY a.question_id`, 1},
		{func(x *domain.AccountExport) *[]domain.Record { return &x.ListingEdits }, `SELECT listing_id, version, kind, fields, created_at
		FROM listing_versions WHERE user_id = ? ORDER BY created_at, id`, 1},
	}
}

// exportQuery is one section of an account export (see exportQueries).
type exportQuery struct {
	section func(*domain.AccountExport) *[]domain.Record
	query   string
	args    int
}

// ExportAccount returns everything stored about the account userID
// (GET /account/export, docs/privacy.md). Every section is a list, empty
// when the account has nothing in it.
func (db *DB) ExportAccount(ctx context.Context, userID int64) (*domain.AccountExport, error) {
	x := &domain.AccountExport{ExportedAt: db.Now()}
	acc, err := exportRecords(ctx, db.sql, `SELECT id, email, name, created_at FROM users WHERE id = ? AND issuer != ?`, userID, DeletedIssuer)
	if err != nil {
		return nil, err
	}
	if len(acc) == 0 {
		return nil, domain.NotFound("account", fmt.Sprint(userID))
	}
	x.Account = acc[0]
	for _, q := range exportQueries(db.eng) {
		args := make([]any, q.args)
		for i := range args {
			args[i] = userID
		}
		recs, err := exportRecords(ctx, db.sql, q.query, args...)
		if err != nil {
			return nil, err
		}
		*q.section(x) = recs
	}
	email := fmt.Sprint(x.Account["email"])
	if x.TeamRoles, err = exportRecords(ctx, db.sql, `SELECT role, granted_at FROM team_members WHERE `+db.eng.eqNoCase("email")+` AND email != ''`, email); err != nil {
		return nil, err
	}
	return x, nil
}

// exportRecords runs query and returns its rows as records: NULL is nil,
// columns named *_at holding Unix seconds become RFC 3339 times, and text
// holding a JSON object or array is embedded as JSON. Never nil.
func exportRecords(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, query string, args ...any) ([]domain.Record, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: export: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	out := []domain.Record{}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("storage: export: %w", err)
		}
		r := make(domain.Record, len(cols))
		for i, c := range cols {
			r[c] = exportValue(c, vals[i])
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: export: %w", err)
	}
	return out, nil
}

func exportValue(col string, v any) any {
	switch v := v.(type) {
	case int64:
		if strings.HasSuffix(col, "_at") {
			return time.Unix(v, 0).UTC().Format(time.RFC3339)
		}
		return v
	case []byte:
		return exportValue(col, string(v))
	case string:
		if t := strings.TrimSpace(v); (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
			return json.RawMessage(t)
		}
		return v
	}
	return v
}

// DeleteAccount erases the account userID in one transaction, as
// docs/privacy.md describes: its sign-in state (sessions, tokens, codes,
// grants, API keys) and personal records are deleted, the listings it
// owned alone are deleted (or kept hidden without owner when paid orders
// or finalised weeks refer to them), co-owned listings stay with their
// other owners, paid orders and counted votes stay linked to the user row,
// which is anonymised: no email, no name, an issuer no sign-in uses.
func (db *DB) DeleteAccount(ctx context.Context, userID int64) (*domain.AccountDeletion, error) {
	return retry(ctx, func() (*domain.AccountDeletion, error) { return db.deleteAccount(ctx, userID) })
}

// deleteAccount is DeleteAccount's transaction (DeleteAccount retries it).
func (db *DB) deleteAccount(ctx context.Context, userID int64) (*domain.AccountDeletion, error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	var email, issuer string
	err = tx.QueryRowContext(ctx, `SELECT email, issuer FROM users WHERE id = ?`, userID).Scan(&email, &issuer)
	if errors.Is(err, sql.ErrNoRows) || issuer == DeletedIssuer {
		return nil, domain.NotFound("account", fmt.Sprint(userID))
	}
	if err != nil {
		return nil, fmt.Errorf("storage: delete account: %w", err)
	}
	lower := strings.ToLower(email)
	res := &domain.AccountDeletion{}
	if err := deleteOwnedListings(ctx, tx, userID, lower, res); err != nil {
		return nil, err
	}
	key := domain.FollowerKey(userID)
	stmts := []struct {
		q    string
		args []any
	}{
		// Sign-in state: every way of acting as the person stops now.
		{`DELETE FROM sessions WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM tokens WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM auth_codes WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM auth_requests WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM grants WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM api_keys WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM idempotency_keys WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM login_links WHERE lower(email) = ?`, []any{lower}},
		{`DELETE FROM outbox WHERE lower(to_addr) = ?`, []any{lower}},
		// The person's own records.
		{`DELETE FROM drafts WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM draft_invites WHERE lower(email) = ?`, []any{lower}},
		{`UPDATE draft_invites SET accepted_by = NULL WHERE accepted_by = ?`, []any{userID}},
		{`DELETE FROM claims WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM listing_owners WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM reviews WHERE user_id = ?`, []any{userID}},
		{`UPDATE reviews SET answered_by = NULL WHERE answered_by = ?`, []any{userID}},
		{`DELETE FROM follows WHERE follower_key = ?`, []any{key}},
		{`DELETE FROM notifications WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM interview_answers WHERE user_id = ?`, []any{userID}},
		{`DELETE FROM team_members WHERE lower(email) = ?`, []any{lower}},
		// Votes keep counting (finalised weeks must not change) but lose
		// their audit data; the user row they point to is anonymised below.
		{`UPDATE votes SET ip_hash = '', ua_hash = '' WHERE user_id = ?`, []any{userID}},
		{`UPDATE listing_updates SET author_id = NULL WHERE author_id = ?`, []any{userID}},
		{`UPDATE listing_versions SET user_id = NULL, by_email = ? WHERE user_id = ? OR lower(by_email) = ?`, []any{deletedActor, userID, lower}},
		// Unpaid orders lose their billing details; paid ones keep them (tax law).
		{`UPDATE orders SET billing = NULL WHERE user_id = ? AND status != 'paid'`, []any{userID}},
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.q, s.args...); err != nil {
			return nil, fmt.Errorf("storage: delete account: %s: %w", s.q, err)
		}
	}
	// Records of the site team that name the person by address.
	if lower != "" {
		for _, tc := range [][2]string{{"listing_versions", "reviewed_by"}, {"listing_versions", "before"},
			{"listing_versions", "after"}, {"audit_log", "actor"}, {"audit_log", "target"},
			{"audit_log", "before"}, {"audit_log", "after"}, {"moderation_log", "actor"}, {"moderation_log", "reason"},
			{"week_disqualifications", "decided_by"}, {"team_members", "granted_by"}, {"work_items", "details"}} {
			q := `UPDATE "` + tc[0] + `" SET "` + tc[1] + `" = replace(replace("` + tc[1] + `", ?, ?), ?, ?) WHERE ` + db.eng.contains(`lower("`+tc[1]+`")`, "?")
			if _, err := tx.ExecContext(ctx, q, email, deletedActor, lower, deletedActor, lower); err != nil {
				return nil, fmt.Errorf("storage: delete account: %s.%s: %w", tc[0], tc[1], err)
			}
		}
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM orders WHERE user_id = ? AND status = 'paid'`, userID).Scan(&res.OrdersKept); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET issuer = ?, subject = CAST(id AS TEXT), email = '', name = '' WHERE id = ?`,
		DeletedIssuer, userID); err != nil {
		return nil, fmt.Errorf("storage: delete account: anonymise: %w", err)
	}
	return res, tx.Commit()
}

// deleteOwnedListings settles the listings userID owns (docs/privacy.md).
func deleteOwnedListings(ctx context.Context, tx *Tx, userID int64, email string, res *domain.AccountDeletion) error {
	ids, err := queryIDs(ctx, tx, `SELECT id FROM listings WHERE owner_id = ?
		UNION SELECT listing_id FROM listing_owners WHERE user_id = ? ORDER BY 1`, userID, userID)
	if err != nil {
		return fmt.Errorf("storage: delete account: listings: %w", err)
	}
	for _, id := range ids {
		var owner sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT owner_id FROM listings WHERE id = ?`, id).Scan(&owner); err != nil {
			return err
		}
		others, err := queryIDs(ctx, tx, `SELECT user_id FROM listing_owners WHERE listing_id = ? AND user_id != ? ORDER BY created_at, user_id`, id, userID)
		if err != nil {
			return err
		}
		if owner.Valid && owner.Int64 != userID {
			others = append([]int64{owner.Int64}, others...)
		}
		if len(others) > 0 {
			// The company has other owners: the listing stays with them.
			if owner.Int64 == userID {
				if _, err := tx.ExecContext(ctx, `UPDATE listings SET owner_id = ? WHERE id = ?`, others[0], id); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM listing_owners WHERE listing_id = ? AND user_id = ?`, id, others[0]); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE listings SET contact_email = '' WHERE id = ? AND lower(contact_email) = ? AND ? != ''`, id, email, email); err != nil {
				return err
			}
			res.ListingsHandedOver++
			continue
		}
		// Founder profiles that appear on this listing only go with it.
		founders, err := queryIDs(ctx, tx, `SELECT founder_id FROM listing_founders f WHERE listing_id = ?
			AND NOT EXISTS (SELECT 1 FROM listing_founders o WHERE o.founder_id = f.founder_id AND o.listing_id != ?)`, id, id)
		if err != nil {
			return err
		}
		var keep bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM order_lines ol JOIN orders o ON o.id = ol.order_id
				WHERE ol.listing_id = ? AND o.status = 'paid')
			OR EXISTS (SELECT 1 FROM awards WHERE listing_id = ?) OR EXISTS (SELECT 1 FROM week_results WHERE listing_id = ?)`,
			id, id, id).Scan(&keep); err != nil {
			return err
		}
		if keep {
			// Paid orders and finalised weeks refer to it: hidden, without owner.
			for _, q := range []string{
				`UPDATE listings SET owner_id = NULL, status = 'archived', contact_email = '' WHERE id = ?`,
				`DELETE FROM listing_founders WHERE listing_id = ?`,
				`DELETE FROM free_queue WHERE listing_id = ?`,
			} {
				if _, err := tx.ExecContext(ctx, q, id); err != nil {
					return err
				}
			}
			res.ListingsHidden++
		} else {
			if _, err := tx.ExecContext(ctx, `DELETE FROM listings WHERE id = ?`, id); err != nil {
				return err
			}
			res.ListingsDeleted++
		}
		for _, f := range founders {
			if _, err := tx.ExecContext(ctx, `DELETE FROM founders WHERE id = ?`, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// Tables returns the names of every table of the database (sqlite's own
// excepted), for tests that look at every row (the account deletion test).
func (db *DB) Tables(ctx context.Context) ([]string, error) {
	rows, err := db.sql.QueryContext(ctx, db.eng.tablesQuery())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// rowOrder is the ORDER BY of Rows for table: rowid, or the primary key of
// a WITHOUT ROWID table (idempotency_keys, order_lines).
func (db *DB) rowOrder(ctx context.Context, table string) (string, error) {
	if !db.eng.hasRowid() {
		return db.pgRowOrder(ctx, table)
	}
	var ddl string
	if err := db.sql.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&ddl); err != nil {
		return "", fmt.Errorf("storage: table %s: %w", table, err)
	}
	if !strings.Contains(strings.ToUpper(ddl), "WITHOUT ROWID") {
		return "rowid", nil
	}
	rows, err := db.sql.QueryContext(ctx, db.eng.primaryKeyQuery(), table)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var pk []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return "", err
		}
		pk = append(pk, `"`+c+`"`)
	}
	return strings.Join(pk, ", "), rows.Err()
}

// pgRowOrder is rowOrder on PostgreSQL: the primary key, or the physical
// order (ctid) of a table without one.
func (db *DB) pgRowOrder(ctx context.Context, table string) (string, error) {
	pk, err := db.primaryKey(ctx, table)
	if err != nil {
		return "", err
	}
	if len(pk) == 0 {
		return "ctid", nil
	}
	return `"` + strings.Join(pk, `", "`) + `"`, nil
}
