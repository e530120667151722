package tools

import (
	"testing"
	"time"
)

// TestWebhooks_BadgeFoundAndLost: the badge check raises badge.found when
// it finds the badge after not finding it (the first check included) and
// badge.lost when it no longer finds it, each written with the check; a
// check that finds what the previous one found raises nothing.
func TestWebhooks_BadgeFoundAndLost(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	clock, _ := withFreeLaunch(t, env)
	withWebhooks(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	key := env.apiKey(t, "badger@example.com")
	call := restCaller(env, key)
	base := env.svc.Site.BaseURL
	freeSetting(t, env, "badge_check_hours", 24)
	rcvs := hooksFor(t, env, []string{key}, []map[string]any{{"events": []any{"badge.found", "badge.lost"}}})

	id, slug := home.freeListing(t, env, "badger@example.com", "/b/")
	link := base + `/listings/` + slug
	home.set("/b/", `<a href="`+link+`">Launchdir</a>`)
	if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 200 || f["status"] != "scheduled" {
		t.Fatalf("badge there at once: %d %v", st, f)
	}
	env.runJobs(t)
	data := oneHookOf(t, rcvs[0], "badge.found")
	if data["listing_id"] != float64(id) || data["slug"] != slug || data["badge_url"] != link || data["checked_at"] != catNow.Format(time.RFC3339) {
		t.Errorf("badge.found data %v, want listing %d (%s) link %s at %s", data, id, slug, link, catNow.Format(time.RFC3339))
	}

	// Still there at the next check: nothing more.
	clock.Set(catNow.Add(24 * time.Hour))
	badgeCheckAfterJobs(t, env, call, id, clock.Now())
	env.runJobs(t)
	if got := rcvs[0].received(); len(got) != 1 {
		t.Fatalf("a check finding the badge again raised %d events in all, want still 1: %+v", len(got), got)
	}

	// Gone: badge.lost.
	home.set("/b/", "")
	clock.Set(catNow.Add(48 * time.Hour))
	badgeCheckAfterJobs(t, env, call, id, clock.Now())
	env.runJobs(t)
	got := rcvs[0].received()
	if len(got) != 2 || got[1].typ != "badge.lost" || !got[1].verified {
		t.Fatalf("after the badge went: %d POSTs %+v, want a verified badge.lost second", len(got), got)
	}
	data, _ = got[1].body["data"].(map[string]any)
	if data["listing_id"] != float64(id) || data["slug"] != slug || data["reason"] != "not_found" || data["checked_at"] != clock.Now().Format(time.RFC3339) {
		t.Errorf("badge.lost data %v", data)
	}
}
