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

// TestTiers_GoTest builds testdata/tierpkg with the real go test, once per
// tier (go test -c, with and without the tag), and runs the two binaries in
// the package's directory as go test does: the e2e tier runs the test of the
// tagged file (all its parts) and the engine table's postgres part, not the
// plain test nor the sqlite part that ran in the default tier; AllEnv runs
// everything; and in the default tier a test that reaches Skip by a path the
// selection cannot see fails, naming the selection, instead of skipping its
// outside part in both tiers.
func TestTiers_GoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs testdata/tierpkg with go test")
	}
	t.Parallel()
	dir := t.TempDir()
	build := func(name string, args ...string) string {
		exe := filepath.Join(dir, name)
		cmd := exec.Command("go", append(append([]string{"test", "-c", "-o", exe}, args...), "./testdata/tierpkg")...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go test -c %q: %v\n%s", args, err, out)
		}
		return exe
	}
	e2e, def := build("e2e.test", "-tags", Tag), build("default.test")
	// run runs a binary as go test -count=1 -v does; passed is its exit status.
	run := func(exe string, env []string, args ...string) (out string, passed bool) {
		cmd := exec.Command(exe, append([]string{"-test.count=1", "-test.v=true"}, args...)...)
		cmd.Dir = filepath.Join("testdata", "tierpkg")
		cmd.Env = append(os.Environ(), env...)
		b, err := cmd.CombinedOutput()
		return string(b), err == nil
	}
	check := func(name string, out string, passed, wantPass bool, want, notWant []string) {
		t.Helper()
		if passed != wantPass {
			t.Errorf("%s: passed %v, want %v:\n%s", name, passed, wantPass, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%s", name, w, out)
			}
		}
		for _, w := range notWant {
			if strings.Contains(out, w) {
				t.Errorf("%s: output has %q:\n%s", name, w, out)
			}
		}
	}
	out, passed := run(e2e, []string{AllEnv + "="})
	check("e2e tier", out, passed, true,
		[]string{"--- PASS: TestTagged/sqlite", "ran tagged sqlite", "--- PASS: TestTagged/postgres",
			"--- SKIP: TestEngines/sqlite", "--- PASS: TestEngines/postgres", "ran postgres",
			"e2e tier: 2 of 4 top-level tests", "\nPASS\n"},
		[]string{"=== RUN   TestPlain", "=== RUN   TestHidden", "ran plain", "--- PASS: TestEngines/sqlite"})
	out, passed = run(e2e, []string{AllEnv + "=1"})
	check("e2e tier, "+AllEnv+"=1", out, passed, true,
		[]string{"ran plain", "--- PASS: TestEngines/sqlite", "--- PASS: TestTagged", "\nPASS\n"}, nil)
	out, passed = run(def, nil, "-test.run", "^(TestPlain|TestEngines)$")
	check("default tier", out, passed, true,
		[]string{"ran plain", "--- PASS: TestEngines/sqlite", "--- SKIP: TestEngines/postgres", "\nPASS\n"},
		[]string{"TestTagged"})
	out, passed = run(def, nil, "-test.run", "^TestHidden$")
	check("default tier, a test the selection misses", out, passed, false,
		[]string{"--- FAIL: TestHidden", "TestHidden reaches PostgreSQL, which runs in the e2e tier, but the e2e tier does not select it"},
		[]string{"\nPASS\n"})
}
