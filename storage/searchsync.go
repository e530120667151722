package storage

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/search"
)

// Limits of the search_log machinery.
const (
	logKeep       = 100_000 // search_log rows kept when a Store opens
	logBatch      = 5_000   // search_log rows read per query
	rebuildAbove  = 100_000 // changed listings above which the index is rebuilt instead
	docFetchBatch = 500     // listings fetched per IN (...) query
)

// docCols are the listing columns scanned by scanDoc.
const docCols = `l.id, l.site_id, l.slug, l.name, l.tagline, l.url, l.logo_url, COALESCE(l.stage, ''), l.country,
	l.pricing_model, l.status, l.plan, l.featured, COALESCE(l.launch_week, ''), l.launched_at, l.votes_count,
	l.views_count, l.follows_count, l.description, l.keywords, l.domain, l.scheduled_at, l.trending_score,
	l.short_description, l.features`

// docRow is a listing as loaded for the index.
type docRow struct {
	summaryRow
	siteID      int64
	description string
	keywords    string
	domain      string
	scheduledAt sql.NullInt64
	trending    float64
	short       string
	features    string
}

func (r *docRow) dest() []any {
	return []any{&r.id, &r.siteID, &r.slug, &r.name, &r.tagline, &r.url, &r.logo, &r.stage, &r.country,
		&r.pricing, &r.status, &r.plan, &r.featured, &r.week, &r.launchedAt, &r.votes,
		&r.views, &r.follows, &r.description, &r.keywords, &r.domain, &r.scheduledAt, &r.trending,
		&r.short, &r.features}
}

// catLink is one row of listing_categories.
type catLink struct {
	listingID, categoryID int64
	primary               bool
}

// doc turns a listing row and its category links into an index document. A
// keywords column that is not a JSON list is an error naming the listing, as
// it is when the listing is read (get_listing): indexing the listing without
// its keywords would hide it from searches for them.
func (s *Store) doc(r *docRow, links []catLink, cats map[int64]catRow) (search.Doc, error) {
	d := search.Doc{ID: r.id, Name: r.name, Tagline: r.tagline, Description: r.description,
		ShortDescription: r.short,
		Stage:            r.stage, Country: r.country, PricingModel: r.pricing, Domain: r.domain, Status: r.status,
		Votes: r.votes, Views: r.views, Follows: r.follows, Trending: r.trending}
	for _, l := range links {
		d.Categories = append(d.Categories, l.categoryID)
		// The category's name and its parents' are searchable like the
		// listing's words.
		for c, ok := cats[l.categoryID]; ok && !slices.Contains(d.CategoryNames, c.name); c, ok = cats[c.parentID] {
			d.CategoryNames = append(d.CategoryNames, c.name)
		}
	}
	if err := decodeJSON(r.keywords, &d.Keywords, "the keywords of listing "+r.slug); err != nil {
		return search.Doc{}, err
	}
	if r.features != "" {
		if err := decodeJSON(r.features, &d.Features, "the features of listing "+r.slug); err != nil {
			return search.Doc{}, err
		}
	}
	switch {
	case r.launchedAt.Valid:
		d.Newest = r.launchedAt.Int64
	case r.scheduledAt.Valid:
		d.Newest = r.scheduledAt.Int64
	default:
		if t, err := time.Parse(domain.DateLayout, r.week); err == nil {
			d.Newest = t.Unix()
		}
	}
	return d, nil
}

// categoryMap returns the site's categories by id.
func (s *Store) categoryMap(ctx context.Context) (map[int64]catRow, error) {
	all, err := s.allCategories(ctx)
	if err != nil {
		return nil, err
	}
	m := make(map[int64]catRow, len(all))
	for _, c := range all {
		m[c.id] = c
	}
	return m, nil
}

// rebuildIndex loads every live and scheduled listing of the site into a new index in
// one streaming pass (listings and their category links merged by id), then swaps it in.
// Called with syncMu held; searches keep using the previous index meanwhile. When ctx
// ends first, it stops reading and returns ctx's error, keeping the previous index.
func (s *Store) rebuildIndex(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.pruneLog(ctx); err != nil {
		return err
	}
	head, gaps, err := s.logTail(ctx)
	if err != nil {
		return err
	}
	s.sums.dropAll() // after head: a summary read from now on holds every change up to it
	all, err := s.allCategories(ctx)
	if err != nil {
		return err
	}
	cats := make(map[int64]catRow, len(all))
	for _, c := range all {
		cats[c.id] = c
	}
	s.noteCategories(cats)    // the names this index will hold (searchcats.go)
	counts := map[int64]int{} // live listings per category, subcategories included
	// Reading rows, tokenising documents (on every core) and the (serialised)
	// index writes run side by side.
	ix := search.New()
	docs := make(chan search.Doc, 1024)
	done := make(chan error, 1)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(docs)
		done <- s.streamDocs(rctx, cats, func(d search.Doc, links []catLink) {
			if d.Status == domain.StatusLive {
				countCategories(counts, links, cats)
			}
			docs <- d
		})
	}()
	ix.UpsertAll(docs, runtime.GOMAXPROCS(0))
	if err := <-done; err != nil {
		return err
	}
	if err := ctx.Err(); err != nil { // a driver may end the rows quietly when ctx ends
		return err
	}
	ix.Trim()
	s.catMu.Lock()
	s.catCache, s.catAt, s.catSeq, s.catCost = categoryNodes(all, counts), time.Now(), head, 0
	s.catMu.Unlock()
	swapped := s.results.change() // resultcache.go
	s.ix.Store(ix)
	swapped()
	s.syncSeq, s.lastPoll, s.gaps = head, time.Now(), gaps
	return nil
}

// pruneLog keeps the last logKeep entries of search_log (when a store
// opens, after the index is built or loaded).
func (s *Store) pruneLog(ctx context.Context) error {
	_, err := s.db.sql.ExecContext(ctx, `DELETE FROM search_log WHERE seq <= (SELECT MAX(seq) FROM search_log) - ?`, logKeep)
	return mapErr(err, "search log", "")
}

// streamDocs reads every live and scheduled listing of the site in id order, merged
// with its category links (both tables read in rowid/primary-key order, no sorting),
// and passes each as a document with its links to emit. It stops with ctx's error
// when ctx ends.
func (s *Store) streamDocs(ctx context.Context, cats map[int64]catRow, emit func(search.Doc, []catLink)) error {
	// The links are read whole first (three numbers a link), then the
	// listings are streamed: two cursors open at once would hold two
	// connections, and with a pool of one (--db-max-conns 1; or as many
	// rebuilds as connections) the second would wait for ever on the first
	// (TestPostgres_PoolOfOne).
	links, err := s.allLinks(ctx)
	if err != nil {
		return err
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+docCols+` FROM listings l `+s.db.eng.notIndexed()+`
		WHERE l.site_id = ? AND l.status IN ('live', 'scheduled') ORDER BY l.id`, s.siteID)
	if err != nil {
		return mapErr(err, "listing", "")
	}
	defer rows.Close()
	next := 0 // the first link not yet passed
	var buf []catLink
	for n := 0; rows.Next(); n++ {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var r docRow
		if err := rows.Scan(r.dest()...); err != nil {
			return mapErr(err, "listing", "")
		}
		buf = buf[:0]
		for ; next < len(links) && links[next].listingID <= r.id; next++ {
			if links[next].listingID == r.id {
				buf = append(buf, links[next])
			}
		}
		d, err := s.doc(&r, buf, cats)
		if err != nil {
			return err
		}
		emit(d, buf)
	}
	return mapErr(rows.Err(), "listing", "")
}

// allLinks reads every listing_categories row in listing order.
func (s *Store) allLinks(ctx context.Context) ([]catLink, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT listing_id, category_id, is_primary FROM listing_categories ORDER BY listing_id`)
	if err != nil {
		return nil, mapErr(err, "listing", "")
	}
	defer rows.Close()
	var out []catLink
	for rows.Next() {
		var l catLink
		if err := rows.Scan(&l.listingID, &l.categoryID, &l.primary); err != nil {
			return nil, mapErr(err, "listing", "")
		}
		out = append(out, l)
	}
	return out, mapErr(rows.Err(), "listing", "")
}

// Refresh applies every search_log entry not yet seen to the index now.
func (s *Store) Refresh(ctx context.Context) error {
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if err := s.poll(ctx); err != nil {
		return err
	}
	return s.recheckCategories(ctx) // searchcats.go
}

// maybeRefresh polls search_log when PollInterval has passed since the last poll
// and no other goroutine is polling; searches never wait for a poll in progress.
func (s *Store) maybeRefresh(ctx context.Context) (*search.Index, error) {
	if !s.syncMu.TryLock() {
		return s.ix.Load(), nil
	}
	defer s.syncMu.Unlock()
	if time.Since(s.lastPoll) < s.PollInterval {
		return s.ix.Load(), nil
	}
	err := s.poll(ctx)
	return s.ix.Load(), err
}

// poll reads search_log after syncSeq and re-upserts or deletes the listings named
// there. On PostgreSQL it also re-reads the seqs it found missing (see logGaps).
// Called with syncMu held.
func (s *Store) poll(ctx context.Context) error {
	s.lastPoll = time.Now()
	var lo sql.NullInt64
	if err := s.db.sql.QueryRowContext(ctx, `SELECT MIN(seq) FROM search_log`).Scan(&lo); err != nil {
		return mapErr(err, "search log", "")
	}
	if lo.Valid && lo.Int64 > s.syncSeq+1 { // entries we never saw were pruned
		return s.rebuildIndex(ctx)
	}
	changed := map[int64]bool{}
	filled, err := s.fillGaps(ctx, lo.Int64, changed)
	if err != nil {
		return err
	}
	var missing []int64 // seqs skipped by this read: not committed yet, or never
	seq := s.syncSeq
	for {
		n := 0
		rows, err := s.db.sql.QueryContext(ctx, `SELECT seq, listing_id FROM search_log WHERE seq > ? ORDER BY seq LIMIT ?`, seq, logBatch)
		if err != nil {
			return mapErr(err, "search log", "")
		}
		for rows.Next() {
			prev := seq
			var id int64
			if err := rows.Scan(&seq, &id); err != nil {
				rows.Close()
				return mapErr(err, "search log", "")
			}
			if s.db.eng.lateCommits() && seq > prev+1 {
				if len(s.gaps)+len(missing)+int(seq-prev-1) > maxGaps {
					rows.Close()
					return s.rebuildIndex(ctx)
				}
				for g := prev + 1; g < seq; g++ {
					missing = append(missing, g)
				}
			}
			changed[id] = true
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return mapErr(err, "search log", "")
		}
		if len(changed) > rebuildAbove {
			return s.rebuildIndex(ctx)
		}
		if n < logBatch {
			break
		}
	}
	if len(changed) == 0 {
		return nil
	}
	delete(changed, 0) // category tree changes: listings affected are logged separately
	ids := make([]int64, 0, len(changed))
	for id := range changed {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if err := s.reindex(ctx, ids); err != nil {
		return err
	}
	s.syncSeq = seq
	for _, g := range filled {
		delete(s.gaps, g)
	}
	if len(missing) > 0 {
		if s.gaps == nil {
			s.gaps = logGaps{}
		}
		for _, g := range missing {
			s.gaps[g] = s.lastPoll
		}
	}
	return nil
}

// Late commits. On SQLite writers are serialised, so search_log's seqs
// commit in order and reading after the last seq applied sees every change.
// On PostgreSQL seq comes from a sequence: a transaction takes its seq when
// it writes and commits later, so a lower seq can become visible after a
// higher one was read. poll therefore remembers each seq it skipped (and the
// index build, each one missing just below the head it starts from) and
// looks for them again at every poll until they appear (their listings are
// then re-read) or gapWait has passed (the transaction rolled back, or the
// sequence skipped them: a crash, a serialization retry). A change whose
// transaction stays open longer than gapWait after it took its seq is not
// seen until that listing changes again or the index is rebuilt.
const (
	gapWait = 2 * time.Minute // how long a skipped seq is looked for
	gapScan = logBatch        // seqs below the head an index build checks for gaps
	maxGaps = 10_000          // skipped seqs remembered; more rebuilds the index
)

// logGaps are the skipped seqs poll still looks for, with when each was noticed.
type logGaps map[int64]time.Time

// logTail returns the latest search_log seq and, on PostgreSQL, the seqs
// missing among the gapScan below it, read in one statement so that the
// index built from head on sees every change missing from that snapshot.
func (s *Store) logTail(ctx context.Context) (int64, logGaps, error) {
	if !s.db.eng.lateCommits() {
		head, err := s.logHead(ctx)
		return head, nil, err
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT seq FROM search_log
		WHERE seq > (SELECT COALESCE(MAX(seq), 0) FROM search_log) - ? ORDER BY seq`, gapScan)
	if err != nil {
		return 0, nil, mapErr(err, "search log", "")
	}
	defer rows.Close()
	var seqs []int64
	for rows.Next() {
		var seq int64
		if err := rows.Scan(&seq); err != nil {
			return 0, nil, mapErr(err, "search log", "")
		}
		seqs = append(seqs, seq)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, mapErr(err, "search log", "")
	}
	if len(seqs) == 0 {
		return 0, nil, nil
	}
	head := seqs[len(seqs)-1]
	gaps := logGaps{}
	now := time.Now()
	prev := max(head-gapScan, 0) // seqs start at 1
	for _, seq := range seqs {
		for g := prev + 1; g < seq; g++ {
			gaps[g] = now
		}
		prev = seq
	}
	return head, gaps, nil
}

// fillGaps forgets the skipped seqs below lo (pruned) or older than gapWait,
// reads those of the rest that are now committed, and adds their listings to
// changed. It returns the seqs found, to forget once they are applied.
func (s *Store) fillGaps(ctx context.Context, lo int64, changed map[int64]bool) ([]int64, error) {
	if len(s.gaps) == 0 {
		return nil, nil
	}
	var look []int64
	for g, at := range s.gaps {
		if g < lo || s.lastPoll.Sub(at) > gapWait {
			delete(s.gaps, g)
			continue
		}
		look = append(look, g)
	}
	var found []int64
	for start := 0; start < len(look); start += docFetchBatch {
		in, args := s.db.eng.inIDs("seq", look[start:min(start+docFetchBatch, len(look))])
		rows, err := s.db.sql.QueryContext(ctx, `SELECT seq, listing_id FROM search_log WHERE `+in, args...)
		if err != nil {
			return nil, mapErr(err, "search log", "")
		}
		for rows.Next() {
			var seq, id int64
			if err := rows.Scan(&seq, &id); err != nil {
				rows.Close()
				return nil, mapErr(err, "search log", "")
			}
			found = append(found, seq)
			changed[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, mapErr(err, "search log", "")
		}
	}
	return found, nil
}

// reindex loads the listings ids and upserts the public ones of this site, deleting the rest.
func (s *Store) reindex(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	defer s.results.change()() // no cached page while the index changes, none from before after (resultcache.go)
	s.sums.drop(ids)           // summarycache.go
	cats, err := s.categoryMap(ctx)
	if err != nil {
		return err
	}
	if moved := s.noteCategories(cats); len(moved) > 0 { // searchcats.go
		for _, id := range s.ix.Load().InCategories(moved) {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		s.sums.drop(ids)
	}
	ix := s.ix.Load()
	for start := 0; start < len(ids); start += docFetchBatch {
		batch := ids[start:min(start+docFetchBatch, len(ids))]
		in, args := s.db.eng.inIDs("listing_id", batch)
		links := map[int64][]catLink{}
		lrows, err := s.db.sql.QueryContext(ctx, `SELECT listing_id, category_id, is_primary FROM listing_categories WHERE `+in, args...)
		if err != nil {
			return mapErr(err, "listing", "")
		}
		for lrows.Next() {
			var l catLink
			if err := lrows.Scan(&l.listingID, &l.categoryID, &l.primary); err != nil {
				lrows.Close()
				return mapErr(err, "listing", "")
			}
			links[l.listingID] = append(links[l.listingID], l)
		}
		lrows.Close()
		seen := map[int64]bool{}
		in, args = s.db.eng.inIDs("l.id", batch)
		rows, err := s.db.sql.QueryContext(ctx, `SELECT `+docCols+` FROM listings l WHERE `+in, args...)
		if err != nil {
			return mapErr(err, "listing", "")
		}
		for rows.Next() {
			var r docRow
			if err := rows.Scan(r.dest()...); err != nil {
				rows.Close()
				return mapErr(err, "listing", "")
			}
			if r.siteID != s.siteID {
				continue // another site's listing: never in this index
			}
			seen[r.id] = true
			if r.status == domain.StatusLive || r.status == domain.StatusScheduled {
				d, err := s.doc(&r, links[r.id], cats)
				if err != nil {
					rows.Close()
					return err
				}
				ix.Upsert(d)
			} else {
				ix.Delete(r.id)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return mapErr(err, "listing", "")
		}
		for _, id := range batch {
			if !seen[id] {
				ix.Delete(id)
			}
		}
	}
	return nil
}

// String describes the store (site and index size) for logs.
func (s *Store) String() string {
	return fmt.Sprintf("storage.Store{site: %s, indexed: %s}", s.site.Key, strconv.Itoa(s.ix.Load().Len()))
}
