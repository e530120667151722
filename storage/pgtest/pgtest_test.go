//go:build e2e

package pgtest_test

import (
	"context"
	"database/sql"
	"os"
	"testing"

	"github.com/launchdir/launchdir/storage/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestCluster_SelectOne starts the throwaway cluster and asks a fresh
// database for SELECT 1 through the pgx database/sql driver.
func TestCluster_SelectOne(t *testing.T) {
	url := pgtest.Database(t)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var one int
	var user string
	if err := db.QueryRowContext(context.Background(), `SELECT 1, current_user`).Scan(&one, &user); err != nil {
		t.Fatal(err)
	}
	if one != 1 || user != "postgres" {
		t.Fatalf("SELECT 1, current_user = %d, %q; want 1, postgres", one, user)
	}
	// Two databases from the same cluster are separate.
	other := pgtest.Database(t)
	if other == url {
		t.Fatalf("two databases share the URL %s", url)
	}
	c := pgtest.Shared(t)
	t.Logf("cluster started in %v; PostgreSQL install took %v", c.Started, c.Installed)
}
