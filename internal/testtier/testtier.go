// Package testtier says which tier of the test suite this test binary belongs
// to (docs/testing.md). The default tier, `go test ./...`, runs in-process
// only: unit tests, REST and MCP end-to-end tests through the real router,
// SQLite. The second tier, `go test -tags e2e ./...`, also runs what needs an
// outside program or several processes: Chromium, Lighthouse, Node clients,
// the MCP conformance suite, Redocly, PostgreSQL, `go build` of the binary.
//
// The test helpers that reach an outside program (web/browsertest,
// storage/pgtest) skip their test in the default tier, so a new test that
// uses them lands in the second tier even without the build tag. It is for
// tests only: nothing in the launchdir binary imports it.
package testtier

import (
	"sync"
	"testing"
)

// Tag is the build tag of the second tier.
const Tag = "e2e"

// Skip skips t unless the binary was built with the e2e tag; what names the
// outside program ("Chromium", "PostgreSQL") for the skip message.
//
// In the default tier it first checks that the e2e tier's Selection holds
// t's top-level test, and fails t when not: its outside part would run in
// neither tier.
func Skip(t testing.TB, what string) {
	t.Helper()
	if E2E {
		return
	}
	if s := selection(); s != nil && !s.Runs(top(t)) {
		t.Fatalf("%s reaches %s, which runs in the e2e tier, but the e2e tier does not select it (internal/testtier/select.go: "+
			"a test is selected when it refers to storage/pgtest, web/browsertest, testtier.Skip or \"postgres\", directly or through "+
			"its package's functions or a test helper package); make it refer to one of them where it reaches %s", top(t), what, what)
	}
	t.Skipf("%s test: runs in the e2e tier (go test -tags %s ./..., docs/testing.md)", what, Tag)
}

var (
	atExitMu sync.Mutex
	atExit   []func()
)

// AtExit registers f to run when the test binary's TestMain ends (through
// RunAtExit, which storage/pgtest.Main calls): the shared fixtures use it to
// remove their per-binary template files.
func AtExit(f func()) {
	atExitMu.Lock()
	defer atExitMu.Unlock()
	atExit = append(atExit, f)
}

// RunAtExit runs, last registered first, the functions AtExit registered.
func RunAtExit() {
	atExitMu.Lock()
	fs := atExit
	atExit = nil
	atExitMu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		fs[i]()
	}
}

// SkipRace skips t when the binary was built with the race detector and
// without the e2e tag: t is a measurement over a data set (an evaluation of
// the drafter, a search at scale), deterministic and single-goroutine, whose
// race build costs minutes and proves nothing about concurrency. It still
// runs twice over: in `go test ./...` (no race detector) and in the e2e tier
// of `.ci/run`, which selects every test that calls SkipRace
// (internal/testtier/select.go) and runs without the race detector; why
// names what t measures for the skip message.
//
// Like Skip, in the default tier it first checks that the e2e tier's
// Selection holds t's top-level test, and fails t when not: under `.ci/run`
// it would run in neither tier.
func SkipRace(t testing.TB, why string) {
	t.Helper()
	if !Race || E2E {
		return
	}
	if s := selection(); s != nil && !s.Runs(top(t)) {
		t.Fatalf("%s calls testtier.SkipRace by a path the e2e tier's selection does not see (internal/testtier/select.go); "+
			"call SkipRace in the test itself or in a function of its package", top(t))
	}
	t.Skipf("%s: a measurement, not a concurrency test; skipped under -race, runs without it in go test ./... and in the e2e tier (docs/testing.md)", why)
}
