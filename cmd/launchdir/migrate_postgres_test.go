package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/pgtest"
)

// The PostgreSQL tests share one throwaway cluster per test binary (see
// storage/pgtest), stopped here when the tests end.
func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestMigrate_Postgres: "launchdir migrate --database postgres://..." (or
// LAUNCHDIR_DATABASE_URL) applies PostgreSQL's migrations, a second run
// applies none, and a URL that is not PostgreSQL's is refused naming the flag.
func TestMigrate_Postgres(t *testing.T) {
	url := pgtest.Database(t)
	ctx := context.Background()
	var out strings.Builder
	if err := run(ctx, time.Now, []string{"migrate", "--database", url}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "migrations applied to postgres://") {
		t.Errorf("migrate output = %q", out.String())
	}
	db, err := storage.Open(url, storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Engine() != "postgres" {
		t.Fatalf("engine = %s", db.Engine())
	}
	applied, err := db.Rows(ctx, "schema_migrations", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) < 20 {
		t.Fatalf("%d migrations recorded, want every one", len(applied))
	}
	t.Setenv("LAUNCHDIR_DATABASE_URL", url)
	out.Reset()
	if err := run(ctx, time.Now, []string{"migrate"}, &out, io.Discard); err != nil || !strings.Contains(out.String(), "postgres://") {
		t.Errorf("migrate with LAUNCHDIR_DATABASE_URL: err=%v out=%q", err, out.String())
	}
	again, err := db.Rows(ctx, "schema_migrations", nil)
	if err != nil || len(again) != len(applied) {
		t.Fatalf("second migrate: %d rows (err %v), want %d", len(again), err, len(applied))
	}
	err = run(ctx, time.Now, []string{"migrate", "--database", "mysql://u:secret@h/db"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--database") || strings.Contains(err.Error(), "secret") {
		t.Errorf("migrate --database mysql://: err = %v; want a refusal naming --database without the password", err)
	}
}
