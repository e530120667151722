package storage

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// migratedSQLite returns the path of a new SQLite file in t's temporary
// directory that already holds every migration: a copy of a database
// migrated once per test binary (VACUUM INTO, one file without a WAL).
// Open on it finds nothing to apply: a copy and Open took 0.11 s against
// 0.57 s for Open migrating a new file, measured side by side at load
// average 30 (docs/testing.md). The migrations themselves are tested by
// the tests that Open a new path (TestOpen_MigrationsApplyTwice, the
// snapshot's MigratedAfter, TestMigrate_*).
func migratedSQLite(t testing.TB) string {
	t.Helper()
	migratedOnce.Do(func() { migratedBytes, migratedErr = buildMigratedSQLite() })
	if migratedErr != nil {
		t.Fatalf("migrated SQLite template: %v", migratedErr)
	}
	path := filepath.Join(t.TempDir(), "launchdir.db")
	if err := os.WriteFile(path, migratedBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	migratedOnce  sync.Once
	migratedBytes []byte
	migratedErr   error
)

// buildMigratedSQLite migrates a new database and returns the bytes of its
// VACUUM INTO copy (a few hundred KB, kept in memory for the binary).
func buildMigratedSQLite() ([]byte, error) {
	dir, err := os.MkdirTemp("", "launchdir-storage-migrated-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	db, err := Open(filepath.Join(dir, "migrating.db"), WithClock(time.Now))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	tpl := filepath.Join(dir, "migrated.db")
	if _, err := db.sql.Exec(`VACUUM INTO ?`, tpl); err != nil {
		return nil, err
	}
	return os.ReadFile(tpl)
}
