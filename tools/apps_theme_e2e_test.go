//go:build e2e

package tools

import (
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web"
	"github.com/launchdir/launchdir/web/browsertest"
)

// TestApps_HostTheme: a card follows the host context (docs/apps.md,
// "Theme"), in the official AppBridge host with the real /mcp. The host
// says dark while the iframe's prefers-color-scheme is light: the card is
// the site's dark theme; the host changes to light (setHostContext): the
// card turns light. The host's style variables (styles.variables) colour
// the card's background, text and font; the PAID colour stays the site's.
func TestApps_HostTheme(t *testing.T) {
	t.Parallel() // owns its server, data and processes (e2e tier: docs/testing.md)
	dir, node := appsBuildDir(t)
	appsRun(t, dir, node, "node_modules/esbuild/bin/esbuild", "testhost/host.js", "--bundle", "--format=esm",
		"--log-level=warning", "--outfile=testhost/host.bundle.js")
	env := catTestServer(t, Options{}, true)
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
	b := browsertest.Shared(t)
	style := func(p cardPage, prop string) string {
		return in[string](p, `d.defaultView.getComputedStyle(d.body).`+prop)
	}
	const lightBg, darkBg = "rgb(255, 255, 255)", "rgb(13, 17, 23)"

	// The host is dark; the page (and so the iframe's prefers-color-scheme) is light.
	p := cardPage{b.NewPage(t, browsertest.Desktop), t}
	p.Go(env.URL + "/apps-host/host.html?hostTheme=dark")
	p.show("get_leaderboard", map[string]any{"board": "billboard"})
	if in[bool](p, `d.defaultView.matchMedia("(prefers-color-scheme: dark)").matches`) {
		t.Fatal("the card's prefers-color-scheme is dark without the host asking: the test proves nothing")
	}
	if bg := style(p, "backgroundColor"); bg != darkBg {
		t.Errorf("host theme dark: card background %s, want the site's dark --bg %s", bg, darkBg)
	}
	if cs := in[string](p, `d.defaultView.getComputedStyle(d.documentElement).colorScheme`); cs != "dark" {
		t.Errorf("host theme dark: color-scheme %q, want dark (form controls)", cs)
	}
	p.Shot("billboard-host-dark")
	browsertest.Eval[bool](p.Page, `(bridge.setHostContext({theme: "light", displayMode: "inline"}), true)`)
	browsertest.Eval[any](p.Page, `until(() => getComputedStyle(card().body).backgroundColor === "`+lightBg+`", "light after the host changed theme")`)

	// The host's style variables.
	vars := `{"--color-background-primary":"rgb(1, 2, 3)","--color-text-primary":"rgb(250, 240, 230)","--color-border-primary":"rgb(9, 9, 9)","--font-sans":"Georgia, serif"}`
	v := cardPage{b.NewPage(t, browsertest.Phone), t}
	v.Go(env.URL + "/apps-host/host.html?hostTheme=dark&vars=" + url.QueryEscape(vars))
	v.show("get_leaderboard", map[string]any{"board": "billboard"})
	if bg, fg, font := style(v, "backgroundColor"), style(v, "color"), style(v, "fontFamily"); bg != "rgb(1, 2, 3)" ||
		fg != "rgb(250, 240, 230)" || !strings.Contains(font, "Georgia") {
		t.Errorf("host style variables: background %s, colour %s, font %s; want the host's", bg, fg, font)
	}
	if paid := in[string](v, `d.defaultView.getComputedStyle(d.querySelector(".tag.paid")).color`); paid != "rgb(255, 179, 122)" {
		t.Errorf("PAID mark colour %s, want the site's dark --paid", paid)
	}
	v.Shot("billboard-host-vars")
	for _, pg := range []cardPage{p, v} {
		for _, e := range pg.TakeConsoleErrors() {
			if !strings.Contains(e, "405 (Method Not Allowed) ("+env.URL+"/mcp)") {
				t.Errorf("console: %s", e)
			}
		}
	}
}
