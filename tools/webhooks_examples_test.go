package tools

import (
	"encoding/json"
	"regexp"
	"testing"
)

// The webhook secrets and event id of the recorded examples (the same shapes as real ones).
const (
	exampleHookSecret   = "whsec_Ex4mpleSecretEx4mpleSecretEx4mp1"
	exampleHookRotated  = "whsec_Ex4mpleRotatedEx4mpleRotatedEx4m"
	exampleHookEventID  = "msg_ex4mp1eeventidex4mp1eevent"
	exampleHookDuration = `"duration_ms":12`
)

// webhookExamples records one example of each webhook operation for the
// account of rec, whose listing listingID exists, and returns the
// replacement pairs that make the random secrets and event id stable.
func webhookExamples(t *testing.T, rec *exRecorder, env *catEnv, siteURL string, listingID any) []string {
	t.Helper()
	withWebhooks(t, env)
	w := rec.call(t, "create_webhook", map[string]any{"url": siteURL + "/", "events": []any{"draft.ready", "listing.live"},
		"listing_ids": []any{listingID}, "description": "Deploy bot"})
	hook := w["webhook"].(map[string]any)
	wid := hook["id"]
	rec.call(t, "list_webhooks", map[string]any{})
	rec.call(t, "update_webhook", map[string]any{"webhook_id": wid, "events": []any{"draft.ready", "draft.failed", "listing.live"}})
	r := rec.call(t, "rotate_webhook_secret", map[string]any{"webhook_id": wid})
	tw := rec.call(t, "send_test_webhook", map[string]any{"webhook_id": wid})
	env.runJobs(t)
	ds := rec.call(t, "list_webhook_deliveries", map[string]any{"webhook_id": wid, "per_page": 2})
	d := firstItem(t, ds, "items")
	if d["state"] != "delivered" {
		t.Fatalf("the example's test event was not delivered: %v", d)
	}
	rec.call(t, "redeliver_webhook", map[string]any{"webhook_id": wid, "delivery_id": d["id"]})
	rec.call(t, "delete_webhook", map[string]any{"webhook_id": wid})
	s1, s2 := hook["secret"].(string), r["webhook"].(map[string]any)["secret"].(string)
	return []string{s1, exampleHookSecret, s2, exampleHookRotated, s1[:10], exampleHookSecret[:10], s2[:10], exampleHookRotated[:10],
		tw["delivery"].(map[string]any)["event_id"].(string), exampleHookEventID}
}

var durationRe = regexp.MustCompile(`"duration_ms":[0-9]+`)

// stableDurations gives every attempt of the examples the same duration.
func stableDurations(t *testing.T, ex map[string]opExample) map[string]opExample {
	t.Helper()
	raw, err := json.Marshal(ex)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]opExample{}
	if err := json.Unmarshal(durationRe.ReplaceAll(raw, []byte(exampleHookDuration)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}
