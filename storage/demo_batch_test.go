package storage

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain/demo"
)

// TestWriteViewsPG_OwnerOrNot: on PostgreSQL the demo's views are written
// with the views_count_ins trigger disabled when the seeding role owns the
// views table, and through the trigger when it does not (it may not disable
// it); either way each listing gets its views, views_count grows by them,
// search_log gets one row of the listing per view in order, and the trigger
// is enabled afterwards.
func TestWriteViewsPG_OwnerOrNot(t *testing.T) {
	t.Parallel()
	for _, asOwner := range []bool{true, false} {
		name := "owner"
		if !asOwner {
			name = "not_owner"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := openEngine(t, "postgres")
			if err := SeedSynthetic(ctx, db, demoSite, 3, demoNow); err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, s := range queryStrings(t, db, `SELECT CAST(id AS TEXT) FROM listings ORDER BY id`) {
				id, _ := strconv.ParseInt(s, 10, 64)
				ids = append(ids, id)
			}
			count := func(id int64) int {
				return queryInt(t, db, `SELECT views_count FROM listings WHERE id = ?`, id)
			}
			before := []int{count(ids[0]), count(ids[1]), count(ids[2])}
			lastSeq := queryInt(t, db, `SELECT COALESCE(MAX(seq), 0) FROM search_log`)

			tx, err := db.sql.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if !asOwner {
				// Roles are the cluster's: a fresh name per run; the test
				// binary's cluster is removed when it ends.
				role := fmt.Sprintf("seeder_%d", time.Now().UnixNano())
				for _, q := range []string{`CREATE ROLE ` + role, `GRANT ALL ON ALL TABLES IN SCHEMA public TO ` + role,
					`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO ` + role, `SET LOCAL ROLE ` + role} {
					if _, err := tx.ExecContext(ctx, q); err != nil {
						t.Fatalf("%s: %v", q, err)
					}
				}
			}
			launched := demoNow.Add(-72 * time.Hour)
			d := &demo.Dataset{Now: demoNow, Listings: []*demo.Listing{
				{Index: 0, LaunchedAt: launched, Views: 40},
				{Index: 1, Views: 5}, // not launched: no views
				{Index: 2, LaunchedAt: launched, Views: 1},
			}}
			w := &demoWriter{ctx: ctx, db: db, tx: tx, ids: ids[:3]}
			w.writeViewsPG(d)
			w.flush()
			if w.err != nil {
				t.Fatalf("writeViewsPG: %v", w.err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}

			for i, want := range []int{40, 0, 1} {
				if got := queryInt(t, db, `SELECT COUNT(*) FROM views WHERE listing_id = ?`, ids[i]); got != want {
					t.Errorf("listing %d: %d views, want %d", i, got, want)
				}
				if got := count(ids[i]) - before[i]; got != want {
					t.Errorf("listing %d: views_count grew by %d, want %d", i, got, want)
				}
			}
			var want []string
			for range 40 {
				want = append(want, strconv.FormatInt(ids[0], 10))
			}
			want = append(want, strconv.FormatInt(ids[2], 10))
			if got := queryStrings(t, db, `SELECT CAST(listing_id AS TEXT) FROM search_log WHERE seq > ? ORDER BY seq`, lastSeq); !slices.Equal(got, want) {
				t.Errorf("search_log after the views: %v, want %v", got, want)
			}
			if got := queryStrings(t, db, `SELECT CAST(tgenabled AS TEXT) FROM pg_trigger WHERE tgname = 'views_count_ins'`); !slices.Equal(got, []string{"O"}) {
				t.Errorf("views_count_ins enabled = %v, want [O] (enabled)", got)
			}
		})
	}
}
