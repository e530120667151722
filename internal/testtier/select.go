package testtier

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The e2e tier runs only what the tag adds to the default tier
// (docs/testing.md): the tests declared in files built only with the tag,
// and the default-tier tests that reach an outside program through a test
// helper (their PostgreSQL subtests, which skip in the default tier). Which
// those are is read from the package's source when the test binary starts
// (Select); a default-tier test that reaches one of the helpers without
// being selected fails in the default tier (Skip), so a test's outside part
// cannot fall between the tiers.

// roots are the test helper packages that reach an outside program: a
// reference to any of their names (or to Skip, or to SkipRace: a measurement
// the race tier skips runs in the e2e tier, without the race detector)
// selects a test.
var roots = []string{
	"github.com/launchdir/launchdir/storage/pgtest",
	"github.com/launchdir/launchdir/web/browsertest",
}

// inert are the names of a root package that reach no outside program: a
// reference to one does not select a test. pgtest.MaxConns reads an
// environment variable (the pool bound the store harnesses open with), so
// storage/fixtures' OpenAt, which passes it to storage.Open for a SQLite file
// as for a PostgreSQL URL, does not make every SQLite test that opens a
// fixture (fixtures.Open) run again in the e2e tier. A test that does reach
// PostgreSQL through OpenAt gets its URL from a name that is a root
// (pgtest.Database, fixtures.OpenPostgres), and one that got through
// unselected would fail in the default tier (Skip).
var inert = map[string]bool{
	"github.com/launchdir/launchdir/storage/pgtest.MaxConns":    true,
	"github.com/launchdir/launchdir/storage/pgtest.MaxConnsEnv": true,
}

const (
	thisPkg = "github.com/launchdir/launchdir/internal/testtier"
	module  = "github.com/launchdir/launchdir/"
)

// Selection is what the e2e tier runs of one package's tests.
type Selection struct {
	// Tagged are the top-level tests, benchmarks, fuzz tests and examples
	// declared in files built only with the e2e tag.
	Tagged []string
	// Reaching are the top-level tests of the default tier's files that
	// reach an outside program (storage/pgtest, web/browsertest, Skip, or
	// the engine name "postgres"), directly or through functions of the
	// package or of the test helper packages it imports.
	Reaching []string
	// Default are the default tier's other top-level tests (not run in the
	// e2e tier: they ran in the in-process tier).
	Default []string
}

// Runs reports whether the e2e tier runs the top-level test name.
func (s *Selection) Runs(name string) bool {
	return slices.Contains(s.Tagged, name) || slices.Contains(s.Reaching, name)
}

// Pattern is the -test.run pattern of the selection: its names, anchored;
// a pattern no test name matches when it is empty.
func (s *Selection) Pattern() string {
	names := append(append([]string{}, s.Tagged...), s.Reaching...)
	if len(names) == 0 {
		return "^$"
	}
	slices.Sort(names)
	return "^(" + strings.Join(slices.Compact(names), "|") + ")$"
}

// decl is one package-level declaration (a function, a method, a variable)
// and what its body refers to.
type decl struct {
	name   string // function or variable name; ".Name" for a method
	file   string
	tagged bool // in a file built only with the e2e tag
	refs   []string
	ext    []extRef
	root   bool // refers to a root package, Skip, or "postgres"
}

type extRef struct{ pkg, name string }

// taggedMethod ends the key of a method declared in a file built only with
// the tag (".show" + taggedMethod): only the tagged files' code can call it.
const taggedMethod = "@e2e"

// Select reads the Go files in dir (a package directory) and returns the
// e2e tier's selection of its tests.
func Select(dir string) (*Selection, error) {
	decls, err := parseDir(dir, true, false)
	if err != nil {
		return nil, err
	}
	reach := newReacher(dir).reaching(decls)
	s := &Selection{}
	for _, d := range decls {
		if !isTest(d.name) {
			continue
		}
		switch {
		case d.tagged:
			s.Tagged = append(s.Tagged, d.name)
		case reach[d.name]:
			s.Reaching = append(s.Reaching, d.name)
		default:
			s.Default = append(s.Default, d.name)
		}
	}
	for _, l := range []*[]string{&s.Tagged, &s.Reaching, &s.Default} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	return s, nil
}

// isTest reports whether name is a top-level test, benchmark, fuzz test or
// example by the testing package's naming rule.
func isTest(name string) bool {
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == "" || !isLower(rest[0])) {
			return name != "TestMain"
		}
	}
	return false
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// parseDir parses the files of the package in dir that the e2e tier builds
// (with tests: *_test.go too) and returns its declarations by name.
// The engine name "postgres" counts as a root in test files and, when
// helper, in every file (a helper package such as storage/fixtures): in a
// package's own code it can be a word like any other.
func parseDir(dir string, tests, helper bool) (map[string]*decl, error) {
	withTag, without := build.Default, build.Default
	withTag.BuildTags = append(slices.Clone(withTag.BuildTags), Tag)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	decls := map[string]*decl{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || (!tests && strings.HasSuffix(name, "_test.go")) {
			continue
		}
		inTagged, err := withTag.MatchFile(dir, name)
		if err != nil {
			return nil, err
		}
		if !inTagged {
			continue
		}
		inDefault, err := without.MatchFile(dir, name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		imports := map[string]string{} // local name -> import path
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			local := path.Base(p)
			if im.Name != nil {
				local = im.Name.Name
			}
			imports[local] = p
		}
		add := func(key string, body ast.Node) {
			d := decls[key]
			if d == nil {
				d = &decl{name: key, file: name, tagged: !inDefault}
				decls[key] = d
			}
			collect(d, body, imports, helper || strings.HasSuffix(name, "_test.go"))
		}
		for _, fd := range f.Decls {
			switch fd := fd.(type) {
			case *ast.FuncDecl:
				key := fd.Name.Name
				if fd.Recv != nil {
					key = "." + key
					if !inDefault {
						key += taggedMethod // apart from the default tier's methods of that name
					}
				}
				add(key, fd)
			case *ast.GenDecl:
				for _, sp := range fd.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for _, n := range vs.Names {
							add(n.Name, vs)
						}
					}
				}
			}
		}
	}
	return decls, nil
}

// collect adds what node refers to to d. A call that passes the string
// "sqlite" (an engine name) does not count as a reference to the function
// it calls: newFixtureOn(t, "sqlite") opens no PostgreSQL database even
// though newFixtureOn can.
func collect(d *decl, node ast.Node, imports map[string]string, literal bool) {
	ast.Inspect(node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if literal && n.Kind == token.STRING && n.Value == `"postgres"` {
				d.root = true
			}
		case *ast.CallExpr:
			if slices.ContainsFunc(n.Args, func(a ast.Expr) bool {
				lit, ok := a.(*ast.BasicLit)
				return ok && lit.Kind == token.STRING && lit.Value == `"sqlite"`
			}) {
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
					if _, isPkg := pkgOf(sel, imports); !isPkg {
						collect(d, sel.X, imports, literal) // the receiver may refer to more
					}
				}
				for _, a := range n.Args {
					collect(d, a, imports, literal)
				}
				return false
			}
		case *ast.SelectorExpr:
			if p, isPkg := pkgOf(n, imports); isPkg {
				switch {
				case inert[p+"."+n.Sel.Name]:
				case slices.Contains(roots, p), p == thisPkg && (n.Sel.Name == "Skip" || n.Sel.Name == "SkipRace"):
					d.root = true
				default:
					d.ext = append(d.ext, extRef{p, n.Sel.Name})
				}
				return false
			}
			d.refs = append(d.refs, "."+n.Sel.Name)
		case *ast.Ident:
			d.refs = append(d.refs, n.Name)
		}
		return true
	})
}

// pkgOf reports whether sel is pkg.Name for an imported package, and its path.
func pkgOf(sel *ast.SelectorExpr, imports map[string]string) (string, bool) {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", false
	}
	p, ok := imports[id.Name]
	return p, ok
}

// reacher finds the declarations that reach a root, reading the module's
// helper packages a test imports (storage/fixtures, say) on first use.
type reacher struct {
	dir string
	ext map[string]map[string]bool // import path -> its names that reach a root
}

func newReacher(dir string) *reacher {
	return &reacher{dir: dir, ext: map[string]map[string]bool{}}
}

// reaching returns the names in decls that refer, directly or through
// other declarations, to a root.
func (r *reacher) reaching(decls map[string]*decl) map[string]bool {
	marked := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for name, d := range decls {
			if marked[name] {
				continue
			}
			// A default-tier declaration cannot use one declared only in
			// the tagged files (it would not compile without the tag): a
			// name it shares with one (a local variable "in", a method
			// "show" of another type) does not make it reach.
			ok := d.root || slices.ContainsFunc(d.refs, func(ref string) bool {
				return marked[ref] && (d.tagged || !decls[ref].tagged) || d.tagged && marked[ref+taggedMethod]
			}) ||
				slices.ContainsFunc(d.ext, func(e extRef) bool { return r.pkg(e.pkg)[e.name] })
			if ok {
				marked[name] = true
				changed = true
			}
		}
	}
	return marked
}

// pkg returns the names that reach a root of a package of this module that
// imports a root (a test helper package such as storage/fixtures); nil for
// other packages.
func (r *reacher) pkg(importPath string) map[string]bool {
	rel, ok := strings.CutPrefix(importPath, module)
	if !ok {
		return nil
	}
	if m, ok := r.ext[importPath]; ok {
		return m
	}
	r.ext[importPath] = nil // while it is read (a cycle finds nothing)
	root, err := moduleRoot(r.dir)
	if err != nil {
		return nil
	}
	dir := filepath.Join(root, filepath.FromSlash(rel))
	if !importsRoot(dir) {
		return nil
	}
	decls, err := parseDir(dir, false, true)
	if err != nil {
		return nil
	}
	m := r.reaching(decls)
	r.ext[importPath] = m
	return m
}

// importsRoot reports whether a non-test file in dir imports a root package.
func importsRoot(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); slices.Contains(roots, p) {
				return true
			}
		}
	}
	return false
}

// moduleRoot is the directory holding go.mod, at or above dir.
func moduleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("testtier: no go.mod at or above %s", dir)
		}
	}
}
