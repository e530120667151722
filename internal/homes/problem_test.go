package homes

import (
	"go/ast"
	"go/token"
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
	eachSource(t, func(rel string, fset *token.FileSet, f *ast.File) {
		if strings.HasPrefix(rel, "internal/problem/") {
			return
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
	})
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

// TestOneHome_RetryAfter: the Retry-After header is written in one place,
// problem.SetRetryAfter (problem.Write for the API, web's error page and
// the 429 answers of auth and web call it), so a page and the API ask a
// client to wait alike. No other source file names the header, but the
// OpenAPI document, which describes it.
func TestOneHome_RetryAfter(t *testing.T) {
	t.Parallel()
	describes := map[string]bool{"tools/openapi.go": true}
	eachSource(t, func(rel string, fset *token.FileSet, f *ast.File) {
		if strings.HasPrefix(rel, "internal/problem/") || describes[rel] {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.EqualFold(strings.Trim(lit.Value, "`\""), "Retry-After") {
				t.Errorf("%s: names the Retry-After header; set it with problem.SetRetryAfter", fset.Position(lit.Pos()))
			}
			return true
		})
	})
}
