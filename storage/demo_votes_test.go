package storage

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// TestCastDemoVotes_SameAsCastVote casts one sequence of votes (a plain vote,
// an owner's and a co-owner's, a burst of three young accounts beside an old
// account on the same network, a new account's) through CastVote, vote by
// vote as the site does, and through castVotes in one transaction as the demo
// seed does, and finds the same votes, counts, trending scores and jobs.
func TestCastDemoVotes_SameAsCastVote(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t0 := demoNow
	ago := func(d time.Duration) time.Time { return t0.Add(-d) }
	type person struct {
		email   string
		created time.Time
	}
	people := []person{{"u1@x.invalid", ago(100 * 24 * time.Hour)}, {"u2@x.invalid", ago(90 * 24 * time.Hour)}, {"owner@x.invalid", ago(80 * 24 * time.Hour)},
		{"y1@x.invalid", ago(48 * time.Hour)}, {"y2@x.invalid", ago(47 * time.Hour)}, {"y3@x.invalid", ago(46 * time.Hour)},
		{"n1@x.invalid", ago(2 * time.Hour)}, {"o1@x.invalid", ago(200 * 24 * time.Hour)}}
	open := func() (*DB, int64, []int64) {
		db, err := Open(filepath.Join(t.TempDir(), "launchdir.db"), WithClock(time.Now))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		siteID, err := ensureSite(ctx, db, demoSite)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, p := range people {
			id, err := db.InsertRow(ctx, "users", map[string]any{"issuer": "urn:launchdir:email", "subject": p.email, "email": p.email, "created_at": p.created.Unix()})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		for _, l := range []struct {
			slug  string
			owner any
		}{{"alpha", ids[2]}, {"beta", nil}} {
			id, err := db.InsertRow(ctx, "listings", map[string]any{"site_id": siteID, "slug": l.slug, "name": l.slug, "status": "live", "owner_id": l.owner,
				"launched_at": ago(72 * time.Hour).Unix(), "created_at": ago(90 * 24 * time.Hour).Unix(), "updated_at": ago(90 * 24 * time.Hour).Unix()})
			if err != nil {
				t.Fatal(err)
			}
			if l.slug == "beta" {
				if _, err := db.InsertRow(ctx, "listing_owners", map[string]any{"listing_id": id, "user_id": ids[1], "created_at": ago(time.Hour).Unix()}); err != nil {
					t.Fatal(err)
				}
			}
		}
		return db, siteID, ids
	}
	const burstNet = "192.0.2.9"
	plan := []struct {
		who   int
		slug  string
		net   string
		minus time.Duration
	}{{0, "alpha", "198.51.100.1", 60 * time.Minute}, {2, "alpha", "198.51.100.2", 59 * time.Minute},
		{3, "alpha", burstNet, 30 * time.Minute}, {7, "alpha", burstNet, 29 * time.Minute}, {4, "alpha", burstNet, 28 * time.Minute},
		{5, "alpha", burstNet, 27 * time.Minute}, {6, "beta", "198.51.100.3", 10 * time.Minute}, {1, "beta", "198.51.100.4", 5 * time.Minute},
		{0, "beta", "198.51.100.1", 4 * time.Minute}, {3, "beta", burstNet, 3 * time.Minute}}
	casts := func(ids []int64) []domain.VoteCast {
		var out []domain.VoteCast
		for _, p := range plan {
			out = append(out, domain.PersonVote(ids[p.who], p.slug, p.net, "Mozilla/5.0", ago(p.minus), domain.DefaultVoteMinAccountAge))
		}
		return out
	}

	site, _, ids := open()
	st, err := NewStore(ctx, site, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range casts(ids) {
		if _, err := st.CastVote(ctx, v, domain.VoteCountJobs); err != nil {
			t.Fatal(err)
		}
	}
	seed, siteID, ids := open()
	created := map[int64]time.Time{}
	for i, p := range people {
		created[ids[i]] = time.Unix(p.created.Unix(), 0)
	}
	tx, err := seed.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := castVotes(ctx, seed, tx, siteID, casts(ids), created); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	for _, q := range []string{
		`SELECT l.slug || ' ' || v.voter_key || ' ' || v.created_at || ' ' || v.status || ' ' || v.held_reason || ' ' || COALESCE(v.count_at, '-') || ' ' || (v.ip_hash <> '' AND v.ua_hash <> '')
			FROM votes v JOIN listings l ON l.id = v.listing_id ORDER BY v.id`,
		`SELECT slug || ' ' || votes_count || ' ' || printf('%.9f', trending_score) FROM listings ORDER BY id`,
		`SELECT kind || ' ' || key || ' ' || run_at FROM jobs ORDER BY id`,
	} {
		want, got := queryStrings(t, site, q), queryStrings(t, seed, q)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("cast in one transaction:\n%s\nwant, as CastVote cast them:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	// The sequence exercises every rule.
	reasons := strings.Join(queryStrings(t, site, `SELECT held_reason || ':' || COUNT(*) FROM votes GROUP BY held_reason ORDER BY held_reason`), " ")
	if reasons != ":4 burst:3 new_account:1 owner:2" {
		t.Errorf("held reasons %s, want 4 counted, a burst of 3, 1 new account, 2 owners", reasons)
	}
}
