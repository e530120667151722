package tools

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// oneHookOf is the only POST rcv got, which must be a verified event of typ.
func oneHookOf(t *testing.T, rcv *hookReceiver, typ string) map[string]any {
	t.Helper()
	got := rcv.received()
	if len(got) != 1 || got[0].typ != typ || !got[0].verified || got[0].body["id"] != got[0].id {
		t.Fatalf("receiver got %d POSTs %+v, want one verified %s", len(got), got, typ)
	}
	data, _ := got[0].body["data"].(map[string]any)
	return data
}

// TestWebhooks_UpdatePosted: posting an update (REST and MCP) raises
// update.posted with the update's data, written with the update: the
// poster's endpoint and a co-owner's each get it once; a stranger's endpoint
// and an endpoint not subscribed to it get nothing, and a co-owner without an
// endpoint gets no outbox row.
func TestWebhooks_UpdatePosted(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withFanOut(t, env)
	withWebhooks(t, env)
	key := env.apiKey(t, "poster@example.com")
	coKey := env.apiKey(t, "co@example.com")
	strangerKey := env.apiKey(t, "stranger@example.com")
	live := env.ownedListing(t, "poster@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16"})
	slug := slugOf(t, env, live)
	for _, email := range []string{"co@example.com", "silent@example.com"} {
		fixtures.Insert(t, env.db, "listing_owners", fixtures.Cols{"listing_id": live, "user_id": fixtures.User(t, env.db, email), "created_at": 0})
	}
	silent := fixtures.User(t, env.db, "silent@example.com")

	for _, tr := range contentTransports(env, key) {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			rcv, coRcv, otherRcv, strangerRcv := newHookReceiver(t, env.clock.Now), newHookReceiver(t, env.clock.Now),
				newHookReceiver(t, env.clock.Now), newHookReceiver(t, env.clock.Now)
			id, secret := createHook(t, call, map[string]any{"url": rcv.URL, "events": []any{"update.posted"}, "listing_ids": []any{live}})
			rcv.setSecrets(secret)
			other, _ := createHook(t, call, map[string]any{"url": otherRcv.URL, "events": []any{"draft.ready", "review.posted"}})
			coID, coSecret := createHook(t, restCaller(env, coKey), map[string]any{"url": coRcv.URL, "events": []any{"update.posted"}})
			coRcv.setSecrets(coSecret)
			strID, _ := createHook(t, restCaller(env, strangerKey), map[string]any{"url": strangerRcv.URL, "events": []any{"update.posted"}})
			t.Cleanup(func() {
				for _, h := range []struct {
					k  string
					id int64
				}{{key, id}, {key, other}, {coKey, coID}, {strangerKey, strID}} {
					restCaller(env, h.k)(t, "delete_webhook", map[string]any{"webhook_id": h.id})
				}
			})

			title := "Offline mode via " + tr.name
			st, u := call(t, "post_listing_update", map[string]any{"listing_id": live, "title": title, "body": "It works on planes."})
			if st != 201 || u["id"] == nil {
				t.Fatalf("post_listing_update: %d %v", st, u)
			}
			env.runJobs(t)
			for _, r := range []*hookReceiver{rcv, coRcv} {
				data := oneHookOf(t, r, "update.posted")
				if data["update_id"] != u["id"] || data["listing_id"] != float64(live) || data["slug"] != slug ||
					data["title"] != title || data["page_url"] != env.URL+"/listings/"+slug {
					t.Errorf("update.posted data %v, want update %v of listing %d (%s)", data, u["id"], live, slug)
				}
			}
			if n := len(otherRcv.received()) + len(strangerRcv.received()); n != 0 {
				t.Errorf("an endpoint not subscribed or a stranger's got %d POSTs", n)
			}
			if n := fixtures.Count(t, env.db, "webhook_events", fixtures.Cols{"user_id": silent}); n != 0 {
				t.Errorf("%d outbox rows for a co-owner without an endpoint", n)
			}
			env.runJobs(t)
			if n := len(rcv.received()); n != 1 {
				t.Errorf("%d POSTs after running the jobs again, want still 1", n)
			}
		})
	}
}

// hooksFor creates, for each account key, an endpoint at a new receiver with
// args (url set here), deleted when t ends; it returns the receivers.
func hooksFor(t *testing.T, env *catEnv, keys []string, args []map[string]any) []*hookReceiver {
	t.Helper()
	var out []*hookReceiver
	for i, k := range keys {
		rcv := newHookReceiver(t, env.clock.Now)
		a := map[string]any{"url": rcv.URL}
		for n, v := range args[i] {
			a[n] = v
		}
		id, secret := createHook(t, restCaller(env, k), a)
		rcv.setSecrets(secret)
		t.Cleanup(func() { restCaller(env, k)(t, "delete_webhook", map[string]any{"webhook_id": id}) })
		out = append(out, rcv)
	}
	return out
}

// TestWebhooks_ClaimVerified: a DNS claim verified over REST or MCP raises
// claim.verified, written with the verification, to every owner of the
// listing: the submitter's endpoint (limited to that listing) and the
// claimant's, now a co-owner, each get it once; an owner's endpoint not
// subscribed to it gets nothing.
func TestWebhooks_ClaimVerified(t *testing.T) {
	t.Parallel()
	env := newClaimsEnv(t)
	withWebhooks(t, env.catEnv)
	key := env.apiKey(t, "claimant@example.com")
	ownerKey := env.apiKey(t, "owner@example.com")
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		dom := "hooked-" + tr + ".test"
		id, slug := env.publicListing(t, "owner@example.com", "https://"+dom+"/", dom)
		rcvs := hooksFor(t, env.catEnv, []string{key, ownerKey, ownerKey}, []map[string]any{
			{"events": []any{"claim.verified"}},
			{"events": []any{"claim.verified"}, "listing_ids": []any{id}},
			{"events": []any{"update.posted"}}})
		c := claim(t, call, map[string]any{"slug": slug, "method": "dns"})
		env.zone.set("_launchdir-claim."+dom, "launchdir-claim="+instr(c, "token"))
		if st, v := call(t, "verify_claim", map[string]any{"claim_id": c["id"]}); st != 200 || v["status"] != "verified" {
			t.Fatalf("verify_claim: %d %v", st, v)
		}
		env.runJobs(t)
		for _, r := range rcvs[:2] {
			data := oneHookOf(t, r, "claim.verified")
			if data["claim_id"] != c["id"] || data["listing_id"] != float64(id) || data["slug"] != slug || data["method"] != "dns" {
				t.Errorf("claim.verified data %v, want claim %v of listing %d (%s) by dns", data, c["id"], id, slug)
			}
		}
		if n := len(rcvs[2].received()); n != 0 {
			t.Errorf("an endpoint not subscribed to claim.verified got %d POSTs", n)
		}
		// Verifying again changes nothing and raises nothing.
		if st, v := call(t, "verify_claim", map[string]any{"claim_id": c["id"]}); st != 200 || v["status"] != "verified" {
			t.Fatalf("verify_claim again: %d %v", st, v)
		}
		env.runJobs(t)
		if n := len(rcvs[0].received()); n != 1 {
			t.Errorf("%d POSTs after verifying again, want still 1", n)
		}
	})
}

// TestWebhooks_ReviewPosted: a review is published, and review.posted raised
// with it, when an account old enough posts it on the listing's page (counted
// at once) and when a fresh account's held review comes due (the job on the
// clock); a held review raises nothing until then. The owner's endpoint gets
// each once; an endpoint not subscribed to it gets nothing.
func TestWebhooks_ReviewPosted(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	env.svc.RegisterReviewJobs(env.quietRunner())
	signIn := withPages(t, env)
	withWebhooks(t, env)
	key := env.apiKey(t, "owner@example.com")
	live := env.ownedListing(t, "owner@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16", "launched_at": catNow.Unix()})
	slug := slugOf(t, env, live)
	rcvs := hooksFor(t, env, []string{key, key}, []map[string]any{
		{"events": []any{"review.posted"}, "listing_ids": []any{live}}, {"events": []any{"update.posted", "claim.verified"}}})
	post := func(c *http.Client, stars string) int64 {
		t.Helper()
		if st, _, _ := page(t, c, "POST", env.URL+"/listings/"+slug+"/review", url.Values{"stars": {stars}, "body": {reviewText}}); st != http.StatusSeeOther {
			t.Fatalf("review: %d", st)
		}
		return int64(len(reviewRows(t, env, live)))
	}
	checkData := func(data map[string]any, rating float64) {
		t.Helper()
		rows := fixtures.Rows(t, env.db, "reviews", fixtures.Cols{"listing_id": live, "stars": int(rating)})
		if len(rows) != 1 || data["review_id"] != float64(fixtures.ID(t, env.db, "reviews", fixtures.Cols{"listing_id": live, "stars": int(rating)})) ||
			data["listing_id"] != float64(live) || data["slug"] != slug || data["rating"] != rating {
			t.Errorf("review.posted data %v, want the %v-star review of listing %d (%s)", data, rating, live, slug)
		}
	}

	// An account old enough: counted at once.
	old := signIn("old.hand@example.com")
	fixtures.Update(t, env.db, "users", fixtures.Cols{"created_at": catNow.AddDate(0, -1, 0).Unix()}, fixtures.Cols{"email": "old.hand@example.com"})
	post(old, "5")
	env.runJobs(t)
	checkData(oneHookOf(t, rcvs[0], "review.posted"), 5)

	// A fresh account: held, nothing raised; published when it comes due.
	fresh := signIn("fresh@example.com")
	post(fresh, "3")
	env.runJobs(t)
	if n := len(rcvs[0].received()); n != 1 {
		t.Fatalf("a held review raised an event: %d POSTs, want still 1", n)
	}
	env.clock.Advance(25 * time.Hour)
	env.runJobs(t) // the review's count job, then the fan-out and delivery it queued
	env.runJobs(t)
	got := rcvs[0].received()
	if len(got) != 2 || got[1].typ != "review.posted" || !got[1].verified {
		t.Fatalf("after the fresh account's review came due: %+v, want a second verified review.posted", got)
	}
	checkData(got[1].body["data"].(map[string]any), 3)
	if n := len(rcvs[1].received()); n != 0 {
		t.Errorf("an endpoint not subscribed to review.posted got %d POSTs", n)
	}
}
