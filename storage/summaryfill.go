package storage

import (
	"context"
	"math"
)

// summaryFillBatch is the number of summaries FillSummaryCache reads a query.
const summaryFillBatch = 1000

// FillSummaryCache reads the summaries of the site's public listings, newest
// first, into the summary cache, until every one is in or the cache is at its
// bound (summaryCacheBytes), so that the first searches do not read their
// pages' summaries from the database. It returns how many summaries the
// cache holds after. A batch
// read while the cache dropped something (a change was applied to the index)
// is read again, up to three times, then left to searches. Safe to call while
// the store serves.
func (s *Store) FillSummaryCache(ctx context.Context) (int, error) {
	before := int64(math.MaxInt64)
	tries := 0
	for {
		if err := ctx.Err(); err != nil {
			return s.sums.len(), err
		}
		gen := s.sums.generation()
		// +l.site_id keeps SQLite off the (site_id, status, ...) indexes,
		// whose plan read and sorted every listing for each batch, and on
		// the primary key's range.
		rows, err := s.db.sql.QueryContext(ctx, `SELECT `+summaryCols+` FROM `+summaryFrom+`
			WHERE +l.site_id = ? AND `+publicStatus+` AND l.id < ? ORDER BY l.id DESC LIMIT ?`,
			s.siteID, before, summaryFillBatch)
		if err != nil {
			return s.sums.len(), mapErr(err, "listing", "")
		}
		batch := make([]summaryRow, 0, summaryFillBatch)
		if err := scanSummaryRows(rows, func(r *summaryRow) { batch = append(batch, *r) }); err != nil {
			return s.sums.len(), err
		}
		if len(batch) == 0 {
			break
		}
		n, ok := s.sums.put(gen, batch, false)
		if !ok {
			if tries < 3 {
				tries++
				continue
			}
			n = len(batch)
		}
		tries = 0
		if n < len(batch) {
			break // at the bound
		}
		before = batch[len(batch)-1].id
	}
	return s.sums.len(), nil
}

// FillSummaryCacheInBackground runs FillSummaryCache on a goroutine that
// Close stops and waits for, and logs what it kept. The channel it returns
// is closed when the fill has ended (done, stopped or failed).
func (s *Store) FillSummaryCacheInBackground() <-chan struct{} {
	ctx := s.bg()
	done := make(chan struct{})
	s.snapWG.Go(func() {
		defer close(done)
		n, err := s.FillSummaryCache(ctx)
		if ctx.Err() != nil {
			s.db.logger().Info("summary cache fill stopped: the store is closing", "summaries", n)
			return
		}
		if err != nil {
			s.db.logger().Warn("summary cache not filled", "kept", n, "err", err)
			return
		}
		s.db.logger().Info("summary cache filled", "summaries", n, "bytes", s.sums.arenaBytes())
	})
	return done
}

// bg is the context of the store's background work, cancelled by Close.
func (s *Store) bg() context.Context {
	s.bgOnce.Do(func() { s.bgCtx, s.bgStop = context.WithCancel(context.Background()) })
	return s.bgCtx
}
