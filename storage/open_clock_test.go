package storage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage"
)

// TestOpen_ClockRequired: storage.Open refuses a database without a clock
// (WithClock missing or nil), as domain.NewService does, and creates
// nothing; with one it opens. Before, a missing clock was the wall clock.
func TestOpen_ClockRequired(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(dir, "launchdir.db")
	for name, opts := range map[string][]storage.Option{
		"no clock":  nil,
		"nil clock": {storage.WithClock(nil), storage.WithMaxConns(2)},
	} {
		db, err := storage.Open(path, opts...)
		if err == nil {
			db.Close()
			t.Fatalf("%s: opened, want refused", name)
		}
		if !strings.Contains(err.Error(), "WithClock") {
			t.Errorf("%s: %v, want it to name WithClock", name, err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatalf("%s: the refused open created %s (%v)", name, dir, err)
		}
	}
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	db, err := storage.Open(path, storage.WithClock(func() time.Time { return at }))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.Now().Equal(at) {
		t.Errorf("Now %s, want the given clock's %s", db.Now(), at)
	}
}
