package testtier

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// AllEnv, set to "1", makes the e2e tier run every test of the binary, the
// default tier's too (without the race detector), as before the tiers were
// split: `LAUNCHDIR_E2E_ALL=1 go test -tags e2e ./...`.
const AllEnv = "LAUNCHDIR_E2E_ALL"

var (
	selOnce sync.Once
	sel     *Selection
	selErr  error
)

// selection is Select of the test binary's package: go test runs a test
// binary in its package's directory. Nil when the source cannot be read (a
// binary copied elsewhere): then the e2e tier runs everything and the
// default tier's check in Skip is off.
func selection() *Selection {
	selOnce.Do(func() { sel, selErr = Select(".") })
	return sel
}

// selecting reports whether this binary runs only the e2e tier's selection.
func selecting() bool { return E2E && os.Getenv(AllEnv) != "1" && selection() != nil }

// Main is the body of a TestMain: os.Exit(testtier.Main(m)). In the e2e tier
// it limits the run to the package's Selection (unless -run was given or
// AllEnv is set); it runs the tests, then the functions AtExit registered.
// storage/pgtest.Main calls it.
func Main(m *testing.M) int {
	SelectTests()
	code := m.Run()
	RunAtExit()
	return code
}

// SelectTests sets -test.run to the package's Selection in the e2e tier,
// unless -run was given (a test picked by hand runs as asked) or AllEnv is
// set. Call it from TestMain before m.Run.
func SelectTests() {
	if !E2E || os.Getenv(AllEnv) == "1" {
		return
	}
	if !flag.Parsed() {
		flag.Parse()
	}
	run := flag.Lookup("test.run")
	if run == nil || run.Value.String() != "" {
		return
	}
	s := selection()
	if s == nil {
		fmt.Fprintf(os.Stderr, "testtier: reading the package's tests: %v; the e2e tier runs all of them\n", selErr)
		return
	}
	if err := run.Value.Set(s.Pattern()); err != nil {
		fmt.Fprintf(os.Stderr, "testtier: -test.run: %v\n", err)
		return
	}
	fmt.Fprintf(os.Stderr, "testtier: e2e tier: %d of %d top-level tests (%d in files built only with the tag, %d with PostgreSQL or other outside parts, or measurements the race tier skips); %s=1 runs all\n",
		len(s.Tagged)+len(s.Reaching), len(s.Tagged)+len(s.Reaching)+len(s.Default), len(s.Tagged), len(s.Reaching), AllEnv)
}

// top is the name of t's top-level test.
func top(t testing.TB) string {
	name, _, _ := strings.Cut(t.Name(), "/")
	return name
}

// SkipRanInProcess skips t, a part of a default-tier test that does not
// need an outside program (the sqlite subtest of an engine table), when this
// binary runs the e2e tier's selection: that part ran in the in-process
// tier. Tests declared in files built only with the tag never skip here.
func SkipRanInProcess(t testing.TB, part string) {
	t.Helper()
	if !selecting() || slices.Contains(selection().Tagged, top(t)) {
		return
	}
	t.Skipf("%s: ran in the in-process tier (go test ./...); %s=1 runs it here too", part, AllEnv)
}
