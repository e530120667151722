package storage

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/launchdir/launchdir/domain"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// The draft methods of Store implement domain.DraftStore over the drafts and
// draft_invites tables of migration 0003; SaveOwnListing writes the listing a
// submitted draft becomes. Drafts are scoped to the Store's site like listings.
var _ domain.DraftStore = (*Store)(nil)

// draftCols are the columns scanDraft reads; the crawl column is left out on
// purpose (it can be megabytes) and added only when asked for.
const draftCols = `id, user_id, url, status, phase, pages_done, pages_planned, error, doc, ai,
	COALESCE(listing_id, 0), version, created_at, updated_at`

// CreateDraft inserts d as version 1. An empty d.ID gets a new UUID; zero
// times get the current time. d.ID, d.Version and the times are set on return.
func (s *Store) CreateDraft(ctx context.Context, d *domain.DraftRecord, jobs ...domain.JobSpec) error {
	if d.ID == "" {
		id, err := newUUID()
		if err != nil {
			return err
		}
		d.ID = id
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = s.db.Now().Truncate(time.Second)
	}
	if d.UpdatedAt.IsZero() {
		d.UpdatedAt = d.CreatedAt
	}
	cols, err := draftJSON(d, true)
	if err != nil {
		return err
	}
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err, "draft", d.ID)
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO drafts (id, site_id, user_id, url, status, phase, pages_done,
		pages_planned, error, doc, ai, crawl, listing_id, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
		d.ID, s.siteID, d.UserID, d.URL, d.Status, d.Phase, d.PagesDone, d.PagesPlanned, cols.errText, cols.doc,
		cols.ai, cols.crawl, nullID(d.ListingID), d.CreatedAt.Unix(), d.UpdatedAt.Unix())
	if err != nil {
		return mapErr(err, "draft", d.ID)
	}
	if err := s.db.enqueueTx(ctx, tx, jobs...); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return mapErr(err, "draft", d.ID)
	}
	d.Version = 1
	return nil
}

// OrphanDrafts implements domain.DraftStore: the drafts of this site being
// built (crawling or drafting) without a queued build job.
func (s *Store) OrphanDrafts(ctx context.Context) ([]string, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT d.id FROM drafts d WHERE d.site_id = ? AND d.status IN (?, ?)
		AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = ? AND j.key = d.id AND j.state = 'queued') ORDER BY d.created_at, d.id`,
		s.siteID, domain.DraftCrawling, domain.DraftDrafting, domain.DraftJob)
	if err != nil {
		return nil, mapErr(err, "draft", "")
	}
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, mapErr(err, "draft", "")
		}
		ids = append(ids, id)
	}
	return ids, mapErr(rows.Err(), "draft", "")
}

// Draft returns the draft id of this site (of any user: the Service checks the
// owner). The crawl is read and decoded only when withCrawl is true.
func (s *Store) Draft(ctx context.Context, id string, withCrawl bool) (*domain.DraftRecord, error) {
	cols := draftCols
	if withCrawl {
		cols += `, crawl`
	}
	row := s.db.sql.QueryRowContext(ctx, `SELECT `+cols+` FROM drafts WHERE id = ? AND site_id = ?`, id, s.siteID)
	d, err := scanDraft(row, withCrawl)
	if err != nil {
		return nil, mapErr(err, "draft", id)
	}
	return d, nil
}

// UserDrafts returns one page of userID's drafts on this site, newest first,
// and how many there are in all; limit <= 0 means all. Crawls are not read.
func (s *Store) UserDrafts(ctx context.Context, userID int64, offset, limit int) ([]domain.DraftRecord, int, error) {
	var total int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM drafts WHERE user_id = ? AND site_id = ?`,
		userID, s.siteID).Scan(&total); err != nil {
		return nil, 0, mapErr(err, "draft", "")
	}
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+draftCols+` FROM drafts WHERE user_id = ? AND site_id = ?
		ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, userID, s.siteID, limit, max(offset, 0))
	if err != nil {
		return nil, 0, mapErr(err, "draft", "")
	}
	defer rows.Close()
	out := []domain.DraftRecord{}
	for rows.Next() {
		d, err := scanDraft(rows, false)
		if err != nil {
			return nil, 0, mapErr(err, "draft", "")
		}
		out = append(out, *d)
	}
	return out, total, mapErr(rows.Err(), "draft", "")
}

// UpdateDraft writes d if it is still at d.Version and bumps the version (see
// domain.DraftStore). updated_at is d.UpdatedAt, or now when zero. It gives
// domain.ErrStale when another write came first, not_found when the draft is gone.
func (s *Store) UpdateDraft(ctx context.Context, d *domain.DraftRecord, withCrawl bool) error {
	if d.UpdatedAt.IsZero() {
		d.UpdatedAt = s.db.Now().Truncate(time.Second)
	}
	cols, err := draftJSON(d, withCrawl)
	if err != nil {
		return err
	}
	set := `status = ?, phase = ?, pages_done = ?, pages_planned = ?, error = ?, doc = ?, ai = ?, listing_id = ?,
		version = version + 1, updated_at = ?`
	args := []any{d.Status, d.Phase, d.PagesDone, d.PagesPlanned, cols.errText, cols.doc, cols.ai,
		nullID(d.ListingID), d.UpdatedAt.Unix()}
	if withCrawl {
		set += `, crawl = ?`
		args = append(args, cols.crawl)
	}
	args = append(args, d.ID, s.siteID, d.Version)
	res, err := s.db.sql.ExecContext(ctx, `UPDATE drafts SET `+set+` WHERE id = ? AND site_id = ? AND version = ?`, args...)
	if err != nil {
		return mapErr(err, "draft", d.ID)
	}
	if n, err := res.RowsAffected(); err != nil {
		return mapErr(err, "draft", d.ID)
	} else if n == 0 {
		return s.staleOrGone(ctx, d.ID)
	}
	d.Version++
	return nil
}

// staleOrGone tells a draft that changed (ErrStale) from one that does not exist.
func (s *Store) staleOrGone(ctx context.Context, id string) error {
	var one int
	err := s.db.sql.QueryRowContext(ctx, `SELECT 1 FROM drafts WHERE id = ? AND site_id = ?`, id, s.siteID).Scan(&one)
	if err != nil {
		return mapErr(err, "draft", id)
	}
	return domain.ErrStale
}

// SetDraftProgress records the build's phase and page counts. It does not bump
// the version: progress is not an edit, and must not make a user's edit stale.
func (s *Store) SetDraftProgress(ctx context.Context, id, phase string, done, planned int, now time.Time) error {
	res, err := s.db.sql.ExecContext(ctx, `UPDATE drafts SET phase = ?, pages_done = ?, pages_planned = ?, updated_at = ?
		WHERE id = ? AND site_id = ?`, phase, done, planned, now.Unix(), id, s.siteID)
	if err != nil {
		return mapErr(err, "draft", id)
	}
	if n, err := res.RowsAffected(); err != nil {
		return mapErr(err, "draft", id)
	} else if n == 0 {
		return domain.NotFound("draft", id)
	}
	return nil
}

// draftColumns are a draft's JSON columns as stored.
type draftColumns struct {
	errText, doc, ai, crawl string
}

// draftJSON encodes d's JSON columns: no error is "", no AI output "{}", no
// crawl "" (not read yet); crawl is encoded only when withCrawl.
func draftJSON(d *domain.DraftRecord, withCrawl bool) (draftColumns, error) {
	var c draftColumns
	enc := func(v any, what string) (string, error) {
		b, err := json.Marshal(v)
		if err != nil {
			return "", fmt.Errorf("storage: draft %s: encode %s: %w", d.ID, what, err)
		}
		return string(b), nil
	}
	var err error
	if c.doc, err = enc(d.Doc, "doc"); err != nil {
		return c, err
	}
	c.ai = "{}"
	if d.AI != nil {
		if c.ai, err = enc(d.AI, "ai"); err != nil {
			return c, err
		}
	}
	if d.Error != nil {
		if c.errText, err = enc(d.Error, "error"); err != nil {
			return c, err
		}
	}
	if withCrawl && d.Crawl != nil {
		if c.crawl, err = enc(d.Crawl, "crawl"); err != nil {
			return c, err
		}
	}
	return c, nil
}

// scanDraft reads draftCols (and crawl when withCrawl) into a DraftRecord.
func scanDraft(row interface{ Scan(...any) error }, withCrawl bool) (*domain.DraftRecord, error) {
	d := &domain.DraftRecord{}
	var errText, doc, ai, crawl string
	var created, updated int64
	dest := []any{&d.ID, &d.UserID, &d.URL, &d.Status, &d.Phase, &d.PagesDone, &d.PagesPlanned, &errText, &doc, &ai,
		&d.ListingID, &d.Version, &created, &updated}
	if withCrawl {
		dest = append(dest, &crawl)
	}
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	d.CreatedAt, d.UpdatedAt = time.Unix(created, 0).UTC(), time.Unix(updated, 0).UTC()
	what := "draft " + d.ID
	if err := decodeJSON(doc, &d.Doc, what+" doc"); err != nil {
		return nil, err
	}
	if !emptyJSON(errText) {
		d.Error = &domain.DraftError{}
		if err := decodeJSON(errText, d.Error, what+" error"); err != nil {
			return nil, err
		}
	}
	if !emptyJSON(ai) {
		d.AI = &domain.Drafted{}
		if err := decodeJSON(ai, d.AI, what+" ai"); err != nil {
			return nil, err
		}
	}
	if withCrawl && !emptyJSON(crawl) {
		d.Crawl = &domain.SiteCrawl{}
		if err := decodeJSON(crawl, d.Crawl, what+" crawl"); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// emptyJSON reports whether a JSON column holds nothing: "", "{}" or "null".
func emptyJSON(s string) bool {
	s = strings.TrimSpace(s)
	return s == "" || s == "{}" || s == "null"
}

// nullID binds 0 as NULL, for optional references.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// newUUID returns a random (version 4) UUID.
func newUUID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("storage: draft id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]), nil
}

// ---- Invites ----

// inviteCols are the columns scanInvite reads from draft_invites i.
const inviteCols = `i.id, i.email, i.created_at, i.accepted_at`

// scanInvite reads inviteCols; an invite with accepted_at is "accepted", else "sent".
func scanInvite(row interface{ Scan(...any) error }, extra ...any) (*domain.DraftInvite, error) {
	inv := &domain.DraftInvite{}
	var created int64
	var accepted sql.NullInt64
	if err := row.Scan(append([]any{&inv.ID, &inv.Email, &created, &accepted}, extra...)...); err != nil {
		return nil, err
	}
	inv.CreatedAt = time.Unix(created, 0).UTC()
	inv.AcceptedAt = unixTime(accepted)
	inv.Status = "sent"
	if inv.AcceptedAt != nil {
		inv.Status = "accepted"
	}
	return inv, nil
}

// AddDraftInvite records an invite to draftID for email (see domain.DraftStore).
// Addresses are compared case-insensitively; maxInvites <= 0 means no limit.
func (s *Store) AddDraftInvite(ctx context.Context, draftID, email, tokenHash string, maxInvites int, now time.Time) (*domain.DraftInvite, error) {
	email = strings.TrimSpace(email)
	if email == "" || tokenHash == "" {
		return nil, fmt.Errorf("storage: draft invite: email and token hash are required")
	}
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, mapErr(err, "invite", "")
	}
	defer tx.Rollback()
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM drafts WHERE id = ? AND site_id = ?`, draftID, s.siteID).Scan(&one); err != nil {
		return nil, mapErr(err, "draft", draftID)
	}
	inv, err := scanInvite(tx.QueryRowContext(ctx, `SELECT `+inviteCols+` FROM draft_invites i
		WHERE i.draft_id = ? AND lower(i.email) = lower(?) ORDER BY i.id LIMIT 1`, draftID, email))
	switch {
	case err == nil:
		// Invited before: a new link replaces the old one (the old token stops
		// working); an invite not accepted yet starts its validity again.
		if _, err := tx.ExecContext(ctx, `UPDATE draft_invites SET hash = ?,
			created_at = CASE WHEN accepted_at IS NULL THEN ? ELSE created_at END WHERE id = ?`, tokenHash, now.Unix(), inv.ID); err != nil {
			return nil, mapErr(err, "invite", "")
		}
		if inv.AcceptedAt == nil {
			inv.CreatedAt = now.UTC().Truncate(time.Second)
		}
	case err == sql.ErrNoRows:
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(DISTINCT lower(email)) FROM draft_invites WHERE draft_id = ?`,
			draftID).Scan(&n); err != nil {
			return nil, mapErr(err, "invite", "")
		}
		if maxInvites > 0 && n >= maxInvites {
			return nil, domain.Invalid("email", "max_invites",
				"This listing already has %d invites, the most allowed; to send a new link, invite one of those addresses again.", n)
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO draft_invites (draft_id, email, hash, created_at)
			VALUES (?, ?, ?, ?) RETURNING id`, draftID, email, tokenHash, now.Unix()).Scan(&id); err != nil {
			return nil, mapErr(err, "invite", "")
		}
		inv = &domain.DraftInvite{ID: id, Email: email, Status: "sent", CreatedAt: time.Unix(now.Unix(), 0).UTC()}
	default:
		return nil, mapErr(err, "invite", "")
	}
	if err := tx.Commit(); err != nil {
		return nil, mapErr(err, "invite", "")
	}
	return inv, nil
}

// DraftInvites lists the invites of draftID in the order they were made.
func (s *Store) DraftInvites(ctx context.Context, draftID string) ([]domain.DraftInvite, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+inviteCols+` FROM draft_invites i
		JOIN drafts d ON d.id = i.draft_id WHERE i.draft_id = ? AND d.site_id = ? ORDER BY i.id`,
		draftID, s.siteID)
	if err != nil {
		return nil, mapErr(err, "invite", "")
	}
	defer rows.Close()
	out := []domain.DraftInvite{}
	for rows.Next() {
		inv, err := scanInvite(rows)
		if err != nil {
			return nil, mapErr(err, "invite", "")
		}
		out = append(out, *inv)
	}
	return out, mapErr(rows.Err(), "invite", "")
}

// errInviteLink is the not_found answer for an unknown or replaced invite link.
// It does not echo the token's hash.
var errInviteLink = domain.Errorf(domain.ENotFound,
	"This invite link is not valid, or a newer invite replaced it; ask the listing's owner to invite you again.")

// DraftInviteByHash finds an invite of this site by its token hash.
func (s *Store) DraftInviteByHash(ctx context.Context, tokenHash string) (string, *domain.DraftInvite, error) {
	var draftID string
	inv, err := scanInvite(s.db.sql.QueryRowContext(ctx, `SELECT `+inviteCols+`, i.draft_id FROM draft_invites i
		JOIN drafts d ON d.id = i.draft_id WHERE i.hash = ? AND d.site_id = ?`, tokenHash, s.siteID), &draftID)
	if err == sql.ErrNoRows {
		return "", nil, errInviteLink
	}
	if err != nil {
		return "", nil, mapErr(err, "invite", "")
	}
	return draftID, inv, nil
}

// AcceptDraftInvite marks invite id accepted by userID at now. Accepting again
// by the same user changes nothing; an invite another account accepted gives a
// conflict.
func (s *Store) AcceptDraftInvite(ctx context.Context, id, userID int64, now time.Time) error {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err, "invite", "")
	}
	defer tx.Rollback()
	var by sql.NullInt64
	key := strconv.FormatInt(id, 10)
	if err := tx.QueryRowContext(ctx, `SELECT i.accepted_by FROM draft_invites i JOIN drafts d ON d.id = i.draft_id
		WHERE i.id = ? AND d.site_id = ?`, id, s.siteID).Scan(&by); err != nil {
		return mapErr(err, "invite", key)
	}
	switch {
	case by.Valid && by.Int64 == userID:
		return nil
	case by.Valid:
		return domain.Errorf(domain.EConflict, "This invite was already accepted by another account; ask for a new invite.")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE draft_invites SET accepted_by = ?, accepted_at = ? WHERE id = ?`,
		userID, now.Unix(), id); err != nil {
		return mapErr(err, "invite", key)
	}
	return mapErr(tx.Commit(), "invite", key)
}

// ---- Own listings ----

// maxSlugLen is the longest listing or founder slug: ^[a-z0-9][a-z0-9-]{0,219}$.
const maxSlugLen = 220

// SaveOwnListing creates (id 0) or updates listing id of userID from w in one
// transaction and returns its id; see domain.DraftStore. A new listing has
// status draft (submitted, not public) and plan free. Categories, founders and
// milestones are replaced by w's.
func (s *Store) SaveOwnListing(ctx context.Context, userID, id int64, w *domain.ListingWrite) (int64, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, mapErr(err, "listing", "")
	}
	defer tx.Rollback()
	now := s.db.Now().Unix()
	catIDs, err := s.categoryIDs(ctx, tx, w.Categories)
	if err != nil {
		return 0, err
	}
	var stage any
	if w.Stage != "" {
		var one int
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM stages WHERE slug = ?`, w.Stage).Scan(&one); err == sql.ErrNoRows {
			return 0, domain.Invalid("fields.stage", "enum", "Unknown stage %q; use one of idea, pre-launch, beta, launched, growing, profitable, acquired.", w.Stage)
		} else if err != nil {
			return 0, mapErr(err, "stage", w.Stage)
		}
		stage = w.Stage
	}
	host := hostOf(w.Domain)
	if host == "" {
		host = hostOf(w.URL)
	}
	var companyID sql.NullInt64
	if id != 0 {
		var owner sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT owner_id, company_id FROM listings WHERE id = ? AND site_id = ?`,
			id, s.siteID).Scan(&owner, &companyID)
		if err == sql.ErrNoRows || err == nil && (!owner.Valid || owner.Int64 != userID) {
			// Somebody else's listing is reported as absent: do not reveal that it exists.
			return 0, domain.NotFound("listing", strconv.FormatInt(id, 10))
		} else if err != nil {
			return 0, mapErr(err, "listing", "")
		}
	}
	if !companyID.Valid || (w.Parts == nil && host != "") {
		cid, err := companyFor(ctx, tx, w.Name, host, now)
		if err != nil {
			return 0, err
		}
		companyID = sql.NullInt64{Int64: cid, Valid: true}
	}
	vals, err := listingValues(w, host, stage)
	if err != nil {
		return 0, err
	}
	if id == 0 {
		slug, err := freeSlug(ctx, tx, slugify(w.Name, "listing"),
			`SELECT slug FROM listings WHERE site_id = ? AND slug LIKE ?`, s.siteID)
		if err != nil {
			return 0, err
		}
		args := append([]any{s.siteID, slug, userID, companyID, now, now}, vals...)
		err = tx.QueryRowContext(ctx, `INSERT INTO listings (site_id, slug, owner_id, company_id, created_at, updated_at, `+
			listingWriteCols+`) VALUES (?, ?, ?, ?, ?, ?, `+placeholders(len(vals))+`) RETURNING id`, args...).Scan(&id)
		if err != nil {
			return 0, mapErr(err, "listing", slug)
		}
	} else {
		sets, args := "company_id = ?", []any{companyID}
		for i, col := range strings.Split(listingWriteCols, ",") {
			if col = strings.TrimSpace(col); writesPart(w.Parts, listingColPart[col]) {
				sets += ", " + col + " = ?"
				args = append(args, vals[i])
			}
		}
		if len(args) > 1 {
			if _, err := tx.ExecContext(ctx, `UPDATE listings SET updated_at = ?, `+sets+` WHERE id = ?`,
				append(append([]any{now}, args...), id)...); err != nil {
				return 0, mapErr(err, "listing", "")
			}
		}
	}
	switch {
	case w.Parts == nil:
		if err := replaceCategories(ctx, tx, id, catIDs); err != nil {
			return 0, err
		}
	case w.Parts["categories"] && len(catIDs) > 0:
		// Extra categories are a paid product: only the primary one follows the draft.
		if err := setPrimaryCategory(ctx, tx, id, catIDs[0]); err != nil {
			return 0, err
		}
	}
	if writesPart(w.Parts, "milestones") {
		if err := replaceMilestones(ctx, tx, id, w.Milestones); err != nil {
			return 0, err
		}
	}
	if writesPart(w.Parts, "founders") {
		if err := replaceFounders(ctx, tx, id, w.Founders, now); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, mapErr(err, "listing", "")
	}
	return id, nil
}

// listingWriteCols are the listing columns SaveOwnListing writes from a
// ListingWrite, in the order of listingValues.
const listingWriteCols = `name, tagline, short_description, description, url, domain, logo_url, stage,
	pricing_model, pricing_summary, country, city, founded_year, contact_email, demo_video_url, keywords,
	features, usps, faqs, socials, story, not_found_on_website, seo_title, seo_description`

// listingColPart is the ListingWrite part each of listingWriteCols belongs
// to; url, domain and not_found_on_website ("") are written only in full.
var listingColPart = map[string]string{
	"name": "name", "tagline": "tagline", "short_description": "short_description", "description": "description",
	"logo_url": "logo_url", "stage": "stage", "pricing_model": "pricing_model", "pricing_summary": "pricing_summary",
	"country": "country", "city": "city", "founded_year": "founded_year", "contact_email": "contact_email",
	"demo_video_url": "demo_video_url", "keywords": "keywords", "features": "features", "usps": "usps",
	"faqs": "faqs", "socials": "socials", "story": "story", "seo_title": "seo", "seo_description": "seo",
}

// writesPart reports whether a write with parts (nil: all) writes part; the
// keywords column also takes the draft's tags.
func writesPart(parts map[string]bool, part string) bool {
	if parts == nil {
		return true
	}
	return part != "" && (parts[part] || part == "keywords" && parts["tags"])
}

// setPrimaryCategory makes cid the listing's primary category and keeps its
// extra (paid) categories. When cid is one of them, the two swap: the old
// primary takes its paid slot, so nothing paid for is lost.
func setPrimaryCategory(ctx context.Context, tx *sql.Tx, listingID, cid int64) error {
	res, err := tx.ExecContext(ctx, `UPDATE listing_categories SET is_primary = 0 WHERE listing_id = ? AND is_primary = 1
		AND EXISTS (SELECT 1 FROM listing_categories WHERE listing_id = ? AND category_id = ? AND is_primary = 0)`,
		listingID, listingID, cid)
	if err != nil {
		return mapErr(err, "listing categories", "")
	}
	if n, _ := res.RowsAffected(); n > 0 {
		_, err := tx.ExecContext(ctx, `UPDATE listing_categories SET is_primary = 1 WHERE listing_id = ? AND category_id = ?`, listingID, cid)
		return mapErr(err, "listing categories", "")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM listing_categories WHERE listing_id = ? AND (is_primary = 1 OR category_id = ?)`,
		listingID, cid); err != nil {
		return mapErr(err, "listing categories", "")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES (?, ?, 1)`,
		listingID, cid); err != nil {
		return mapErr(err, "listing categories", "")
	}
	return nil
}

// listingValues returns the values of listingWriteCols: JSON lists are never
// null ('[]'), socials '{}' when none, story NULL when none, founded_year NULL when 0.
func listingValues(w *domain.ListingWrite, host string, stage any) ([]any, error) {
	var story any
	if w.Story != nil {
		b, err := json.Marshal(w.Story)
		if err != nil {
			return nil, fmt.Errorf("storage: listing story: %w", err)
		}
		story = string(b)
	}
	var founded any
	if w.FoundedYear != 0 {
		founded = w.FoundedYear
	}
	socials := w.Socials
	if socials == nil {
		socials = domain.Socials{}
	}
	vals := []any{w.Name, w.Tagline, w.ShortDescription, w.Description, w.URL, host, w.LogoURL, stage,
		strings.ToLower(strings.TrimSpace(w.PricingModel)), w.PricingSummary, strings.ToUpper(strings.TrimSpace(w.Country)),
		w.City, founded, w.ContactEmail, w.DemoVideoURL}
	for _, v := range []any{nonNil(w.Keywords), nonNil(w.Features), nonNil(w.USPs), nonNil(w.FAQs), socials} {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("storage: listing JSON column: %w", err)
		}
		vals = append(vals, string(b))
	}
	notFound, err := json.Marshal(nonNil(w.NotFoundOnWebsite))
	if err != nil {
		return nil, fmt.Errorf("storage: listing not_found_on_website: %w", err)
	}
	return append(vals, story, string(notFound), w.SEOTitle, w.SEODescription), nil
}

// nonNil returns s, or an empty slice for nil (so it encodes as [] not null).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// categoryIDs resolves category slugs of this site to ids, in order, without
// duplicates; an unknown slug is an invalid fields.categories.
func (s *Store) categoryIDs(ctx context.Context, tx *sql.Tx, slugs []string) ([]int64, error) {
	ids := make([]int64, 0, len(slugs))
	seen := map[int64]bool{}
	for _, slug := range slugs {
		var cid int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM categories WHERE site_id = ? AND slug = ?`, s.siteID, slug).Scan(&cid)
		if err == sql.ErrNoRows {
			return nil, domain.Invalid("fields.categories", "enum",
				"Unknown category %q; use slugs from list_categories.", slug)
		} else if err != nil {
			return nil, mapErr(err, "category", slug)
		}
		if !seen[cid] {
			seen[cid] = true
			ids = append(ids, cid)
		}
	}
	return ids, nil
}

// replaceCategories sets a listing's categories; the first is primary.
func replaceCategories(ctx context.Context, tx *sql.Tx, listingID int64, catIDs []int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM listing_categories WHERE listing_id = ?`, listingID); err != nil {
		return mapErr(err, "listing categories", "")
	}
	for i, cid := range catIDs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES (?, ?, ?)`,
			listingID, cid, i == 0); err != nil {
			return mapErr(err, "listing categories", "")
		}
	}
	return nil
}

// replaceMilestones sets a listing's milestones.
func replaceMilestones(ctx context.Context, tx *sql.Tx, listingID int64, ms []domain.Milestone) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM milestones WHERE listing_id = ?`, listingID); err != nil {
		return mapErr(err, "milestones", "")
	}
	for _, m := range ms {
		if _, err := tx.ExecContext(ctx, `INSERT INTO milestones (listing_id, date, title, description, url) VALUES (?, ?, ?, ?, ?)`,
			listingID, m.Date, m.Title, m.Description, m.URL); err != nil {
			return mapErr(err, "milestones", "")
		}
	}
	return nil
}

// replaceFounders links the named founders to a listing, first as primary. A
// founder already linked under the same name (case-insensitive) is kept and
// updated, so its slug and page stay; others are created. Founders no longer
// named are unlinked (their rows stay: a founder is a person, global).
func replaceFounders(ctx context.Context, tx *sql.Tx, listingID int64, fs []domain.FounderWrite, now int64) error {
	linked := map[string]int64{}
	rows, err := tx.QueryContext(ctx, `SELECT f.id, f.name FROM listing_founders lf JOIN founders f ON f.id = lf.founder_id
		WHERE lf.listing_id = ? ORDER BY f.id`, listingID)
	if err != nil {
		return mapErr(err, "founders", "")
	}
	for rows.Next() {
		var fid int64
		var name string
		if err := rows.Scan(&fid, &name); err != nil {
			rows.Close()
			return mapErr(err, "founders", "")
		}
		if key := strings.ToLower(strings.TrimSpace(name)); linked[key] == 0 {
			linked[key] = fid
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mapErr(err, "founders", "")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM listing_founders WHERE listing_id = ?`, listingID); err != nil {
		return mapErr(err, "founders", "")
	}
	done := map[string]bool{}
	for _, f := range fs {
		name := strings.TrimSpace(f.Name)
		key := strings.ToLower(name)
		if name == "" || done[key] {
			continue
		}
		socials := f.Socials
		if socials == nil {
			socials = domain.Socials{}
		}
		sj, err := json.Marshal(socials)
		if err != nil {
			return fmt.Errorf("storage: founder socials: %w", err)
		}
		fid := linked[key]
		if fid != 0 {
			_, err = tx.ExecContext(ctx, `UPDATE founders SET name = ?, title = ?, bio = ?, socials = ? WHERE id = ?`,
				name, f.Title, f.Bio, string(sj), fid)
		} else {
			var slug string
			if slug, err = freeSlug(ctx, tx, slugify(name, "founder"), `SELECT slug FROM founders WHERE slug LIKE ?`); err != nil {
				return err
			}
			err = tx.QueryRowContext(ctx, `INSERT INTO founders (slug, name, title, bio, socials, created_at)
				VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, slug, name, f.Title, f.Bio, string(sj), now).Scan(&fid)
		}
		if err != nil {
			return mapErr(err, "founder", name)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO listing_founders (listing_id, founder_id, role, is_primary) VALUES (?, ?, ?, ?)`,
			listingID, fid, f.Title, len(done) == 0); err != nil {
			return mapErr(err, "founder", name)
		}
		done[key] = true
	}
	return nil
}

// companyFor returns the company whose domain is host, creating one named name
// when none is (or when host is empty: a company with no domain is never shared).
func companyFor(ctx context.Context, tx *sql.Tx, name, host string, now int64) (int64, error) {
	var id int64
	if host != "" {
		err := tx.QueryRowContext(ctx, `SELECT id FROM companies WHERE domain = ? ORDER BY id LIMIT 1`, host).Scan(&id)
		if err == nil {
			return id, nil
		} else if err != sql.ErrNoRows {
			return 0, mapErr(err, "company", host)
		}
	}
	err := tx.QueryRowContext(ctx, `INSERT INTO companies (name, domain, created_at) VALUES (?, ?, ?) RETURNING id`,
		name, host, now).Scan(&id)
	return id, mapErr(err, "company", host)
}

// hostOf returns the lower-case host without www. of a URL or bare domain, or "".
func hostOf(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	return strings.TrimPrefix(h, "www.")
}

// stripMarks returns a transformer that removes combining marks after
// decomposition, so "Café" becomes "Cafe". A transform.Chain keeps state, so
// each call needs its own: one shared chain is a data race.
func stripMarks() transform.Transformer {
	return transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
}

// slugify turns a name into a slug matching ^[a-z0-9][a-z0-9-]{0,219}$: accents
// dropped, anything else that is not a-z or 0-9 collapsed into one dash.
// A name with no such letters gives fallback.
func slugify(name, fallback string) string {
	if plain, _, err := transform.String(stripMarks(), name); err == nil {
		name = plain
	}
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
		default:
			dash = true
		}
		if b.Len() >= maxSlugLen {
			break
		}
	}
	slug := strings.TrimRight(b.String()[:min(b.Len(), maxSlugLen)], "-")
	if slug == "" {
		return fallback
	}
	return slug
}

// freeSlug returns base, or base-2, base-3 ... (trimmed to maxSlugLen), the
// first that is not taken. taken is a query over one slug column with its
// arguments; freeSlug appends one more, a LIKE pattern every candidate matches,
// so that one query reads all the slugs that may collide.
func freeSlug(ctx context.Context, tx *sql.Tx, base, taken string, args ...any) (string, error) {
	// Candidates keep at least this much of base (a suffix is at most 12 bytes);
	// slugs hold only [a-z0-9-], so the pattern needs no escaping.
	prefix := base[:min(len(base), maxSlugLen-12)]
	rows, err := tx.QueryContext(ctx, taken, append(args, prefix+"%")...)
	if err != nil {
		return "", mapErr(err, "slug", base)
	}
	used := map[string]bool{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return "", mapErr(err, "slug", base)
		}
		used[s] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", mapErr(err, "slug", base)
	}
	slug := base
	for n := 2; used[slug]; n++ {
		suffix := "-" + strconv.Itoa(n)
		slug = strings.TrimRight(base[:min(len(base), maxSlugLen-len(suffix))], "-") + suffix
	}
	return slug, nil
}
