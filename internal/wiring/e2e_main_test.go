//go:build e2e

package wiring

import (
	"os"
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// TestMain limits the e2e tier to what the tag adds (internal/testtier):
// this package has no outside-program tests, so its tests, which ran in the
// in-process tier, do not run again there.
func TestMain(m *testing.M) { os.Exit(testtier.Main(m)) }
