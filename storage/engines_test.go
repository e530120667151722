package storage

import (
	"os"
	"testing"
	"time"

	"github.com/launchdir/launchdir/internal/testtier"
	"github.com/launchdir/launchdir/storage/pgtest"
)

// The PostgreSQL tests share one throwaway cluster per test binary (see
// storage/pgtest), stopped here when the tests end.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// testEngines are the engines the store contract tests run on.
var testEngines = []string{"sqlite", "postgres"}

// openEngine opens a fresh, migrated database on engine: a SQLite file in
// t's temporary directory, copied from a file migrated once per test binary
// (migratedSQLite), or a new database in the shared PostgreSQL
// cluster (skipped when LAUNCHDIR_SKIP_POSTGRES=1), copied from a template
// migrated once per test binary (migratedPostgres).
func openEngine(t testing.TB, engine string, opts ...Option) *DB {
	t.Helper()
	var path string
	switch engine {
	case "sqlite":
		path = migratedSQLite(t)
	case "postgres":
		path = migratedPostgres(t)
	default:
		t.Fatalf("unknown engine %q", engine)
	}
	if n := pgtest.MaxConns(); n > 0 {
		opts = append([]Option{WithMaxConns(n)}, opts...)
	}
	// The wall clock unless opts name another (the last WithClock wins).
	db, err := Open(path, append([]Option{WithClock(time.Now)}, opts...)...)
	if err != nil {
		t.Fatalf("open %s: %v", engine, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// onEngines runs f as a subtest on each engine (in the e2e tier the sqlite
// one skips: it ran in the in-process tier, testtier.SkipRanInProcess).
func onEngines(t *testing.T, f func(t *testing.T, engine string)) {
	t.Helper()
	for _, e := range testEngines {
		t.Run(e, func(t *testing.T) {
			if e == "sqlite" {
				testtier.SkipRanInProcess(t, e)
			}
			f(t, e)
		})
	}
}

// onBothEngines is onEngines for a test that compares what the engines
// give: its sqlite part runs in the e2e tier too, as the reference the
// postgres part is compared with.
func onBothEngines(t *testing.T, f func(t *testing.T, engine string)) {
	t.Helper()
	for _, e := range testEngines {
		t.Run(e, func(t *testing.T) { f(t, e) })
	}
}

// migratedPostgres returns the URL of a fresh PostgreSQL database that holds
// every migration: a copy (CREATE DATABASE ... TEMPLATE ... STRATEGY
// FILE_COPY) of a database migrated once per test binary, instead of the 22
// migrations on an empty database per test (0.1-1.4 s against 1-4 s at load
// average 15-18, docs/testing.md). Open on the copy finds them all applied. The key is the one storage/fixtures.MigratedPostgres uses, with the
// same build, so the storage binary's internal and external tests share it.
// Tests of migrating an empty database use pgtest.Database.
func migratedPostgres(t testing.TB) string {
	t.Helper()
	return pgtest.DatabaseFrom(t, "storage.migrated", func(url string) error {
		db, err := Open(url, WithClock(time.Now))
		if err != nil {
			return err
		}
		return db.Close()
	})
}
