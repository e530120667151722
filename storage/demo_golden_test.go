package storage

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden digests in testdata")

// demoGoldenExcluded are the columns the demo seed fills from the real clock
// or from a random key (they are not part of the generated data): the
// vote audit key and the hashes made with it, the times the jobs of held
// votes were queued. Everything else is digested.
var demoGoldenExcluded = map[string]bool{"sites.created_at": true, "schema_migrations.applied_at": true,
	"vote_key.key": true, "votes.ip_hash": true, "votes.ua_hash": true, "jobs.created_at": true, "jobs.updated_at": true}

// dumpDigest returns the SHA-256 of every row of every table of db, tables by
// name and rows ordered by all their columns, without demoGoldenExcluded.
func dumpDigest(t *testing.T, db *DB) string {
	t.Helper()
	tables := queryStrings(t, db, db.eng.tablesQuery())
	h := sha256.New()
	for _, table := range tables {
		var cols []string
		for _, c := range queryStrings(t, db, db.eng.columnsQuery(), table) {
			if !demoGoldenExcluded[table+"."+c] {
				cols = append(cols, `"`+c+`"`)
			}
		}
		fmt.Fprintf(h, "table %s (%s)\n", table, strings.Join(cols, ", "))
		order := make([]string, len(cols))
		for i := range order {
			order[i] = fmt.Sprint(i+1) + " NULLS FIRST" // SQLite's order of NULLs, on both engines
		}
		rows, err := db.sql.Query(`SELECT ` + strings.Join(cols, ", ") + ` FROM "` + table + `" ORDER BY ` + strings.Join(order, ", "))
		if err != nil {
			t.Fatalf("dump %s: %v", table, err)
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if i > 0 {
					h.Write([]byte{'\t'})
				}
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				fmt.Fprintf(h, "%T:%q", v, fmt.Sprint(v))
			}
			h.Write([]byte{'\n'})
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// checkGolden compares digest with the committed testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, digest string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		if err := os.WriteFile(path, []byte(digest+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	if got := strings.TrimSpace(string(want)); got != digest {
		t.Errorf("digest of the seeded database = %s, want %s from %s: the generated data changed", digest, got, path)
	}
}

// testDemoGolden holds the demo seed of demoNow (one site, a fresh database)
// to the digest recorded before the generator moved to domain/demo.
func testDemoGolden(t *testing.T, db *DB) {
	checkGolden(t, "demo_seed.sha256", dumpDigest(t, db))
}

// TestSeedDemo_GoldenOnPostgres: the demo seed of demoNow on PostgreSQL
// stores exactly the rows it stores on SQLite (the same digest).
func TestSeedDemo_GoldenOnPostgres(t *testing.T) {
	t.Parallel()
	db := openEngine(t, "postgres")
	if seeded, err := SeedDemo(context.Background(), db, demoSite, demoNow); err != nil || !seeded {
		t.Fatalf("SeedDemo = %v, %v", seeded, err)
	}
	if *updateGolden {
		t.Skip("the digests are recorded from SQLite")
	}
	testDemoGolden(t, db)
}

// TestSeedSynthetic_GoldenOnPostgres: the same for 1,000 synthetic listings.
func TestSeedSynthetic_GoldenOnPostgres(t *testing.T) {
	t.Parallel()
	db := openEngine(t, "postgres")
	if err := SeedSynthetic(context.Background(), db, demoSite, 1000, demoNow); err != nil {
		t.Fatal(err)
	}
	if *updateGolden {
		t.Skip("the digests are recorded from SQLite")
	}
	checkGolden(t, "synthetic_1000.sha256", dumpDigest(t, db))
}

// TestSeedSynthetic_Golden holds 1,000 synthetic listings of demoNow to their recorded digest.
func TestSeedSynthetic_Golden(t *testing.T) {
	t.Parallel()
	db, err := Open(filepath.Join(t.TempDir(), "launchdir.db"), WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := SeedSynthetic(context.Background(), db, demoSite, 1000, demoNow); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "synthetic_1000.sha256", dumpDigest(t, db))
}
