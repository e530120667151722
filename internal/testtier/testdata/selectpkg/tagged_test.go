//go:build e2e

package selectpkg

import (
	"testing"

	"github.com/launchdir/launchdir/storage/pgtest"
)

func TestTagged(t *testing.T) {}

func BenchmarkTagged(b *testing.B) {}

func helperTagged() {}

// in and show reach PostgreSQL in the tagged file only; default-tier code
// that has a local variable in or a method show of its own does not reach.
func in(t *testing.T) string { return pgtest.Database(t) }

type page struct{}

func (page) show(t *testing.T) string { return pgtest.Database(t) }
