package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
)

// TestServe_DemoAwardsFromTheClock: serve --demo on a fresh data directory.
// The demo seeder writes no award; the weekly clock, whose job serve ensures
// at start, catches up the demo's past weeks, so every finished week gets its
// three awards, each equal to the top three of that week's counted votes as
// get_launch_week (REST) ranks them.
//
// The fresh directory's serve --demo is the demo template's build (this
// week's, buildDemoTemplate: serve --demo on a new data directory until no
// job is due, which the other demo tests of the binary copy too); the test
// reads the awards that run made from a restart on a copy of it, so the
// binary seeds the demo once for both instead of again here.
func TestServe_DemoAwardsFromTheClock(t *testing.T) {
	t.Parallel()
	s := startServeDemoCopy(t, nil)
	base := "http://127.0.0.1:" + s.port + domain.APIPrefix
	var awards domain.ListAwardsOutput
	for deadline := time.Now().Add(60 * time.Second); ; {
		s.get(t, base+"/awards?per_page=100", "", "", &awards)
		if awards.Total >= 3*demo.PastWeeks || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if awards.Total != 3*demo.PastWeeks {
		t.Fatalf("awards = %d after the clock's catch-up, want 3 for each of the %d finished weeks", awards.Total, demo.PastWeeks)
	}
	byWeek := map[string][]string{}
	for _, a := range awards.Items {
		byWeek[a.Week] = append(byWeek[a.Week], fmt.Sprintf("%d:%s:%d", a.Rank, a.Listing.Slug, a.Votes))
	}
	this := domain.Monday(time.Now())
	for w := 1; w <= demo.PastWeeks; w++ {
		week := this.AddDate(0, 0, -7*w).Format(domain.DateLayout)
		var lw domain.GetLaunchWeekOutput
		if res := s.get(t, base+"/launches/weeks/"+week, "", "", &lw); res.StatusCode != 200 || len(lw.Items) < 3 {
			t.Fatalf("GET /launches/weeks/%s: %d with %d launches", week, res.StatusCode, len(lw.Items))
		}
		var top []string
		for _, it := range lw.Items[:3] {
			top = append(top, fmt.Sprintf("%d:%s:%d", it.Rank, it.Listing.Slug, it.WeekVotes))
		}
		if got := strings.Join(byWeek[week], " "); got != strings.Join(top, " ") {
			t.Errorf("week %s: awards %s, want the top three of get_launch_week %s", week, got, strings.Join(top, " "))
		}
	}
}
