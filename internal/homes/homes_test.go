package homes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the module's directory.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
}

// eachSource parses every non-test Go source file of the module (testdata,
// node_modules and hidden or _ directories left out) and calls visit with
// its path relative to the root (with slashes), the file set and the file.
// It is the one source walker of the guards in this package.
func eachSource(t *testing.T, visit func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	walkGo(t, false, visit)
}

// eachGoFile is eachSource with the _test.go files too.
func eachGoFile(t *testing.T, visit func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	walkGo(t, true, visit)
}

// walkGo walks the module's Go files for eachSource and eachGoFile.
func walkGo(t *testing.T, tests bool, visit func(rel string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	eachFile(t, ".go", func(path, rel string) error {
		if !tests && strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return err
		}
		visit(rel, fset, f)
		return nil
	})
}

// eachFile walks the module's files whose names end in suffix (testdata,
// node_modules and hidden or _ directories left out) and calls visit with
// each one's path and its path relative to the root (with slashes); an
// error of visit fails the test. It is the one walk of the module's tree of
// the guards in this package (the Go sources' and the HTML pages').
func eachFile(t *testing.T, suffix string, visit func(path, rel string) error) {
	t.Helper()
	base := root(t)
	err := filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != base && (n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, suffix) {
			return nil
		}
		rel, _ := filepath.Rel(base, path)
		return visit(path, filepath.ToSlash(rel))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// importName is the name file f uses for the import path importPath, or ""
// when f does not import it.
func importName(f *ast.File, importPath string) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == importPath {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return filepath.Base(p)
		}
	}
	return ""
}

// selectorUses counts, per source file of the module (test files and
// testdata left out; paths relative to the root, with slashes), the uses of
// pkg.Name for which match(Name) holds, where pkg is the file's name for the
// import path importPath.
func selectorUses(t *testing.T, importPath string, match func(name string) bool) map[string]int {
	t.Helper()
	out := map[string]int{}
	eachSource(t, func(rel string, _ *token.FileSet, f *ast.File) {
		name := importName(f, importPath)
		if name == "" {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == name && match(sel.Sel.Name) {
					out[rel]++
				}
			}
			return true
		})
	})
	return out
}

// clockReaders are the files that may read the wall clock (time.Now), and
// why. Everything else takes the clock it is given (a func() time.Time
// handed down from main), so that tests own time.
var clockReaders = map[string]string{
	"cmd/launchdir/main.go": "main reads the clock once and hands it down",
	// Durations on the monotonic clock: how long work took, or a deadline
	// for waiting, never a date that is stored or shown.
	"cmd/launchdir/serve.go":       "start-up duration in the log",
	"domain/drafts_build.go":       "throttles the build's progress writes (at most one per 200 ms)",
	"tools/idempotency.go":         "how long a replay waits for a pending claim",
	"storage/store.go":             "the count cache: how long a count took and how old it is",
	"storage/snapshot.go":          "the search snapshot: load time and the poller's last poll",
	"storage/searchsync.go":        "the search index sync: poll and category cache times",
	"storage/categories.go":        "the category tree cache: its age and cost",
	"web/browsertest/browser.go":   "test harness (imported by tests only): step deadlines",
	"web/browsertest/install.go":   "test harness: install timing",
	"web/browsertest/npm.go":       "test harness: install timing",
	"storage/pgtest/pgtest.go":     "test harness: cluster start timing",
	"storage/fixtures/template.go": "test harness: template build timing; OpenSeeded's wall clock unless given another",
	"storage/fixtures/fixtures.go": "test harness: unique slugs for ad-hoc listings; the wall clock of the databases it opens",
	// No clock is defaulted when a caller gives none: every constructor that
	// needs one refuses to build without it (docs/decisions.md, "One home
	// per concern").
}

// clockReader is the key of clockReaders that allows file f (the key is
// f or a suffix of it after a slash), or "".
func clockReader(f string) string {
	for k := range clockReaders {
		if f == k || strings.HasSuffix(f, "/"+k) {
			return k
		}
	}
	return ""
}

// TestOneHome_Clock: time.Now is read only by main and the documented
// readers above (durations, caches, test harnesses). A new reader fails here: take the clock as a
// func() time.Time from the caller.
func TestOneHome_Clock(t *testing.T) {
	t.Parallel()
	uses := selectorUses(t, "time", func(name string) bool { return name == "Now" })
	files := []string{}
	for f := range uses {
		files = append(files, f)
		if clockReader(f) == "" {
			t.Errorf("%s reads time.Now %d times; take the clock from the caller (a func() time.Time), or document why it may read it in clockReaders", f, uses[f])
		}
	}
	slices.Sort(files)
	for k := range clockReaders {
		if !slices.ContainsFunc(files, func(f string) bool { return clockReader(f) == k }) {
			t.Errorf("%s no longer reads time.Now: remove it from clockReaders", k)
		}
	}
	total := 0
	for _, n := range uses {
		total += n
	}
	t.Logf("time.Now: %d uses in %d files: %s", total, len(files), strings.Join(files, ", "))
}

// statusTables are the files that name the HTTP statuses of a package's
// pages: every other file of that package takes a status from its table,
// or from the one code-to-status table (internal/problem: problem.Status of
// a domain.Code).
var statusTables = map[string]string{
	// auth's pages (sign-in, consent, account, invites) and the OAuth
	// protocol endpoints, whose statuses the RFCs fix.
	"auth/": "auth/status.go",
	// web's pages: shown, after a form, moved, not modified.
	"web/": "web/status.go",
}

// anyStatus tells whether name is a net/http status constant.
func anyStatus(name string) bool { return strings.HasPrefix(name, "Status") && name != "StatusText" }

// statusTableOf is the status table of the package directory file f is in
// (a key of statusTables: f's directory, not a subdirectory), or "".
func statusTableOf(f string) string {
	return statusTables[f[:strings.LastIndex(f, "/")+1]]
}

// TestOneHome_PageStatus: the page handlers of auth/ and web/ name no HTTP
// status outside their package's status table (statusTables); a page's
// error status comes from the one code-to-status table (internal/problem).
func TestOneHome_PageStatus(t *testing.T) {
	t.Parallel()
	for f, n := range selectorUses(t, "net/http", anyStatus) {
		if table := statusTableOf(f); table != "" && f != table {
			t.Errorf("%s names %d HTTP statuses: take the status from %s or from the code-to-status table (problem.Status, pageStatus, auth's problemPage, web's fail)", f, n, table)
		}
	}
	for _, table := range statusTables {
		if _, err := os.Stat(filepath.Join(root(t), table)); err != nil {
			t.Errorf("status table %s: %v", table, err)
		}
	}
}

// TestOneHome_Randomness: random ids, tokens, keys and secrets are made in
// one place, domain/secrets.go (NewSecret, SecretHash, NewUUID, RandomHex,
// RandomBytes); no other file reads crypto/rand.
func TestOneHome_Randomness(t *testing.T) {
	t.Parallel()
	for f, n := range selectorUses(t, "crypto/rand", func(string) bool { return true }) {
		if f != "domain/secrets.go" {
			t.Errorf("%s reads crypto/rand %d times; use domain.NewSecret, NewUUID, RandomHex or RandomBytes", f, n)
		}
	}
}
