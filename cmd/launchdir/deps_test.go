package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDependencyDirection keeps the layering of ARCHITECTURE.md: domain and schemas
// import no project package, domain/demo only domain, domain/console only
// web, storage, the wiring and cmd, nothing imports cmd,
// only cmd imports the wiring (internal/app, and internal/wiring beside it,
// which imports neither tools nor web), nothing imports tools but those two, only storage talks SQL, only tools imports the MCP SDK, and only
// tests import the browser harness web/browsertest; auth imports web's page
// shell (web/shell) only, which imports domain only. No package under domain/
// imports internal/problem (the transports map domain errors to HTTP),
// net/http (no exception), an outside service's SDK or a project
// package outside domain/ (the exceptions are listed by name, with why).
func TestDependencyDirection(t *testing.T) {
	t.Parallel()
	const mod = "github.com/launchdir/launchdir/"
	out, err := exec.Command("go", "list", "-deps", "-f", `{{.ImportPath}}: {{join .Imports " "}}`, "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	rules := []struct {
		imported string
		allowed  func(pkg string) bool
	}{
		{mod + "cmd", func(string) bool { return false }},
		{mod + "tools", func(p string) bool { return strings.HasPrefix(p, mod+"cmd/") || p == mod+"internal/app" }},
		// The HTTP face of the error codes (status table, problem+json) is the
		// transports': the domain tree returns domain errors (code, fields,
		// rules) and never writes a problem.
		{mod + "internal/problem", func(p string) bool { return p != mod+"domain" && !strings.HasPrefix(p, mod+"domain/") }},
		// The one wiring path is for main (and tests) only; its core
		// (internal/wiring) is internal/app's, and the test harnesses of
		// tools and web build their stack through it.
		{mod + "internal/app", func(p string) bool { return strings.HasPrefix(p, mod+"cmd/") }},
		{mod + "internal/wiring", func(p string) bool { return p == mod+"internal/app" || strings.HasPrefix(p, mod+"cmd/") }},
		// go list -deps without -test lists no test imports: the browser
		// harness (and chromedp with it) is for tests only.
		{mod + "web/browsertest", func(string) bool { return false }},
		{"github.com/chromedp/", func(p string) bool { return p == mod+"web/browsertest" }},
		// The site team's console is called by web and the admin subcommands
		// (through internal/app); storage implements its stores. The domain
		// core reads the team's work through its own small interfaces
		// (domain.SettingsReader, domain.Redirects), never the console.
		{mod + "domain/console", func(p string) bool {
			return p == mod+"web" || p == mod+"internal/app" || p == mod+"internal/wiring" || strings.HasPrefix(p, mod+"cmd/") || p == mod+"storage"
		}},
		{"database/sql", func(p string) bool { return strings.HasPrefix(p, mod+"storage") }},
		{"github.com/mattn/go-sqlite3", func(p string) bool { return strings.HasPrefix(p, mod+"storage") }},
		{"github.com/modelcontextprotocol/go-sdk", func(p string) bool { return strings.HasPrefix(p, mod+"tools") }},
	}
	// The domain tree keeps rules, not adapters: no package under domain/
	// imports net/http, with no exception (the crawler and its dial guard
	// are internal/fetch and internal/netguard), nor an outside service's
	// SDK, nor a project package outside domain/ but these, each with why.
	domainImports := map[string]string{
		// the JSON Schema validator compiles the committed input schemas
		mod + "domain/validate": mod + "schemas",
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		if !strings.HasPrefix(pkg, mod) {
			continue
		}
		inDomain := pkg == mod+"domain" || strings.HasPrefix(pkg, mod+"domain/")
		for _, imp := range strings.Fields(imports) {
			if inDomain && (imp == "net/http" || strings.HasPrefix(imp, "net/http/")) {
				t.Errorf("%s imports %s: the domain tree speaks no HTTP; put the adapter under internal/", pkg, imp)
			}
			if inDomain && (strings.HasPrefix(imp, "github.com/stripe/") || strings.HasPrefix(imp, "github.com/sashabaranov/go-openai")) {
				t.Errorf("%s imports %s: an outside service's SDK belongs in its adapter under internal/", pkg, imp)
			}
			if inDomain && strings.HasPrefix(imp, mod) && imp != mod+"domain" && !strings.HasPrefix(imp, mod+"domain/") &&
				!slices.Contains(strings.Fields(domainImports[pkg]), imp) {
				t.Errorf("%s imports %s: the domain tree imports no project package outside domain/", pkg, imp)
			}
			if (pkg == mod+"domain" || pkg == mod+"schemas") && strings.HasPrefix(imp, mod) {
				t.Errorf("%s imports %s; it must import no project package", pkg, imp)
			}
			if pkg == mod+"domain/demo" && strings.HasPrefix(imp, mod) && imp != mod+"domain" {
				t.Errorf("%s imports %s; the demo generator imports domain and the standard library only", pkg, imp)
			}
			// The core's wiring builds no front end: the harnesses of tools
			// and web import it, so it must not import them.
			if pkg == mod+"internal/wiring" && (imp == mod+"tools" || imp == mod+"web" || strings.HasPrefix(imp, mod+"tools/") || strings.HasPrefix(imp, mod+"web/")) {
				t.Errorf("%s imports %s: the core's wiring builds no front end (internal/app composes them)", pkg, imp)
			}
			// auth's pages render in the site's page shell (web/shell), never
			// through web's handlers; the shell is templates over domain's types.
			if strings.HasPrefix(pkg, mod+"auth") && strings.HasPrefix(imp, mod+"web") && imp != mod+"web/shell" {
				t.Errorf("%s imports %s; auth uses web's page shell (web/shell) only", pkg, imp)
			}
			if pkg == mod+"web/shell" && strings.HasPrefix(imp, mod) && imp != mod+"domain" {
				t.Errorf("%s imports %s; the page shell imports domain and the standard library only", pkg, imp)
			}
			for _, r := range rules {
				if strings.HasPrefix(imp, r.imported) && !r.allowed(pkg) {
					t.Errorf("%s imports %s, which the architecture forbids", pkg, imp)
				}
			}
		}
	}
}
