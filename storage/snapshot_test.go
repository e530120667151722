package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/launchdir/launchdir/domain"
)

// snapDB is a SQLite database of 1,500 synthetic listings with churn: some
// renamed, hidden, deleted and given a second category. It is a copy of a
// template built once per test binary (seeding writes each listing's vote
// rows: seconds, a copy milliseconds). Each copy is another database to
// its snapshots: a snapshot's token is written by the store that writes it,
// and the template has none (it never had a store).
func snapDB(t *testing.T) *DB {
	t.Helper()
	return snapTemplate.open(t, "launchdir-storage-snap-", func(db *DB) error {
		if err := SeedSynthetic(context.Background(), db, demoSite, 1_500, demoNow); err != nil {
			return err
		}
		churn(t, db, 0)
		return nil
	})
}

// snapTemplate holds snapDB's data, seeded and churned once per test binary.
var snapTemplate dbTemplate

// churn changes listings through plain writes (search_log's triggers log
// them), differently for each round.
func churn(t *testing.T, db *DB, round int) {
	t.Helper()
	ctx := context.Background()
	ids, err := queryIDs(ctx, db.sql, `SELECT id FROM listings ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	cats, err := queryIDs(ctx, db.sql, `SELECT id FROM categories ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for i, id := range ids {
		var err error
		switch (i + round*7) % 53 {
		case 0:
			_, err = db.UpdateRows(ctx, "listings", map[string]any{"name": fmt.Sprintf("Renamed Zephyr %d", round),
				"tagline": "team data pipelines for analytics"}, map[string]any{"id": id})
		case 5:
			_, err = db.UpdateRows(ctx, "listings", map[string]any{"status": "hidden"}, map[string]any{"id": id})
		case 9:
			_, err = db.UpdateRows(ctx, "listings", map[string]any{"votes_count": 1000 + i}, map[string]any{"id": id})
		case 13:
			_, err = db.InsertRow(ctx, "listing_categories", map[string]any{"listing_id": id,
				"category_id": cats[(i+round)%len(cats)], "is_primary": 0})
			if err != nil && strings.Contains(err.Error(), "conflict") {
				err = nil
			}
		case 17:
			if round > 0 {
				_, err = db.DeleteRows(ctx, "listing_categories", map[string]any{"listing_id": id})
				if err == nil {
					_, err = db.DeleteRows(ctx, "listings", map[string]any{"id": id})
				}
			}
		}
		if err != nil {
			t.Fatalf("churn round %d, listing %d: %v", round, id, err)
		}
	}
}

// snapAnswers is what a store answers to a set of searches and its
// category tree.
func snapAnswers(t *testing.T, st *Store) string {
	t.Helper()
	ctx := context.Background()
	nodes, err := st.Categories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "categories %v\n", nodes)
	qs := []domain.ListingQuery{{Q: "team data"}, {Q: "zephyr"}, {Q: "renamed zephr"}, {Q: "analyt"}, {Sort: "votes"},
		{Q: "data", Sort: "newest", Offset: 20}, {Q: "pipelines", Sort: "trending"}, {Status: "upcoming"}}
	for i, n := range nodes {
		if i%3 == 0 {
			qs = append(qs, domain.ListingQuery{Category: n.Slug, Sort: "votes"}, domain.ListingQuery{Category: n.Slug, Q: "data"})
		}
	}
	for _, q := range qs {
		items, total, err := st.SearchListings(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%+v: %d:", q, total)
		for _, it := range items {
			fmt.Fprintf(&b, " %s/%d", it.Slug, it.Votes)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// built returns the answers of a store built from the database, the
// snapshot moved aside meanwhile.
func built(t *testing.T, db *DB) string {
	t.Helper()
	path := db.path + ".search"
	aside := path + ".aside"
	if err := os.Rename(path, aside); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	st, err := NewStore(context.Background(), db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	if st.snapSaved {
		t.Fatal("store without a snapshot file: loaded one")
	}
	if err := os.Rename(aside, path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return snapAnswers(t, st)
}

// TestSnapshot_Restart: a store closed writes its snapshot; after more
// changes, a new store loads it, applies search_log after it and answers as
// a store built from the database does.
func TestSnapshot_Restart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := snapDB(t)
	st, err := NewStore(ctx, db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	path := st.snapshotPath()
	if st.snapSaved {
		t.Fatal("first start loaded a snapshot")
	}
	st.SnapshotInBackground()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() == 0 {
		t.Fatalf("snapshot after the background write: %v", err)
	}
	mtime := fi.ModTime()
	churn(t, db, 1)
	if err := st.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil { // the index moved: written again
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || !fi.ModTime().After(mtime) && fi.Size() == 0 {
		t.Fatalf("snapshot after Close: %v", err)
	}
	seq := st.snapSeq
	churn(t, db, 2) // after the snapshot: through search_log at the next start
	again, err := NewStore(ctx, db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	if !again.snapSaved || again.snapSeq != seq || again.syncSeq <= seq {
		t.Fatalf("restart: loaded %v at seq %d (snapshot's %d), synced to %d", again.snapSaved, again.snapSeq, seq, again.syncSeq)
	}
	got := snapAnswers(t, again)
	if diff := cmp.Diff(built(t, db), got); diff != "" {
		t.Errorf("loaded store answers differently (-built +loaded):\n%s", diff)
	}
	// Changes while it runs, then a restart without them in the snapshot.
	churn(t, db, 3)
	if err := again.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(built(t, db), snapAnswers(t, again)); diff != "" {
		t.Errorf("loaded store after more changes (-built +loaded):\n%s", diff)
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	third, err := NewStore(ctx, db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	if !third.snapSaved || third.syncSeq != third.snapSeq {
		t.Fatalf("third start: loaded %v, snapshot seq %d, synced to %d", third.snapSaved, third.snapSeq, third.syncSeq)
	}
	if diff := cmp.Diff(built(t, db), snapAnswers(t, third)); diff != "" {
		t.Errorf("third start (-built +loaded):\n%s", diff)
	}
}

// TestSnapshot_Invalid: a snapshot that does not hold is not loaded; the
// store is built from the database and answers correctly.
func TestSnapshot_Invalid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	hdr := binary.Size(snapshotHeader{})
	cases := []struct {
		name  string
		spoil func(t *testing.T, db *DB, path string)
	}{
		{"Truncated", func(t *testing.T, db *DB, path string) {
			fi, _ := os.Stat(path)
			if err := os.Truncate(path, fi.Size()-1000); err != nil {
				t.Fatal(err)
			}
		}},
		{"FlippedByte", func(t *testing.T, db *DB, path string) {
			b, _ := os.ReadFile(path)
			b[hdr+(len(b)-hdr)/2] ^= 0x10
			os.WriteFile(path, b, 0o644)
		}},
		{"FlippedHeaderSeq", func(t *testing.T, db *DB, path string) {
			b, _ := os.ReadFile(path)
			b[24] ^= 0x01 // Seq
			os.WriteFile(path, b, 0o644)
		}},
		{"OtherDatabase", func(t *testing.T, db *DB, path string) {
			other := snapDB(t)
			st, err := NewStore(ctx, other, demoSite)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(other.path+".search", path); err != nil {
				t.Fatal(err)
			}
		}},
		{"VersionBumped", func(t *testing.T, db *DB, path string) {
			b, _ := os.ReadFile(path)
			binary.NativeEndian.PutUint32(b[8:], binary.NativeEndian.Uint32(b[8:])+1)
			os.WriteFile(path, b, 0o644)
		}},
		{"LogPruned", func(t *testing.T, db *DB, path string) {
			churn(t, db, 5)
			if _, err := db.sql.ExecContext(ctx, `DELETE FROM search_log WHERE seq <= (SELECT MAX(seq) FROM search_log) - 10`); err != nil {
				t.Fatal(err)
			}
		}},
		{"SeededAfter", func(t *testing.T, db *DB, path string) {
			if err := SeedSynthetic(ctx, db, demoSite, 40, demoNow); err != nil {
				t.Fatal(err)
			}
		}},
		{"MigratedAfter", func(t *testing.T, db *DB, path string) { // 0024 applied again by the next Open
			if _, err := db.sql.ExecContext(ctx, `DELETE FROM schema_migrations WHERE name = '0024_team_email.sql'`); err != nil {
				t.Fatal(err)
			}
			if _, err := db.sql.ExecContext(ctx, `DROP INDEX team_members_email`); err != nil {
				t.Fatal(err)
			}
			again, err := Open(db.path, WithClock(time.Now))
			if err != nil {
				t.Fatal(err)
			}
			again.Close()
		}},
		{"LogBehind", func(t *testing.T, db *DB, path string) { // a database restored from before the snapshot, its token kept
			b, _ := os.ReadFile(path)
			seq := int64(binary.NativeEndian.Uint64(b[24:]))
			if _, err := db.sql.ExecContext(ctx, `DELETE FROM search_log WHERE seq > ?`, seq-5); err != nil {
				t.Fatal(err)
			}
		}},
		{"CategoryRenamed", func(t *testing.T, db *DB, path string) { // renamed by another process, or while stopped
			if _, err := db.sql.ExecContext(ctx, `UPDATE categories SET name = name || ' renamed'
				WHERE id = (SELECT MIN(parent_id) FROM categories WHERE parent_id IS NOT NULL)`); err != nil {
				t.Fatal(err)
			}
		}},
		{"NotASnapshot", func(t *testing.T, db *DB, path string) {
			os.WriteFile(path, []byte("hello"), 0o644)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			db := snapDB(t)
			st, err := NewStore(ctx, db, demoSite)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			churn(t, db, 1)
			path := st.snapshotPath()
			c.spoil(t, db, path)
			got, err := NewStore(ctx, db, demoSite)
			if err != nil {
				t.Fatal(err)
			}
			if got.snapSaved {
				t.Fatalf("spoilt snapshot loaded (seq %d)", got.snapSeq)
			}
			if diff := cmp.Diff(built(t, db), snapAnswers(t, got)); diff != "" {
				t.Errorf("(-built +after a spoilt snapshot):\n%s", diff)
			}
			// The next write replaces the bad file.
			if err := got.Close(); err != nil {
				t.Fatal(err)
			}
			next, err := NewStore(ctx, db, demoSite)
			if err != nil {
				t.Fatal(err)
			}
			if !next.snapSaved {
				t.Error("the snapshot written after the fallback was not loaded")
			}
		})
	}
}

// TestSnapshot_Control: the cases of TestSnapshot_Invalid without the
// spoiling do load the snapshot (so that each case fails for its reason).
func TestSnapshot_Control(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := snapDB(t)
	st, err := NewStore(ctx, db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	churn(t, db, 1)
	got, err := NewStore(ctx, db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	if !got.snapSaved {
		t.Fatal("snapshot not loaded")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(db.path), "launchdir.db.search")); err != nil {
		t.Errorf("snapshot not beside the database: %v", err)
	}
}

// TestSnapshot_StaleTemps: a temporary file a crash left mid-write is
// removed when a store opens; one young enough to be another process's
// write in progress is left alone.
func TestSnapshot_StaleTemps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := snapDB(t)
	snap := db.path + ".search"
	old, young := snap+".123.tmp", snap+".456.tmp"
	for _, f := range []string{old, young} {
		if err := os.WriteFile(f, []byte("half a snapshot"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	then := time.Now().Add(-staleTemp - time.Minute)
	if err := os.Chtimes(old, then, then); err != nil {
		t.Fatal(err)
	}
	if _, err := NewStore(ctx, db, demoSite); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the stale temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("a temporary file a minute old was removed: %v", err)
	}
}
