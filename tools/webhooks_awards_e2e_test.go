package tools

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestWebhooks_AwardWon: the weekly clock finalising a week raises award.won,
// written with the award, for the winner's owner: the owner's endpoint gets
// it once with the week, rank and votes; turning the weeks again raises
// nothing more.
func TestWebhooks_AwardWon(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withWebhooks(t, env)
	ctx := context.Background()
	key := env.apiKey(t, "winner@example.com")
	monday := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC) // the week after the demo data's
	live := env.ownedListing(t, "winner@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-23", "launched_at": monday.Unix()})
	slug := slugOf(t, env, live)
	rcvs := hooksFor(t, env, []string{key}, []map[string]any{{"events": []any{"award.won"}}})
	fan, err := env.store.UpsertUser(ctx, auth.EmailIssuer, "fan@example.com", "fan@example.com", "", monday.AddDate(0, 0, -60))
	if err != nil {
		t.Fatal(err)
	}
	env.svc.VoteMinAccountAge = 0
	env.clock.Set(monday.Add(time.Hour))
	if _, err := env.svc.Vote(ctx, fan.ID, slug, "10.0.0.1", "test"); err != nil {
		t.Fatal(err)
	}
	env.clock.Set(monday.AddDate(0, 0, 7).Add(time.Hour))
	for range 2 {
		if _, err := env.svc.TurnWeeks(ctx); err != nil {
			t.Fatal(err)
		}
		env.runJobs(t)
	}
	data := oneHookOf(t, rcvs[0], "award.won")
	if data["listing_id"] != float64(live) || data["slug"] != slug || data["week"] != "2026-11-23" || data["rank"] != float64(1) || data["votes"] != float64(1) {
		t.Errorf("award.won data %v, want listing %d (%s) #1 of 2026-11-23 with 1 vote", data, live, slug)
	}
}
