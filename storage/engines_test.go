package storage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/launchdir/launchdir/storage/pgtest"
)

// The PostgreSQL tests share one throwaway cluster per test binary (see
// storage/pgtest), stopped here when the tests end.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// testEngines are the engines the store contract tests run on.
var testEngines = []string{"sqlite", "postgres"}

// openEngine opens a fresh, migrated database on engine: a SQLite file in
// t's temporary directory, or a new database in the shared PostgreSQL
// cluster (skipped when LAUNCHDIR_SKIP_POSTGRES=1).
func openEngine(t testing.TB, engine string, opts ...Option) *DB {
	t.Helper()
	var path string
	switch engine {
	case "sqlite":
		path = filepath.Join(t.TempDir(), "launchdir.db")
	case "postgres":
		path = pgtest.Database(t)
	default:
		t.Fatalf("unknown engine %q", engine)
	}
	db, err := Open(path, opts...)
	if err != nil {
		t.Fatalf("open %s: %v", engine, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// onEngines runs f as a subtest on each engine.
func onEngines(t *testing.T, f func(t *testing.T, engine string)) {
	t.Helper()
	for _, e := range testEngines {
		t.Run(e, func(t *testing.T) { f(t, e) })
	}
}
