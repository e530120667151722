package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestProgrammes_WinMailed: when the clock decides a programme, the
// winner's owners and signed-in followers get a mail through the service's
// mailer, once each: running the close job again, or closing again, sends
// nothing more. A listing that entered and did not win gets no mail.
func TestProgrammes_WinMailed(t *testing.T) {
	t.Parallel()
	env := newProgrammeEnv(t)
	mailer := withOwning(t, env.catEnv, nil)
	env.apiKey(t, "winner@example.com")
	env.apiKey(t, "loser@example.com")
	p := env.programme(t, "Mail Makers 2026", nil)
	win, winSlug := env.entrant(t, "winner@example.com", "Winning Widget", catNow.Add(-time.Hour))
	lose, loseSlug := env.entrant(t, "loser@example.com", "Losing Lamp", catNow.Add(-time.Hour))
	for _, id := range []int64{win, lose} {
		fixtures.Insert(t, env.db, "programme_entries", fixtures.Cols{"programme_id": p.ID, "listing_id": id, "category": "", "created_at": catNow.Unix()})
	}
	old := catNow.AddDate(0, -1, 0)
	for i := 0; i < 2; i++ {
		env.vote(t, env.voter(t, fmt.Sprintf("mfan%d@example.com", i), old), winSlug, fmt.Sprintf("203.0.113.%d", i))
	}
	env.vote(t, env.voter(t, "mfan-lose@example.com", old), loseSlug, "198.51.100.9")
	fan := fixtures.ID(t, env.db, "users", fixtures.Cols{"email": "mfan0@example.com"})
	fixtures.Insert(t, env.db, "follows", fixtures.Cols{"listing_id": win, "follower_key": fmt.Sprintf("user:%d", fan), "created_at": catNow.Unix()})

	env.clock.Set(time.Date(2026, 11, 21, 0, 0, 1, 0, time.UTC))
	t.Cleanup(func() { env.clock.Set(catNow) })
	env.runJobs(t)
	if n := fixtures.Count(t, env.db, "programme_winners", fixtures.Cols{"programme_id": p.ID}); n != 1 {
		t.Fatalf("%d winners, want 1", n)
	}
	if _, err := env.svc.CloseProgramme(context.Background(), p.ID); err != nil {
		t.Fatal(err)
	}
	env.runJobs(t)

	mailer.mu.Lock()
	sent := append([]string(nil), mailer.sent...)
	mailer.mu.Unlock()
	to := map[string]string{}
	for _, m := range sent {
		parts := strings.SplitN(m, "|", 3)
		if _, dup := to[parts[0]]; dup {
			t.Errorf("%s got the win twice", parts[0])
		}
		to[parts[0]] = parts[1] + "\n" + parts[2]
	}
	if len(to) != 2 {
		t.Fatalf("mails to %v, want the winner's owner and its follower:\n%s", mailKeys(to), strings.Join(sent, "\n---\n"))
	}
	owner := to["winner@example.com"]
	for _, s := range []string{"Winning Widget won #1 in Mail Makers 2026", "Overall", "2 votes", "/programmes/" + p.Slug, "/listings/" + winSlug, "you own"} {
		if !strings.Contains(owner, s) {
			t.Errorf("the owner's mail lacks %q:\n%s", s, owner)
		}
	}
	follower := to["mfan0@example.com"]
	for _, s := range []string{"Winning Widget, which you follow, won #1 in Mail Makers 2026", "/listings/" + winSlug, "you follow"} {
		if !strings.Contains(follower, s) {
			t.Errorf("the follower's mail lacks %q:\n%s", s, follower)
		}
	}
	if _, ok := to["loser@example.com"]; ok {
		t.Errorf("the listing that did not win was mailed")
	}
}

func mailKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
