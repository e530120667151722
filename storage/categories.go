package storage

import (
	"context"
	"database/sql"
	"slices"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// categoryCacheFactor sets how long cached category counts may be reused while
// listings change: that many times as long as computing them took. Small
// directories recompute at every change; at a million listings counts lag by seconds.
const categoryCacheFactor = 20

// categoryCacheMin is the computing time below which counts are always fresh.
const categoryCacheMin = 10 * time.Millisecond

// catRow is one category of the site.
type catRow struct {
	id       int64
	parentID int64 // 0 for top level
	slug     string
	name     string
}

// allCategories returns the site's categories in tree order (position, name).
func (s *Store) allCategories(ctx context.Context) ([]catRow, error) {
	return s.categoriesIn(ctx, s.db.sql)
}

// categoriesIn is allCategories as q (the database or a transaction) sees them.
func (s *Store) categoriesIn(ctx context.Context, q queryer) ([]catRow, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, COALESCE(parent_id, 0), slug, name FROM categories
		WHERE site_id = ? ORDER BY position, name`, s.siteID)
	if err != nil {
		return nil, mapErr(err, "category", "")
	}
	defer rows.Close()
	var out []catRow
	for rows.Next() {
		var c catRow
		if err := rows.Scan(&c.id, &c.parentID, &c.slug, &c.name); err != nil {
			return nil, mapErr(err, "category", "")
		}
		out = append(out, c)
	}
	return out, mapErr(rows.Err(), "category", "")
}

// descendants returns root and every category below it.
func descendants(all []catRow, root int64) []int64 {
	children := map[int64][]int64{}
	for _, c := range all {
		children[c.parentID] = append(children[c.parentID], c.id)
	}
	out := []int64{root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i]]...)
	}
	return out
}

// liveCounts returns, per category id, the number of distinct live listings in
// that category or any of its subcategories.
func (s *Store) liveCounts(ctx context.Context) (map[int64]int, error) {
	rows, err := s.db.sql.QueryContext(ctx, `WITH RECURSIVE anc (cat, id) AS (
			SELECT id, id FROM categories WHERE site_id = ?1
			UNION ALL
			SELECT anc.cat, c.parent_id FROM anc JOIN categories c ON c.id = anc.id WHERE c.parent_id IS NOT NULL)
		SELECT anc.id, COUNT(DISTINCT lc.listing_id) FROM anc
		JOIN listing_categories lc ON lc.category_id = anc.cat
		JOIN listings l ON l.id = lc.listing_id AND l.status = 'live' AND l.site_id = ?1
		GROUP BY anc.id`, s.siteID)
	if err != nil {
		return nil, mapErr(err, "category", "")
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, mapErr(err, "category", "")
		}
		out[id] = n
	}
	return out, mapErr(rows.Err(), "category", "")
}

// Categories returns every category (parents before children, by position) with live
// listing counts that include subcategories. Counts are cached while search_log is unchanged,
// and for categoryCacheFactor times their computing time while it changes.
func (s *Store) Categories(ctx context.Context) ([]domain.CategoryNode, error) {
	seq, err := s.logHead(ctx)
	if err != nil {
		return nil, err
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	if s.catCache != nil && (seq == s.catSeq && s.trustSeq(s.catAt) ||
		s.catRule.reuse(s.catCost, s.catAt)) {
		return append([]domain.CategoryNode(nil), s.catCache...), nil
	}
	start := time.Now()
	all, err := s.allCategories(ctx)
	if err != nil {
		return nil, err
	}
	counts, err := s.liveCounts(ctx)
	if err != nil {
		return nil, err
	}
	out := categoryNodes(all, counts)
	s.catCache, s.catAt, s.catSeq, s.catCost = out, time.Now(), seq, time.Since(start)
	return append([]domain.CategoryNode(nil), out...), nil
}

// CategoryTree returns every category in the order of Categories, without
// the live listing counts: one read of the categories table, where the
// counts join every live listing and, while listings change, are counted
// again by each serving process (docs/scaling.md).
func (s *Store) CategoryTree(ctx context.Context) ([]domain.CategoryNode, error) {
	all, err := s.allCategories(ctx)
	if err != nil {
		return nil, err
	}
	return categoryNodes(all, nil), nil
}

// categoryNodes builds the flat category list with counts, in tree order.
func categoryNodes(all []catRow, counts map[int64]int) []domain.CategoryNode {
	slugs := map[int64]string{}
	for _, c := range all {
		slugs[c.id] = c.slug
	}
	out := make([]domain.CategoryNode, 0, len(all))
	for _, c := range all {
		out = append(out, domain.CategoryNode{Slug: c.slug, Name: c.name, Parent: slugs[c.parentID], ListingCount: counts[c.id]})
	}
	return out
}

// countCategories adds one live listing to counts: once to each of its
// categories and each of their ancestors.
func countCategories(counts map[int64]int, links []catLink, cats map[int64]catRow) {
	seen := make([]int64, 0, 8)
	for _, l := range links {
		for id, depth := l.categoryID, 0; id != 0 && depth < 16; depth++ {
			c, ok := cats[id]
			if !ok || slices.Contains(seen, id) {
				break // an ancestor already counted has its own ancestors counted too
			}
			seen = append(seen, id)
			counts[id]++
			id = c.parentID
		}
	}
}

// Category returns one category's details: parent, direct subcategories with
// counts, FAQs, comparison attributes and its live listing count.
func (s *Store) Category(ctx context.Context, slug string) (*domain.Category, error) {
	c := &domain.Category{Slug: slug, PageURL: s.site.CategoryPageURL(slug), FAQs: []domain.FAQ{},
		Attributes: []domain.Attribute{}, Subcategories: []domain.CategoryNode{}}
	var id int64
	var faqs string
	var pSlug, pName sql.NullString
	err := s.db.sql.QueryRowContext(ctx, `SELECT c.id, c.name, c.description, c.faqs, p.slug, p.name
		FROM categories c LEFT JOIN categories p ON p.id = c.parent_id WHERE c.site_id = ? AND c.slug = ?`,
		s.siteID, slug).Scan(&id, &c.Name, &c.Description, &faqs, &pSlug, &pName)
	if err != nil {
		return nil, mapErr(err, "category", slug)
	}
	if err := decodeJSON(faqs, &c.FAQs, "category "+slug); err != nil {
		return nil, err
	}
	if pSlug.Valid {
		c.Parent = &domain.CategoryRef{Slug: pSlug.String, Name: pName.String}
	}
	nodes, err := s.Categories(ctx)
	if err != nil {
		return nil, err
	}
	for _, n := range nodes {
		switch {
		case n.Slug == slug:
			c.ListingCount = n.ListingCount
		case n.Parent == slug:
			c.Subcategories = append(c.Subcategories, n)
		}
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT key, label FROM category_attributes WHERE category_id = ? ORDER BY position, key`, id)
	if err != nil {
		return nil, mapErr(err, "category", slug)
	}
	defer rows.Close()
	for rows.Next() {
		var a domain.Attribute
		if err := rows.Scan(&a.Key, &a.Label); err != nil {
			return nil, mapErr(err, "category", slug)
		}
		c.Attributes = append(c.Attributes, a)
	}
	return c, mapErr(rows.Err(), "category", slug)
}

// logHead returns the latest search_log seq (0 when empty).
func (s *Store) logHead(ctx context.Context) (int64, error) {
	var seq int64
	err := s.db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM search_log`).Scan(&seq)
	return seq, mapErr(err, "search log", "")
}
