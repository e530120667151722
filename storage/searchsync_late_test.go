package storage

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/launchdir/launchdir/domain"
)

// lateCommit opens two transactions on db that change listings early and
// late: early takes its search_log seq first but is left open; late takes
// the next seq and commits. It returns early, to be committed by the test
// after the poller has read past late's seq.
func lateCommit(t *testing.T, db *DB, early, late string) *Tx {
	t.Helper()
	ctx := context.Background()
	rc := &sql.TxOptions{Isolation: sql.LevelReadCommitted}
	tx1, err := db.sql.BeginTx(ctx, rc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx1.Rollback() })
	if _, err := tx1.ExecContext(ctx, `UPDATE listings SET tagline = ? WHERE slug = ?`, early, "jotter"); err != nil {
		t.Fatal(err)
	}
	tx2, err := db.sql.BeginTx(ctx, rc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx2.ExecContext(ctx, `UPDATE listings SET tagline = ? WHERE slug = ?`, late, "sketchy"); err != nil {
		t.Fatal(err)
	}
	if err := tx2.Commit(); err != nil {
		t.Fatal(err)
	}
	return tx1
}

// TestStore_SearchLogLateCommit: on PostgreSQL search_log.seq comes from a
// sequence, so a transaction holding a lower seq can commit after the poller
// (or the index build) has read a higher one. The index must still see its
// change. SQLite serialises writers, so its seqs commit in order.
func TestStore_SearchLogLateCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	search := func(t *testing.T, st *Store, q string) []string {
		t.Helper()
		items, _, err := st.SearchListings(ctx, domain.ListingQuery{Q: q, Limit: 20})
		if err != nil {
			t.Fatal(err)
		}
		return slugs(items)
	}
	t.Run("poll", func(t *testing.T) {
		t.Parallel()
		db, st, _ := newFixtureOn(t, "postgres", WithMaxConns(0))
		st.PollInterval = time.Hour
		tx1 := lateCommit(t, db, "Quantum jots", "Zebra sketches")
		if err := st.Refresh(ctx); err != nil { // reads the later seq, not the open one
			t.Fatal(err)
		}
		if got := search(t, st, "zebra"); cmp.Diff([]string{"sketchy"}, got) != "" {
			t.Fatalf("committed change not applied: %v", got)
		}
		if err := tx1.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := st.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if got := search(t, st, "quantum"); cmp.Diff([]string{"jotter"}, got) != "" {
			t.Errorf("change committed late (lower seq) never reached the index: %v", got)
		}
	})
	t.Run("build", func(t *testing.T) {
		t.Parallel()
		db, _, _ := newFixtureOn(t, "postgres", WithMaxConns(0))
		tx1 := lateCommit(t, db, "Quantum jots", "Zebra sketches")
		st, err := NewStore(ctx, db, fxSite) // the index is built at the later seq
		if err != nil {
			t.Fatal(err)
		}
		st.PollInterval = time.Hour
		if err := tx1.Commit(); err != nil {
			t.Fatal(err)
		}
		if err := st.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if got := search(t, st, "quantum"); cmp.Diff([]string{"jotter"}, got) != "" {
			t.Errorf("change committed after the build (lower seq) never reached the index: %v", got)
		}
	})
}

// TestStore_SearchLogRolledBack: a seq taken by a transaction that rolled
// back never appears; poll looks for it until gapWait has passed, then
// forgets it.
func TestStore_SearchLogRolledBack(t *testing.T) {
	t.Parallel()
	db, st, _ := newFixtureOn(t, "postgres", WithMaxConns(0))
	ctx := context.Background()
	st.PollInterval = time.Hour
	tx1 := lateCommit(t, db, "Quantum jots", "Zebra sketches")
	if err := st.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tx1.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := st.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if len(st.gaps) != 1 {
		t.Fatalf("gaps after a rolled-back seq = %v, want the one seq looked for", st.gaps)
	}
	for g := range st.gaps {
		st.gaps[g] = time.Now().Add(-gapWait - time.Second)
	}
	if err := st.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if len(st.gaps) != 0 {
		t.Errorf("gaps older than gapWait = %v, want none", st.gaps)
	}
}
