package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestNotifications_AwardNotice: a listing a person follows wins Launch of
// the Week when the weekly clock finalises its week; the person's
// /notifications page says so, with the week and the votes, next to the
// updates of the listings they follow. On SQLite and PostgreSQL.
func TestNotifications_AwardNotice(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		monday := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
		clock := testclock.New(monday.Add(9 * time.Hour))
		path := filepath.Join(t.TempDir(), "launchdir.db")
		if engine == "postgres" {
			path = fixtures.MigratedPostgres(t)
		}
		db, err := storage.Open(path, storage.WithClock(clock.Now))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		svc, _ := fixtures.Service(t, db, fixtures.Site, clock.Now)
		svc.VoteMinAccountAge = 0
		users := storage.NewAuthStore(db)
		for _, email := range []string{"owner@example.com", "fan@example.com"} {
			if _, err := users.UpsertUser(ctx, auth.EmailIssuer, email, email, "", monday.AddDate(0, 0, -30)); err != nil {
				t.Fatal(err)
			}
		}
		fan := fixtures.ID(t, db, "users", fixtures.Cols{"email": "fan@example.com"})
		fixtures.Insert(t, db, "categories", fixtures.Cols{"site_id": fixtures.First(t, db, "sites"), "slug": "tools", "name": "Tools"})
		fixtures.Listing(t, db, "owner@example.com", fixtures.Cols{"slug": "quillpad", "name": "Quillpad", "status": "live",
			"launch_week": "2026-11-16", "launched_at": monday.Unix()})
		if err := svc.Follow(ctx, fan, "quillpad", true); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Vote(ctx, fan, "quillpad", "10.0.0.1", "test"); err != nil {
			t.Fatal(err)
		}
		clock.Set(monday.AddDate(0, 0, 7))
		if _, err := svc.TurnWeeks(ctx); err != nil {
			t.Fatal(err)
		}
		h := New(svc, WithAccount(func(*http.Request) (int64, string, bool) { return fan, "fan@example.com", true }))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/notifications", nil))
		body, _ := io.ReadAll(rec.Body)
		for _, want := range []string{
			`<span class="tag">New</span> <a href="/listings/quillpad">Quillpad</a> is Launch of the Week #1</h2>`,
			`Week of <a href="/launches/weeks/2026-11-16">Nov 16, 2026</a> · decided Nov 23, 2026`,
			`Quillpad finished #1 of its launch week with 1 community vote.`,
			"1 unread",
		} {
			if !strings.Contains(string(body), want) {
				t.Errorf("/notifications (%d) lacks %q:\n%s", rec.Code, want, body)
			}
		}
	})
}
