package auth_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage"
)

// migratedFile returns the path of a new SQLite file in t.TempDir() that
// holds every migration: a copy of a database migrated once per test binary
// (storage.Open migrating a new file took 0.57 s, a copy and its Open 0.11 s,
// side by side at load 30; docs/testing.md). storage/fixtures.MigratedFile
// does the same; it is not imported here because it links the drafter and
// the crawler into this binary.
func migratedFile(t *testing.T) string {
	t.Helper()
	migratedOnce.Do(func() { migratedBytes, migratedErr = buildMigrated() })
	if migratedErr != nil {
		t.Fatalf("migrated template: %v", migratedErr)
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

// buildMigrated migrates a new file and reads it back after the close
// (SQLite checkpoints its WAL into the file on the last close).
func buildMigrated() ([]byte, error) {
	dir, err := os.MkdirTemp("", "launchdir-auth-migrated-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "launchdir.db")
	db, err := storage.Open(path, storage.WithClock(time.Now))
	if err != nil {
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		return nil, fmt.Errorf("%s-wal remains after the close: the copy would lack its pages", path)
	}
	return os.ReadFile(path)
}
