package tools

import (
	"fmt"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestTrophies_Demo: the demo has believable cabinets (docs/trophies.md):
// a few listings with trophies from known launch sites, each verified and
// saying how and when, one unconfirmed since a date; none due for a check
// (their award pages are on reserved .example hosts); they lead the trophy
// leaderboard by the points rule.
func TestTrophies_Demo(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	call := restCaller(env, env.apiKey(t, "visitor@example.com"))
	if n := fixtures.Count(t, env.db, "trophies", nil); n < 8 || n > 24 {
		t.Fatalf("the demo has %d trophies, want a few listings' worth", n)
	}
	if n := fixtures.Count(t, env.db, "trophies", fixtures.Cols{"state": "unconfirmed"}); n != 1 {
		t.Fatalf("%d unconfirmed demo trophies, want 1", n)
	}
	for _, r := range fixtures.Rows(t, env.db, "trophies", nil) {
		if u := fmt.Sprint(r["award_url"]); fmt.Sprint(r["next_check_at"]) != "" || !strings.HasPrefix(u, "https://") || !strings.Contains(u, ".example/") {
			t.Fatalf("demo trophy due for a check or off .example: %v", r)
		}
	}
	st, board := call(t, "get_trophy_leaderboard", map[string]any{"per_page": 3})
	items, _ := board["items"].([]any)
	if st != 200 || len(items) != 3 {
		t.Fatalf("leaderboard: %d %v", st, board)
	}
	slug := items[0].(map[string]any)["listing"].(map[string]any)["slug"].(string)
	st, cab := call(t, "get_trophy_cabinet", map[string]any{"slug": slug})
	if st != 200 || len(cab["items"].([]any)) == 0 || cab["points"] != items[0].(map[string]any)["points"] {
		t.Fatalf("cabinet of the leader %s: %d %v", slug, st, cab)
	}
	for _, it := range cab["items"].([]any) {
		m := it.(map[string]any)
		v := m["verification"].(map[string]any)
		if m["state"] != "verified" || v["verified_at"] == nil || !strings.Contains(v["text"].(string), "Verified by the site team on") {
			t.Fatalf("demo trophy: %v", m)
		}
	}
}
