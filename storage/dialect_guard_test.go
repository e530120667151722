package storage

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestDialect_OneFile keeps every engine difference in the dialect files,
// dialect.go and dialect_*.go (dialect_conn.go: the connection, transaction
// and statement wrappers): no other file of the package compares an engine
// with engineSQLite or enginePostgres (==, != or a switch case); it asks the
// engine a property that dialect.go defines (fileBacked, lateCommits,
// hasRowid, ...).
func TestDialect_OneFile(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	isEngine := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && (id.Name == "engineSQLite" || id.Name == "enginePostgres")
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if name == "dialect.go" || strings.HasPrefix(name, "dialect_") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if (n.Op == token.EQL || n.Op == token.NEQ) && (isEngine(n.X) || isEngine(n.Y)) {
					t.Errorf("%s: an engine branch outside dialect.go; name the difference as a property of engine there", fset.Position(n.Pos()))
				}
			case *ast.CaseClause:
				for _, e := range n.List {
					if isEngine(e) {
						t.Errorf("%s: an engine branch outside dialect.go; name the difference as a property of engine there", fset.Position(e.Pos()))
					}
				}
			}
			return true
		})
	}
}
