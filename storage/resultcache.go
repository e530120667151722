package storage

import (
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/search"
)

// resultCacheSize is the number of search pages (SearchListingsMatched's
// items and total, by query) the store keeps, and resultCacheItems the
// number of listings they may hold together (pages of 100 count five times
// a page of 20): 7.9 KB a page of 20 beyond the summaries they share with
// summaryCache (BenchmarkResultCacheMemory), so about 2 MiB at most whatever
// the number of listings.
const (
	resultCacheSize  = 256
	resultCacheItems = resultCacheSize * 20
)

// resultCache keeps the pages SearchListingsMatched answered recently, by
// query (resultKey), least recently used out first, so that the same query
// on an unchanged index is not searched, placed (matched) and assembled
// again: docs/search.md, "Result cache".
//
// A page is exactly as fresh as the index: everything in it comes from the
// index (which listings, in which order, the total, the words each matched),
// from summaries (which follow the index: summaryCache) and from the query
// itself. So every change of the index empties the cache, and a page is kept
// only if the index did not change while it was made:
//   - reindex (a poll applying search_log entries, a category renamed or
//     moved) and the swap of a rebuilt or loaded index run between change()
//     and its done(): meanwhile nothing is served from the cache or kept in
//     it, and both ends empty it and advance gen;
//   - a search reads gen (start) before it reads the index, and put keeps its
//     page only if gen has not moved since and no change is under way.
//
// Pages are shared by every later hit: the items' maps (Matched) and pointer
// fields must not be written through; get returns a new slice of them.
type resultCache struct {
	mu       sync.Mutex
	gen      uint64 // advanced by every change of the index, at its start and end
	changing int    // changes of the index under way
	off      bool   // SetResultCache(false): every search is made afresh
	lru      *simplelru.LRU[string, resultPage]
	items    int // listings in the pages held
	hits     uint64
	misses   uint64
}

// resultPage is one cached answer of SearchListingsMatched.
type resultPage struct {
	items []domain.SearchListingItem
	total int
}

// start returns the generation a search about to read the index must pass
// to put.
func (c *resultCache) start() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// get returns a copy of the items and the total kept for key, if any (never
// while the index is changing).
func (c *resultCache) get(key string) ([]domain.SearchListingItem, int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off || c.changing > 0 || c.lru == nil {
		c.misses++
		return nil, 0, false
	}
	p, ok := c.lru.Get(key)
	if !ok {
		c.misses++
		return nil, 0, false
	}
	c.hits++
	items := make([]domain.SearchListingItem, len(p.items))
	copy(items, p.items)
	return items, p.total, true
}

// put keeps the page made for key by a search that called start when gen
// was returned, unless the index changed since or is changing.
func (c *resultCache) put(gen uint64, key string, items []domain.SearchListingItem, total int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off || gen != c.gen || c.changing > 0 {
		return
	}
	if len(items) > resultCacheItems {
		return
	}
	if c.lru == nil {
		// Called with mu held, for every page that leaves (evicted, removed, purged).
		gone := func(_ string, p resultPage) { c.items -= len(p.items) }
		c.lru, _ = simplelru.NewLRU[string, resultPage](resultCacheSize, gone) // fails only for a size <= 0
	}
	kept := make([]domain.SearchListingItem, len(items))
	copy(kept, items)
	c.lru.Remove(key) // a page kept again replaces the one held
	c.lru.Add(key, resultPage{items: kept, total: total})
	c.items += len(kept)
	for c.items > resultCacheItems {
		c.lru.RemoveOldest()
	}
}

// change empties the cache and stops its use until the returned done is
// called, which empties it again: the index is about to change. Changes may
// nest or overlap.
func (c *resultCache) change() (done func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.changing++
	c.gen++
	if c.lru != nil {
		c.lru.Purge()
	}
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.changing--
		c.gen++
		if c.lru != nil {
			c.lru.Purge()
		}
	}
}

// setOff turns the cache off (emptying it) or back on.
func (c *resultCache) setOff(off bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.off = off
	c.gen++
	if c.lru != nil {
		c.lru.Purge()
	}
}

// stats returns the pages held and the hits and misses so far.
func (c *resultCache) stats() (held int, hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lru != nil {
		held = c.lru.Len()
	}
	return held, c.hits, c.misses
}

// SetResultCache turns the store's cache of search pages on (the default) or
// off. Off, every search is made afresh: benchmarks use it to measure the
// search itself.
func (s *Store) SetResultCache(on bool) { s.results.setOff(!on) }

// resultKey is the cache key of a search: every field of the query the
// index answers, with the categories its category filter resolved to (so a
// category moved under another is a new key).
func resultKey(sq search.Query) string {
	var b strings.Builder
	b.Grow(len(sq.Text) + len(sq.Stage) + len(sq.Country) + len(sq.PricingModel) + len(sq.Domain) + len(sq.Status) + len(sq.Sort) + 32 + 8*len(sq.Categories))
	for _, f := range []string{sq.Text, sq.Stage, sq.Country, sq.PricingModel, sq.Domain, sq.Status, sq.Sort} {
		b.WriteString(strconv.Itoa(len(f))) // length first: no text can pass for two fields
		b.WriteByte(':')
		b.WriteString(f)
	}
	b.WriteString(strconv.Itoa(sq.Offset))
	b.WriteByte(0)
	b.WriteString(strconv.Itoa(sq.Limit))
	b.WriteByte(0)
	if sq.Categories == nil {
		b.WriteByte('*') // no category filter; a non-nil empty list matches nothing
	}
	for _, id := range sq.Categories {
		b.WriteString(strconv.FormatInt(id, 10))
		b.WriteByte(',')
	}
	return b.String()
}
