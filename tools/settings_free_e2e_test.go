package tools

import (
	"context"
	"fmt"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestSettings_FreeQueueWithoutRestart: the free queue's site settings
// (docs/console.md "Site settings") changed by the site team, as
// /admin/settings and "launchdir admin settings set" change them, move the
// week choose_free_listing gives on the next call over REST: capacity 1
// fills week 6, so the next listing gets week 7; capacity 2 opens week 6
// again; the window 3-3 gives week 3. A refused change moves nothing.
func TestSettings_FreeQueueWithoutRestart(t *testing.T) {
	env := catTestServer(t, Options{}, true)
	withFreeLaunch(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	call := restCaller(env, env.apiKey(t, "settings@example.com"))
	set := func(values map[string]string) error {
		return env.svc.SetSiteSettings(context.Background(), domain.ActorCommandLine, values)
	}
	var ids []int64
	for i := range 5 {
		id, _ := home.freeListing(t, env, "settings@example.com", fmt.Sprintf("/s%d/", i))
		ids = append(ids, id)
	}
	choose := func(id int64, want string) {
		t.Helper()
		if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 200 || f["launch_week"] != want {
			t.Fatalf("listing %d: %d %v, want week %s", id, st, f, want)
		}
	}
	if err := set(map[string]string{domain.SettingFreeWeekCapacity: "1"}); err != nil {
		t.Fatal(err)
	}
	choose(ids[0], freeWeek(6))
	choose(ids[1], freeWeek(7))
	if err := set(map[string]string{domain.SettingFreeWeekCapacity: "1001"}); err == nil {
		t.Fatal("capacity 1001 accepted")
	}
	choose(ids[2], freeWeek(8))
	if err := set(map[string]string{domain.SettingFreeWeekCapacity: "2"}); err != nil {
		t.Fatal(err)
	}
	choose(ids[3], freeWeek(6))
	if err := set(map[string]string{domain.SettingFreeWeeksMin: "3", domain.SettingFreeWeeksMax: "3"}); err != nil {
		t.Fatal(err)
	}
	choose(ids[4], freeWeek(3))
}
