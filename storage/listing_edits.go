package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

var _ domain.ListingEditStore = (*Store)(nil)

// Owner edits (update_my_listing), their versions (listing_versions,
// migration 0007) and the site team's review queue. Every editable field is
// a listings column of the same name; values travel as canonical JSON, so
// "changed" is a comparison of two JSON texts.

// editKind says how an editable column is stored.
func editKind(field string) string {
	switch field {
	case "founded_year":
		return "int" // INTEGER, NULL when unknown
	case "features", "usps", "keywords":
		return "list" // JSON ["..."]
	case "faqs":
		return "faqs" // JSON [{"question":..,"answer":..}]
	case "socials":
		return "socials" // JSON {"x":"https://.."}
	}
	return "text"
}

// editable reports whether field is a column update_my_listing may write.
func editable(field string) bool {
	return field == "socials" || field == "faqs" || containsStr(domain.EditableFieldNames, field)
}

func containsStr(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// SiteKeys implements domain.ListingEditStore.
func (s *Store) SiteKeys(ctx context.Context) ([]string, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT key FROM sites ORDER BY key`)
	if err != nil {
		return nil, mapErr(err, "sites", "")
	}
	defer rows.Close()
	keys := []string{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, mapErr(err, "sites", "")
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// EditOwnListing implements domain.ListingEditStore.
func (s *Store) EditOwnListing(ctx context.Context, e domain.ListingEdit) (*domain.ListingEditResult, error) {
	return retry(ctx, func() (*domain.ListingEditResult, error) { return s.editOwnListing(ctx, e) })
}

// editOwnListing is EditOwnListing in one transaction (retried by EditOwnListing).
func (s *Store) editOwnListing(ctx context.Context, e domain.ListingEdit) (*domain.ListingEditResult, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	defer tx.Rollback()
	if _, err := s.OwnedListingSlug(ctx, tx, e.UserID, e.ListingID); err != nil {
		return nil, err
	}
	now := e.Now.Unix()
	res := &domain.ListingEditResult{AppliedTo: []domain.AppliedListing{}}
	user := sql.NullInt64{Int64: e.UserID, Valid: e.UserID > 0}
	if res.Version, err = writeVersion(ctx, tx, e.ListingID, e.Values, domain.VersionEdit, user, e.Email, 0, 0, now); err != nil {
		return nil, err
	}
	if e.ApplyAll || len(e.ApplyTo) > 0 {
		if res.AppliedTo, err = s.applyTo(ctx, tx, e, user, now); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, mapErr(err, "listing", "")
	}
	return res, nil
}

// applyTo writes e.Travel to the same company's listings on the other sites
// e names: those the user owns or that have no owner; the others are skipped.
func (s *Store) applyTo(ctx context.Context, tx *Tx, e domain.ListingEdit, user sql.NullInt64, now int64) ([]domain.AppliedListing, error) {
	out := []domain.AppliedListing{}
	var company sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT company_id FROM listings WHERE id = ?`, e.ListingID).Scan(&company); err != nil {
		return nil, mapErr(err, "listing", "")
	}
	if !company.Valid {
		for _, k := range e.ApplyTo {
			out = append(out, domain.AppliedListing{Site: k, Result: domain.AppliedSkipped,
				Reason: "This listing is not linked to a company, so no listing on another site can be matched to it."})
		}
		return out, nil
	}
	q := `SELECT l.id, l.slug, st.key,
		CASE WHEN ` + s.db.eng.ownedBy() + ` THEN 'owned'
		     WHEN l.owner_id IS NULL AND NOT EXISTS (SELECT 1 FROM listing_owners o WHERE o.listing_id = l.id) THEN 'unowned'
		     ELSE 'other' END
		FROM listings l JOIN sites st ON st.id = l.site_id
		WHERE l.company_id = ? AND l.site_id != ?`
	args := []any{e.UserID, e.UserID, company.Int64, s.siteID}
	if !e.ApplyAll {
		q += ` AND st.key IN (` + placeholders(len(e.ApplyTo)) + `)`
		for _, k := range e.ApplyTo {
			args = append(args, k)
		}
	}
	rows, err := tx.QueryContext(ctx, q+` ORDER BY st.key, l.id`, args...)
	if err != nil {
		return nil, mapErr(err, "listings", "")
	}
	type target struct {
		a   domain.AppliedListing
		may string
	}
	var targets []target
	for rows.Next() {
		var t target
		if err := rows.Scan(&t.a.ListingID, &t.a.Slug, &t.a.Site, &t.may); err != nil {
			rows.Close()
			return nil, mapErr(err, "listings", "")
		}
		targets = append(targets, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, mapErr(err, "listings", "")
	}
	found := map[string]bool{}
	for _, t := range targets {
		found[t.a.Site] = true
		a := t.a
		if t.may == "other" {
			a.Result, a.Reason = domain.AppliedSkipped, "Another account owns this listing; only its owners may change it."
			out = append(out, a)
			continue
		}
		v, err := writeVersion(ctx, tx, a.ListingID, e.Travel, domain.VersionApplyTo, user, e.Email, e.ListingID, 0, now)
		if err != nil {
			return nil, err
		}
		a.Result = domain.AppliedUnchanged
		if v != nil {
			a.Result, a.Version = domain.AppliedWritten, v.Version
		}
		out = append(out, a)
	}
	for _, k := range e.ApplyTo {
		if !found[k] {
			out = append(out, domain.AppliedListing{Site: k, Result: domain.AppliedSkipped,
				Reason: "The company has no listing on this site."})
		}
	}
	return out, nil
}

// writeVersion writes the values of listing id that differ from values and
// records them as a version; nil when nothing differs (nothing is written).
// source is the listing apply_to carried from, reverts the version a revert
// puts back (0: none). A revert is the team's own change: reviewed at once.
func writeVersion(ctx context.Context, tx *Tx, id int64, values map[string]json.RawMessage, kind string,
	user sql.NullInt64, email string, source, reverts int64, now int64) (*domain.ListingVersionSummary, error) {
	fields := make([]string, 0, len(values))
	for _, f := range editOrder {
		if _, ok := values[f]; ok {
			fields = append(fields, f)
		}
	}
	if len(fields) != len(values) {
		return nil, fmt.Errorf("storage: listing edit names a field that is not editable: %v", values)
	}
	cur, err := currentValues(ctx, tx, id, fields)
	if err != nil {
		return nil, err
	}
	before, after := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	var changed, sets []string
	var args []any
	for _, f := range fields {
		if string(cur[f]) == string(values[f]) {
			continue
		}
		v, err := columnValue(f, values[f])
		if err != nil {
			return nil, err
		}
		changed = append(changed, f)
		before[f], after[f] = cur[f], values[f]
		sets = append(sets, f+` = ?`)
		args = append(args, v)
	}
	if len(changed) == 0 {
		return nil, nil
	}
	// The UPDATE appends to search_log (trigger of 0001), so search sees the edit.
	if _, err := tx.ExecContext(ctx, `UPDATE listings SET `+strings.Join(sets, ", ")+`, updated_at = ? WHERE id = ?`,
		append(args, now, id)...); err != nil {
		return nil, mapErr(err, "listing", "")
	}
	fj, _ := json.Marshal(changed)
	bj, _ := json.Marshal(before)
	aj, _ := json.Marshal(after)
	var reviewedBy, reviewedAt any
	if kind == domain.VersionRevert {
		reviewedBy, reviewedAt = email, now
	}
	var vid int64
	err = tx.QueryRowContext(ctx, `INSERT INTO listing_versions (listing_id, version, kind, user_id, by_email, fields, before, after,
			source_listing_id, reverts_id, created_at, reviewed_by, reviewed_at)
		VALUES (?, (SELECT COALESCE(MAX(version), 0) + 1 FROM listing_versions WHERE listing_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING id`, id, id, kind, user, email, string(fj), string(bj), string(aj), nullID(source), nullID(reverts), now,
		reviewedBy, reviewedAt).Scan(&vid)
	if err != nil {
		return nil, mapErr(err, "listing version", "")
	}
	list, err := versionSummaries(ctx, tx, `v.id = ?`, 1, vid)
	if err != nil {
		// %w: a serialization failure must stay visible to retry.
		return nil, fmt.Errorf("storage: read version %d back: %w", vid, err)
	}
	if len(list) != 1 {
		return nil, fmt.Errorf("storage: read version %d back: %d rows", vid, len(list))
	}
	return &list[0], nil
}

// editOrder is the order fields are listed in a version.
var editOrder = append(append([]string{}, domain.EditableFieldNames...), "socials", "faqs")

// currentValues reads the fields of listing id as canonical JSON.
func currentValues(ctx context.Context, tx *Tx, id int64, fields []string) (map[string]json.RawMessage, error) {
	dest := make([]any, len(fields))
	for i, f := range fields {
		if !editable(f) {
			return nil, fmt.Errorf("storage: %s is not an editable listing field", f)
		}
		if editKind(f) == "int" {
			dest[i] = new(sql.NullInt64)
		} else {
			dest[i] = new(sql.NullString)
		}
	}
	if err := tx.QueryRowContext(ctx, `SELECT `+strings.Join(fields, ", ")+` FROM listings WHERE id = ?`, id).Scan(dest...); err != nil {
		return nil, mapErr(err, "listing", strconv.FormatInt(id, 10))
	}
	out := map[string]json.RawMessage{}
	for i, f := range fields {
		var v any
		switch editKind(f) {
		case "int":
			if n := dest[i].(*sql.NullInt64); n.Valid {
				v = n.Int64
			}
		case "text":
			v = dest[i].(*sql.NullString).String
		default:
			var err error
			if v, err = decodeEditJSON(f, dest[i].(*sql.NullString).String); err != nil {
				return nil, err
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out[f] = b
	}
	return out, nil
}

// decodeEditJSON decodes a JSON column into its Go type, never nil, so that
// it encodes the way the domain encodes a value it sends.
func decodeEditJSON(field, text string) (any, error) {
	if text == "" {
		text = "null"
	}
	switch editKind(field) {
	case "list":
		l := []string{}
		if err := decodeJSON(text, &l, "listing "+field); err != nil {
			return nil, err
		}
		return nonNil(l), nil
	case "faqs":
		l := []domain.FAQ{}
		if err := decodeJSON(text, &l, "listing faqs"); err != nil {
			return nil, err
		}
		return nonNil(l), nil
	default:
		m := domain.Socials{}
		if err := decodeJSON(text, &m, "listing socials"); err != nil {
			return nil, err
		}
		if m == nil {
			m = domain.Socials{}
		}
		return m, nil
	}
}

// columnValue turns a canonical JSON value into what the column stores.
func columnValue(field string, raw json.RawMessage) (any, error) {
	switch editKind(field) {
	case "int":
		if string(raw) == "null" {
			return nil, nil
		}
		var n int64
		err := json.Unmarshal(raw, &n)
		return n, err
	case "text":
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	v, err := decodeEditJSON(field, string(raw)) // checks the shape before it is stored
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// versionCols are read by scanVersion, from listing_versions v with the
// source listing sl (and its site ss) and the reverted version rv.
const versionCols = `v.version, v.created_at, v.by_email, v.kind, v.fields, COALESCE(sl.slug, ''), COALESCE(ss.key, ''),
	COALESCE(rv.version, 0), v.by_team`

const versionJoins = ` LEFT JOIN listings sl ON sl.id = v.source_listing_id LEFT JOIN sites ss ON ss.id = sl.site_id
	LEFT JOIN listing_versions rv ON rv.id = v.reverts_id`

func scanVersion(row interface{ Scan(...any) error }, extra ...any) (domain.ListingVersionSummary, error) {
	var v domain.ListingVersionSummary
	var at int64
	var fields, srcSlug, srcSite string
	var reverts int
	var byTeam bool
	if err := row.Scan(append([]any{&v.Version, &at, &v.By, &v.Kind, &fields, &srcSlug, &srcSite, &reverts, &byTeam}, extra...)...); err != nil {
		return v, err
	}
	v.At = time.Unix(at, 0).UTC()
	if err := decodeJSON(fields, &v.Fields, "version fields"); err != nil {
		return v, err
	}
	switch v.Kind {
	case domain.VersionApplyTo:
		v.Note = "Carried by apply_to from the same company's listing " + srcSlug + " on site " + srcSite + "."
		if srcSlug == "" {
			v.Note = "Carried by apply_to from the same company's listing on another site."
		}
	case domain.VersionRevert:
		v.Note = "The site team put back the values from before version " + strconv.Itoa(reverts) + "."
	case domain.VersionEdit:
		if byTeam { // the console's edit (docs/console.md "Listings")
			v.Note = console.TeamEditNote
		}
	}
	return v, nil
}

// versionSummaries reads versions matching where (over v), newest first.
func versionSummaries(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, where string, limit int, args ...any) ([]domain.ListingVersionSummary, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+versionCols+` FROM listing_versions v`+versionJoins+
		` WHERE `+where+` ORDER BY v.version DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, mapErr(err, "listing versions", "")
	}
	defer rows.Close()
	out := []domain.ListingVersionSummary{}
	for rows.Next() {
		v, err := scanVersion(rows)
		if err != nil {
			return nil, mapErr(err, "listing versions", "")
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// ListingEdits implements domain.ListingEditStore.
func (s *Store) ListingEdits(ctx context.Context, listingID int64, limit int) (domain.ListingCopy, []domain.ListingVersionSummary, error) {
	var c domain.ListingCopy
	err := s.db.sql.QueryRowContext(ctx, `SELECT headline, summary, seo_title, seo_description FROM listings WHERE id = ? AND site_id = ?`,
		listingID, s.siteID).Scan(&c.Headline, &c.Summary, &c.SEOTitle, &c.SEODescription)
	if err != nil {
		return c, nil, mapErr(err, "listing", strconv.FormatInt(listingID, 10))
	}
	hist, err := versionSummaries(ctx, s.db.sql, `v.listing_id = ?`, limit, listingID)
	if err != nil {
		return c, nil, err
	}
	return c, hist, nil
}

// ReviewQueue implements domain.ListingEditStore.
func (s *Store) ReviewQueue(ctx context.Context, limit int) ([]domain.ListingVersion, int, error) {
	var open int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT count(*) FROM listing_versions v JOIN listings l ON l.id = v.listing_id
		WHERE l.site_id = ? AND v.reviewed_at IS NULL`, s.siteID).Scan(&open); err != nil {
		return nil, 0, mapErr(err, "listing versions", "")
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+versionCols+`, v.id, v.listing_id, l.slug, l.name, l.status,
		v.before, v.after, COALESCE(v.reviewed_by, ''), v.reviewed_at
		FROM listing_versions v JOIN listings l ON l.id = v.listing_id`+versionJoins+`
		WHERE l.site_id = ? ORDER BY v.reviewed_at IS NOT NULL, v.created_at DESC, v.id DESC LIMIT ?`, s.siteID, limit)
	if err != nil {
		return nil, 0, mapErr(err, "listing versions", "")
	}
	defer rows.Close()
	out := []domain.ListingVersion{}
	for rows.Next() {
		var v domain.ListingVersion
		var before, after string
		var reviewed sql.NullInt64
		if v.ListingVersionSummary, err = scanVersion(rows, &v.ID, &v.ListingID, &v.ListingSlug, &v.ListingName,
			&v.ListingStatus, &before, &after, &v.ReviewedBy, &reviewed); err != nil {
			return nil, 0, mapErr(err, "listing versions", "")
		}
		var b, a map[string]json.RawMessage
		if err := decodeJSON(before, &b, "version before"); err != nil {
			return nil, 0, err
		}
		if err := decodeJSON(after, &a, "version after"); err != nil {
			return nil, 0, err
		}
		for _, f := range v.Fields {
			v.Changes = append(v.Changes, domain.FieldChange{Field: f, Before: b[f], After: a[f]})
		}
		v.ReviewedAt = unixTime(reviewed)
		if v.ListingStatus == domain.ListingLive || v.ListingStatus == domain.ListingScheduled {
			v.PageURL = s.site.ListingPageURL(v.ListingSlug)
		}
		out = append(out, v)
	}
	return out, open, rows.Err()
}

// versionHere checks that version id belongs to a listing of this site.
func (s *Store) versionHere(ctx context.Context, q queryRower, id int64) (listingID int64, before string, err error) {
	err = q.QueryRowContext(ctx, `SELECT v.listing_id, v.before FROM listing_versions v JOIN listings l ON l.id = v.listing_id
		WHERE v.id = ? AND l.site_id = ?`, id, s.siteID).Scan(&listingID, &before)
	return listingID, before, mapErr(err, "listing version", strconv.FormatInt(id, 10))
}

// MarkVersionReviewed implements domain.ListingEditStore.
func (s *Store) MarkVersionReviewed(ctx context.Context, id int64, by string, now time.Time) error {
	if _, _, err := s.versionHere(ctx, s.db.sql, id); err != nil {
		return err
	}
	_, err := s.db.sql.ExecContext(ctx, `UPDATE listing_versions SET reviewed_by = ?, reviewed_at = ? WHERE id = ? AND reviewed_at IS NULL`,
		by, now.Unix(), id)
	return mapErr(err, "listing version", "")
}

// RevertVersion implements domain.ListingEditStore.
func (s *Store) RevertVersion(ctx context.Context, id int64, by string, now time.Time) (*domain.ListingVersionSummary, error) {
	return retry(ctx, func() (*domain.ListingVersionSummary, error) { return s.revertVersion(ctx, id, by, now) })
}

// revertVersion is RevertVersion in one transaction (retried by RevertVersion).
func (s *Store) revertVersion(ctx context.Context, id int64, by string, now time.Time) (*domain.ListingVersionSummary, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, mapErr(err, "listing version", "")
	}
	defer tx.Rollback()
	listingID, beforeText, err := s.versionHere(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	var before map[string]json.RawMessage
	if err := decodeJSON(beforeText, &before, "version before"); err != nil {
		return nil, err
	}
	var user sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT id FROM users WHERE lower(email) = lower(?) ORDER BY id LIMIT 1`, by).Scan(&user); err != nil && err != sql.ErrNoRows {
		return nil, mapErr(err, "user", "")
	}
	v, err := writeVersion(ctx, tx, listingID, before, domain.VersionRevert, user, by, 0, id, now.Unix())
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE listing_versions SET reviewed_by = ?, reviewed_at = ? WHERE id = ? AND reviewed_at IS NULL`,
		by, now.Unix(), id); err != nil {
		return nil, mapErr(err, "listing version", "")
	}
	if err := tx.Commit(); err != nil {
		return nil, mapErr(err, "listing version", "")
	}
	return v, nil
}
