package tools

import (
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestWebhooks_ConsoleTakesListingDown: the site team's hide, unpublish and
// merge take a listing out of public view, and its owners' endpoints get
// listing.unpublished (status and the reason the owners see), written with
// the change, as a free listing whose badge check sends it back does.
// Unhiding raises listing.published (status as before), not listing.live or
// listing.scheduled again; hiding or unpublishing a listing nobody sees
// raises nothing. Before, the console raised no listing event at all.
func TestWebhooks_ConsoleTakesListingDown(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withWebhooks(t, env)
	const email, ops = "downhooks@example.com", "ops@launchdir.test"
	key := env.apiKey(t, email)
	rcv := hooksFor(t, env, []string{key}, []map[string]any{{"events": []any{"listing.published", "listing.scheduled",
		"listing.live", "listing.unpublished"}}})[0]
	ctx := t.Context()
	launched := catNow.Add(-48 * time.Hour)
	live := env.ownedListing(t, email, fixtures.Cols{"status": "live", "launch_week": "2026-11-09", "launched_at": launched.Unix(),
		"domain": "downhooks.test"})
	slug := listingColumn(t, env, live, "slug")
	from := 0
	step := func(what string, want ...string) map[string]map[string]any {
		t.Helper()
		env.runJobs(t)
		got := hooksByType(t, rcv, from)
		wantTypes(t, what, got, want...)
		from = len(rcv.received())
		return got
	}
	unpublished := func(got map[string]map[string]any, id int64, status, reason string) {
		t.Helper()
		if d := got["listing.unpublished"]; d["listing_id"] != float64(id) || d["status"] != status || d["reason"] != reason || d["slug"] == "" || d["name"] == "" {
			t.Errorf("listing.unpublished data %v, want listing %d %s, reason %q", d, id, status, reason)
		}
	}

	// Hidden: unpublished; unhidden: published again (live), nothing else.
	if err := env.console.HideListing(ctx, ops, live, "Reported as spam; checking."); err != nil {
		t.Fatal(err)
	}
	got := step("hidden", "listing.unpublished")
	unpublished(got, live, "hidden", "Reported as spam; checking.")
	if d := got["listing.unpublished"]; d["slug"] != slug {
		t.Errorf("listing.unpublished slug %v, want %s", d["slug"], slug)
	}
	if err := env.console.UnhideListing(ctx, ops, live); err != nil {
		t.Fatal(err)
	}
	got = step("unhidden", "listing.published")
	if d := got["listing.published"]; d["listing_id"] != float64(live) || d["status"] != "live" {
		t.Errorf("listing.published data %v, want listing %d live", d, live)
	}

	// Unpublished: unpublished (archived) with the reason.
	if err := env.console.UnpublishListing(ctx, ops, live, "The company closed."); err != nil {
		t.Fatal(err)
	}
	unpublished(step("unpublished", "listing.unpublished"), live, "archived", "The company closed.")

	// A scheduled listing hidden then unhidden: not scheduled again.
	sched := env.ownedListing(t, email, fixtures.Cols{"status": "scheduled", "launch_week": "2027-01-04",
		"scheduled_at": time.Date(2027, 1, 4, 0, 0, 0, 0, time.UTC).Unix()})
	if err := env.console.HideListing(ctx, ops, sched, "Checking the claims on its page."); err != nil {
		t.Fatal(err)
	}
	unpublished(step("scheduled, hidden", "listing.unpublished"), sched, "hidden", "Checking the claims on its page.")
	if err := env.console.UnhideListing(ctx, ops, sched); err != nil {
		t.Fatal(err)
	}
	if d := step("scheduled, unhidden", "listing.published")["listing.published"]; d["status"] != "scheduled" {
		t.Errorf("listing.published data %v, want scheduled", d)
	}

	// Merged into its duplicate: unpublished (merged).
	dup := env.ownedListing(t, email, fixtures.Cols{"status": "live", "launch_week": "2026-11-09", "launched_at": launched.Unix(),
		"domain": "dup.downhooks.test"})
	keep := env.ownedListing(t, email, fixtures.Cols{"status": "live", "launch_week": "2026-11-02",
		"launched_at": launched.Add(-7 * 24 * time.Hour).Unix(), "domain": "dup.downhooks.test"})
	if _, err := env.console.MergeListings(ctx, ops, dup, keep); err != nil {
		t.Fatal(err)
	}
	unpublished(step("merged", "listing.unpublished"), dup, "merged", "")

	// Not public: a draft hidden, then unpublished, raises nothing.
	draft := env.ownedListing(t, email, nil)
	if err := env.console.HideListing(ctx, ops, draft, "Spam."); err != nil {
		t.Fatal(err)
	}
	if err := env.console.UnpublishListing(ctx, ops, draft, "Spam."); err != nil {
		t.Fatal(err)
	}
	step("a draft hidden and unpublished")
}

// TestWebhooks_BadgeGoneUnpublishes: a free listing scheduled by its badge
// check goes back to awaiting_badge when a later check no longer finds the
// badge, and its owner's endpoint gets listing.unpublished (status
// awaiting_badge, no reason), the same event the site team's take-downs
// raise. Before, leaving public view raised no listing event.
func TestWebhooks_BadgeGoneUnpublishes(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	clock, _ := withFreeLaunch(t, env)
	withWebhooks(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	const email = "badgegone@example.com"
	key := env.apiKey(t, email)
	base := env.svc.Site.BaseURL
	rcv := hooksFor(t, env, []string{key}, []map[string]any{{"events": []any{"listing.published", "listing.unpublished"}}})[0]
	call := restCaller(env, key)
	clock.Set(catNow)
	id, slug := home.freeListing(t, env, email, "/gone/")
	home.set("/gone/", `<a href="`+base+`/listings/`+slug+`">Launchdir</a>`)
	if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 200 || f["status"] != "scheduled" {
		t.Fatalf("badge there at once: %d %v", st, f)
	}
	env.runJobs(t)
	wantTypes(t, "scheduled by the badge check", hooksByType(t, rcv, 0), "listing.published")
	from := len(rcv.received())
	home.set("/gone/", `<p>No badge any more.</p>`)
	clock.Set(catNow.Add(7 * time.Hour))
	listingAfterJobs(t, env, id, "awaiting_badge")
	got := hooksByType(t, rcv, from)
	wantTypes(t, "the badge gone", got, "listing.unpublished")
	if d := got["listing.unpublished"]; d["listing_id"] != float64(id) || d["slug"] != slug || d["status"] != "awaiting_badge" || d["reason"] != "" {
		t.Errorf("listing.unpublished data %v, want listing %d (%s) awaiting_badge, no reason", d, id, slug)
	}
}
