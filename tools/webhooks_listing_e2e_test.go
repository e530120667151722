package tools

import (
	"net/url"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// listingEvents are the listing state events an endpoint subscribes to here.
var listingEvents = []any{"listing.published", "listing.scheduled", "listing.live"}

// hooksByType checks that every POST rcv got since from is verified and
// returns each one's data by type; a type that came twice fails.
func hooksByType(t *testing.T, rcv *hookReceiver, from int) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, g := range rcv.received()[from:] {
		if !g.verified || g.body["id"] != g.id {
			t.Fatalf("a %s POST that a Standard Webhooks verifier refuses: %+v", g.typ, g)
		}
		if _, twice := out[g.typ]; twice {
			t.Fatalf("%s came twice: %+v", g.typ, rcv.received()[from:])
		}
		out[g.typ], _ = g.body["data"].(map[string]any)
	}
	return out
}

// wantTypes fails unless got holds exactly the types want.
func wantTypes(t *testing.T, what string, got map[string]map[string]any, want ...string) {
	t.Helper()
	ok := len(got) == len(want)
	for _, w := range want {
		_, in := got[w]
		ok = ok && in
	}
	if !ok {
		t.Fatalf("%s: events %v, want %v", what, got, want)
	}
}

// TestWebhooks_ListingEventsFreeLaunch: the free launch over REST and MCP.
// choose_free_listing with the badge on the homepage schedules the listing
// at once: listing.published (status scheduled) and listing.scheduled (its
// week), written with the badge check; its week starting raises listing.live
// (the week-start job). A listing whose week has already started goes live
// at the badge check itself: listing.published (status live) and
// listing.live from that check. Repeats raise nothing more.
func TestWebhooks_ListingEventsFreeLaunch(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	clock, _ := withFreeLaunch(t, env)
	withWebhooks(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	key := env.apiKey(t, "freehooks@example.com")
	base := env.svc.Site.BaseURL
	rcv := hooksFor(t, env, []string{key}, []map[string]any{{"events": listingEvents}})[0]
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		clock.Set(catNow)
		// Scheduled at the check that finds the badge.
		from := len(rcv.received())
		id, slug := home.freeListing(t, env, "freehooks@example.com", "/s-"+tr+"/")
		home.set("/s-"+tr+"/", `<a href="`+base+`/listings/`+slug+`">Launchdir</a>`)
		if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 200 || f["status"] != "scheduled" {
			t.Fatalf("badge there at once: %d %v", st, f)
		}
		env.runJobs(t)
		got := hooksByType(t, rcv, from)
		wantTypes(t, "scheduled by the badge check", got, "listing.published", "listing.scheduled")
		page := base + "/listings/" + slug
		if d := got["listing.published"]; d["listing_id"] != float64(id) || d["slug"] != slug || d["status"] != "scheduled" || d["page_url"] != page || d["name"] == "" {
			t.Errorf("listing.published data %v, want listing %d (%s) scheduled at %s", d, id, slug, page)
		}
		if d := got["listing.scheduled"]; d["listing_id"] != float64(id) || d["launch_week"] != freeWeek(6) || d["page_url"] != page {
			t.Errorf("listing.scheduled data %v, want listing %d for %s", d, id, freeWeek(6))
		}
		// A repeat and the next check that finds the badge again: nothing.
		call(t, "choose_free_listing", map[string]any{"listing_id": id})
		clock.Set(catNow.Add(7 * time.Hour))
		env.runJobs(t)
		if n := len(rcv.received()) - from; n != 2 {
			t.Fatalf("%d POSTs after a repeat and another check, want still 2", n)
		}
		// Its week starts: listing.live.
		clock.Set(freeMonday(6))
		listingAfterJobs(t, env, id, "live")
		got = hooksByType(t, rcv, from+2)
		wantTypes(t, "its week started", got, "listing.live")
		if d := got["listing.live"]; d["listing_id"] != float64(id) || d["launched_at"] != freeMonday(6).Format(time.RFC3339) {
			t.Errorf("listing.live data %v, want listing %d live at %s", d, id, freeMonday(6))
		}

		// Live at the badge check: a listing awaiting its badge whose week
		// has started goes live when the check finds it.
		clock.Set(catNow)
		from = len(rcv.received())
		mon := domain.Monday(catNow)
		late, lslug := home.freeListing(t, env, "freehooks@example.com", "/l-"+tr+"/", fixtures.Cols{"status": "awaiting_badge",
			"launch_week": mon.Format(domain.DateLayout), "scheduled_at": mon.Unix()})
		home.set("/l-"+tr+"/", `<a href="`+base+`/listings/`+lslug+`">Launchdir</a>`)
		if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": late}); st != 200 || f["status"] != "live" {
			t.Fatalf("badge found in its started week: %d %v, want live", st, f)
		}
		env.runJobs(t)
		got = hooksByType(t, rcv, from)
		wantTypes(t, "live at the badge check", got, "listing.published", "listing.live")
		if d := got["listing.published"]; d["listing_id"] != float64(late) || d["status"] != "live" {
			t.Errorf("listing.published data %v, want listing %d live", d, late)
		}
		if d := got["listing.live"]; d["listing_id"] != float64(late) || d["launched_at"] != catNow.Format(time.RFC3339) || d["slug"] != lslug {
			t.Errorf("listing.live data %v, want listing %d live at %s", d, late, catNow)
		}
	})
}

// TestWebhooks_ListingEventsPaidLaunch: paying a launch order with a week
// raises listing.published (status scheduled) and listing.scheduled, written
// with the line's fulfilment; the week starting raises listing.live. A
// launch without a week is live at its fulfilment: listing.published (live)
// and listing.live. A paid launch that moves a free scheduled listing to
// another week raises listing.scheduled alone (it was public already).
func TestWebhooks_ListingEventsPaidLaunch(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withOrdering(t, env, domain.TestPayments{})
	withWebhooks(t, env)
	key := env.apiKey(t, "paidhooks@example.com")
	rcv := hooksFor(t, env, []string{key}, []map[string]any{{"events": listingEvents}})[0]
	call := restCaller(env, key)
	buy := func(t *testing.T, item map[string]any) {
		t.Helper()
		item["product"] = "launch"
		st, o := call(t, "create_checkout", map[string]any{"items": []any{item}, "billing_country": "DE"})
		if st != 201 {
			t.Fatalf("create_checkout %v: %d %v", item, st, o)
		}
		payOnPage(t, env, o["checkout_url"].(string), url.Values{"name": {"Ada GmbH"}, "address": {"Hauptstr. 1, Berlin"}, "country": {"DE"}})
		fulfilledOrder(t, env, call, o["number"].(string))
		env.runJobs(t)
	}

	week := "2026-11-30"
	scheduled := env.ownedListing(t, "paidhooks@example.com")
	buy(t, map[string]any{"listing_id": scheduled, "week": week})
	got := hooksByType(t, rcv, 0)
	wantTypes(t, "a paid launch with a week", got, "listing.published", "listing.scheduled")
	if d := got["listing.published"]; d["listing_id"] != float64(scheduled) || d["status"] != "scheduled" {
		t.Errorf("listing.published data %v, want listing %d scheduled", d, scheduled)
	}
	if d := got["listing.scheduled"]; d["listing_id"] != float64(scheduled) || d["launch_week"] != week {
		t.Errorf("listing.scheduled data %v, want listing %d for %s", d, scheduled, week)
	}

	from := len(rcv.received())
	now := env.ownedListing(t, "paidhooks@example.com")
	buy(t, map[string]any{"listing_id": now})
	got = hooksByType(t, rcv, from)
	wantTypes(t, "a paid launch without a week", got, "listing.published", "listing.live")
	if d := got["listing.live"]; d["listing_id"] != float64(now) || d["launched_at"] == nil {
		t.Errorf("listing.live data %v, want listing %d", d, now)
	}

	from = len(rcv.received())
	moved := env.ownedListing(t, "paidhooks@example.com", fixtures.Cols{"status": "scheduled", "launch_week": "2027-01-04",
		"scheduled_at": time.Date(2027, 1, 4, 0, 0, 0, 0, time.UTC).Unix()})
	buy(t, map[string]any{"listing_id": moved, "week": week})
	got = hooksByType(t, rcv, from)
	wantTypes(t, "a paid launch moving a scheduled listing", got, "listing.scheduled")
	if d := got["listing.scheduled"]; d["listing_id"] != float64(moved) || d["launch_week"] != week {
		t.Errorf("listing.scheduled data %v, want listing %d for %s", d, moved, week)
	}

	// The week starts: listing.live for both listings scheduled for it.
	from = len(rcv.received())
	env.clock.Set(time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC))
	listingAfterJobs(t, env, scheduled, "live")
	listingAfterJobs(t, env, moved, "live")
	if got := rcv.received()[from:]; len(got) != 2 || got[0].typ != "listing.live" || got[1].typ != "listing.live" {
		t.Fatalf("the week started: %+v, want two listing.live", got)
	}
}

// TestWebhooks_TrophyVerified: the trophy check (the clock's job) that
// verifies a trophy from its award page raises trophy.verified, written with
// the decision, once: the re-check 30 days later that finds the page again
// raises nothing; a trophy the site team verifies by hand (the console's
// DecideTrophy) after it was rejected raises it too; a rejected trophy none.
func TestWebhooks_TrophyVerified(t *testing.T) {
	t.Parallel()
	env := newTrophyEnv(t)
	withWebhooks(t, env.catEnv)
	key := env.apiKey(t, "cabinet@example.com")
	rcv := hooksFor(t, env.catEnv, []string{key}, []map[string]any{{"events": []any{"trophy.verified"}}})[0]
	call := restCaller(env.catEnv, key)
	id, slug := env.trophyListing(t, "cabinet@example.com", "Hookcraft", "hookcraft.test")
	env.page("/won", `<!doctype html><html><head><title>Product of the Day</title></head><body><h1>Product of the Day</h1>`+
		`<a href="https://hookcraft.test/">Hookcraft</a></body></html>`)
	won := addTrophy(t, call, map[string]any{"listing_id": id, "platform": "Product Hunt", "title": "Product of the Day", "rank": 1,
		"date": "2026-11-10", "award_url": env.awards.URL + "/won"})
	other := addTrophy(t, call, map[string]any{"listing_id": id, "platform": "Hunt", "title": "Golden", "date": "2026-11-10",
		"award_url": env.awards.URL + "/nothing"})
	env.runJobs(t)
	d := oneHookOf(t, rcv, "trophy.verified")
	if d["trophy_id"] != won || d["listing_id"] != float64(id) || d["slug"] != slug || d["platform"] != "Product Hunt" ||
		d["title"] != "Product of the Day" || d["rank"] != float64(1) || d["how"] != "page" {
		t.Errorf("trophy.verified data %v, want trophy %v of listing %d", d, won, id)
	}

	t.Cleanup(func() { env.clock.Set(catNow) })
	env.clock.Set(catNow.Add(domainTrophyRecheck + time.Hour))
	env.runJobs(t)
	if n := len(rcv.received()); n != 1 {
		t.Fatalf("%d POSTs after a re-check that verified it again, want still 1", n)
	}

	if _, err := env.svc.DecideTrophy(t.Context(), int64(other), true, "Seen behind the sign-in."); err != nil {
		t.Fatal(err)
	}
	env.runJobs(t)
	got := rcv.received()
	if len(got) != 2 || got[1].typ != "trophy.verified" || !got[1].verified {
		t.Fatalf("after the site team verified the rejected trophy: %+v, want a second verified trophy.verified", got)
	}
	if d, _ := got[1].body["data"].(map[string]any); d["trophy_id"] != other || d["rank"] != nil || d["how"] != "site_team" {
		t.Errorf("trophy.verified data %v, want trophy %v by the site team, no rank", d, other)
	}
	if _, err := env.svc.DecideTrophy(t.Context(), int64(other), true, ""); err != nil {
		t.Fatal(err)
	}
	env.runJobs(t)
	if n := len(rcv.received()); n != 2 {
		t.Errorf("%d POSTs after verifying a verified trophy again, want still 2", n)
	}
}
