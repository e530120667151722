package tools

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestWebhooks_LogPrunedAfterRetention: the daily pruning job, on the
// service clock, removes a delivery that ended more than 30 days ago (with
// its attempts and its outbox event) from the log and keeps a newer one.
func TestWebhooks_LogPrunedAfterRetention(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withWebhooks(t, env)
	if err := env.svc.EnsureWebhookPruneJob(context.Background(), env.quietRunner()); err != nil {
		t.Fatal(err)
	}
	key := env.apiKey(t, "pruned@example.com")
	call := restCaller(env, key)
	rcv := newHookReceiver(t, env.clock.Now)
	id, secret := createHook(t, call, map[string]any{"url": rcv.URL, "events": []any{"draft.ready"}})
	rcv.setSecrets(secret)
	test := func() {
		t.Helper()
		if st, v := call(t, "send_test_webhook", map[string]any{"webhook_id": id}); st != 202 {
			t.Fatalf("send_test_webhook: %d %v", st, v)
		}
		env.runJobs(t)
	}
	test()
	env.clock.Advance(20 * 24 * time.Hour)
	test()
	if got := hookDeliveries(t, call, id); len(got) != 2 || got[0]["state"] != "delivered" || got[1]["state"] != "delivered" {
		t.Fatalf("deliveries before pruning: %v, want 2 delivered", got)
	}
	oldMsg := hookDeliveries(t, call, id)[1]["event_id"]
	env.clock.Advance(domain.WebhookLogRetention - 20*24*time.Hour + time.Hour)
	env.runJobs(t)
	got := hookDeliveries(t, call, id)
	if len(got) != 1 || got[0]["event_id"] == oldMsg {
		t.Fatalf("deliveries 31 days after the first: %v, want only the newer one", got)
	}
	if n := fixtures.Count(t, env.db, "webhook_events", fixtures.Cols{"msg_id": oldMsg}); n != 0 {
		t.Errorf("the pruned delivery's event is still in the outbox")
	}
	if n := fixtures.Count(t, env.db, "webhook_attempts", nil); n != 1 {
		t.Errorf("%d attempts left, want the newer delivery's 1", n)
	}
}
