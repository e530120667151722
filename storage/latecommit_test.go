package storage

import (
	"context"
	"database/sql"
	"testing"
	"time"
)

// TestStore_CountsAfterLateCommit: on PostgreSQL a transaction takes its
// search_log seq when it writes and may commit after a later one. Here a
// listing goes live in a transaction left open while another goes live and
// commits; the site's counts (cached at the latest seq) and the category
// counts are read; then the first transaction commits. The latest seq is
// unchanged, yet both counts must show the late listing within lateCommits.
// Before, they kept the old numbers until the next write.
func TestStore_CountsAfterLateCommit(t *testing.T) {
	t.Parallel()
	// Two transactions open at once on purpose: unbounded even when the
	// harness caps the pool (LAUNCHDIR_TEST_DB_MAX_CONNS=1).
	db, st, _ := newFixtureOn(t, "postgres", WithMaxConns(0))
	st.lateCommits = 200 * time.Millisecond
	// Only the seq rule is tested: a count that took long may be reused
	// although the directory changed (the cost rule), and under load any
	// count takes long (below, they are made to look slow).
	st.countRule, st.catRule = costRule{}, costRule{}
	ctx := context.Background()
	p := newCountsProbe(t, db, st)
	live0, cat0 := p.counts()
	// As on a loaded machine: the counts just taken look slow to compute.
	p.slow()

	late, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer late.Rollback()
	p.goLive(late, "late-commit")
	early, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.goLive(early, "early-commit")
	if err := early.Commit(); err != nil {
		t.Fatal(err)
	}
	if live, inCat := p.counts(); live != live0+1 || inCat != cat0+1 {
		t.Fatalf("after one listing went live: %d live, %d in the category; want %d and %d", live, inCat, live0+1, cat0+1)
	}
	if err := late.Commit(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		live, inCat := p.counts()
		if live == live0+2 && inCat == cat0+2 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s after the late commit: %d live, %d in the category; want %d and %d", live, inCat, live0+2, cat0+2)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBeginTx_ReadOnlySnapshot: a read-only transaction (AdminListing's: the
// listing's current values and its version history) reads one snapshot on
// PostgreSQL, whose default READ COMMITTED takes a new one per statement: a
// version stored between its two reads would show in the history but not
// in the values. It is REPEATABLE READ; a read-write one stays SERIALIZABLE.
func TestBeginTx_ReadOnlySnapshot(t *testing.T) {
	t.Parallel()
	db := openEngine(t, "postgres")
	ctx := context.Background()
	for _, c := range []struct {
		opts *sql.TxOptions
		want string
	}{
		{&sql.TxOptions{ReadOnly: true}, "repeatable read"},
		{nil, "serializable"},
		{&sql.TxOptions{ReadOnly: true, Isolation: sql.LevelSerializable}, "serializable"},
	} {
		tx, err := db.sql.BeginTx(ctx, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := tx.QueryRowContext(ctx, `SHOW transaction_isolation`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		tx.Rollback()
		if got != c.want {
			t.Errorf("BeginTx(%+v): isolation %q, want %q", c.opts, got, c.want)
		}
	}
}
