package homes

import (
	"go/ast"
	"go/token"
	"regexp"
	"testing"
)

// historyWords are the words of a comment that tells the code's history by
// the tracker ("issue 17", "since issue 4", "issue 16 item 2") instead of
// what is true now; the history belongs in commit messages. ("#1" is left
// alone: it is an award's rank.)
var historyWords = regexp.MustCompile(`(?i)\bissues?\s*#?\d+|\bitems?\s+\d+(\s*-\s*\d+)?\b`)

// TestOneHome_NoHistoryInComments: no comment of a non-test Go file names
// an issue or an issue's item. A comment says what the code does now; a
// reference to the design goes to docs/ ("docs/console.md").
func TestOneHome_NoHistoryInComments(t *testing.T) {
	t.Parallel()
	n := 0
	eachSource(t, func(rel string, fset *token.FileSet, f *ast.File) {
		for _, g := range f.Comments {
			for _, c := range g.List {
				if m := historyWords.FindString(c.Text); m != "" {
					n++
					t.Errorf("%s: the comment %q tells history (%q): say what is true now, and put the history in the commit message", fset.Position(c.Pos()), c.Text, m)
				}
			}
		}
	})
	t.Logf("%d comments name an issue", n)
}
