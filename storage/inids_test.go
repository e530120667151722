package storage

import (
	"context"
	"slices"
	"testing"
)

// TestInIDs_OneStatementWhateverTheCount: the summaries of a search page
// (summariesByID) and the listings a search_log poll re-reads (reindex) are
// read with one statement text whatever the number of ids, so that on
// PostgreSQL each connection prepares and plans it once (issue 36). Before
// inIDs, an IN list of each length was a statement of its own: 4 prepared
// statements on the connection for pages missing 1, 2, 3 and 4 summaries,
// each prepared and planned again on each of a process's connections. On
// both engines the answer is the same: the listings asked for that exist.
func TestInIDs_OneStatementWhateverTheCount(t *testing.T) {
	t.Parallel() // each part owns its fixture copy
	onEngines(t, func(t *testing.T, engine string) {
		db, s, _ := newFixtureOn(t, engine, WithMaxConns(1)) // one connection: the one pg_prepared_statements shows
		ctx := context.Background()
		ids, err := queryIDs(ctx, db.sql, `SELECT id FROM listings WHERE site_id = ? ORDER BY id LIMIT 4`, s.siteID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ids) < 4 {
			t.Fatalf("fixture has %d listings, want 4", len(ids))
		}
		const absent = int64(1 << 40)
		for n := 1; n <= 4; n++ {
			ask := append(slices.Clone(ids[:n]), absent)
			got, err := s.summariesByID(ctx, ask)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != n {
				t.Fatalf("summariesByID(%v): %d summaries, want %d", ask, len(got), n)
			}
			for _, id := range ids[:n] {
				if got[id].Slug == "" {
					t.Fatalf("summariesByID(%v): no summary of %d: %+v", ask, id, got)
				}
			}
			if err := s.reindex(ctx, ask); err != nil {
				t.Fatal(err)
			}
		}
		if engine != "postgres" {
			return
		}
		for _, c := range []struct{ what, like string }{
			{"summaries", summaryByIDQuery(`l.id = ANY(`) + `%`},
			{"reindexed listings", `%l.short_description, l.features FROM listings l WHERE%`},
			{"reindexed category links", `SELECT listing_id, category_id, is_primary FROM listing_categories WHERE%`},
		} {
			var n int
			if err := db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_prepared_statements WHERE statement LIKE ?`, c.like).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Errorf("%s: %d statements prepared on the connection for 1 to 4 ids, want 1", c.what, n)
			}
		}
	})
}
