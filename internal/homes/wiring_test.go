package homes

import (
	"go/ast"
	"go/token"
	"maps"
	"slices"
	"strings"
	"testing"
)

// handBuilt are the files, tests included, that still build a Service by
// hand with domain.NewService, how many times, and why they cannot build it
// through the wiring (internal/wiring, what serve builds on). Lower a count
// when a call goes; never add a file: a test stack is built with
// wiring.Open (tools: wiredCore, web: wiredCore) and replaces only the
// outside world. docs/decisions.md ("Test stacks through the wiring")
// says the same.
var handBuilt = map[string]struct {
	calls int
	why   string
}{
	"domain/service_test.go":          {2, "tests NewService itself (package domain's tests; the wiring imports domain)"},
	"storage/fixtures/fixtures.go":    {2, "the fixtures of storage's own tests, over a *storage.DB the caller opened on either engine; the wiring imports storage"},
	"storage/demo_store_test.go":      {1, "package storage: the wiring imports storage (an import cycle)"},
	"storage/demo_test.go":            {1, "package storage: the wiring imports storage (an import cycle)"},
	"storage/drafts_onewrite_test.go": {1, "package storage: the wiring imports storage (an import cycle)"},
	"storage/jobs_tx_test.go":         {2, "package storage: the wiring imports storage (an import cycle)"},
	"auth/invites_test.go":            {1, "package auth: the wiring imports auth (an import cycle); it also wraps the drafts store in a spy"},
	"tools/body_test.go":              {1, "no database: it checks request bodies refused before any call reaches the Service"},
	"tools/input_fuzz_test.go":        {1, "no database: fuzzes input decoding and validation before any call reaches the Service"},
	"tools/bench_test.go":             {1, "measures storage.NewStore over a cached synthetic database outside a data directory"},
	"tools/conformance_test.go":       {1, "the Service on a fixed instant while the limiters and the database run on the real clock; the wiring has one clock"},
	"web/opendata_test.go":            {1, "over a seeded fixtures database on either engine; the seeded PostgreSQL copy is handed out as an open *storage.DB only"},
	"web/opendata_serve_test.go":      {1, "openDataService: the open-data tests measure BuildOpenData's heap and the files' serving over a fixtures database, one Service method with no stack around it"},
}

// TestOneHome_Wiring: a Service is built in one place, internal/wiring
// (domain.New, with every dependency checked), and the test stacks build
// theirs through it. domain.NewService, the hand-built Service of tests and
// fixtures, is called only by the files of handBuilt, each at most as often
// as listed there; domain.New only by internal/wiring and domain's own tests.
func TestOneHome_Wiring(t *testing.T) {
	t.Parallel()
	got := map[string]int{}
	eachGoFile(t, func(rel string, fset *token.FileSet, f *ast.File) {
		domainName := importName(f, "github.com/launchdir/launchdir/domain")
		inDomainDir := strings.HasPrefix(rel, "domain/") && !strings.Contains(strings.TrimPrefix(rel, "domain/"), "/")
		inDomain := f.Name.Name == "domain" && inDomainDir
		// package domain's own tests (package domain_test) test New itself
		domainTests := f.Name.Name == "domain_test" && inDomainDir
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				if x, ok := fn.X.(*ast.Ident); ok && domainName != "" && x.Name == domainName {
					name = fn.Sel.Name
				}
			case *ast.Ident:
				if inDomain {
					name = fn.Name
				}
			}
			switch {
			case name == "NewService":
				got[rel]++
			case name == "New" && !inDomain && !domainTests && !strings.HasPrefix(rel, "internal/wiring/"):
				t.Errorf("%s: domain.New outside internal/wiring: build the service with wiring.Open", fset.Position(call.Pos()))
			}
			return true
		})
	})
	total := 0
	for _, rel := range slices.Sorted(maps.Keys(got)) {
		n := got[rel]
		total += n
		allowed, ok := handBuilt[rel]
		switch {
		case !ok:
			t.Errorf("%s builds a Service by hand (domain.NewService, %d calls): build the stack with wiring.Open (tools and web: wiredCore) and replace only the outside world", rel, n)
		case n > allowed.calls:
			t.Errorf("%s calls domain.NewService %d times, %d allowed (%s): build the new stack with wiring.Open", rel, n, allowed.calls, allowed.why)
		case n < allowed.calls:
			t.Errorf("%s calls domain.NewService %d times, fewer than the %d allowed: lower its count in handBuilt", rel, n, allowed.calls)
		}
	}
	for _, rel := range slices.Sorted(maps.Keys(handBuilt)) {
		if got[rel] == 0 {
			t.Errorf("%s no longer calls domain.NewService: take it out of handBuilt", rel)
		}
	}
	t.Logf("hand-built Services: %d calls in %d files", total, len(got))
}
