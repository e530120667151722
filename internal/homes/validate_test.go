package homes

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
)

// TestOneHome_SchemaValidator: JSON Schema is compiled and checked in one
// place, domain/validate (operation inputs: Validator; product options:
// Options). No other source file imports the validator library: the root
// package asks domain/validate through domain.OptionsValidator.
func TestOneHome_SchemaValidator(t *testing.T) {
	t.Parallel()
	eachSource(t, func(rel string, _ *token.FileSet, f *ast.File) {
		if strings.HasPrefix(rel, "domain/validate/") {
			return
		}
		for _, imp := range f.Imports {
			if strings.Contains(imp.Path.Value, "github.com/santhosh-tekuri/jsonschema") {
				t.Errorf("%s imports %s: validate JSON Schema with domain/validate", rel, imp.Path.Value)
			}
		}
	})
}
