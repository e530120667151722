package tools

import (
	"encoding/json"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestE2E_LeaderboardTitles: the title of every board names the period it
// ranks, for every board and week form, the same over REST and MCP. A
// weekly board for a past date is titled with that week, never "this week".
func TestE2E_LeaderboardTitles(t *testing.T) {
	t.Parallel()
	e := e2eNewEnv(t, Options{}, true)
	cs := e2eConnect(t, e, "")
	for _, c := range []struct {
		board, week string
		want        string
	}{
		{"community-weekly", "", "Community leaderboard: week of Monday 2026-11-16 (2026-W47)"},
		{"community-weekly", "this", "Community leaderboard: week of Monday 2026-11-16 (2026-W47)"},
		{"community-weekly", "last", "Community leaderboard: week of Monday 2026-11-09 (2026-W46)"},
		{"community-weekly", "2026-09-09", "Community leaderboard: week of Monday 2026-09-07 (2026-W37)"},
		{"community-weekly", "2026-11-23", "Community leaderboard: week of Monday 2026-11-23 (2026-W48)"},
		{"community-all-time", "", "Community leaderboard: all time"},
		{"billboard", "", "Billboard (PAID ranking): all contributions to date"},
		{"domain-rating", "", "Domain Rating: latest reading of each site"},
		{"revenue", "", "Revenue: latest month each founder reported"},
	} {
		args := map[string]any{"board": c.board}
		if c.week != "" {
			args["week"] = c.week
		}
		t.Run(c.board+"/"+c.week, func(t *testing.T) {
			var rest domain.GetLeaderboardOutput
			e.getJSON(t, e2eRESTURL(t, "get_leaderboard", args), &rest)
			res := e2eCall(t, cs, "get_leaderboard", args)
			var viaMCP domain.GetLeaderboardOutput
			if res.IsError || json.Unmarshal([]byte(e2eResultText(t, res)), &viaMCP) != nil {
				t.Fatalf("MCP get_leaderboard %v: %s", args, e2eResultText(t, res))
			}
			for tr, out := range map[string]domain.GetLeaderboardOutput{"REST": rest, "MCP": viaMCP} {
				if out.Title != c.want {
					t.Errorf("%s title %q, want %q", tr, out.Title, c.want)
				}
			}
		})
	}
}
