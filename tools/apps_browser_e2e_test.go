//go:build e2e

package tools

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/web"
	"github.com/launchdir/launchdir/web/apps"
	"github.com/launchdir/launchdir/web/browsertest"
)

// appsDir is the cards' npm project (web/apps, docs/apps.md).
const appsDir = "../web/apps"

// appsSkipEnv skips the MCP Apps tests that need npm.
const appsSkipEnv = "LAUNCHDIR_SKIP_MCPAPPS"

// appsBuildDir installs web/apps' pinned packages (npm ci, cached) and
// returns a fresh folder with them (node_modules), build.mjs, src/ and
// testhost/, where the bundles are built, and the node binary.
func appsBuildDir(t *testing.T) (dir, node string) {
	t.Helper()
	inst := browsertest.NpmInstall(t, "mcpapps", appsDir, appsSkipEnv)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is not on PATH (set %s=1 to skip): %v", appsSkipEnv, err)
	}
	dir = t.TempDir()
	if err := os.Symlink(filepath.Join(inst, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"src", "testhost"} {
		if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(filepath.Join(appsDir, sub))); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"build.mjs", "package.json"} {
		b, err := os.ReadFile(filepath.Join(appsDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, node
}

func appsRun(t *testing.T, dir, node string, args ...string) {
	t.Helper()
	cmd := exec.Command(node, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("node %v: %v\n%s", args, err, out)
	}
}

// TestAppsBundle_MatchesSources rebuilds web/apps/dist/cards.js from src/
// with the pinned esbuild (npm run build's build.mjs) and fails when the
// committed bundle differs: rebuild it with
// `npm --prefix web/apps ci && npm --prefix web/apps run build`.
func TestAppsBundle_MatchesSources(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	dir, node := appsBuildDir(t)
	appsRun(t, dir, node, "build.mjs", "out.js")
	built, err := os.ReadFile(filepath.Join(dir, "out.js"))
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(appsDir, "dist", "cards.js"))
	if err != nil {
		t.Fatal(err)
	}
	if string(built) != string(committed) {
		t.Fatalf("web/apps/dist/cards.js (%d bytes) is not what its sources build (%d bytes): run "+
			"npm --prefix web/apps ci && npm --prefix web/apps run build, and commit dist/cards.js", len(committed), len(built))
	}
}

// cardPage is the test host (web/apps/testhost: the official AppBridge and
// MCP client on the real /mcp) open in a browser tab, signed in with key.
type cardPage struct {
	*browsertest.Page
	t *testing.T
}

// show runs tool with args the way a host does and returns its structured
// content once the card has drawn it.
func (p cardPage) show(tool string, args map[string]any) map[string]any {
	p.t.Helper()
	a, _ := json.Marshal(args)
	return browsertest.Eval[map[string]any](p.Page, "show("+jsq(tool)+", "+string(a)+")")
}

// in evaluates expr with d bound to the card's document.
func in[T any](p cardPage, expr string) T {
	p.t.Helper()
	return browsertest.Eval[T](p.Page, "(async () => { const d = card(); return ("+expr+"); })()")
}

func jsq(s string) string { b, _ := json.Marshal(s); return string(b) }

// noOutside checks that the card loaded nothing from another origin.
func (p cardPage) noOutside(what string) {
	p.t.Helper()
	if out := browsertest.Eval[[]string](p.Page, "outside()"); len(out) != 0 {
		p.t.Errorf("%s: the card loaded from outside: %v", what, out)
	}
	p.t.Logf("%s: %d requests by the card, none outside", what, browsertest.Eval[int](p.Page, "requests()"))
}

// TestApps_CardsInAHost renders every card in headless Chromium inside a
// host built on the official ext-apps AppBridge, connected to the real /mcp
// of an httptest server: listings, rankings (billboard marked PAID), the
// draft review (a field accepted and one edited change the draft as
// get_draft shows; the draft saved from the card), the checkout hand-off
// (the host is asked to open the order's checkout_url) and the badge picker
// (the code copied is get_badges' embed_html for the chosen style). No card
// loads anything from another origin. Screenshots at 1280 and 390 px.
func TestApps_CardsInAHost(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	dir, node := appsBuildDir(t)
	appsRun(t, dir, node, "node_modules/esbuild/bin/esbuild", "testhost/host.js", "--bundle", "--format=esm",
		"--log-level=warning", "--outfile=testhost/host.bundle.js")

	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	withOrdering(t, env, domain.TestPayments{})
	pages := web.New(env.svc)
	host := http.StripPrefix("/apps-host/", http.FileServer(http.Dir(filepath.Join(dir, "testhost"))))
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/apps-host/") {
			host.ServeHTTP(w, r)
			return
		}
		pages.ServeHTTP(w, r)
	})
	env.pages.Store(&h)
	key := env.apiKey(t, "maker@example.com")
	call := mcpCaller(env, key)(t)

	// A ready draft of the local product site.
	st, sub := call(t, "submit_listing", map[string]any{"url": site.URL})
	if st != 201 {
		t.Fatalf("submit_listing: %d %v", st, sub)
	}
	draft := builtDraft(t, env, call, sub["id"].(string))
	id := draft["id"].(string)
	var accept, edit string // a drafted field to accept, one not on the site to type
	for _, name := range domain.DraftFieldNames {
		f := field(draft, name)
		if v, ok := f["value"].(string); accept == "" && f["state"] == "ai" && ok && v != "" && name != "name" {
			accept = name
		}
		if edit == "" && f["state"] == "not_found" && (name == "pricing_summary" || name == "city") {
			edit = name
		}
	}
	if accept == "" || edit == "" {
		t.Fatalf("the draft has no drafted string field or no pricing_summary/city not found: %v", draft["fields"])
	}

	b := browsertest.Shared(t)
	saved := false // the desktop subtest saved the draft as a listing from the card
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := cardPage{b.NewPage(t, vp), t}
			p.Go(env.URL + "/apps-host/host.html?key=" + key)

			// Listings: search results as rows with a monogram, tagline, category, votes, link.
			res := p.show("search_listings", map[string]any{"q": "notes", "per_page": 5})
			items := res["items"].([]any)
			if n := in[int](p, `d.querySelectorAll(".rows > li").length`); n != len(items) || n == 0 {
				t.Fatalf("listings card: %d rows for %d results", n, len(items))
			}
			first := items[0].(map[string]any)
			row := in[map[string]string](p, `(() => { const li = d.querySelector(".rows > li"); return {name: li.querySelector("a.name").textContent,
				href: li.querySelector("a.name").href, logo: li.querySelector(".logo").textContent, text: li.innerText}; })()`)
			if row["name"] != first["name"] || row["href"] != first["page_url"] || row["logo"] == "" ||
				!strings.Contains(row["text"], first["tagline"].(string)) {
				t.Errorf("first row %v, want %v", row, first)
			}
			// A row's launch week is not broken across lines (at 390 px it
			// wrapped at the date's hyphen: "week of 2026-" / "09-14").
			if broken := in[[]string](p, `Array.from(d.querySelectorAll(".row-meta .week")).filter((e) => e.getClientRects().length > 1).map((e) => e.textContent)`); len(broken) > 0 ||
				in[int](p, `d.querySelectorAll(".row-meta .week").length`) == 0 {
				t.Errorf("listings card: launch weeks broken across lines: %v (or none marked)", broken)
			}
			p.noOutside("listings")
			p.Shot("listings")
			if vp == browsertest.Desktop {
				in[bool](p, `(d.querySelector(".rows a.name").click(), true)`)
				if got := browsertest.Eval[[]string](p.Page, "opened"); !slices.Equal(got, []string{first["page_url"].(string)}) {
					t.Errorf("clicking the listing asked the host to open %v, want %s", got, first["page_url"])
				}
			}

			// The billboard: every row marked PAID, and a PAID banner.
			res = p.show("get_leaderboard", map[string]any{"board": "billboard"})
			rows := len(res["items"].([]any))
			if paid := in[int](p, `d.querySelectorAll(".rows > li .tag.paid").length`); paid != rows || rows == 0 ||
				!strings.Contains(in[string](p, `d.querySelector(".paid-banner").textContent`), "PAID") {
				t.Errorf("billboard card: %d rows, %d marked PAID", rows, paid)
			}
			p.noOutside("billboard")
			p.Shot("billboard")
			p.show("get_launch_week", map[string]any{"week": "this"})
			if n := in[int](p, `d.querySelectorAll(".rows > li .tag.paid").length`); n != 0 {
				t.Errorf("launch week card: %d rows marked PAID", n)
			}
			p.noOutside("week")
			p.Shot("week")

			// Draft review.
			p.show("get_draft", map[string]any{"id": id})
			if n := in[int](p, `d.querySelectorAll(".fields > li").length`); n != len(draft["fields"].(map[string]any)) {
				t.Errorf("draft card: %d fields, want %d", n, len(draft["fields"].(map[string]any)))
			}
			if n := in[int](p, `d.querySelectorAll(".fields blockquote").length`); n == 0 {
				t.Error("draft card shows no evidence quote")
			}
			// Fields in the profile's order (name, tagline, ... as the
			// draft's own field list), named as people read them.
			fieldOrder := in[[]string](p, `Array.from(d.querySelectorAll(".fields > li")).map((li) => li.dataset.field)`)
			fields := draft["fields"].(map[string]any)
			if want := slices.DeleteFunc(slices.Clone(domain.DraftFieldNames), func(n string) bool { return fields[n] == nil }); !slices.Equal(fieldOrder, want) {
				t.Errorf("draft card: fields in the order %v, want %v", fieldOrder, want)
			}
			// Each field named as the site's pages name it ("What sets it
			// apart", "Logo"; it said "Usps" and "Logo url").
			names := in[[]string](p, `Array.from(d.querySelectorAll(".fields > li")).map((li) => li.querySelector("#f-" + li.dataset.field).textContent)`)
			for i, f := range fieldOrder {
				if i >= len(names) || names[i] != web.FactName(f) {
					t.Errorf("draft card: field %s named %q, want the site's %q", f, names, web.FactName(f))
					break
				}
			}
			if line := in[string](p, `d.querySelector("#app > p.meta").textContent`); strings.Contains(line, "_") {
				t.Errorf("draft card: %q shows field names as code", line)
			}
			p.noOutside("draft")
			p.Shot("draft")
			if vp == browsertest.Desktop {
				sel := func(f, rest string) string { return jsq(`[data-field="` + f + `"] ` + rest) }
				in[bool](p, `(d.querySelector(`+sel(accept, `[data-action=accept]`)+`).click(), true)`)
				browsertest.Eval[any](p.Page, `until(() => card().querySelector(`+sel(accept, `[data-state=override]`)+`), "accepted")`)
				in[bool](p, `(d.querySelector(`+sel(edit, `[data-action=edit]`)+`).click(), true)`)
				in[bool](p, `(() => { const b = d.querySelector(`+sel(edit, `textarea`)+`); b.value = "From 9 dollars a month"; return true; })()`)
				in[bool](p, `(d.querySelector(`+sel(edit, `[data-action=save]`)+`).click(), true)`)
				browsertest.Eval[any](p.Page, `until(() => card().querySelector(`+sel(edit, `[data-state=manual]`)+`), "edited")`)
				p.Shot("draft-edited")
				_, got := call(t, "get_draft", map[string]any{"id": id})
				if f := field(got, accept); f["state"] != "override" || f["value"] != field(draft, accept)["value"] {
					t.Errorf("after accept in the card: %s = %v, want the drafted value locked", accept, f)
				}
				if f := field(got, edit); f["state"] != "manual" || f["value"] != "From 9 dollars a month" {
					t.Errorf("after edit in the card: %s = %v", edit, f)
				}
				in[bool](p, `(d.querySelector("[data-action=submit]").click(), true)`)
				msg := browsertest.Eval[string](p.Page, `until(() => /Saved as listing \d+/.test(card().querySelector(".card-status").textContent) && card().querySelector(".card-status").textContent, "saved")`)
				t.Logf("draft card: %s", msg)
				saved = true
			}

			// Checkout hand-off: the quote, then the order with its one button.
			_, mine := call(t, "list_my_listings", map[string]any{})
			var listingID any
			if its, _ := mine["items"].([]any); len(its) > 0 {
				listingID = its[0].(map[string]any)["id"]
			}
			if listingID == nil && !saved {
				// Its failure is reported there; this one would only repeat it.
				t.Skip("the checkout and badge cards need the listing the desktop subtest saves from the draft card, and it failed before saving")
			}
			if listingID == nil {
				t.Fatalf("no listing of the maker after the draft was saved: %v", mine)
			}
			order := map[string]any{"items": []any{map[string]any{"product": "launch", "listing_id": listingID}}, "billing_country": "DE"}
			p.show("quote_order", order)
			if n := in[int](p, `d.querySelectorAll("button, form, input").length`); n != 0 {
				t.Errorf("quote card: %d buttons or form fields, want none", n)
			}
			p.noOutside("quote")
			p.Shot("quote")
			if vp == browsertest.Desktop {
				o := p.show("create_checkout", order)
				total := in[string](p, `d.querySelector("[data-total]").textContent`)
				if n := in[int](p, `d.querySelectorAll("button").length + d.querySelectorAll("form, input").length`); n != 1 {
					t.Errorf("checkout card: %d buttons and form fields, want the one button", n)
				}
				p.noOutside("checkout")
				p.Shot("checkout")
				browsertest.Eval[bool](p.Page, `(opened.length = 0, true)`)
				in[bool](p, `(d.querySelector("[data-action=checkout]").click(), true)`)
				got := browsertest.Eval[[]string](p.Page, `until(() => opened.length && opened, "open-link")`)
				if !slices.Equal(got, []string{o["checkout_url"].(string)}) {
					t.Errorf("checkout button asked to open %v, want %s", got, o["checkout_url"])
				}
				t.Logf("checkout card: total %s, opened %s", total, got[0])
			}

			// Badge picker: a style chosen, its preview, the code copied = get_badges'.
			slug := first["slug"].(string)
			if vp == browsertest.Desktop {
				// Dark: the card in an iframe whose color-scheme is dark.
				dark := cardPage{b.NewPage(t, vp), t}
				dark.Go(env.URL + "/apps-host/host.html?theme=dark&key=" + key)
				dark.show("search_listings", map[string]any{"q": "notes", "per_page": 3})
				if bg := in[string](dark, `d.defaultView.getComputedStyle(d.body).backgroundColor`); bg != "rgb(13, 17, 23)" {
					t.Errorf("dark card: body background %s, want the site's dark --bg", bg)
				}
				dark.Shot("listings-dark")
				dark.show("get_draft", map[string]any{"id": id})
				dark.Shot("draft-dark")
				dark.show("get_badges", map[string]any{"slug": first["slug"]})
				dark.Shot("badges-dark")
			}
			p.show("get_badges", map[string]any{"slug": slug})
			if vp == browsertest.Desktop {
				in[bool](p, `(() => { const s = d.getElementById("pick-shape"); s.value = "pill"; s.dispatchEvent(new Event("change")); return true; })()`)
				in[bool](p, `(() => { const s = d.getElementById("pick-mode"); s.value = "dark"; s.dispatchEvent(new Event("change")); return true; })()`)
				code := browsertest.Eval[string](p.Page, `until(() => card().getElementById("embed").value.includes("shape=pill") && card().getElementById("embed").value.includes("mode=dark") && card().getElementById("embed").value, "embed code")`)
				in[bool](p, `(Object.defineProperty(d.defaultView.navigator, "clipboard", {value: {writeText: async (s) => { d.defaultView.copied = s; }}}), true)`)
				in[bool](p, `(d.querySelector("[data-action=copy]").click(), true)`)
				copied := browsertest.Eval[string](p.Page, `until(() => card().defaultView.copied, "copy")`)
				_, want := call(t, "get_badges", map[string]any{"slug": slug, "shape": "pill", "mode": "dark"})
				wantCode := want["items"].([]any)[0].(map[string]any)["embed_html"]
				if copied != wantCode || code != wantCode {
					t.Errorf("badge code copied %q (shown %q), get_badges says %q", copied, code, wantCode)
				}
			}
			browsertest.Eval[any](p.Page, `until(() => card().querySelector(".badge-preview img").complete && card().querySelector(".badge-preview img").naturalWidth > 0, "preview")`)
			p.noOutside("badges")
			p.Shot("badges")
			// Every card was rendered, and each checked above for outside
			// requests (noOutside after each show).
			var cards []string
			for _, c := range apps.Cards {
				cards = append(cards, c.URI())
			}
			if shown := browsertest.Eval[[]string](p.Page, "[...new Set(shown)].sort()"); !slices.Equal(shown, slices.Sorted(slices.Values(cards))) {
				t.Errorf("cards rendered %v, want every card %v", shown, cards)
			}
			// The host's MCP client tries the optional GET stream, which a
			// stateless server answers 405 (as the spec allows): that one is
			// the host's, not a card's.
			for _, e := range p.TakeConsoleErrors() {
				if !strings.Contains(e, "405 (Method Not Allowed) ("+env.URL+"/mcp)") {
					t.Errorf("console: %s", e)
				}
			}
		})
	}
}
