package tools

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestSettings_FreeQueueWithoutRestart: the free queue's site settings
// (docs/console.md "Site settings") changed by the site team, as
// /admin/settings and "launchdir admin settings set" change them, move the
// week choose_free_listing gives on the next call over REST: capacity 1
// fills week 6, so the next listing gets week 7; capacity 2 opens week 6
// again; the window 3-3 gives week 3. A refused change moves nothing.
func TestSettings_FreeQueueWithoutRestart(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withFreeLaunch(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	call := restCaller(env, env.apiKey(t, "settings@example.com"))
	set := func(values map[string]string) error {
		return env.console.SetSiteSettings(context.Background(), console.ActorCommandLine, values)
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

// TestSettings_VoteAgeWithoutRestart: vote_min_account_age_hours, changed
// by the site team, decides on the next vote through the real pages whether
// a fresh account's vote is held: 0 counts it at once; 48 holds the next
// fresh account's vote as new_account.
func TestSettings_VoteAgeWithoutRestart(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	env.svc.RegisterVoteJobs(env.quietRunner())
	signIn := withPages(t, env)
	env.apiKey(t, "owner@example.com")
	live := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16", "launched_at": catNow.Unix()})
	listingPage := "/listings/" + slugOf(t, env, live)
	vote := func(email, status string) {
		t.Helper()
		before := len(voteRows(t, env, live))
		if st, _, loc := page(t, signIn(email), "POST", env.URL+listingPage+"/vote", url.Values{"next": {listingPage}}); st != http.StatusSeeOther || loc != listingPage {
			t.Fatalf("%s's vote: %d %s", email, st, loc)
		}
		rows := voteRows(t, env, live)
		if len(rows) != before+1 || rows[len(rows)-1]["status"] != status {
			t.Fatalf("%s's vote: %v, want the last one %s", email, rows, status)
		}
	}
	set := func(v string) {
		t.Helper()
		if err := env.console.SetSiteSettings(context.Background(), console.ActorCommandLine, map[string]string{domain.SettingVoteMinAgeHours: v}); err != nil {
			t.Fatal(err)
		}
	}
	vote("fresh1@example.com", "held") // the default, 24 hours
	set("0")
	vote("fresh2@example.com", "counted")
	set("48")
	vote("fresh3@example.com", "held")
}
