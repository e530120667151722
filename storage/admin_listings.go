package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// Listings on the console (docs/console.md "Listings", migration
// 0022_listing_admin): search in any status, hide and unhide, unpublish,
// merge, transfer and the site team's edits. Each change and its audit
// entry are one transaction; every UPDATE of listings appends to search_log
// (trigger of 0001), so the search index follows.

var _ console.ListingAdminStore = (*Store)(nil)

// adminListingCols are read by scanAdminListing, from listings l with its
// submitter u and the listing it was merged into m.
const adminListingCols = `l.id, l.slug, l.name, l.domain, l.status, l.plan, COALESCE(l.company_id, 0), COALESCE(l.owner_id, 0),
	COALESCE(u.email, ''), l.created_at, l.hidden_at, l.hidden_reason, l.hidden_by, l.hidden_status,
	l.unpublished_at, l.unpublished_reason, l.unpublished_by, COALESCE(l.merged_into, 0), COALESCE(m.slug, ''),
	l.votes_count, l.views_count, l.follows_count, (SELECT count(*) FROM reviews r WHERE r.listing_id = l.id)`

const adminListingFrom = ` FROM listings l LEFT JOIN users u ON u.id = l.owner_id LEFT JOIN listings m ON m.id = l.merged_into`

func scanAdminListing(row interface{ Scan(...any) error }) (console.AdminListing, error) {
	var a console.AdminListing
	var created int64
	var hidden, unpublished sql.NullInt64
	if err := row.Scan(&a.ID, &a.Slug, &a.Name, &a.Domain, &a.Status, &a.Plan, &a.CompanyID, &a.OwnerID, &a.OwnerEmail, &created,
		&hidden, &a.HiddenReason, &a.HiddenBy, &a.HiddenStatus, &unpublished, &a.UnpublishedReason, &a.UnpublishedBy,
		&a.MergedInto, &a.MergedIntoSlug, &a.Votes, &a.Views, &a.Follows, &a.ReviewsNum); err != nil {
		return a, err
	}
	a.CreatedAt = time.Unix(created, 0).UTC()
	if hidden.Valid {
		t := time.Unix(hidden.Int64, 0).UTC()
		a.HiddenAt = &t
	}
	if unpublished.Valid {
		t := time.Unix(unpublished.Int64, 0).UTC()
		a.UnpublishedAt = &t
	}
	return a, nil
}

// likeArg is q as a LIKE pattern matching it anywhere, case-insensitive.
func likeArg(q string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(q)) + "%"
}

// AdminSearchListings implements console.ListingAdminStore: exact id first, then newest first.
func (s *Store) AdminSearchListings(ctx context.Context, f console.AdminListingFilter) ([]console.AdminListing, int, error) {
	where := `l.site_id = ?1`
	id, _ := strconv.ParseInt(f.Q, 10, 64)
	if f.Q != "" {
		where += ` AND (l.id = ?2 OR lower(l.name) LIKE ?3 ESCAPE '\' OR l.domain LIKE ?3 ESCAPE '\' OR l.slug LIKE ?3 ESCAPE '\'
			OR lower(COALESCE(u.email, '')) LIKE ?3 ESCAPE '\'
			OR l.id IN (SELECT lo.listing_id FROM listing_owners lo JOIN users ou ON ou.id = lo.user_id WHERE lower(COALESCE(ou.email, '')) LIKE ?3 ESCAPE '\'))`
	}
	if f.Status != "" {
		where += ` AND l.status = ?4`
	}
	args := []any{s.siteID, id, likeArg(f.Q), f.Status}
	// The count passes no argument past the last it uses (PostgreSQL's
	// driver refuses unused trailing arguments; see engine.bind).
	used := 1
	if f.Q != "" {
		used = 3
	}
	if f.Status != "" {
		used = 4
	}
	var total int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT count(*)`+adminListingFrom+` WHERE `+where, args[:used]...).Scan(&total); err != nil {
		return nil, 0, mapErr(err, "listing", "")
	}
	out := []console.AdminListing{}
	err := queryEach(ctx, s.db.sql, func(rows *sql.Rows) error {
		a, err := scanAdminListing(rows)
		out = append(out, a)
		return err
	}, `SELECT `+adminListingCols+adminListingFrom+` WHERE `+where+` ORDER BY l.id = ?2 DESC, l.created_at DESC, l.id DESC LIMIT ?5 OFFSET ?6`,
		append(args, f.Limit, (f.Page-1)*f.Limit)...)
	return out, total, mapErr(err, "listing", "")
}

// adminListing reads listing id of this site in any status, inside q.
func (s *Store) adminListing(ctx context.Context, q queryRower, id int64) (console.AdminListing, error) {
	a, err := scanAdminListing(q.QueryRowContext(ctx, `SELECT `+adminListingCols+adminListingFrom+` WHERE l.site_id = ? AND l.id = ?`, s.siteID, id))
	if err == sql.ErrNoRows {
		return a, domain.Errorf(domain.ENotFound, "There is no listing %d.", id)
	}
	return a, mapErr(err, "listing", strconv.FormatInt(id, 10))
}

// AdminListing implements console.ListingAdminStore.
func (s *Store) AdminListing(ctx context.Context, id int64) (*console.AdminListingDetail, error) {
	a, err := s.adminListing(ctx, s.db.sql, id)
	if err != nil {
		return nil, err
	}
	d := &console.AdminListingDetail{AdminListing: a, CoOwners: []string{}}
	db := s.db.sql
	err = queryEach(ctx, db, func(rows *sql.Rows) error {
		var e string
		d.CoOwners = append(d.CoOwners, e)
		return rows.Scan(&d.CoOwners[len(d.CoOwners)-1])
	}, `SELECT COALESCE(u.email, '') FROM listing_owners lo JOIN users u ON u.id = lo.user_id WHERE lo.listing_id = ? ORDER BY lo.created_at, u.id`, id)
	if err != nil {
		return nil, mapErr(err, "listing owner", "")
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM claims WHERE listing_id = ? AND status = 'pending'`, id).Scan(&d.PendingClaims); err != nil {
		return nil, mapErr(err, "claim", "")
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	defer tx.Rollback()
	if d.Values, err = currentValues(ctx, tx, id, domain.EditableFieldNames); err != nil {
		return nil, err
	}
	if d.History, err = versionSummaries(ctx, tx, `v.listing_id = ?`, domain.HistoryLength, id); err != nil {
		return nil, err
	}
	err = queryEach(ctx, tx, func(rows *sql.Rows) error {
		a, err := scanAdminListing(rows)
		d.Siblings = append(d.Siblings, a)
		return err
	}, `SELECT `+adminListingCols+adminListingFrom+` WHERE l.site_id = ? AND l.id <> ? AND l.status <> 'merged'
		AND ((l.company_id IS NOT NULL AND l.company_id = ?) OR (l.domain <> '' AND l.domain = ?)) ORDER BY l.id LIMIT 20`,
		s.siteID, id, a.CompanyID, a.Domain)
	return d, mapErr(err, "listing", "")
}

// runSteps runs steps in tx.
func runSteps(ctx context.Context, tx *Tx, steps []sqlStep) error {
	for _, st := range steps {
		if _, err := tx.ExecContext(ctx, st.q, st.args...); err != nil {
			return mapErr(err, "listing", "")
		}
	}
	return nil
}

// HideListing implements console.ListingAdminStore.
func (s *Store) HideListing(ctx context.Context, id int64, hide bool, reason string, e console.AuditEntry) error {
	return s.db.inTx(ctx, func(tx *Tx) error {
		a, err := s.adminListing(ctx, tx, id)
		if err != nil {
			return err
		}
		mark, err := listingMarkTx(ctx, tx, id) // for the listing state events
		if err != nil {
			return err
		}
		now := e.At.Unix()
		var step sqlStep
		switch {
		case a.Status == domain.ListingMerged:
			return domain.Errorf(domain.EConflict, "%s was merged into %s; hide that listing instead.", a.Name, a.MergedIntoSlug)
		case hide && a.Status == domain.ListingHidden:
			return domain.Errorf(domain.EConflict, "%s is hidden already.", a.Name)
		case !hide && a.Status != domain.ListingHidden:
			return domain.Errorf(domain.EConflict, "%s is not hidden.", a.Name)
		case hide:
			step = sqlStep{`UPDATE listings SET hidden_status = status, status = 'hidden', hidden_at = ?, hidden_reason = ?, hidden_by = ?,
			updated_at = ? WHERE id = ?`, []any{now, reason, e.Actor, now, id}}
		default:
			step = sqlStep{`UPDATE listings SET status = CASE WHEN hidden_status = '' THEN 'draft' ELSE hidden_status END, hidden_status = '',
			hidden_at = NULL, hidden_reason = '', hidden_by = '', updated_at = ? WHERE id = ?`, []any{now, id}}
		}
		if err := runSteps(ctx, tx, []sqlStep{step}); err != nil {
			return err
		}
		if !hide {
			if err := startMissedWeek(ctx, tx, id, e.At); err != nil {
				return err
			}
			if err := s.resumeFreeChecks(ctx, tx, id, e.At); err != nil {
				return err
			}
		}
		if err := s.db.addListingStateEventsTx(ctx, tx, s.site, s.siteID, id, mark, e.At); err != nil {
			return err
		}
		if err := s.writeAudit(ctx, tx, e); err != nil {
			return err
		}
		return nil
	})
}

// startMissedWeek makes a paid listing unhidden as scheduled for a week
// that started while it was hidden live, inside tx, as the week-start job
// would have (startWeek; that job found it hidden and did nothing). A free
// one is left scheduled: its resumed badge check decides (FreeTransition).
func startMissedWeek(ctx context.Context, tx *Tx, id int64, at time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE listings SET status = 'live', launched_at = ?1, updated_at = ?1
		WHERE id = ?2 AND status = 'scheduled' AND plan = 'paid' AND launch_week IS NOT NULL AND launch_week <= ?3`,
		at.Unix(), id, at.UTC().Format(domain.DateLayout))
	return mapErr(err, "listing", strconv.FormatInt(id, 10))
}

// resumeFreeChecks restarts the badge checks of a free listing just
// unhidden inside tx: a check that ran while it was hidden ended them (a
// hidden listing is not checkable), so when the listing is in the free queue,
// has no next check and is checkable again in its restored status, its next
// check is at (now) and the check's job is queued with the unhide.
func (s *Store) resumeFreeChecks(ctx context.Context, tx *Tx, id int64, at time.Time) error {
	t, err := s.freeTarget(ctx, tx, id)
	if err != nil {
		return err
	}
	if !t.Queued || !t.NextCheckAt.IsZero() || !domain.FreeCheckable(t.State, at) {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE free_queue SET next_check_at = ? WHERE listing_id = ?`, at.Unix(), id); err != nil {
		return mapErr(err, "free queue", strconv.FormatInt(id, 10))
	}
	return s.db.enqueueTx(ctx, tx, domain.BadgeCheckAt(id, at))
}

// UnpublishListing implements console.ListingAdminStore. A hidden listing
// is unhidden as it is unpublished (the reason shown is the new one).
func (s *Store) UnpublishListing(ctx context.Context, id int64, reason string, e console.AuditEntry) error {
	return s.db.inTx(ctx, func(tx *Tx) error {
		a, err := s.adminListing(ctx, tx, id)
		if err != nil {
			return err
		}
		if a.Status == domain.ListingMerged || a.Status == domain.ListingArchived {
			return domain.Errorf(domain.EConflict, "%s is %s already.", a.Name, a.Status)
		}
		mark, err := listingMarkTx(ctx, tx, id) // for the listing state events
		if err != nil {
			return err
		}
		now := e.At.Unix()
		if err := runSteps(ctx, tx, []sqlStep{{`UPDATE listings SET status = 'archived', hidden_status = '', hidden_at = NULL,
		hidden_reason = '', hidden_by = '', unpublished_at = ?, unpublished_reason = ?, unpublished_by = ?, updated_at = ? WHERE id = ?`,
			[]any{now, reason, e.Actor, now, id}}}); err != nil {
			return err
		}
		if err := s.db.addListingStateEventsTx(ctx, tx, s.site, s.siteID, id, mark, e.At); err != nil {
			return err
		}
		if err := s.writeAudit(ctx, tx, e); err != nil {
			return err
		}
		return nil
	})
}

// MergeListings implements console.ListingAdminStore. Rows the survivor
// cannot hold twice (a second vote, review or follow by the same person, a
// category or owner it has) stay on the merged listing and are counted in
// Kept; nothing is deleted. The counters move with the rows: votes_count
// and follows_count by what moved, views_count and billboard in full.
func (s *Store) MergeListings(ctx context.Context, from, into int64, e console.AuditEntry) (*console.MergeCounts, error) {
	var c *console.MergeCounts
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var err error
		c, err = s.mergeListings(ctx, tx, from, into, e)
		return err
	})
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	return c, nil
}

// mergeListings is MergeListings' transaction.
func (s *Store) mergeListings(ctx context.Context, tx *Tx, from, into int64, e console.AuditEntry) (*console.MergeCounts, error) {
	if _, err := s.adminListing(ctx, tx, from); err != nil {
		return nil, err
	}
	if _, err := s.adminListing(ctx, tx, into); err != nil {
		return nil, err
	}
	mark, err := listingMarkTx(ctx, tx, from) // for the listing state events
	if err != nil {
		return nil, err
	}
	c := &console.MergeCounts{Kept: map[string]int{}}
	exec := func(n *int, q string, args ...any) error {
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return mapErr(err, "listing", "")
		}
		if n != nil {
			k, _ := res.RowsAffected()
			*n = int(k)
		}
		return nil
	}
	var movedCounted int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM votes v WHERE v.listing_id = ?1 AND v.status = 'counted'
		AND NOT EXISTS (SELECT 1 FROM votes w WHERE w.listing_id = ?2 AND (w.voter_key = v.voter_key OR (v.user_id IS NOT NULL AND w.user_id = v.user_id)))`,
		from, into).Scan(&movedCounted); err != nil {
		return nil, mapErr(err, "vote", "")
	}
	var movedFollows int
	var fromViews, fromBillboard int64
	var fromTrending float64
	if err := tx.QueryRowContext(ctx, `SELECT views_count, billboard_cents, trending_score FROM listings WHERE id = ?`, from).Scan(&fromViews, &fromBillboard, &fromTrending); err != nil {
		return nil, mapErr(err, "listing", "")
	}
	var maxVersion int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM listing_versions WHERE listing_id = ?`, into).Scan(&maxVersion); err != nil {
		return nil, mapErr(err, "listing version", "")
	}
	now := e.At.Unix()
	steps := []struct {
		n    *int
		q    string
		args []any
	}{
		{&c.Votes, `UPDATE votes SET listing_id = ?2 WHERE listing_id = ?1 AND NOT EXISTS (SELECT 1 FROM votes w WHERE w.listing_id = ?2
			AND (w.voter_key = votes.voter_key OR (votes.user_id IS NOT NULL AND w.user_id = votes.user_id)))`, []any{from, into}},
		{&c.Reviews, `UPDATE reviews SET listing_id = ?2 WHERE listing_id = ?1 AND (user_id IS NULL OR NOT EXISTS
			(SELECT 1 FROM reviews w WHERE w.listing_id = ?2 AND w.user_id = reviews.user_id))`, []any{from, into}},
		{&movedFollows, `UPDATE follows SET listing_id = ?2 WHERE listing_id = ?1 AND NOT EXISTS
			(SELECT 1 FROM follows w WHERE w.listing_id = ?2 AND w.follower_key = follows.follower_key)`, []any{from, into}},
		{&c.Views, `UPDATE views SET listing_id = ?2 WHERE listing_id = ?1`, []any{from, into}},
		{&c.Updates, `UPDATE listing_updates SET listing_id = ?2 WHERE listing_id = ?1`, []any{from, into}},
		{&c.Owners, `INSERT INTO listing_owners (listing_id, user_id, via, created_at)
			SELECT ?2, u, 'merge', ?3 FROM (SELECT owner_id AS u FROM listings WHERE id = ?1 AND owner_id IS NOT NULL
				UNION SELECT user_id FROM listing_owners WHERE listing_id = ?1) AS owners
			WHERE u NOT IN (SELECT user_id FROM listing_owners WHERE listing_id = ?2)
			AND ` + s.db.eng.differs("u", "(SELECT owner_id FROM listings WHERE id = ?2)"), []any{from, into, now}},
		{&c.Categories, `INSERT INTO listing_categories (listing_id, category_id, is_primary)
			SELECT ?2, category_id, 0 FROM listing_categories WHERE listing_id = ?1
			AND category_id NOT IN (SELECT category_id FROM listing_categories WHERE listing_id = ?2)`, []any{from, into}},
		{&c.Versions, `UPDATE listing_versions SET listing_id = ?2, version = version + ?3 WHERE listing_id = ?1`, []any{from, into, maxVersion}},
	}
	for _, st := range steps {
		if err := exec(st.n, st.q, st.args...); err != nil {
			return nil, err
		}
	}
	// Counters: moved rows do not fire the insert/delete triggers.
	if err := exec(nil, `UPDATE listings SET votes_count = votes_count + ?2, follows_count = follows_count + ?3, views_count = views_count + ?4,
			billboard_cents = billboard_cents + ?5, trending_score = trending_score + ?6, updated_at = ?7 WHERE id = ?1`,
		into, movedCounted, movedFollows, fromViews, fromBillboard, fromTrending, now); err != nil {
		return nil, err
	}
	if err := exec(nil, `UPDATE listings SET votes_count = votes_count - ?2, follows_count = follows_count - ?3, views_count = 0, billboard_cents = 0,
			trending_score = 0, status = 'merged', merged_into = ?4, merged_at = ?5, hidden_status = '', hidden_at = NULL,
			hidden_reason = '', hidden_by = '', updated_at = ?5 WHERE id = ?1`, from, movedCounted, movedFollows, into, now); err != nil {
		return nil, err
	}
	c.Follows = movedFollows
	// The owners moved: the merged listing's own rows stay (its owners keep
	// seeing it, with its status merged).
	kept := map[string]string{
		"votes":      `SELECT count(*) FROM votes WHERE listing_id = ?`,
		"reviews":    `SELECT count(*) FROM reviews WHERE listing_id = ?`,
		"follows":    `SELECT count(*) FROM follows WHERE listing_id = ?`,
		"categories": `SELECT count(*) FROM listing_categories WHERE listing_id = ?`,
	}
	for k, q := range kept {
		var n int
		if err := tx.QueryRowContext(ctx, q, from).Scan(&n); err != nil {
			return nil, mapErr(err, "listing", "")
		}
		if n > 0 {
			c.Kept[k] = n
		}
	}
	if err := s.db.addListingStateEventsTx(ctx, tx, s.site, s.siteID, from, mark, e.At); err != nil {
		return nil, err
	}
	after, _ := json.Marshal(map[string]any{"moved": c, "into": into})
	e.After = after
	if err := s.writeAudit(ctx, tx, e); err != nil {
		return nil, err
	}
	return c, nil
}

// TransferListing implements console.ListingAdminStore: the account becomes
// the submitter (owner_id), the co-owners are removed, and the account's
// pending claims of the listing are replaced (it owns it now).
func (s *Store) TransferListing(ctx context.Context, id int64, email string, e console.AuditEntry) error {
	return s.db.inTx(ctx, func(tx *Tx) error {
		a, err := s.adminListing(ctx, tx, id)
		if err != nil {
			return err
		}
		if a.Status == domain.ListingMerged {
			return domain.Errorf(domain.EConflict, "%s was merged into %s; transfer that listing instead.", a.Name, a.MergedIntoSlug)
		}
		var user int64
		err = tx.QueryRowContext(ctx, `SELECT id FROM users WHERE lower(email) = lower(?) ORDER BY id LIMIT 1`, email).Scan(&user)
		if err == sql.ErrNoRows {
			return domain.Invalid("email", "exists", "There is no account with the email %s; the person signs in once first.", email)
		}
		if err != nil {
			return mapErr(err, "account", "")
		}
		var others int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM listing_owners WHERE listing_id = ? AND user_id <> ?`, id, user).Scan(&others); err != nil {
			return mapErr(err, "listing owner", "")
		}
		if a.OwnerID == user && others == 0 {
			return domain.Errorf(domain.EConflict, "%s is the only owner of %s already.", email, a.Name)
		}
		now := e.At.Unix()
		if err := runSteps(ctx, tx, []sqlStep{
			{`UPDATE listings SET owner_id = ?, updated_at = ? WHERE id = ?`, []any{user, now, id}},
			{`DELETE FROM listing_owners WHERE listing_id = ?`, []any{id}},
			{`UPDATE claims SET status = 'replaced' WHERE listing_id = ? AND user_id = ? AND status = 'pending'`, []any{id, user}},
		}); err != nil {
			return err
		}
		if err := s.writeAudit(ctx, tx, e); err != nil {
			return err
		}
		return nil
	})
}

// TeamEditListing implements console.ListingAdminStore.
func (s *Store) TeamEditListing(ctx context.Context, id int64, values map[string]json.RawMessage, by string, e console.AuditEntry) (*domain.ListingVersionSummary, error) {
	var v *domain.ListingVersionSummary
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var err error
		v, err = s.teamEditListing(ctx, tx, id, values, by, e)
		return err
	})
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	if v != nil {
		v.Note = console.TeamEditNote
	}
	return v, nil
}

// teamEditListing is TeamEditListing's transaction.
func (s *Store) teamEditListing(ctx context.Context, tx *Tx, id int64, values map[string]json.RawMessage, by string, e console.AuditEntry) (*domain.ListingVersionSummary, error) {
	a, err := s.adminListing(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	if a.Status == domain.ListingMerged {
		return nil, domain.Errorf(domain.EConflict, "%s was merged into %s; edit that listing instead.", a.Name, a.MergedIntoSlug)
	}
	var user sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM users WHERE lower(email) = lower(?) ORDER BY id LIMIT 1`, by).Scan(&user); err != nil && err != sql.ErrNoRows {
		return nil, mapErr(err, "user", "")
	}
	now := e.At.Unix()
	v, err := writeVersion(ctx, tx, id, values, domain.VersionEdit, user, by, 0, 0, now)
	if err != nil || v == nil {
		return nil, err
	}
	var vid int64
	var before, after string
	if err := tx.QueryRowContext(ctx, `UPDATE listing_versions SET by_team = 1, reviewed_by = ?, reviewed_at = ?
		WHERE listing_id = ? AND version = ? RETURNING id, before, after`, by, now, id, v.Version).Scan(&vid, &before, &after); err != nil {
		return nil, mapErr(err, "listing version", "")
	}
	e.Before, e.After = json.RawMessage(before), json.RawMessage(after)
	if err := s.writeAudit(ctx, tx, e); err != nil {
		return nil, err
	}
	return v, nil
}

// MergedSlug implements console.ListingAdminStore (following a chain of merges).
func (s *Store) MergedSlug(ctx context.Context, slug string) (string, error) {
	var to string
	err := s.db.sql.QueryRowContext(ctx, `WITH RECURSIVE chain(id, slug, merged_into, n) AS (
			SELECT id, slug, merged_into, 0 FROM listings WHERE site_id = ? AND slug = ? AND status = 'merged'
			UNION ALL SELECT l.id, l.slug, l.merged_into, c.n + 1 FROM listings l JOIN chain c ON l.id = c.merged_into WHERE c.n < 10)
		SELECT slug FROM chain WHERE merged_into IS NULL OR n = 10 ORDER BY n DESC LIMIT 1`, s.siteID, slug).Scan(&to)
	if err == sql.ErrNoRows || to == slug {
		return "", nil
	}
	return to, mapErr(err, "listing", slug)
}

// AccountListings implements auth.AccountListings: userID's listings on
// every site, newest first, with what the site team did and why.
func (db *DB) AccountListings(ctx context.Context, userID int64) ([]auth.ListingNote, error) {
	out := []auth.ListingNote{}
	err := queryEach(ctx, db.sql, func(rows *sql.Rows) error {
		var n auth.ListingNote
		var hiddenAt, unpublishedAt sql.NullInt64
		var hiddenReason, unpublishedReason string
		if err := rows.Scan(&n.ID, &n.Name, &n.Slug, &n.Status, &hiddenAt, &hiddenReason, &unpublishedAt, &unpublishedReason); err != nil {
			return err
		}
		switch {
		case n.Status == domain.ListingHidden && hiddenAt.Valid:
			n.Action, n.Reason, n.At = "hid", hiddenReason, time.Unix(hiddenAt.Int64, 0).UTC()
		case n.Status == domain.ListingArchived && unpublishedAt.Valid:
			n.Action, n.Reason, n.At = "unpublished", unpublishedReason, time.Unix(unpublishedAt.Int64, 0).UTC()
		}
		out = append(out, n)
		return nil
	}, `SELECT l.id, l.name, l.slug, l.status, l.hidden_at, l.hidden_reason, l.unpublished_at, l.unpublished_reason FROM listings l
		WHERE `+db.eng.ownedBy()+` ORDER BY l.created_at DESC, l.id DESC LIMIT 100`, userID, userID)
	return out, mapErr(err, "listing", "")
}

var _ auth.AccountListings = (*DB)(nil)
