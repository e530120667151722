package tools

import (
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
	live, slug, rcv := weekClockHooks(t, env, "winner@example.com",
		fixtures.Cols{"status": "live", "launch_week": "2026-11-23", "launched_at": weekAfterDemo.Unix()}, "award.won")
	fan, err := env.store.UpsertUser(t.Context(), auth.EmailIssuer, "fan@example.com", "fan@example.com", "", weekAfterDemo.AddDate(0, 0, -60))
	if err != nil {
		t.Fatal(err)
	}
	env.svc.VoteMinAccountAge = 0
	env.clock.Set(weekAfterDemo.Add(time.Hour))
	if _, err := env.svc.Vote(t.Context(), fan.ID, slug, "10.0.0.1", "test"); err != nil {
		t.Fatal(err)
	}
	turnWeeksTwiceAt(t, env, weekAfterDemo.AddDate(0, 0, 7).Add(time.Hour))
	data := oneHookOf(t, rcv, "award.won")
	if data["listing_id"] != float64(live) || data["slug"] != slug || data["week"] != "2026-11-23" || data["rank"] != float64(1) || data["votes"] != float64(1) {
		t.Errorf("award.won data %v, want listing %d (%s) #1 of 2026-11-23 with 1 vote", data, live, slug)
	}
}
