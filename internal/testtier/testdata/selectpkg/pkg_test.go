package selectpkg

import (
	"fmt"
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
	"github.com/launchdir/launchdir/internal/testtier/testdata/selectpkg/helper"
	"github.com/launchdir/launchdir/storage/pgtest"
)

var engines = []string{"sqlite", "postgres"}

func openOn(t *testing.T, engine string) string {
	if engine == "postgres" {
		return pgtest.Database(t)
	}
	return t.TempDir()
}

func open(t *testing.T) string { return openOn(t, "sqlite") }

type env struct{}

func (env) pg(t *testing.T) string { return pgtest.Database(t) }

var openPG = func(t *testing.T) string { return pgtest.Database(t) }

func TestPlain(t *testing.T) { _ = Add(1, 2) + helper.Plain() }

func TestEngineTable(t *testing.T) {
	for _, e := range engines {
		t.Run(e, func(t *testing.T) { _ = e })
	}
}

func TestHelperReachesPG(t *testing.T) { _ = openOn(t, engineFor(t)) }

func engineFor(*testing.T) string { return "x" }

func TestHelperOnSQLite(t *testing.T) { _ = open(t) }

func TestMethodReachesPG(t *testing.T) { _ = env{}.pg(t) }

func TestVarReachesPG(t *testing.T) { _ = openPG(t) }

func TestSkipsByTier(t *testing.T) { testtier.Skip(t, "Chromium") }

func TestThroughFixtures(t *testing.T) { _ = helper.OpenOn(t, engineFor(t)) }

func TestThroughFixturesSQLite(t *testing.T) { _ = helper.OpenOn(t, "sqlite") }

func TestThroughFixturesMaxConns(t *testing.T) { _, _ = helper.OpenFile(t) }

func FuzzDefault(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }

func ExampleDefault() { fmt.Println(Add(1, 2)) }

func TestSkipsUnderRace(t *testing.T) { testtier.SkipRace(t, "a measurement") }

func TestMeasureHelper(t *testing.T) { measure(t) }

func measure(t *testing.T) { testtier.SkipRace(t, "a measurement") }

type row struct{}

func (row) show() string { return "" }

func TestSharesNamesWithTagged(t *testing.T) {
	in := row{}.show()
	_ = in
}
