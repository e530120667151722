package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/launchdir/launchdir/domain"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// ---- Own listings ----

// maxSlugLen is the longest listing or founder slug: ^[a-z0-9][a-z0-9-]{0,219}$.
const maxSlugLen = 220

// SaveOwnListing creates (id 0) or updates listing id of userID from w in one
// transaction and returns its id; see domain.DraftStore. A new listing has
// status draft (submitted, not public) and plan free. Categories, founders and
// milestones are replaced by w's.
func (s *Store) SaveOwnListing(ctx context.Context, userID, id int64, w *domain.ListingWrite) (int64, error) {
	return retry(ctx, func() (int64, error) { return s.saveOwnListing(ctx, userID, id, w) })
}

// saveOwnListing is SaveOwnListing in one transaction (retried by SaveOwnListing).
func (s *Store) saveOwnListing(ctx context.Context, userID, id int64, w *domain.ListingWrite) (int64, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, mapErr(err, "listing", "")
	}
	defer tx.Rollback()
	if id, err = s.saveOwnListingTx(ctx, tx, userID, id, w); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, mapErr(err, "listing", "")
	}
	return id, nil
}

// saveOwnListingTx is SaveOwnListing's writes in tx, which the caller commits.
func (s *Store) saveOwnListingTx(ctx context.Context, tx *Tx, userID, id int64, w *domain.ListingWrite) (int64, error) {
	now := s.db.Now().Unix()
	catIDs, err := s.categoryIDs(ctx, tx, w.Categories)
	if err != nil {
		return 0, err
	}
	var stage any // the domain checked it is one of domain.Stages
	if w.Stage != "" {
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
		if err != nil && isPGUniqueViolation(err) {
			// The slug was free when freeSlug read it: a concurrent creation
			// took it since (PostgreSQL reports this as a unique violation,
			// not a serialization failure). SaveOwnListing runs again.
			return 0, raced{err}
		}
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
func setPrimaryCategory(ctx context.Context, tx *Tx, listingID, cid int64) error {
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
func (s *Store) categoryIDs(ctx context.Context, tx *Tx, slugs []string) ([]int64, error) {
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
func replaceCategories(ctx context.Context, tx *Tx, listingID int64, catIDs []int64) error {
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
func replaceMilestones(ctx context.Context, tx *Tx, listingID int64, ms []domain.Milestone) error {
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
func replaceFounders(ctx context.Context, tx *Tx, listingID int64, fs []domain.FounderWrite, now int64) error {
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
func companyFor(ctx context.Context, tx *Tx, name, host string, now int64) (int64, error) {
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
func freeSlug(ctx context.Context, tx *Tx, base, taken string, args ...any) (string, error) {
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

// ListingsAtDomain implements domain.DraftStore: the listings at registrable
// or a subdomain of it that are public or userID's own, the owned first.
func (s *Store) ListingsAtDomain(ctx context.Context, userID int64, registrable string) ([]domain.DomainListing, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT l.id, l.slug, l.name, l.status, l.domain, `+s.db.eng.ownedBy()+` AS owned
		FROM listings l WHERE l.id IN (SELECT d.id FROM listings d `+s.db.eng.indexedBy("listings_domain")+`
			WHERE d.domain = ?3 OR `+s.db.eng.suffix("d.domain", "length(?3) + 1")+` = '.' || ?3)
		AND l.site_id = ?4 AND (`+publicStatus+` OR `+s.db.eng.ownedBy()+`)
		ORDER BY owned DESC, l.status = 'live' DESC, l.id LIMIT 20`,
		userID, userID, registrable, s.siteID, userID, userID)
	if err != nil {
		return nil, mapErr(err, "listing", registrable)
	}
	defer rows.Close()
	var out []domain.DomainListing
	for rows.Next() {
		var l domain.DomainListing
		if err := rows.Scan(&l.ID, &l.Slug, &l.Name, &l.Status, &l.Domain, &l.CallerOwns); err != nil {
			return nil, mapErr(err, "listing", registrable)
		}
		out = append(out, l)
	}
	return out, mapErr(rows.Err(), "listing", registrable)
}
