package tools

import (
	"context"
	"testing"
	"time"
)

// TestFree_UnhideResumesBadgeChecks: a badge check that falls while the site
// team has a free listing hidden ends its checks (a hidden listing is not
// checked); unhiding puts the listing back in its status and resumes the
// checks at once, so a badge added meanwhile schedules it without the owner
// calling choose_free_listing again.
func TestFree_UnhideResumesBadgeChecks(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	clock, _ := withFreeLaunch(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	key := env.apiKey(t, "unhide@example.com")
	call := restCaller(env, key)
	freeSetting(t, env, "badge_check_hours", 24)
	ctx := context.Background()

	id, slug := home.freeListing(t, env, "unhide@example.com", "/u/")
	if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 200 || f["status"] != "awaiting_badge" {
		t.Fatalf("choose_free_listing: %d %v", st, f)
	}
	checks := countBadgeChecks(t, env, id)
	if err := env.console.HideListing(ctx, "ops@example.com", id, "Checking a complaint."); err != nil {
		t.Fatal(err)
	}
	clock.Set(catNow.Add(24 * time.Hour))
	env.runJobs(t) // the check due now finds the listing hidden
	if n := countBadgeChecks(t, env, id); n != checks {
		t.Fatalf("a hidden listing's homepage was checked (%d -> %d checks)", checks, n)
	}
	if next := nextBadgeCheck(t, call, id); next != "" {
		t.Fatalf("hidden: next check %q, want none", next)
	}

	home.set("/u/", `<a href="`+env.svc.Site.BaseURL+`/listings/`+slug+`">Launchdir</a>`)
	unhidden := catNow.Add(30 * time.Hour)
	clock.Set(unhidden)
	if err := env.console.UnhideListing(ctx, "ops@example.com", id); err != nil {
		t.Fatal(err)
	}
	if next := nextBadgeCheck(t, call, id); next != unhidden.Format(time.RFC3339) {
		t.Fatalf("unhidden: next check %q, want %s (at once)", next, unhidden.Format(time.RFC3339))
	}
	if l := badgeCheckAfterJobs(t, env, call, id, unhidden); l["status"] != "scheduled" {
		t.Fatalf("the resumed check found the badge: status %v, want scheduled", l["status"])
	}
	if next := nextBadgeCheck(t, call, id); next == "" {
		t.Fatalf("after the resumed check: no next check")
	}
}
