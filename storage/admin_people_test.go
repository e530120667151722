package storage

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// TestStore_SuspendHoldsAndRestores: suspending holds the account's counted
// vote and its vote held for the account's age (count_at cleared, so the
// age job leaves it), the listing's count follows and the queue says
// "suspended"; unsuspending restores what the team did not decide, counts
// the age-held vote whose time came meanwhile, and keeps a vote the team
// discarded discarded.
func TestStore_SuspendHoldsAndRestores(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newModFixtureOn(t, engine)
		ctx := context.Background()
		old := f.user("old@example.com", fxNow.AddDate(0, -1, 0))
		young := f.user("young@example.com", fxNow.Add(-time.Hour))
		other := f.user("other@example.com", fxNow.AddDate(0, -1, 0))
		oldVote, youngVote, otherVote := f.vote(old, "notely", "n1"), f.vote(young, "notely", "n2"), f.vote(other, "notely", "n3")
		count := func() int64 { return mustInt(t, f.rows("listings", cols{"id": 1})[0]["votes_count"]) }
		start := count()
		entry := func(action string) console.AuditEntry {
			return console.AuditEntry{At: fxNow, Actor: "ops@example.com", Action: action, Target: "account"}
		}
		for _, id := range []int64{old, young, other} {
			if err := f.st.SuspendAccount(ctx, id, true, "spam", entry("account.suspend")); err != nil {
				t.Fatal(err)
			}
		}
		if got := count(); got != start-2 {
			t.Errorf("votes_count after suspending: %d, want %d (two counted votes held)", got, start-2)
		}
		if v := f.rows("votes", cols{"id": youngVote})[0]; v["status"] != "held" || v["count_at"] != "" {
			t.Errorf("the young account's vote while suspended: %v, want held without count_at", v)
		}
		q, err := f.st.ModerationQueue(ctx, 100)
		if err != nil {
			t.Fatal(err)
		}
		reasons := map[int64]string{}
		for _, v := range q.Votes {
			reasons[v.ID] = v.Reason
		}
		for _, id := range []int64{oldVote, youngVote, otherVote} {
			if reasons[id] != console.HeldSuspended {
				t.Errorf("vote %d in the queue with reason %q, want suspended", id, reasons[id])
			}
		}
		if err := f.st.SuspendAccount(ctx, old, true, "again", entry("account.suspend")); domain.ErrorCode(err) != domain.EConflict {
			t.Errorf("suspending twice: %v, want a conflict", err)
		}
		if err := f.st.DecideVote(ctx, "ops@example.com", otherVote, false, fxNow); err != nil {
			t.Fatal(err)
		}
		later := fxNow.Add(48 * time.Hour)
		for _, id := range []int64{old, young, other} {
			e := entry("account.unsuspend")
			e.At = later
			if err := f.st.SuspendAccount(ctx, id, false, "", e); err != nil {
				t.Fatal(err)
			}
		}
		for id, want := range map[int64]string{oldVote: "counted", youngVote: "counted", otherVote: "held"} {
			if v := f.rows("votes", cols{"id": id})[0]; v["status"] != want {
				t.Errorf("vote %d after unsuspending: %s, want %s", id, v["status"], want)
			}
		}
		if v := f.rows("votes", cols{"id": otherVote})[0]; v["discarded_at"] == "" {
			t.Error("the vote the team discarded came back")
		}
		if got := count(); got != start {
			t.Errorf("votes_count after unsuspending: %d, want %d (the discarded vote out, the age-held one in)", got, start)
		}
		if n := len(f.rows("suspension_holds", nil)); n != 0 {
			t.Errorf("%d suspension holds left", n)
		}
		if n := len(f.rows("audit_log", nil)); n != 6 {
			t.Errorf("%d audit entries, want 6", n)
		}
	})
}
