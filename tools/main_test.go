package tools

import (
	"os"
	"testing"

	"github.com/launchdir/launchdir/storage/pgtest"
)

// TestMain stops the throwaway PostgreSQL cluster (started on first use by
// the tests that run on both engines) when the binary ends.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
