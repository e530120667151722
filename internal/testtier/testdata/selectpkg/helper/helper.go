// Package helper stands for storage/fixtures in TestSelect: a test helper
// package that reaches PostgreSQL through storage/pgtest.
package helper

import (
	"testing"

	"github.com/launchdir/launchdir/storage/pgtest"
)

// OpenOn opens a database on engine.
func OpenOn(t *testing.T, engine string) string {
	if engine == "postgres" {
		return pgtest.Database(t)
	}
	return t.TempDir()
}

// Plain reaches nothing.
func Plain() int { return 1 }

// OpenFile opens a SQLite file with the pool bound the harnesses read, as
// storage/fixtures' Open does: pgtest.MaxConns reads an environment
// variable and reaches no outside program.
func OpenFile(t *testing.T) (string, int) { return t.TempDir(), pgtest.MaxConns() }
