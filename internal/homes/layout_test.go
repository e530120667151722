package homes

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// theLayout is the one page layout of the site, and theErrorPage its one
// error page: web's pages and auth's sign-in, consent and account pages
// all render in them (web/shell).
const (
	theLayout    = "web/shell/layout.html"
	theErrorPage = "web/shell/error.html"
)

// otherDocuments are the HTML files besides the layout that open a document
// of their own, and why.
var otherDocuments = map[string]string{
	"web/apps/testhost/host.html": "test harness: the host page that frames an MCP app card in the browser tests",
}

// opensDocument matches the start of an HTML document.
var opensDocument = regexp.MustCompile(`(?i)<!doctype|<html[\s>]`)

// TestOneHome_PageLayout: the site has one page layout and one error page
// (web/shell). No other HTML file of the module (testdata and node_modules
// left out) opens a document, and no other template is named as a layout
// or an error page: a page adds its "content" to web/shell's layout.
func TestOneHome_PageLayout(t *testing.T) {
	t.Parallel()
	found := map[string]bool{}
	eachFile(t, ".html", func(path, rel string) error {
		found[rel] = true
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if opensDocument.Match(b) && rel != theLayout && otherDocuments[rel] == "" {
			t.Errorf("%s opens an HTML document of its own: render the page in the site's layout (%s) with a \"content\" template", rel, theLayout)
		}
		switch name := filepath.Base(rel); {
		case rel == theLayout || rel == theErrorPage:
		case name == "layout.html" || name == "base.html" || strings.HasPrefix(name, "error"):
			t.Errorf("%s is a second layout or error page: use %s and %s (web/shell)", rel, theLayout, theErrorPage)
		}
		return nil
	})
	for _, f := range []string{theLayout, theErrorPage} {
		if !found[f] {
			t.Errorf("%s is missing", f)
		}
	}
	for f := range otherDocuments {
		if !found[f] {
			t.Errorf("%s no longer exists: remove it from otherDocuments", f)
		}
	}
}
