package storage

import (
	"context"
	"database/sql"
	"encoding/binary"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// summaryCacheBytes bounds the bytes of packed summaries the summary cache
// holds (summaryCache): 32 MiB holds every listing of a site of 100,000
// (about 170 bytes a listing, about 200 with the cache's map by id:
// TestSummaryCache_Memory), so that a search asked for the first time reads no
// summary from the database there; at 1M it holds about a fifth of them.
const summaryCacheBytes = 32 << 20

// summaryChunkBytes is the size of the arena's chunks: the unit the cache
// grows by and forgets its oldest summaries by.
const summaryChunkBytes = 1 << 20

// summaryCache keeps listings' summaries, by listing id, packed (summarypack.go)
// in an arena of chunks bounded by summaryCacheBytes, so that a page's
// summaries are not read from the database at every search. A summary is
// written once at the arena's end; when the arena is full its oldest chunk is
// forgotten (and reused), with every summary in it, first in first out. A
// dropped summary's bytes stay in its chunk until then, unreachable.
//
// It is exactly as fresh as the search index: every column a summary shows
// (summaryCols: the listing's own columns and its primary category's slug and
// name) changes only by a write that appends the listing's id to search_log
// (the triggers of migrations 0001 and 0020 on listings, listing_categories
// and categories; a category's delete cascades to listing_categories, whose
// delete trigger logs the listing). The poll that applies those entries to the
// index drops the same ids here (reindex), and a rebuild of the index drops
// everything (rebuildIndex). A summary read from the database while entries
// were dropped is not kept (gen), so a summary read before a change can never
// be kept after the change was applied.
type summaryCache struct {
	mu     sync.Mutex
	gen    uint64           // incremented by every drop
	at     map[int64]uint64 // listing id -> its summary's place: chunk seq<<32 | offset
	chunks [][]byte         // the arena; chunks[i] has seq first+i, the last is written
	first  uint64           // seq of chunks[0]
	tab    packTable        // the shared values of the summaries held
	bytes  int              // sum of the chunks' capacities

	stmts summaryStmts // SQLite's statements reading summaries by id
}

// An entry of a chunk is the listing id (varint), the packed summary's
// length (uvarint) and the packed summary.

// get decodes the summaries it holds of ids into out (len(ids)), marks them
// in hit, and returns the ids it lacks, with the generation a read of them
// from the database must be kept under (put). The page's summaries share
// their memory: one copy of their packed bytes (which their strings point
// into), one array of launch times, one of categories and one string of page
// URLs, instead of those four per summary.
func (c *summaryCache) get(ids []int64, out []domain.ListingSummary, hit []bool, site domain.Site) (missing []int64, gen uint64) {
	var locsBuf [32]uint64
	locs := locsBuf[:0]
	if len(ids) > len(locsBuf) {
		locs = make([]uint64, 0, len(ids))
	}
	c.mu.Lock()
	size := 0
	for i, id := range ids {
		loc, ok := c.at[id]
		hit[i] = ok
		if !ok {
			missing = append(missing, id)
			continue
		}
		locs = append(locs, loc)
		size += len(c.body(loc))
	}
	var packed strings.Builder
	packed.Grow(size)
	for _, loc := range locs {
		packed.Write(c.body(loc))
	}
	page := packed.String()
	times := make([]time.Time, len(locs))
	cats := make([]domain.CategoryRef, len(locs))
	k := 0
	for i := range ids {
		if hit[i] {
			n := len(c.body(locs[k]))
			out[i] = c.tab.unpack(page[:n], &times[k], &cats[k])
			page = page[n:]
			k++
		}
	}
	gen = c.gen
	c.mu.Unlock()
	pageURLs(out, hit, site)
	return missing, gen
}

// pageURLs sets the page URL of the summaries marked in hit (made from their
// slugs, as Site.ListingPageURL makes it) in one string.
func pageURLs(out []domain.ListingSummary, hit []bool, site domain.Site) {
	const dir = "/listings/"
	base := strings.TrimRight(site.BaseURL, "/")
	size := 0
	for i := range out {
		if hit[i] {
			size += len(base) + len(dir) + len(url.PathEscape(out[i].Slug))
		}
	}
	var b strings.Builder
	b.Grow(size)
	for i := range out {
		if hit[i] {
			b.WriteString(base)
			b.WriteString(dir)
			b.WriteString(url.PathEscape(out[i].Slug))
		}
	}
	all := b.String()
	for i := range out {
		if hit[i] {
			n := len(base) + len(dir) + len(url.PathEscape(out[i].Slug))
			out[i].PageURL, all = all[:n], all[n:]
		}
	}
}

// body returns the packed summary at loc, in the arena.
func (c *summaryCache) body(loc uint64) []byte {
	chunk := c.chunks[loc>>32-c.first]
	off := int(uint32(loc))
	_, n := binary.Varint(chunk[off:])
	size, m := binary.Uvarint(chunk[off+n:])
	off += n + m
	return chunk[off : off+int(size) : off+int(size)]
}

// put keeps summaries read from the database after get returned gen, unless
// something was dropped since: the read may predate that change. Unless
// evict is set, it stops at the first that does not fit without forgetting
// a summary. It returns how many of rows it went through (kept, or left out
// because packing would change them), and false when it kept none because
// of a drop.
func (c *summaryCache) put(gen uint64, rows []summaryRow, evict bool) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return 0, false
	}
	var buf []byte
	for i := range rows {
		r := &rows[i]
		if !packable(r) {
			continue
		}
		buf = c.tab.pack(buf[:0], r)
		if !evict && c.atBound(len(buf)+2*binary.MaxVarintLen64) {
			c.tab.unref(buf)
			return i, true
		}
		c.add(r.id, buf)
	}
	return len(rows), true
}

// atBound reports whether writing an entry of up to size bytes would forget
// the oldest chunk.
func (c *summaryCache) atBound(size int) bool {
	return len(c.chunks) == summaryCacheBytes/summaryChunkBytes &&
		len(c.chunks[len(c.chunks)-1])+size > summaryChunkBytes
}

// generation is the generation a read from the database must be kept under.
func (c *summaryCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// add writes the packed summary body of listing id at the arena's end.
func (c *summaryCache) add(id int64, body []byte) {
	var head [2 * binary.MaxVarintLen64]byte
	h := binary.AppendVarint(head[:0], id)
	h = binary.AppendUvarint(h, uint64(len(body)))
	size := len(h) + len(body)
	if size > summaryChunkBytes {
		delete(c.at, id)
		c.tab.unref(body)
		return
	}
	if len(c.chunks) == 0 || len(c.chunks[len(c.chunks)-1])+size > summaryChunkBytes {
		c.grow()
	}
	last := len(c.chunks) - 1
	chunk := c.chunks[last]
	if c.at == nil {
		c.at = map[int64]uint64{}
	}
	if len(chunk)+size > cap(chunk) { // the first chunk, grown up to summaryChunkBytes
		grown := make([]byte, len(chunk), min(max(2*cap(chunk), len(chunk)+size), summaryChunkBytes))
		copy(grown, chunk)
		c.bytes += cap(grown) - cap(chunk)
		chunk = grown
	}
	c.at[id] = (c.first+uint64(last))<<32 | uint64(len(chunk))
	c.chunks[last] = append(append(chunk, h...), body...)
}

// grow starts a new chunk at the arena's end, forgetting the oldest one (and
// reusing its memory) when the arena is at its bound.
func (c *summaryCache) grow() {
	if len(c.chunks) < summaryCacheBytes/summaryChunkBytes {
		size := summaryChunkBytes
		if len(c.chunks) == 0 {
			size = 16 << 10 // a small site's summaries take a few KiB; add grows it
		}
		c.chunks = append(c.chunks, make([]byte, 0, size))
		c.bytes += size
		return
	}
	old := c.chunks[0]
	c.forget(c.first, old)
	copy(c.chunks, c.chunks[1:])
	c.chunks[len(c.chunks)-1] = old[:0]
	c.first++
}

// forget removes the ids whose summaries are in chunk (seq): those written
// again since are elsewhere and stay. The shared values only its summaries
// referred to leave the table.
func (c *summaryCache) forget(seq uint64, chunk []byte) {
	for off := 0; off < len(chunk); {
		id, n := binary.Varint(chunk[off:])
		size, m := binary.Uvarint(chunk[off+n:])
		if c.at[id] == seq<<32|uint64(off) {
			delete(c.at, id)
		}
		body := off + n + m
		c.tab.unref(chunk[body : body+int(size)])
		off = body + int(size)
	}
}

// full reports whether the arena is at its bound.
func (c *summaryCache) full() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.atBound(summaryChunkBytes / 2)
}

// drop forgets the summaries of ids: their listings changed (search_log).
func (c *summaryCache) drop(ids []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for _, id := range ids {
		delete(c.at, id)
	}
}

// dropAll forgets every summary: the index is rebuilt.
func (c *summaryCache) dropAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.at, c.chunks, c.bytes = nil, nil, 0
	c.first++ // a place recorded before names no chunk after
	c.tab.reset()
}

// len is the number of summaries held.
func (c *summaryCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.at)
}

// arenaBytes is the memory of the arena's chunks.
func (c *summaryCache) arenaBytes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
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
	missing, gen := s.sums.get(ids, out, hit, s.site)
	if len(missing) > 0 {
		rows, err := s.summaryRowsByID(ctx, missing)
		if err != nil {
			return nil, nil, err
		}
		byID := make(map[int64]*summaryRow, len(rows))
		for i := range rows {
			byID[rows[i].id] = &rows[i]
		}
		for i, id := range ids {
			if r := byID[id]; !hit[i] && r != nil {
				out[i], hit[i] = s.summary(r), true
			}
		}
		s.sums.put(gen, rows, true)
	}
	return out, hit, nil
}

// summariesByID reads the summaries of listings ids from the database in one
// query, by id (a listing with no row is absent).
func (s *Store) summariesByID(ctx context.Context, ids []int64) (map[int64]domain.ListingSummary, error) {
	rows, err := s.summaryRowsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]domain.ListingSummary, len(rows))
	for i := range rows {
		byID[rows[i].id] = s.summary(&rows[i])
	}
	return byID, nil
}

// summaryRowsByID reads the summary rows of listings ids from the database
// in one query, each listing once (a listing with no row is absent).
func (s *Store) summaryRowsByID(ctx context.Context, ids []int64) ([]summaryRow, error) {
	var rows *sql.Rows
	var err error
	if st, args := s.sums.stmts.get(ctx, s.db, ids); st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		in, args := s.db.eng.inIDs("l.id", ids)
		rows, err = s.db.sql.QueryContext(ctx, summaryByIDQuery(in), args...)
	}
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	out := make([]summaryRow, 0, len(ids))
	err = scanSummaryRows(rows, func(r *summaryRow) {
		if !slices.ContainsFunc(out, func(o summaryRow) bool { return o.id == r.id }) {
			out = append(out, *r)
		}
	})
	return out, err
}

// scanSummaryRows hands each of rows (selecting summaryCols) to each and
// closes them.
func scanSummaryRows(rows *sql.Rows, each func(*summaryRow)) error {
	defer rows.Close()
	for rows.Next() {
		var r summaryRow
		if err := rows.Scan(r.dest()...); err != nil {
			return mapErr(err, "listing", "")
		}
		each(&r)
	}
	return mapErr(rows.Err(), "listing", "")
}

// summaryByIDQuery selects summaryCols of the listings meeting the
// condition in.
func summaryByIDQuery(in string) string {
	return `SELECT ` + summaryCols + ` FROM ` + summaryFrom + ` WHERE ` + in
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
