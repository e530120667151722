package storage_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
)

// The stores stamp the times a caller leaves zero with the clock the DB was
// opened with, not with the machine's.
func TestStores_StampTimesWithTheDBClock(t *testing.T) {
	clk := testclock.New(time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC))
	db, err := storage.Open(filepath.Join(t.TempDir(), "launchdir.db"), storage.WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	site := domain.Site{Key: "main", Name: "Launchdir"}
	st, err := storage.NewStore(t.Context(), db, site)
	if err != nil {
		t.Fatal(err)
	}
	u, err := storage.NewAuthStore(db).UpsertUser(ctx, auth.EmailIssuer, "ann@ex.test", "ann@ex.test", "Ann", clk.Now())
	if err != nil {
		t.Fatal(err)
	}

	t.Run("Draft", func(t *testing.T) {
		d := &domain.DraftRecord{UserID: u.ID, URL: "https://ex.test", Status: domain.DraftCrawling}
		if err := st.CreateDraft(ctx, d); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Hour)
		d.UpdatedAt = time.Time{}
		if err := st.UpdateDraft(ctx, d, false); err != nil {
			t.Fatal(err)
		}
		got, err := st.Draft(ctx, d.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if !got.CreatedAt.Equal(clk.Now().Add(-time.Hour)) || !got.UpdatedAt.Equal(clk.Now()) {
			t.Fatalf("created %s, updated %s; want the clock's %s and %s", got.CreatedAt, got.UpdatedAt, clk.Now().Add(-time.Hour), clk.Now())
		}
	})
	t.Run("Price", func(t *testing.T) {
		os, err := storage.NewOrderStore(db, site)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.SetPrice(ctx, "launch", domain.Price{Cents: 4900, Currency: "USD"}); err != nil {
			t.Fatal(err)
		}
		prices, err := os.Prices(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if at := prices["launch"].UpdatedAt; !at.Equal(clk.Now()) {
			t.Fatalf("price updated at %s, want the clock's %s", at, clk.Now())
		}
	})
}
