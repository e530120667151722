package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
)

// synthChunk is the number of listings written per transaction.
const synthChunk = 10000

// SeedSynthetic adds n synthetic live listings of demo.Synthetic to site for
// benchmarks. Each listing gets one primary category (the demo tree is created
// when the site has no categories), its counted votes as rows (synthVotes;
// votes_count counts them) and counters instead of view and follow rows.
// Rows are written in transactions of 10,000 listings; on PostgreSQL the
// planner's statistics are refreshed at the end (ANALYZE). The same n and
// now give the same listings.
func SeedSynthetic(ctx context.Context, db *DB, site domain.Site, n int, now time.Time) error {
	siteID, err := ensureSite(ctx, db, site)
	if err != nil {
		return err
	}
	cats, err := synthCategories(ctx, db, siteID)
	if err != nil {
		return fmt.Errorf("storage: seed synthetic: %w", err)
	}
	var base int
	if err := db.sql.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM listings`).Scan(&base); err != nil {
		return fmt.Errorf("storage: seed synthetic: %w", err)
	}
	if err := db.forgetSnapshot(ctx); err != nil {
		return err
	}
	g := demo.NewSynthetic(now, uint64(base))
	for done := 0; done < n; done += synthChunk {
		if err := writeSynthChunk(ctx, db, g, siteID, cats, base+done, min(synthChunk, n-done), now); err != nil {
			return fmt.Errorf("storage: seed synthetic: %w", err)
		}
	}
	if q := db.eng.analyzeAfterLoad(); q != "" {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("storage: seed synthetic: %w", err)
		}
	}
	return nil
}

// synthVoteSpan is how long after its launch a synthetic listing's votes
// come in (its launch week).
const synthVoteSpan = 7 * 24 * time.Hour

// synthVotes inserts a listing's votes counted votes, one per synthetic voter
// ("synthetic-0", "synthetic-1", ...; no account, like the demo's anonymous
// voters), spread evenly over synthVoteSpan from its launch (or up to now):
// the arguments are the count, the listing id, the launch, the span and the
// count again. The votes are what a directory's votes table holds, so a
// benchmark's votes meet rows: the trending read, the take-back and the
// one-vote-per-person check read a listing's votes by index rather than
// scanning an empty table.
const synthVotes = `WITH RECURSIVE n(i) AS (SELECT CAST(0 AS BIGINT) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
	INSERT INTO votes (listing_id, voter_key, created_at) SELECT ?, 'synthetic-' || i, ? + (i * ?) / ? FROM n`

// synthTrending is the trending_score of votes votes spread as synthVotes
// spreads them, added in the order recomputeTrending adds them.
func synthTrending(launched time.Time, span int64, votes int) float64 {
	score := 0.0
	for i := range int64(votes) {
		score = TrendingAdd(score, time.Unix(launched.Unix()+(i*span)/int64(votes), 0))
	}
	return score
}

// synthCategories returns the ids of the site's leaf categories, creating the
// demo tree first when the site has none.
func synthCategories(ctx context.Context, db *DB, siteID int64) ([]int64, error) {
	var n int
	if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM categories WHERE site_id = ?`, siteID).Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			return nil, err
		}
		defer tx.Rollback()
		w := &demoWriter{ctx: ctx, tx: tx, siteID: siteID}
		w.writeCategories(demo.Categories())
		if w.err != nil {
			return nil, w.err
		}
		if err := tx.Commit(); err != nil {
			return nil, err
		}
	}
	return queryIDs(ctx, db.sql, `SELECT id FROM categories c WHERE site_id = ?
		AND NOT EXISTS (SELECT 1 FROM categories s WHERE s.parent_id = c.id) ORDER BY position, id`, siteID)
}

// writeSynthChunk inserts count listings of g numbered from first, in one
// transaction. Like writeDemo's, the synthetic seed's transactions are not
// retried: `seed --synthetic` is the only writer while it runs.
func writeSynthChunk(ctx context.Context, db *DB, g *demo.Synthetic, siteID int64, cats []int64, first, count int, now time.Time) error {
	tx, release, err := db.beginSeed(ctx)
	if err != nil {
		return err
	}
	defer release()
	defer tx.Rollback()
	// The listing is inserted with its votes_count; the trigger that counts
	// each vote row is off while the rows go in (withoutTrigger), so that
	// the listing's row is written once rather than once per vote.
	if err := db.eng.withoutTrigger(ctx, tx, "votes", "votes_count_ins", func() error {
		return writeSynthListings(ctx, tx, g, siteID, cats, first, count, now)
	}); err != nil {
		return err
	}
	return tx.Commit()
}

// writeSynthListings is writeSynthChunk's inserts.
func writeSynthListings(ctx context.Context, tx *Tx, g *demo.Synthetic, siteID int64, cats []int64, first, count int, now time.Time) error {
	ins, err := tx.PrepareContext(ctx, `INSERT INTO listings (site_id, slug, name, tagline, short_description, description, url, domain,
		status, plan, launch_week, launched_at, stage, pricing_model, pricing_summary, country, keywords, votes_count, views_count,
		follows_count, trending_score, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'live', 'free', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	if err != nil {
		return err
	}
	defer ins.Close()
	cat, err := tx.PrepareContext(ctx, `INSERT INTO listing_categories (listing_id, category_id, is_primary) VALUES (?, ?, 1)`)
	if err != nil {
		return err
	}
	defer cat.Close()
	for i := first; i < first+count; i++ {
		l := g.Next(i, len(cats))
		span := int64(max(min(synthVoteSpan, now.Sub(l.LaunchedAt)), time.Second) / time.Second)
		trending := synthTrending(l.LaunchedAt, span, l.Votes)
		var id int64
		if err := ins.QueryRowContext(ctx, siteID, l.Slug, l.Name, l.Tagline, l.Tagline, l.Description, l.URL, l.Domain,
			l.LaunchWeek.Format(domain.DateLayout), l.LaunchedAt.Unix(), l.Stage, l.PricingModel, "",
			l.Country, js(l.Keywords), l.Votes, l.Views, l.Follows, trending, l.LaunchedAt.Unix(), l.LaunchedAt.Unix()).Scan(&id); err != nil {
			return err
		}
		if _, err := cat.ExecContext(ctx, id, cats[l.Category]); err != nil {
			return err
		}
		if l.Votes > 0 {
			if _, err := tx.ExecContext(ctx, synthVotes, l.Votes, id, l.LaunchedAt.Unix(), span, l.Votes); err != nil {
				return err
			}
		}
	}
	return nil
}
