package storage

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// TestStore_FreeSettings: a new site row gets the settings with defaults; an
// edit of sites.settings is read at once; a row from before 0009 (without
// the new keys) reads the defaults.
func TestStore_FreeSettings(t *testing.T) {
	t.Parallel() // each part owns its fixture copy
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		got, err := st.FreeSettings(ctx)
		if err != nil || got != (domain.FreeSettings{WeeksMin: 6, WeeksMax: 8, WeekCapacity: 20, CheckHours: 6}) {
			t.Fatalf("new site: %+v %v", got, err)
		}
		mergeSettings(t, db, cols{"free_week_capacity": 3, "badge_check_hours": 1})
		if got, _ = st.FreeSettings(ctx); got.WeekCapacity != 3 || got.CheckHours != 1 {
			t.Fatalf("after an edit: %+v", got)
		}
		setRows(t, db, "sites", cols{"settings": `{"free_weeks_min":6,"free_weeks_max":8}`}, nil)
		if got, _ = st.FreeSettings(ctx); got.WeekCapacity != 20 || got.CheckHours != 6 {
			t.Fatalf("settings without the new keys: %+v", got)
		}
		setRows(t, db, "sites", cols{"settings": "not json"}, nil)
		if _, err := st.FreeSettings(ctx); err == nil {
			t.Fatalf("broken settings read without an error")
		}
	})
}

// TestStore_JoinAndCheck: joining takes the first week with room (the
// fixture's free listing soonly is in none of them), a second join keeps
// the week, and a check that finds the badge schedules the listing and
// records the check; an unowned listing is not found. Queue positions: soonly
// (scheduled free, next week) 1, sketchy (week 6) 2, drafty (week 7) 3.
func TestStore_JoinAndCheck(t *testing.T) {
	t.Parallel() // each part owns its fixture copy
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		putRow(t, db, "users", cols{"id": 7, "issuer": "e", "subject": "o", "email": "o@x.test", "created_at": 0})
		setRows(t, db, "listings", cols{"owner_id": 7}, cols{"slug": "drafty"})
		mergeSettings(t, db, cols{"free_week_capacity": 1})
		// Someone else's free listing already waits in week 6.
		setRows(t, db, "listings", cols{"status": "awaiting_badge", "launch_week": "2026-12-28"}, cols{"slug": "sketchy"})
		if _, err := st.JoinFreeQueue(ctx, 8, 4, fxNow, fxNow); domain.ErrorCode(err) != domain.ENotFound {
			t.Fatalf("another user's join: %v", err)
		}
		joined, err := st.JoinFreeQueue(ctx, 7, 4, fxNow, fxNow)
		if err != nil || !joined {
			t.Fatalf("join: %v %v", joined, err)
		}
		var status, week string
		db.sql.QueryRow(`SELECT status, launch_week FROM listings WHERE id = 4`).Scan(&status, &week)
		if status != "awaiting_badge" || week != "2027-01-04" {
			t.Fatalf("after join: %s %s, want awaiting_badge 2027-01-04 (week 6 is full)", status, week)
		}
		if joined, err = st.JoinFreeQueue(ctx, 7, 4, fxNow.Add(time.Hour), fxNow.Add(time.Hour)); err != nil || joined {
			t.Fatalf("second join: %v %v", joined, err)
		}
		out, err := st.RecordBadgeCheck(ctx, 4, &domain.BadgeCheck{CheckedAt: fxNow, PageURL: "https://drafty.test/", Found: true,
			Link: "https://launchdir.test/listings/drafty"}, fxNow, nil)
		if err != nil || out.Step.Status != "scheduled" || !out.Step.StartWeek || out.Week != "2027-01-04" ||
			!out.NextCheckAt.Equal(fxNow.Add(6*time.Hour)) {
			t.Fatalf("check: %+v %v", out, err)
		}
		facts, err := st.FreeQueue(ctx, []int64{1, 3, 4})
		f := facts[4]
		if err != nil || len(facts) != 2 || f.Position != 3 || f.Checks.Last == nil || !f.Checks.Last.Found || f.Checks.Last.Status != "scheduled" ||
			f.Checks.NextCheckAt == nil || facts[3].Position != 2 {
			t.Fatalf("queue facts: %+v %v", facts, err)
		}
	})
}
