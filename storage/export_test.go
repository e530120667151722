package storage

import (
	"context"
	"testing"
)

// HoldConn takes one connection of db's pool and keeps it, in an open
// transaction, until the returned release is called (or the test ends):
// with WithMaxConns(1) every other call then waits for the pool. For the
// external tests of the pool bound (pool_deadline_e2e_test.go).
func HoldConn(t testing.TB, db *DB) (release func()) {
	t.Helper()
	tx, err := db.sql.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatalf("HoldConn: %v", err)
	}
	done := false
	release = func() {
		if !done {
			done = true
			tx.Rollback()
		}
	}
	t.Cleanup(release)
	return release
}

// DropIdleConns closes the idle connections of db's pool (the ones its
// migrations left), so that the next call must open a new one.
func DropIdleConns(db *DB) {
	db.sql.SetMaxIdleConns(0)
	db.sql.SetMaxIdleConns(postgresIdleConns)
}
