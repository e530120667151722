package homes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneHome_ProblemStatus: an error body's status comes from the one
// code-to-status table (internal/problem: problem.New, problem.For). No file
// outside internal/problem builds a Problem with a Status of its own: a
// status the table lacks is a new domain.Code in the table, so that every
// surface answers it alike.
func TestOneHome_ProblemStatus(t *testing.T) {
	t.Parallel()
	base := root(t)
	fset := token.NewFileSet()
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
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(base, path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "internal/problem/") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || !isProblemType(lit.Type) {
				return true
			}
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Status" {
						t.Errorf("%s: a Problem literal picks its own Status; use problem.New with a domain.Code of the table", fset.Position(lit.Pos()))
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// isProblemType tells whether a composite literal's type is named Problem
// (problem.Problem, or tools' alias Problem).
func isProblemType(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name == "Problem"
	case *ast.SelectorExpr:
		return x.Sel.Name == "Problem"
	}
	return false
}
