package tools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// reToolName is a snake_case word that reads as a tool name: a verb the
// catalog's tools start with, then at least one more word.
var reToolName = regexp.MustCompile(`\b(?:get|list|search|create|update|submit|choose|claim|verify|quote|compare|add|delete|set|answer|post|invite|remove|cancel|edit|find|publish|pay|vote|follow|send|start|check|make|fetch)_[a-z]+(?:_[a-z]+)*\b`)

// toolNameAllowed are snake_case words of that form that are no tool: a
// job kind, and argument, field and setting names (ids, times, counts,
// hours: reToolNotTool).
var toolNameAllowed = map[string]bool{"update_fanout": true}

var reToolNotTool = regexp.MustCompile(`_(id|ids|at|count|hours)$`)

// TestToolNames_AreRealTools: an error message named
// get_categories, a tool that does not exist. Every tool name in a tool
// description, in the server instructions (as the real /mcp endpoint sends
// them) and in any string literal of domain/ and tools/ (messages, next
// hints) must be a tool of the catalog.
func TestToolNames_AreRealTools(t *testing.T) {
	t.Parallel() // reads the catalog and the source; owns its server
	tools := map[string]bool{}
	for _, op := range Catalog() {
		tools[op.Name] = true
	}
	check := func(where, text string) {
		for _, name := range reToolName.FindAllString(text, -1) {
			if !tools[name] && !toolNameAllowed[name] && !reToolNotTool.MatchString(name) {
				t.Errorf("%s names %s, which is no tool: %.160q", where, name, text)
			}
		}
	}
	for _, op := range Catalog() {
		check(op.Name+" description", mcpTool(op).Description)
	}
	env := catTestServer(t, Options{}, false)
	check("server instructions", catConnect(t, env.URL, "2025-11-25", nil).InitializeResult().Instructions)

	literals := 0
	for _, dir := range []string{"../domain", "."} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						literals++
						check(path, s)
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
	if literals < 1000 {
		t.Fatalf("only %d string literals read: the walk is broken", literals)
	}
}
