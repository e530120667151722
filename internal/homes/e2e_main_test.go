//go:build e2e

package homes

import (
	"os"
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
)

// TestMain limits the e2e tier to what the tag adds (internal/testtier):
// the guards read source only, so they do not run again there.
func TestMain(m *testing.M) { os.Exit(testtier.Main(m)) }
