package storage

import (
	"context"
	"database/sql"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/launchdir/launchdir/domain"
)

// summaryCacheSize is the number of listing summaries the store keeps in
// memory for search pages (summaryCache): 16,384 is 819 pages of 20, about
// 12 MiB (TestSummaryCache_Memory measures the bytes per entry), whatever the
// number of listings.
const summaryCacheSize = 16_384

// summaryCache keeps the summaries of the listings that search pages showed
// recently, by listing id, least recently used out first, so that a page's
// summaries are not read from the database at every search.
//
// It is exactly as fresh as the search index: every column a summary shows
// (summaryCols: the listing's own columns and its primary category's slug and
// name) changes only by a write that appends the listing's id to search_log
// (the triggers of migrations 0001 and 0020 on listings, listing_categories
// and categories; a category's delete cascades to listing_categories, whose
// delete trigger logs the listing). The poll that applies those entries to the
// index drops the same ids here (reindex), and a rebuild of the index drops
// everything (rebuildIndex). A page read from the database while entries were
// dropped is not kept (gen), so a summary read before a change can never be
// kept after the change was applied.
//
// The summaries are shared by every page that shows them: their pointer
// fields (PrimaryCategory, LaunchedAt) must not be written through.
type summaryCache struct {
	mu  sync.Mutex
	gen uint64 // incremented by every drop
	lru *simplelru.LRU[int64, domain.ListingSummary]

	stmts summaryStmts // SQLite's statements reading summaries by id
}

// get copies the summaries it holds of ids into out (len(ids)), marks them in
// hit, and returns the ids it lacks, with the generation a read of them from
// the database must be kept under (put).
func (c *summaryCache) get(ids []int64, out []domain.ListingSummary, hit []bool) (missing []int64, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, id := range ids {
		var ok bool
		if c.lru != nil {
			out[i], ok = c.lru.Get(id)
		}
		hit[i] = ok
		if !ok {
			missing = append(missing, id)
		}
	}
	return missing, c.gen
}

// put keeps summaries read from the database after get returned gen, unless
// something was dropped since: the read may predate that change.
func (c *summaryCache) put(gen uint64, byID map[int64]domain.ListingSummary) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || len(byID) == 0 {
		return
	}
	if c.lru == nil {
		c.lru, _ = simplelru.NewLRU[int64, domain.ListingSummary](summaryCacheSize, nil) // fails only for a size <= 0
	}
	for id, ls := range byID {
		c.lru.Add(id, ls)
	}
}

// drop forgets the summaries of ids: their listings changed (search_log).
func (c *summaryCache) drop(ids []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if c.lru == nil {
		return
	}
	for _, id := range ids {
		c.lru.Remove(id)
	}
}

// dropAll forgets every summary: the index is rebuilt.
func (c *summaryCache) dropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if c.lru != nil {
		c.lru.Purge()
	}
}

// len is the number of summaries held.
func (c *summaryCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru == nil {
		return 0
	}
	return c.lru.Len()
}

// pageSummaries returns the summaries of listings ids, in the order of ids,
// from the cache and, for those it lacks, from the database in one query. A
// listing deleted since the index last saw it is left out of the page.
func (s *Store) pageSummaries(ctx context.Context, ids []int64) ([]domain.ListingSummary, error) {
	if len(ids) == 0 {
		return []domain.ListingSummary{}, nil
	}
	out, hit, err := s.pageSummariesAt(ctx, ids)
	if err != nil {
		return nil, err
	}
	n := 0
	for i := range out {
		if hit[i] {
			out[n] = out[i]
			n++
		}
	}
	return out[:n], nil
}

// pageSummariesAt is pageSummaries with the summaries at their ids' places:
// hit[i] says whether ids[i] has one.
func (s *Store) pageSummariesAt(ctx context.Context, ids []int64) ([]domain.ListingSummary, []bool, error) {
	out := make([]domain.ListingSummary, len(ids))
	hit := make([]bool, len(ids))
	missing, gen := s.sums.get(ids, out, hit)
	if len(missing) > 0 {
		byID, err := s.summariesByID(ctx, missing)
		if err != nil {
			return nil, nil, err
		}
		for i, id := range ids {
			if !hit[i] {
				out[i], hit[i] = byID[id]
			}
		}
		s.sums.put(gen, byID)
	}
	return out, hit, nil
}

// summariesByID reads the summaries of listings ids from the database in one
// query, by id (a listing with no row is absent).
func (s *Store) summariesByID(ctx context.Context, ids []int64) (map[int64]domain.ListingSummary, error) {
	byID := make(map[int64]domain.ListingSummary, len(ids))
	var id int64
	extra := func() []any { return []any{&id} }
	each := func(ls domain.ListingSummary) {
		if _, dup := byID[id]; !dup {
			byID[id] = ls
		}
	}
	var err error
	if st, args := s.sums.stmts.get(ctx, s.db, ids); st != nil {
		var rows *sql.Rows
		if rows, err = st.QueryContext(ctx, args...); err == nil {
			err = s.eachSummary(rows, extra, each)
		}
	} else {
		in, args := s.db.eng.inIDs("l.id", ids)
		err = s.querySummaries(ctx, summaryByIDQuery(in), args, extra, each)
	}
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	return byID, nil
}

// summaryByIDQuery selects summaryCols and the id of the listings meeting
// the condition in.
func summaryByIDQuery(in string) string {
	return `SELECT ` + summaryCols + `, l.id FROM ` + summaryFrom + ` WHERE ` + in
}

// summaryStmtSizes are the id counts of summaryStmts' statements: a page's
// ids are padded to the next one (by repeating the last id; a listing
// appears once in the answer whatever the list), so that a connection
// prepares a handful of statements once instead of one per call.
var summaryStmtSizes = [...]int{1, 2, 4, 8, 16, 24, 32, 64, 128}

// summaryStmts holds SQLite's statements that read summaries by id, one
// per size of summaryStmtSizes, each prepared on a connection the first
// time it runs there (database/sql's *sql.Stmt) and kept: preparing the
// statement, with its joins and its IN list, was a sixth of reading a
// page's summaries. PostgreSQL's statement is one text whatever the
// number of ids (inIDs), which pgx prepares once per connection.
type summaryStmts struct {
	mu sync.Mutex
	st [len(summaryStmtSizes)]*sql.Stmt
}

// get returns the statement for ids on db (always the store's database) and
// its arguments, or nil when the database is not SQLite, there are more ids than the largest size or the
// statement cannot be prepared (the caller then runs the query unprepared).
func (c *summaryStmts) get(ctx context.Context, db *DB, ids []int64) (*sql.Stmt, []any) {
	if !db.eng.padsIDLists() || len(ids) == 0 {
		return nil, nil
	}
	k := 0
	for k < len(summaryStmtSizes) && summaryStmtSizes[k] < len(ids) {
		k++
	}
	if k == len(summaryStmtSizes) {
		return nil, nil
	}
	n := summaryStmtSizes[k]
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st[k] == nil {
		st, err := db.sql.PrepareContext(ctx, summaryByIDQuery(`l.id IN (`+placeholders(n)+`)`))
		if err != nil {
			return nil, nil
		}
		c.st[k] = st
	}
	args := make([]any, n)
	for i := range args {
		args[i] = ids[min(i, len(ids)-1)]
	}
	return c.st[k], args
}
