package tools

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
)

var (
	embedImgRE  = regexp.MustCompile(`<img src="([^"]+)"`)
	embedHrefRE = regexp.MustCompile(`<a href="([^"]+)"`)
)

// embedTargets returns the image and link of a badge's embed_html, unescaped.
func embedTargets(t *testing.T, embed string) (img, href string) {
	t.Helper()
	im, hr := embedImgRE.FindStringSubmatch(embed), embedHrefRE.FindStringSubmatch(embed)
	if im == nil || hr == nil {
		t.Fatalf("embed_html without an image or a link: %s", embed)
	}
	un := func(s string) string { return strings.ReplaceAll(s, "&amp;", "&") }
	return un(im[1]), un(hr[1])
}

// checkBadgeWorks fetches a badge's image and link as a visitor of the
// homepage does: the image is an SVG, the link a page that names the listing.
func checkBadgeWorks(t *testing.T, embed, name string, private ...string) {
	t.Helper()
	img, href := embedTargets(t, embed)
	res, err := http.Get(img)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("badge image %s: %d %s, want 200 image/svg+xml", img, res.StatusCode, res.Header.Get("Content-Type"))
	}
	st, page := newBrowser(t).get(href)
	if st != 200 || !strings.Contains(page, name) {
		t.Errorf("badge link %s: %d, names %q: %v", href, st, name, strings.Contains(page, name))
	}
	for _, p := range private {
		if strings.Contains(page, p) {
			t.Errorf("badge link %s shows %q, which the owner did not publish", href, p)
		}
	}
}

// TestFreeBadge_WorksWhileAwaiting: the badge that
// choose_free_listing hands out, in every shape, renders and links to a page
// that exists while the listing waits for it (awaiting_badge) and once it is
// scheduled; get_badges serves the owner's listing in both states, the same
// code, over REST and MCP. The upcoming page shows the name, tagline and
// week, not the unpublished description.
func TestFreeBadge_WorksWhileAwaiting(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	for _, tr := range []string{"rest", "mcp"} {
		t.Run(tr, func(t *testing.T) {
			t.Parallel() // a server and database copy each
			env := catTestServer(t, Options{}, true)
			clock, _ := withFreeLaunch(t, env)
			pages := web.New(env.svc)
			env.pages.Store(&pages)
			clearFreeQueue(t, env)
			home := newFreeHomepages(t)
			key := env.apiKey(t, "founder@example.com")
			call := restCaller(env, key)
			if tr == "mcp" {
				call = mcpCaller(env, key)(t)
			}
			id, slug := home.freeListing(t, env, "founder@example.com", "/p/", fixtures.Cols{"status": "submitted",
				"name": "Quietnote", "tagline": "Notes that keep quiet", "description": "SECRET-PLAN-DESCRIPTION"})
			st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id})
			if st != 200 || f["status"] != "awaiting_badge" {
				t.Fatalf("choose_free_listing: %d %v", st, f)
			}
			badge := f["badge"].(map[string]any)
			embeds := []string{badge["embed_html"].(string)}
			for _, s := range badge["shapes"].([]any) {
				embeds = append(embeds, s.(map[string]any)["embed_html"].(string))
			}
			for _, e := range embeds {
				checkBadgeWorks(t, e, "Quietnote", "SECRET-PLAN-DESCRIPTION")
			}
			if st, page := newBrowser(t).get(badge["page_url"].(string)); st != 200 || !strings.Contains(page, "Notes that keep quiet") ||
				!strings.Contains(page, freeMonday(6).Format("Jan 2, 2006")) {
				t.Errorf("upcoming page %s: %d\n%s", badge["page_url"], st, e2eClip([]byte(page)))
			}
			st, b := call(t, "get_badges", map[string]any{"slug": slug})
			if st != 200 || len(b["items"].([]any)) == 0 || b["items"].([]any)[0].(map[string]any)["embed_html"] != badge["embed_html"] {
				t.Fatalf("get_badges of the owner's awaiting listing: %d %v", st, b)
			}

			// The badge goes up; the check schedules the listing: the same code still works.
			home.set("/p/", badge["embed_html"].(string))
			clock.Set(catNow.Add(6 * time.Hour))
			if l := badgeCheckAfterJobs(t, env, call, id, clock.Now()); l["status"] != "scheduled" {
				t.Fatalf("after the check with the badge: %v", l)
			}
			for _, e := range embeds {
				checkBadgeWorks(t, e, "Quietnote")
			}
			st, b = call(t, "get_badges", map[string]any{"slug": slug})
			if st != 200 || b["items"].([]any)[0].(map[string]any)["embed_html"] != badge["embed_html"] {
				t.Fatalf("get_badges of the scheduled listing: %d %v", st, b)
			}
		})
	}
}
