package web

import (
	"io/fs"
	"strings"
	"testing"
)

// TestPageSet_EveryPage: the page set that every handler shares (parsed
// once per process) holds a template for each page file of templates/ (the
// shared parts aside) and the error page, and a second call returns the
// templates of the first instead of parsing them again.
func TestPageSet_EveryPage(t *testing.T) {
	t.Parallel()
	parts := map[string]bool{"parts": true, "vote": true, "row": true, "reviews": true, "docs_toolsets": true, "checkout_parts": true}
	files, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil || len(files) < 40 {
		t.Fatalf("templates: %d files, %v", len(files), err)
	}
	set := pageSet()
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimPrefix(f, "templates/"), ".html")
		if _, ok := set[name]; !ok && !parts[name] {
			t.Errorf("page %s (%s) is not in the page set", name, f)
		}
	}
	if set["error"] == nil {
		t.Error("no error page in the page set")
	}
	if len(set) != len(files)-len(parts)+1 {
		t.Errorf("%d pages in the set, want the %d page files and the error page", len(set), len(files)-len(parts))
	}
	if a, b := pageSet()["home"], pageSet()["home"]; a != b {
		t.Error("pageSet parsed the home page again")
	}
}
