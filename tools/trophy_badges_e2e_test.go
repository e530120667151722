package tools

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/web"
)

// TestTrophyBadges_InCabinet: over REST and MCP, a trophy verified by its
// award page carries badge {label, svg_url, embed_html} in get_trophy_cabinet
// and list_my_trophies; the embed code's image is served and links to the
// listing page; a rejected or pending trophy has no badge, and its address
// is a 404.
func TestTrophyBadges_InCabinet(t *testing.T) {
	t.Parallel()
	env := newTrophyEnv(t)
	pages := web.New(env.svc)
	env.pages.Store(&pages)
	key := env.apiKey(t, "maker@example.com")
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		dom := "badgecraft-" + tr + ".test"
		name := "Badgecraft " + strings.ToUpper(tr)
		id, slug := env.trophyListing(t, "maker@example.com", name, dom)
		env.page("/win-"+tr, `<!doctype html><html><head><title>Product of the Day</title></head><body><a href="https://`+dom+`/">`+name+`</a></body></html>`)
		env.page("/lose-"+tr, `<!doctype html><html><head><title>Product of the Day</title></head><body><p>Someone else</p></body></html>`)
		base := map[string]any{"listing_id": id, "platform": "Product Hunt", "date": "2026-11-10", "title": "Product of the Day", "rank": 1}
		with := func(url string) map[string]any {
			m := map[string]any{"award_url": url}
			for k, v := range base {
				m[k] = v
			}
			return m
		}
		won := addTrophy(t, call, with(env.awards.URL+"/win-"+tr))
		lost := addTrophy(t, call, with(env.awards.URL+"/lose-"+tr))
		env.runJobs(t)
		pending := addTrophy(t, call, with(env.awards.URL+"/later-"+tr))

		st, cab := call(t, "get_trophy_cabinet", map[string]any{"slug": slug})
		if st != 200 {
			t.Fatalf("get_trophy_cabinet: %d %v", st, cab)
		}
		got := trophyByID(cab, won)
		b, _ := got["badge"].(map[string]any)
		if got["state"] != "verified" || b == nil || b["label"] != "#1 Product of the Day - Product Hunt" ||
			!strings.Contains(b["svg_url"].(string), "/badges/"+slug+"/trophies/") {
			t.Fatalf("the verified trophy's badge: %v", got)
		}
		checkBadgeWorks(t, b["embed_html"].(string), name)

		_, mine := call(t, "list_my_trophies", map[string]any{"listing_id": id})
		for _, c := range []struct {
			id    float64
			badge bool
		}{{won, true}, {lost, false}, {pending, false}} {
			it := trophyByID(mine, c.id)
			if _, has := it["badge"]; has != c.badge || it == nil {
				t.Errorf("list_my_trophies trophy %v (%v): badge %v, want %v", c.id, it["state"], it["badge"], c.badge)
			}
			if c.badge {
				continue
			}
			u := strings.Replace(b["svg_url"].(string), "/trophies/"+formatID(won)+".svg", "/trophies/"+formatID(c.id)+".svg", 1)
			res, err := http.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s (%v): %d, want 404", u, it["state"], res.StatusCode)
			}
		}
	})
}

func formatID(id float64) string { return strconv.FormatInt(int64(id), 10) }
