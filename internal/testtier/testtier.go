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
