package storage

import (
	"context"
	"math"
	"testing"
)

// TestSeedSynthetic_VoteRows: the synthetic seed writes each listing's
// counted votes as rows, as many as its votes_count, with the trending
// score recomputeTrending gives from them; the counting trigger works
// again after the seed (a vote cast then is counted once); on PostgreSQL
// the votes table is analysed, so the planner reads a listing's votes by
// index rather than scanning a table it believes empty.
func TestSeedSynthetic_VoteRows(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		t.Parallel()
		db := openEngine(t, engine)
		ctx := context.Background()
		if err := SeedSynthetic(ctx, db, demoSite, 300, demoNow); err != nil {
			t.Fatal(err)
		}
		total := queryInt(t, db, `SELECT COUNT(*) FROM votes`)
		if want := queryInt(t, db, `SELECT SUM(votes_count) FROM listings`); total != want || total < 300 {
			t.Fatalf("vote rows = %d, want the sum of votes_count, %d (and more than one a listing)", total, want)
		}
		if n := queryInt(t, db, `SELECT COUNT(*) FROM listings l WHERE votes_count <>
			(SELECT COUNT(*) FROM votes v WHERE v.listing_id = l.id AND v.status = 'counted')`); n != 0 {
			t.Errorf("%d listings have a votes_count other than their counted vote rows", n)
		}
		if n := queryInt(t, db, `SELECT COUNT(*) FROM votes WHERE created_at < (SELECT launched_at FROM listings l WHERE l.id = listing_id) OR created_at > ?`, demoNow.Unix()); n != 0 {
			t.Errorf("%d votes before their listing's launch or after now", n)
		}
		// The trending scores are those the store computes from the rows.
		rows, err := db.sql.Query(`SELECT id, trending_score FROM listings WHERE votes_count > 0 ORDER BY id LIMIT 20`)
		if err != nil {
			t.Fatal(err)
		}
		seeded := map[int64]float64{}
		for rows.Next() {
			var id int64
			var score float64
			if err := rows.Scan(&id, &score); err != nil {
				t.Fatal(err)
			}
			seeded[id] = score
		}
		rows.Close()
		tx, err := db.sql.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		for id, score := range seeded {
			if err := recomputeTrending(ctx, tx, id); err != nil {
				t.Fatal(err)
			}
			var again float64
			if err := tx.QueryRowContext(ctx, `SELECT trending_score FROM listings WHERE id = ?`, id).Scan(&again); err != nil {
				t.Fatal(err)
			}
			if math.Abs(again-score) > 1e-9 {
				t.Errorf("listing %d: seeded trending_score %v, recomputed from its votes %v", id, score, again)
			}
		}
		tx.Rollback()
		// The trigger is back: a vote now is counted once.
		var id int64
		var before int
		if err := db.sql.QueryRow(`SELECT id, votes_count FROM listings ORDER BY id LIMIT 1`).Scan(&id, &before); err != nil {
			t.Fatal(err)
		}
		st, err := NewStore(ctx, db, demoSite)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.RecordVote(ctx, id, "someone", demoNow); err != nil {
			t.Fatal(err)
		}
		if after := queryInt(t, db, `SELECT votes_count FROM listings WHERE id = ?`, id); after != before+1 {
			t.Errorf("votes_count after one more vote = %d, want %d", after, before+1)
		}
		if engine == "postgres" {
			if n := queryInt(t, db, `SELECT COUNT(*) FROM pg_stat_user_tables WHERE relname = 'votes' AND last_analyze IS NOT NULL`); n != 1 {
				t.Errorf("votes not analysed after the seed")
			}
		}
	})
}
