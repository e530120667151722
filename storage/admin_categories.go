package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// The console's category changes (domain/admin_categories.go): every
// change and its audit entry in one transaction. The search index follows
// through search_log: listing_categories' triggers log each moved listing,
// the categories' triggers log tree changes (cached counts refresh).

var _ console.CategoryAdminStore = (*Store)(nil)

// AdminCategories implements console.CategoryAdminStore.
func (s *Store) AdminCategories(ctx context.Context) ([]console.AdminCategory, error) {
	var out []console.AdminCategory
	err := queryEach(ctx, s.db.sql, func(rows *sql.Rows) error {
		var c console.AdminCategory
		if err := rows.Scan(&c.ID, &c.ParentID, &c.Slug, &c.Name, &c.Position, &c.Listings, &c.Primary); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	}, `SELECT c.id, COALESCE(c.parent_id, 0), c.slug, c.name, c.position,
			(SELECT COUNT(*) FROM listing_categories lc WHERE lc.category_id = c.id),
			(SELECT COUNT(*) FROM listing_categories lc WHERE lc.category_id = c.id AND lc.is_primary = 1)
		FROM categories c WHERE c.site_id = ? ORDER BY c.position, c.name`, s.siteID)
	return out, mapErr(err, "category", "")
}

// AdminCategory implements console.CategoryAdminStore.
func (s *Store) AdminCategory(ctx context.Context, id int64) (*console.AdminCategory, error) {
	key := strconv.FormatInt(id, 10)
	c := &console.AdminCategory{ID: id, FAQs: []domain.FAQ{}, Attributes: []domain.Attribute{}, Redirects: []string{}}
	var faqs string
	err := s.db.sql.QueryRowContext(ctx, `SELECT COALESCE(c.parent_id, 0), c.slug, c.name, c.description, c.faqs, c.position,
			(SELECT COUNT(*) FROM listing_categories lc WHERE lc.category_id = c.id),
			(SELECT COUNT(*) FROM listing_categories lc WHERE lc.category_id = c.id AND lc.is_primary = 1)
		FROM categories c WHERE c.site_id = ? AND c.id = ?`, s.siteID, id).
		Scan(&c.ParentID, &c.Slug, &c.Name, &c.Description, &faqs, &c.Position, &c.Listings, &c.Primary)
	if err != nil {
		return nil, mapErr(err, "category", key)
	}
	if err := decodeJSON(faqs, &c.FAQs, "the FAQs of category "+c.Slug); err != nil {
		return nil, err
	}
	err = queryEach(ctx, s.db.sql, func(rows *sql.Rows) error {
		var a domain.Attribute
		if err := rows.Scan(&a.Key, &a.Label); err != nil {
			return err
		}
		c.Attributes = append(c.Attributes, a)
		return nil
	}, `SELECT key, label FROM category_attributes WHERE category_id = ? ORDER BY position, key`, id)
	if err != nil {
		return nil, mapErr(err, "category", key)
	}
	err = queryEach(ctx, s.db.sql, func(rows *sql.Rows) error {
		var slug string
		if err := rows.Scan(&slug); err != nil {
			return err
		}
		c.Redirects = append(c.Redirects, slug)
		return nil
	}, `SELECT slug FROM category_redirects WHERE site_id = ? AND category_id = ? ORDER BY created_at, slug`, s.siteID, id)
	return c, mapErr(err, "category", key)
}

// CategoryRedirect implements console.CategoryAdminStore.
func (s *Store) CategoryRedirect(ctx context.Context, slug string) (int64, error) {
	var id int64
	err := s.db.sql.QueryRowContext(ctx, `SELECT category_id FROM category_redirects WHERE site_id = ? AND slug = ?`, s.siteID, slug).Scan(&id)
	if err == sql.ErrNoRows {
		return 0, nil
	}
	return id, mapErr(err, "category redirect", slug)
}

// CategoryRedirectSlug implements domain.Redirects: the slug of the
// category an old slug points at ("" when slug is no old slug).
func (s *Store) CategoryRedirectSlug(ctx context.Context, slug string) (string, error) {
	var to string
	err := s.db.sql.QueryRowContext(ctx, `SELECT c.slug FROM category_redirects r JOIN categories c ON c.id = r.category_id
		WHERE r.site_id = ? AND r.slug = ?`, s.siteID, slug).Scan(&to)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return to, mapErr(err, "category redirect", slug)
}

// CreateCategory implements console.CategoryAdminStore.
func (s *Store) CreateCategory(ctx context.Context, c console.AdminCategory, e console.AuditEntry) (int64, error) {
	faqs, err := json.Marshal(nonNilFAQs(c.FAQs))
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.db.inTx(ctx, func(tx *Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO categories (site_id, parent_id, slug, name, description, faqs, position)
		VALUES (?, NULLIF(?, 0), ?, ?, ?, ?, ?) RETURNING id`, s.siteID, c.ParentID, c.Slug, c.Name, c.Description, string(faqs), c.Position).Scan(&id)
		if err != nil {
			return err
		}
		if c.ParentID != 0 {
			if err := s.checkTreeIn(ctx, tx); err != nil { // its parent moved deeper since the domain's check
				return err
			}
		}
		entry := e
		if entry.Target == "" {
			entry.Target = "category:" + strconv.FormatInt(id, 10)
		}
		return s.writeAudit(ctx, tx, entry)
	})
	if err == nil {
		s.dropCategoryCache() // the new category is listed at once
	}
	return id, mapErr(err, "category", c.Slug)
}

func nonNilFAQs(f []domain.FAQ) []domain.FAQ {
	if f == nil {
		return []domain.FAQ{}
	}
	return f
}

// SaveCategory implements console.CategoryAdminStore.
func (s *Store) SaveCategory(ctx context.Context, c console.AdminCategory, fields console.CategoryFields, e console.AuditEntry) error {
	key := strconv.FormatInt(c.ID, 10)
	faqs, err := json.Marshal(nonNilFAQs(c.FAQs))
	if err != nil {
		return err
	}
	err = s.db.inTx(ctx, func(tx *Tx) error {
		var old string
		if err := tx.QueryRowContext(ctx, `SELECT slug FROM categories WHERE site_id = ? AND id = ?`, s.siteID, c.ID).Scan(&old); err != nil {
			return mapErr(err, "category", key)
		}
		if fields&console.CategoryNaming != 0 {
			if old != c.Slug {
				// The new slug stops being an old one (renamed back); the old one
				// starts leading here.
				if _, err := tx.ExecContext(ctx, `DELETE FROM category_redirects WHERE site_id = ? AND slug = ? AND category_id = ?`, s.siteID, c.Slug, c.ID); err != nil {
					return mapErr(err, "category redirect", c.Slug)
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO category_redirects (site_id, slug, category_id, created_at) VALUES (?, ?, ?, ?)
				ON CONFLICT (site_id, slug) DO UPDATE SET category_id = excluded.category_id, created_at = excluded.created_at`,
					s.siteID, old, c.ID, e.At.Unix()); err != nil {
					return mapErr(err, "category redirect", old)
				}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE categories SET slug = ?, name = ? WHERE site_id = ? AND id = ?`,
				c.Slug, c.Name, s.siteID, c.ID); err != nil {
				return mapErr(err, "category", c.Slug)
			}
		}
		if fields&console.CategoryPlace != 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE categories SET parent_id = NULLIF(?, 0), position = ? WHERE site_id = ? AND id = ?`,
				c.ParentID, c.Position, s.siteID, c.ID); err != nil {
				return mapErr(err, "category", key)
			}
			if err := s.checkTreeIn(ctx, tx); err != nil {
				return err
			}
		}
		if fields&console.CategoryText != 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE categories SET description = ?, faqs = ? WHERE site_id = ? AND id = ?`,
				c.Description, string(faqs), s.siteID, c.ID); err != nil {
				return mapErr(err, "category", key)
			}
		}
		return s.writeAudit(ctx, tx, e)
	})
	if err != nil {
		return mapErr(err, "category", key)
	}
	s.refreshSoon(ctx) // a renamed primary category is in its listings' summaries
	return nil
}

// checkTreeIn checks the site's category tree as tx sees it after a change
// of parents (console.CheckCategoryTree). The domain checked the tree it read
// before the transaction; this catches what changed since: two moves at once
// (A under B, B under A) each pass the domain's check. On SQLite writers
// are serialised; on PostgreSQL the transaction is SERIALIZABLE, so of two
// moves that read each other's rows one is run again and sees the other.
func (s *Store) checkTreeIn(ctx context.Context, tx *Tx) error {
	all, err := s.categoriesIn(ctx, tx)
	if err != nil {
		return err
	}
	parents := make(map[int64]int64, len(all))
	for _, c := range all {
		parents[c.id] = c.parentID
	}
	return console.CheckCategoryTree(parents)
}

// SaveCategoryAttributes implements console.CategoryAdminStore.
func (s *Store) SaveCategoryAttributes(ctx context.Context, id int64, attrs []domain.Attribute, e console.AuditEntry) error {
	key := strconv.FormatInt(id, 10)
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM categories WHERE site_id = ? AND id = ?`, s.siteID, id).Scan(&n); err != nil || n == 0 {
			if err == nil {
				err = sql.ErrNoRows
			}
			return mapErr(err, "category", key)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM category_attributes WHERE category_id = ?`, id); err != nil {
			return mapErr(err, "category attributes", key)
		}
		for i, a := range attrs {
			if _, err := tx.ExecContext(ctx, `INSERT INTO category_attributes (category_id, key, label, position) VALUES (?, ?, ?, ?)`,
				id, a.Key, a.Label, i+1); err != nil {
				return mapErr(err, "category attribute", a.Key)
			}
		}
		return s.writeAudit(ctx, tx, e)
	})
	return mapErr(err, "category attributes", key)
}

// MergeCategory implements console.CategoryAdminStore.
func (s *Store) MergeCategory(ctx context.Context, source, target int64, e console.AuditEntry) (int, error) {
	key := strconv.FormatInt(source, 10)
	var moved int
	err := s.db.inTx(ctx, func(tx *Tx) error {
		n, err := s.mergeCategory(ctx, tx, source, target, e)
		moved = n
		return err
	})
	if err != nil {
		return 0, mapErr(err, "category", key)
	}
	s.refreshSoon(ctx)
	return moved, nil
}

// mergeCategory is MergeCategory's transaction: it moves source's links,
// attributes, children and redirects to target and deletes source.
func (s *Store) mergeCategory(ctx context.Context, tx *Tx, source, target int64, e console.AuditEntry) (int, error) {
	key := strconv.FormatInt(source, 10)
	var srcSlug string
	var srcParent int64
	if err := tx.QueryRowContext(ctx, `SELECT slug, COALESCE(parent_id, 0) FROM categories WHERE site_id = ? AND id = ?`, s.siteID, source).
		Scan(&srcSlug, &srcParent); err != nil {
		return 0, mapErr(err, "category", key)
	}
	var tgtParent int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(parent_id, 0) FROM categories WHERE site_id = ? AND id = ?`, s.siteID, target).
		Scan(&tgtParent); err != nil {
		return 0, mapErr(err, "category", strconv.FormatInt(target, 10))
	}
	type link struct {
		listing int64
		primary bool
	}
	var links []link
	err := queryEach(ctx, tx, func(rows *sql.Rows) error {
		var l link
		if err := rows.Scan(&l.listing, &l.primary); err != nil {
			return err
		}
		links = append(links, l)
		return nil
	}, `SELECT listing_id, is_primary FROM listing_categories WHERE category_id = ? ORDER BY listing_id`, source)
	if err != nil {
		return 0, mapErr(err, "category", key)
	}
	// The source's links go first (each delete logs its listing for the
	// search index), so that a listing's one primary link can move.
	if _, err := tx.ExecContext(ctx, `DELETE FROM listing_categories WHERE category_id = ?`, source); err != nil {
		return 0, mapErr(err, "category links", key)
	}
	for _, l := range links {
		if _, err := tx.ExecContext(ctx, `INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES (?, ?, ?)
			ON CONFLICT (listing_id, category_id) DO UPDATE SET is_primary = `+s.db.eng.greater("listing_categories.is_primary", "excluded.is_primary"),
			l.listing, target, l.primary); err != nil {
			return 0, mapErr(err, "category link", strconv.FormatInt(l.listing, 10))
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO category_attributes (category_id, key, label, position)
		SELECT ?1, a.key, a.label, a.position + (SELECT COALESCE(MAX(position), 0) FROM category_attributes WHERE category_id = ?1)
		FROM category_attributes a WHERE a.category_id = ?2
		ON CONFLICT (category_id, key) DO NOTHING`, target, source); err != nil {
		return 0, mapErr(err, "category attributes", key)
	}
	if tgtParent == source {
		if _, err := tx.ExecContext(ctx, `UPDATE categories SET parent_id = NULLIF(?, 0) WHERE id = ?`, srcParent, target); err != nil {
			return 0, mapErr(err, "category", key)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE categories SET parent_id = ? WHERE parent_id = ?`, target, source); err != nil {
		return 0, mapErr(err, "category", key)
	}
	if err := s.checkTreeIn(ctx, tx); err != nil { // a move since the domain's check
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE category_redirects SET category_id = ? WHERE category_id = ?`, target, source); err != nil {
		return 0, mapErr(err, "category redirect", key)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO category_redirects (site_id, slug, category_id, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (site_id, slug) DO UPDATE SET category_id = excluded.category_id`, s.siteID, srcSlug, target, e.At.Unix()); err != nil {
		return 0, mapErr(err, "category redirect", srcSlug)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM categories WHERE id = ?`, source); err != nil {
		return 0, mapErr(err, "category", key)
	}
	if err := s.writeAudit(ctx, tx, e); err != nil {
		return 0, err
	}
	return len(links), nil
}

// refreshSoon applies the change just committed to this process's search
// index at once, so that the console's next page and every search see the
// moved listings (other processes follow within PollInterval). A failure
// is retried by the next poll: the log entries stay unseen until applied.
//
// It also drops this process's cached category list and counts: while the
// directory changes, a slow count (a large directory, a loaded machine) is
// reused for a while (Categories), and its slugs and names are the old ones
// after a rename; the console's own change must show at once.
func (s *Store) refreshSoon(ctx context.Context) {
	s.dropCategoryCache()
	_ = s.Refresh(ctx)
}

// dropCategoryCache makes the next Categories read the categories and their
// counts again, after a change of this process's to the category tree.
func (s *Store) dropCategoryCache() {
	s.catMu.Lock()
	s.catCache = nil
	s.catMu.Unlock()
}
