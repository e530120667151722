//go:build e2e

package tools

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
	"github.com/launchdir/launchdir/web/browsertest"
)

// TestApps_BadgeCardNamesTheListing: the badge card, drawn by the test host
// (the official AppBridge on the real /mcp) in headless Chromium, heads its
// picker "Badges for <the listing's name>", as text (an ampersand in the
// name shows as one), at desktop and phone width; before, the heading showed
// the listing's slug.
func TestApps_BadgeCardNamesTheListing(t *testing.T) {
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
	const email = "badgecard@example.com"
	key := env.apiKey(t, email)
	id := env.ownedListing(t, email, fixtures.Cols{"status": "live", "name": "Hale & Co. Bikes", "launch_week": "2026-11-09",
		"launched_at": catNow.Add(-48 * time.Hour).Unix()})
	slug := listingColumn(t, env, id, "slug")

	b := browsertest.Shared(t)
	for _, vp := range browsertest.Viewports {
		t.Run(vp.Name, func(t *testing.T) {
			p := cardPage{b.NewPage(t, vp), t}
			p.Go(env.URL + "/apps-host/host.html?key=" + key)
			p.show("get_badges", map[string]any{"slug": slug})
			if got := in[string](p, `d.querySelector("h2").textContent`); got != "Badges for Hale & Co. Bikes" {
				t.Errorf("badge card heading %q, want %q (not the slug %s)", got, "Badges for Hale & Co. Bikes", slug)
			}
			p.noOutside("badges")
			p.Shot("badges-named")
		})
	}
}
