package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/search"
)

// Store implements domain.Store over SQLite for one site. Full-text search is
// answered by an in-memory index kept fresh from the search_log table.
type Store struct {
	db     *DB
	site   domain.Site
	siteID int64
	ix     atomic.Pointer[search.Index]
	sums   summaryCache // the summaries search pages show (summarycache.go)
	// results are the pages SearchListingsMatched answered (resultcache.go).
	results resultCache

	// The cache and poll times below (lastPoll, catAt, catCost, countEntry)
	// measure this machine's own work on the monotonic clock (time.Now,
	// time.Since), not the service's time: a test clock that stands still
	// must not stop the index from refreshing, and cannot make a query slow.
	// Every time that is stored is stamped with db's clock (DB.Now).

	syncMu   sync.Mutex       // held while polling search_log
	syncSeq  int64            // last search_log seq applied (guarded by syncMu)
	catSeen  map[int64]string // categories' names and parents as the index holds them (searchcats.go; guarded by syncMu)
	lastPoll time.Time        // guarded by syncMu
	gaps     logGaps          // seqs below syncSeq not yet committed (PostgreSQL; guarded by syncMu)
	// PollInterval is the minimum time between two polls of search_log.
	PollInterval time.Duration

	// The snapshot of the index beside a SQLite database (snapshot.go):
	// the seq of the last one written or loaded, if any (guarded by
	// syncMu), and the goroutine writing one.
	snapSeq   int64
	snapSaved bool
	snapWG    sync.WaitGroup

	// bgCtx is cancelled by Close: background work the store need not
	// finish before it closes (the summary fill) runs under it (bg).
	bgOnce sync.Once
	bgCtx  context.Context
	bgStop context.CancelFunc

	catMu    sync.Mutex
	catCache []domain.CategoryNode
	catAt    time.Time
	catSeq   int64
	catCost  time.Duration

	countMu sync.Mutex
	counts  map[string]countEntry

	// lateCommits is how long a count cached at a search_log seq is trusted
	// while that seq is still the latest: forever on SQLite, whose writers
	// commit in seq order; on PostgreSQL a transaction that took a lower seq
	// can commit after the latest was read (see "Late commits" in
	// searchsync.go), so the count is taken again after lateCommits.
	lateCommits time.Duration

	// countRule and catRule are the cost rule of the cached COUNTs and of
	// the category counts: one that took long to compute is reused for a
	// while although the directory changed (costRule). NewStore sets both
	// for every Store, serve's included; a test of the seq rule alone sets
	// them to costRule{} (off), since under load any count can be slow.
	countRule, catRule costRule
}

// costRule lets a count that took longer than min to compute be reused,
// while the directory changes, for factor times as long as it took (a large
// directory's counts then lag by seconds instead of being taken again at
// each change). A factor of 0 turns it off.
type costRule struct {
	factor int
	min    time.Duration
}

// reuse reports whether a count that took cost and was taken at at may
// still be used although the directory changed since.
func (r costRule) reuse(cost time.Duration, at time.Time) bool {
	return r.factor > 0 && cost > r.min && time.Since(at) < time.Duration(r.factor)*cost
}

var _ domain.Store = (*Store)(nil)

// NewStore returns the Store of site over db: it ensures the site row and
// loads the in-memory search index from its snapshot beside a SQLite
// database when that snapshot matches the database (snapshot.go), or else
// builds it from every live and scheduled listing. When ctx ends first
// (serve interrupted while it starts), it returns ctx's error.
func NewStore(ctx context.Context, db *DB, site domain.Site) (*Store, error) {
	id, err := ensureSite(ctx, db, site)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, site: site, siteID: id, PollInterval: 500 * time.Millisecond,
		countRule: costRule{factor: countCacheFactor, min: countCacheMin},
		catRule:   costRule{factor: categoryCacheFactor, min: categoryCacheMin}}
	if db.eng.lateCommits() {
		s.lateCommits = lateCommitTrust
	}
	s.syncMu.Lock()
	err = s.openIndex(ctx)
	s.syncMu.Unlock()
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Index returns the search index (for benchmarks and diagnostics).
func (s *Store) Index() *search.Index { return s.ix.Load() }

// publicStatus is the SQL condition for listings anyone may see.
const publicStatus = `l.status IN ('live', 'scheduled')`

// summaryCols are the columns scanned by scanSummary, from listings l joined
// with its primary category pc (see summaryFrom).
const summaryCols = `l.id, l.slug, l.name, l.tagline, l.url, l.logo_url, COALESCE(l.stage, ''), l.country,
	l.pricing_model, l.status, l.plan, l.featured, COALESCE(l.launch_week, ''), l.launched_at,
	l.votes_count, l.views_count, l.follows_count, COALESCE(pc.slug, ''), COALESCE(pc.name, '')`

// summaryJoins joins listing l with its primary category pc.
const summaryJoins = `
	LEFT JOIN listing_categories plc ON plc.listing_id = l.id AND plc.is_primary = 1
	LEFT JOIN categories pc ON pc.id = plc.category_id`

// summaryFrom is listings l with its primary category.
const summaryFrom = `listings l` + summaryJoins

// summaryRow receives summaryCols.
type summaryRow struct {
	id                                    int64
	slug, name, tagline, url, logo, stage string
	country, pricing, status, plan, week  string
	featured                              bool
	launchedAt                            sql.NullInt64
	votes, views, follows                 int
	catSlug, catName                      string
}

// dest returns the scan destinations for summaryCols, followed by extra.
func (r *summaryRow) dest(extra ...any) []any {
	return append([]any{&r.id, &r.slug, &r.name, &r.tagline, &r.url, &r.logo, &r.stage, &r.country,
		&r.pricing, &r.status, &r.plan, &r.featured, &r.week, &r.launchedAt,
		&r.votes, &r.views, &r.follows, &r.catSlug, &r.catName}, extra...)
}

// summary builds the one ListingSummary used everywhere from a row.
func (s *Store) summary(r *summaryRow) domain.ListingSummary {
	out := domain.ListingSummary{
		Slug: r.slug, Name: r.name, Tagline: r.tagline, URL: r.url, PageURL: s.site.ListingPageURL(r.slug),
		LogoURL: r.logo, Stage: r.stage, Country: r.country, PricingModel: r.pricing, Status: r.status,
		Plan: r.plan, Featured: r.featured, LaunchWeek: r.week, LaunchedAt: unixTime(r.launchedAt),
		Votes: r.votes, Views: r.views, Follows: r.follows,
	}
	if r.catSlug != "" {
		out.PrimaryCategory = &domain.CategoryRef{Slug: r.catSlug, Name: r.catName, Primary: true}
	}
	return out
}

// querySummaries runs a query selecting summaryCols (plus extra columns
// scanned into the destinations extra returns for each row) and builds summaries.
func (s *Store) querySummaries(ctx context.Context, query string, args []any, extra func() []any, each func(domain.ListingSummary)) error {
	rows, err := s.db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return mapErr(err, "listing", "")
	}
	return s.eachSummary(rows, extra, each)
}

// eachSummary builds a summary from each of rows and closes them.
func (s *Store) eachSummary(rows *sql.Rows, extra func() []any, each func(domain.ListingSummary)) error {
	defer rows.Close()
	for rows.Next() {
		var r summaryRow
		var ex []any
		if extra != nil {
			ex = extra()
		}
		if err := rows.Scan(r.dest(ex...)...); err != nil {
			return mapErr(err, "listing", "")
		}
		each(s.summary(&r))
	}
	return mapErr(rows.Err(), "listing", "")
}

// listingID returns the id of the public listing slug, or not_found.
func (s *Store) listingID(ctx context.Context, slug string) (int64, error) {
	var id int64
	err := s.db.sql.QueryRowContext(ctx, `SELECT l.id FROM listings l WHERE l.site_id = ? AND l.slug = ? AND `+publicStatus,
		s.siteID, slug).Scan(&id)
	return id, mapErr(err, "listing", slug)
}

// count runs a COUNT query.
func (s *Store) count(ctx context.Context, query string, args ...any) (int, error) {
	var n int
	err := s.db.sql.QueryRowContext(ctx, query, args...).Scan(&n)
	return n, mapErr(err, "count", "")
}

// SiteStats returns live listing, upcoming listing and category counts and the first launch week.
func (s *Store) SiteStats(ctx context.Context) (domain.SiteStats, error) {
	var st domain.SiteStats
	var first sql.NullString
	var err error
	for _, c := range []struct {
		n     *int
		query string
	}{
		{&st.LiveListings, `SELECT COUNT(*) FROM listings WHERE site_id = ? AND status = 'live'`},
		{&st.UpcomingListings, `SELECT COUNT(*) FROM listings WHERE site_id = ? AND status = 'scheduled'`},
		{&st.Categories, `SELECT COUNT(*) FROM categories WHERE site_id = ?`},
	} {
		if *c.n, err = s.cachedCount(ctx, c.query, s.siteID); err != nil {
			return st, err
		}
	}
	err = s.db.sql.QueryRowContext(ctx, `SELECT MIN(launch_week) FROM listings WHERE site_id = ? AND status = 'live'`, s.siteID).Scan(&first)
	if err != nil {
		return st, mapErr(err, "site", s.site.Key)
	}
	if first.Valid {
		if t, err := time.Parse(domain.DateLayout, first.String); err == nil {
			st.FirstWeek = domain.Monday(t)
		}
	}
	return st, nil
}

// decodeJSON unmarshals a JSON column into v; empty text leaves v unchanged.
func decodeJSON(text string, v any, what string) error {
	if text == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return fmt.Errorf("storage: bad JSON in %s: %w", what, err)
	}
	return nil
}

// countCacheMin is the running time above which a COUNT is cached while the
// directory changes; countCacheFactor times its running time is how long.
const (
	countCacheMin    = 5 * time.Millisecond
	countCacheFactor = 50
)

// lateCommitTrust is lateCommits on PostgreSQL: a count (or the category
// counts) cached at the latest seq is taken again after this long, so a
// change committed after a higher seq was read shows within it.
const lateCommitTrust = 5 * time.Second

// trustSeq reports whether a cache entry made at at still holds while
// search_log's latest seq is the one it was made at.
func (s *Store) trustSeq(at time.Time) bool {
	return s.lateCommits == 0 || time.Since(at) < s.lateCommits
}

// countEntry is a cached COUNT result.
type countEntry struct {
	n    int
	seq  int64
	at   time.Time
	cost time.Duration
}

// cachedCount runs a COUNT query, reusing an earlier result of the same query and
// arguments while search_log is unchanged, or, for slow counts (large directories),
// for a short time proportional to their cost. Totals of pages may lag by that much.
func (s *Store) cachedCount(ctx context.Context, query string, args ...any) (int, error) {
	seq, err := s.logHead(ctx)
	if err != nil {
		return 0, err
	}
	key := fmt.Sprint(query, args)
	s.countMu.Lock()
	e, ok := s.counts[key]
	s.countMu.Unlock()
	if ok && (e.seq == seq && s.trustSeq(e.at) || s.countRule.reuse(e.cost, e.at)) {
		return e.n, nil
	}
	start := time.Now()
	n, err := s.count(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	s.countMu.Lock()
	if s.counts == nil || len(s.counts) > 1000 {
		s.counts = map[string]countEntry{}
	}
	s.counts[key] = countEntry{n: n, seq: seq, at: time.Now(), cost: time.Since(start)}
	s.countMu.Unlock()
	return n, nil
}
