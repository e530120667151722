package storage

import (
	"context"
	"database/sql"
	"testing"
)

// TestBeginSeed_JournalInMemoryForTheSeedOnly: the seed's transaction runs
// with temp_store=MEMORY (2), and the connection goes back to the pool with
// the default (0), so other transactions' large sorts still spill to a file.
func TestBeginSeed_JournalInMemoryForTheSeedOnly(t *testing.T) {
	t.Parallel()
	db := openEngine(t, "sqlite")
	db.sql.SetMaxOpenConns(1) // the pool's one connection is the seed's
	ctx := context.Background()
	tempStore := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) int {
		t.Helper()
		var n int
		if err := q.QueryRowContext(ctx, `PRAGMA temp_store`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := tempStore(db.sql); got != 0 {
		t.Fatalf("temp_store before the seed = %d, want 0", got)
	}
	tx, release, err := db.beginSeed(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := tempStore(tx); got != 2 {
		t.Errorf("temp_store in the seed's transaction = %d, want 2 (memory)", got)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	release()
	if got := tempStore(db.sql); got != 0 {
		t.Errorf("temp_store after the seed = %d, want 0 (the default)", got)
	}
}
