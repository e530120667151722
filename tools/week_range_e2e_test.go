package tools

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestWeeks_OutOfRangeIsOneRule: a week outside the
// site's launch weeks (before its first launch week, or more than a year
// ahead of this week) is a launch week that does not exist: get_launch_week
// and the community-weekly board answer the same 404 not_found, naming the
// range, over REST and MCP. A week inside the range that has no launches is
// 200 and empty for both. (On main the board answered 200 and empty for a
// week get_launch_week called absent.)
func TestWeeks_OutOfRangeIsOneRule(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	first, last, err := env.svc.LaunchWeekRange(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	key := env.apiKey(t, "reader@example.com")
	outside := []string{first.AddDate(0, 0, -7).Format(domain.DateLayout), "2020-01-06",
		last.AddDate(0, 0, 7).Format(domain.DateLayout), last.AddDate(0, 0, 10).Format(domain.DateLayout)}
	inside := []string{first.Format(domain.DateLayout), last.Format(domain.DateLayout), "last", "this"}
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		for _, week := range outside {
			st1, w := call(t, "get_launch_week", map[string]any{"week": week})
			st2, b := call(t, "get_leaderboard", map[string]any{"board": "community-weekly", "week": week})
			if st1 != 404 || st2 != 404 || w["code"] != "not_found" || b["code"] != "not_found" {
				t.Errorf("week %s outside %s..%s: get_launch_week %d %v, get_leaderboard %d %v; want 404 not_found for both",
					week, first.Format(domain.DateLayout), last.Format(domain.DateLayout), st1, w["code"], st2, b["code"])
				continue
			}
			if w["detail"] != b["detail"] {
				t.Errorf("week %s: the two 404s say different things: %q and %q", week, w["detail"], b["detail"])
			}
		}
		for _, week := range inside {
			st1, w := call(t, "get_launch_week", map[string]any{"week": week})
			st2, b := call(t, "get_leaderboard", map[string]any{"board": "community-weekly", "week": week})
			if st1 != 200 || st2 != 200 || w["week"] != b["week"] {
				t.Errorf("week %s inside the range: get_launch_week %d (%v), get_leaderboard %d (%v); want 200 for both, one week",
					week, st1, w["week"], st2, b["week"])
			}
		}
	})
	// The pages follow the service: the board page of a week that does not exist is the 404 page.
	withPages(t, env)
	for week, want := range map[string]int{outside[0]: 404, outside[2]: 404, last.Format(domain.DateLayout): 200} {
		if r := catDo(t, env, "GET", "/leaderboards/community-weekly?week="+week, nil, nil); r.status != want {
			t.Errorf("/leaderboards/community-weekly?week=%s: %d, want %d", week, r.status, want)
		}
	}
}
