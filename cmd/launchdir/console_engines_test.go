package main

import (
	"path/filepath"
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// consoleData names the database of a console test on engine: the flags
// for the admin and serve commands (--data dir, and on "postgres" --database
// with a fresh database of the test binary's throwaway cluster) and the
// path storage.Open takes to read it back.
func consoleData(t *testing.T, engine string) (flags []string, path string) {
	t.Helper()
	dir := t.TempDir()
	switch engine {
	case "sqlite":
		return []string{"--data", dir}, filepath.Join(dir, "launchdir.db")
	case "postgres":
		url := fixtures.MigratedPostgres(t)
		return []string{"--data", dir, "--database", url}, url
	}
	t.Fatalf("unknown engine %q", engine)
	return nil, ""
}
