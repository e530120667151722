package testtier

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSelect reads testdata/selectpkg, a package with one test of each kind
// the selection tells apart, and checks which the e2e tier runs.
func TestSelect(t *testing.T) {
	s, err := Select("testdata/selectpkg")
	if err != nil {
		t.Fatal(err)
	}
	want := &Selection{
		Tagged: []string{"BenchmarkTagged", "TestTagged"},
		Reaching: []string{
			"TestEngineTable",     // a loop over a list holding "postgres"
			"TestHelperReachesPG", // through a helper of the package
			"TestMeasureHelper",   // SkipRace through a helper of the package
			"TestMethodReachesPG", // through a method
			"TestSkipsByTier",     // calls Skip
			"TestSkipsUnderRace",  // calls SkipRace: runs without the race detector in the e2e tier
			"TestThroughFixtures", // through a helper package (testdata/selectpkg/helper)
			"TestVarReachesPG",    // through a package-level function value
		},
		Default: []string{
			"ExampleDefault",
			"FuzzDefault",
			"TestHelperOnSQLite", // the helper that can reach PostgreSQL, called with "sqlite"
			"TestPlain",
			"TestSharesNamesWithTagged",   // a local "in" and a method "show" as the tagged file has
			"TestThroughFixturesMaxConns", // a helper that reads pgtest.MaxConns (an environment variable) for a SQLite file
			"TestThroughFixturesSQLite",
		},
	}
	for _, c := range []struct {
		name      string
		got, want []string
	}{{"Tagged", s.Tagged, want.Tagged}, {"Reaching", s.Reaching, want.Reaching}, {"Default", s.Default, want.Default}} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if p := s.Pattern(); !strings.HasPrefix(p, "^(BenchmarkTagged|TestEngineTable|") || !strings.HasSuffix(p, ")$") {
		t.Errorf("Pattern() = %q", p)
	}
	if p := (&Selection{Default: []string{"TestX"}}).Pattern(); p != "^$" {
		t.Errorf("the pattern of an empty selection = %q, want ^$ (no test)", p)
	}
}

// TestSelect_Module reads every package of the module and logs how many
// top-level tests each tier runs (the counts in docs/testing.md: go test
// -v -run TestSelect_Module ./internal/testtier). Every test of a file
// built only with the tag is selected, and so is every default-tier test
// named in knownReaching (tests with PostgreSQL subtests).
func TestSelect_Module(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", Tag, "-f", "{{.Dir}}", "github.com/launchdir/launchdir/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	root, _ := moduleRoot(".")
	var tagged, reaching, def, rerun int
	for _, dir := range strings.Fields(string(out)) {
		s, err := Select(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		rel, _ := filepath.Rel(root, dir)
		decls, _ := parseDir(dir, true, false)
		note := ""
		if decls["TestMain"] == nil && len(s.Default) > 0 {
			// Without a TestMain (testtier.Main or pgtest.Main) nothing
			// selects: the e2e tier runs the default tier's tests again.
			note = fmt.Sprintf("; no TestMain: the e2e tier runs all %d", len(s.Default)+len(s.Tagged)+len(s.Reaching))
			rerun += len(s.Default)
		}
		if n := len(s.Tagged) + len(s.Reaching) + len(s.Default); n > 0 {
			t.Logf("%-18s e2e tier %3d (tagged %2d, reaching %3d), default only %3d%s", rel, len(s.Tagged)+len(s.Reaching), len(s.Tagged), len(s.Reaching), len(s.Default), note)
		}
		tagged, reaching, def = tagged+len(s.Tagged), reaching+len(s.Reaching), def+len(s.Default)
		for _, name := range knownReaching[rel] {
			if !s.Runs(name) {
				t.Errorf("%s: %s has PostgreSQL subtests but is not selected", rel, name)
			}
		}
	}
	t.Logf("all: e2e tier %d (tagged %d, reaching %d) + %d again in packages without a TestMain; default tier %d (= default only %d + reaching %d)",
		tagged+reaching, tagged, reaching, rerun, def+reaching, def, reaching)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
}

// knownReaching are default-tier tests with PostgreSQL parts, one or two
// per way of reaching it.
var knownReaching = map[string][]string{
	"storage":          {"TestReviews_HoldingRules", "TestExportAccount_SameOnBothEngines", "TestMapErr"},
	"domain":           {"TestService_ClaimListing", "TestWeekClock_KilledAcrossMonday"},
	"web":              {"TestCheckout_TestProvider", "TestNotifications_AwardNotice", "TestCategories_Merge"},
	"cmd/launchdir":    {"TestMigrate_Postgres", "TestAdmin_TeamCommands"},
	"storage/fixtures": {"TestOpenOn_SeededCopiesAreIndependent"},
}
