// Package tierpkg is run by TestTiers_GoTest with the real go test: one test
// of each kind the e2e tier tells apart.
package tierpkg

import (
	"os"
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
	"github.com/launchdir/launchdir/storage/pgtest"
)

func TestMain(m *testing.M) { os.Exit(testtier.Main(m)) }

// onEngines is an engine table like fixtures.OnEngines; the postgres part
// only logs (no cluster is started) but reaches testtier.Skip as the real
// one does through pgtest.Shared.
func onEngines(t *testing.T) {
	for _, e := range []string{"sqlite", "postgres"} {
		t.Run(e, func(t *testing.T) {
			if e == "sqlite" {
				testtier.SkipRanInProcess(t, e)
			} else {
				testtier.Skip(t, "PostgreSQL")
			}
			t.Logf("ran %s", e)
		})
	}
}

func TestPlain(t *testing.T) { t.Log("ran plain") }

func TestEngines(t *testing.T) { onEngines(t) }

// hidden reaches Skip by a path the selection cannot see (a function value
// put in a map at run time).
var hidden = map[string]func(t *testing.T){}

func init() {
	hidden["pg"] = func(t *testing.T) { t.Log(pgtest.SkipEnv); testtier.Skip(t, "PostgreSQL") }
}

func TestHidden(t *testing.T) { hidden["pg"](t) }
