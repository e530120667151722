package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
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
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.createDraft(ctx, d, jobs...) })
	return err
}

// createDraft is CreateDraft's transaction (CreateDraft retries it).
func (s *Store) createDraft(ctx context.Context, d *domain.DraftRecord, jobs ...domain.JobSpec) error {
	if d.ID == "" {
		d.ID = domain.NewUUID()
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
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+draftCols+` FROM drafts WHERE user_id = ? AND site_id = ?
		ORDER BY created_at DESC, id LIMIT ? OFFSET ?`, userID, s.siteID, s.db.eng.limit(limit), max(offset, 0))
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
func (s *Store) UpdateDraft(ctx context.Context, d *domain.DraftRecord, withCrawl bool, events ...domain.WebhookEvent) error {
	if d.UpdatedAt.IsZero() {
		d.UpdatedAt = s.db.Now().Truncate(time.Second)
	}
	if len(events) > 0 { // the webhooks' outbox rows commit with the change they report
		err := s.db.inTx(ctx, func(tx *Tx) error {
			if err := s.updateDraft(ctx, tx, d, withCrawl); err != nil {
				return err
			}
			return s.addWebhookEventsTx(ctx, tx, events...)
		})
		if err != nil {
			return err
		}
		d.Version++
		return nil
	}
	if err := s.updateDraft(ctx, s.db.sql, d, withCrawl); err != nil {
		return err
	}
	d.Version++
	return nil
}

// draftExec is a database or a transaction, for the draft writes.
type draftExec interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// updateDraft is UpdateDraft's statement on ex; the caller bumps d.Version
// once what ex belongs to is committed.
func (s *Store) updateDraft(ctx context.Context, ex draftExec, d *domain.DraftRecord, withCrawl bool) error {
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
	res, err := ex.ExecContext(ctx, `UPDATE drafts SET `+set+` WHERE id = ? AND site_id = ? AND version = ?`, args...)
	if err != nil {
		return mapErr(err, "draft", d.ID)
	}
	if n, err := res.RowsAffected(); err != nil {
		return mapErr(err, "draft", d.ID)
	} else if n == 0 {
		return s.staleOrGone(ctx, ex, d.ID)
	}
	return nil
}

// SaveDraftAndListing writes d as UpdateDraft does and, when w is not nil,
// d's listing from w as SaveOwnListing does (a new one when d.ListingID is
// 0, whose id d.ListingID then holds), in one transaction: when either write
// fails, neither is stored. See domain.DraftStore.
func (s *Store) SaveDraftAndListing(ctx context.Context, d *domain.DraftRecord, w *domain.ListingWrite) error {
	listingID, err := retry(ctx, func() (int64, error) { return s.saveDraftAndListing(ctx, d, w) })
	if err != nil {
		return err
	}
	d.ListingID = listingID
	d.Version++
	return nil
}

// saveDraftAndListing is SaveDraftAndListing's transaction (retried by it);
// it returns the listing's id and leaves d as it was.
func (s *Store) saveDraftAndListing(ctx context.Context, d *domain.DraftRecord, w *domain.ListingWrite) (int64, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, mapErr(err, "draft", d.ID)
	}
	defer tx.Rollback()
	rec := *d
	if rec.UpdatedAt.IsZero() {
		rec.UpdatedAt = s.db.Now().Truncate(time.Second)
	}
	if w != nil {
		if rec.ListingID, err = s.saveOwnListingTx(ctx, tx, rec.UserID, rec.ListingID, w); err != nil {
			return 0, err
		}
	}
	if err := s.updateDraft(ctx, tx, &rec, false); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, mapErr(err, "draft", d.ID)
	}
	d.UpdatedAt = rec.UpdatedAt
	return rec.ListingID, nil
}

// staleOrGone tells a draft that changed (ErrStale) from one that does not exist.
func (s *Store) staleOrGone(ctx context.Context, q draftExec, id string) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM drafts WHERE id = ? AND site_id = ?`, id, s.siteID).Scan(&one)
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
