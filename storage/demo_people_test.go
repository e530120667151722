package storage

import (
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
)

// demoWeekRanks ranks each week's live launches as the site does
// (docs/weeks.md): counted votes of the week, then the earlier last such
// vote, then launched earlier, then listed first. Rows: id, launch_week, rk.
const demoWeekRanks = `SELECT l.id, l.launch_week, ROW_NUMBER() OVER (PARTITION BY l.launch_week ORDER BY w.n DESC, w.last, l.launched_at, l.id) AS rk
	FROM listings l JOIN (SELECT v.listing_id, COUNT(*) AS n, MAX(v.created_at) AS last FROM votes v JOIN listings x ON x.id = v.listing_id
		WHERE v.status = 'counted' AND v.created_at >= unixepoch(x.launch_week) AND v.created_at < unixepoch(x.launch_week) + 7 * 86400
		GROUP BY v.listing_id) w ON w.listing_id = l.id
	WHERE l.status = 'live'`

// TestSeedDemo_Believable checks the seeded database as a person browsing the
// demo would: votes by people, founders on the listings they look at first,
// distinct taglines, stages that fit, followed upcoming launches.
func TestSeedDemo_Believable(t *testing.T) {
	t.Parallel()
	db := seededDB(t, demoNow)
	monday := domain.Monday(demoNow)
	none := []struct {
		name  string
		query string
	}{
		{"votes without an account", `SELECT COUNT(*) FROM votes WHERE user_id IS NULL OR voter_key <> 'user:' || user_id OR ip_hash = '' OR ua_hash = ''`},
		{"votes by accounts made after them", `SELECT COUNT(*) FROM votes v JOIN users u ON u.id = v.user_id WHERE u.created_at >= v.created_at`},
		{"demo accounts at addresses that can receive mail", `SELECT COUNT(*) FROM users WHERE email NOT LIKE '%@` + demo.PeopleEmailDomain + `'`},
		{"demo accounts with a session", `SELECT COUNT(*) FROM sessions`},
		{"held votes outside this week's launches", `SELECT COUNT(*) FROM votes v JOIN listings l ON l.id = v.listing_id WHERE v.status = 'held' AND l.launch_week <> ?`},
		{"held votes of a new account without their job", `SELECT COUNT(*) FROM votes v WHERE v.held_reason = 'new_account' AND (v.count_at <= ?
			OR NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'vote_count' AND j.key = CAST(v.id AS TEXT) AND j.run_at = v.count_at))`},
		{"duplicate taglines", `SELECT COUNT(*) - COUNT(DISTINCT lower(tagline)) FROM listings`},
		{"duplicate short descriptions", `SELECT COUNT(*) - COUNT(DISTINCT lower(short_description)) FROM listings`},
		{"live listings at idea or pre-launch", `SELECT COUNT(*) FROM listings l JOIN stages s ON s.slug = l.stage WHERE l.status = 'live' AND s.position < 3`},
		{"listings with 100 votes before launched", `SELECT COUNT(*) FROM listings l JOIN stages s ON s.slug = l.stage WHERE l.votes_count >= 100 AND s.position < 4`},
		{"top 100 listings without 1-3 founders", `SELECT COUNT(*) FROM (SELECT id FROM listings WHERE status = 'live' ORDER BY votes_count DESC LIMIT 100) t
			WHERE (SELECT COUNT(*) FROM listing_founders lf WHERE lf.listing_id = t.id) NOT BETWEEN 1 AND 3`},
		{"a week's top three without founders", `SELECT COUNT(*) FROM (` + demoWeekRanks + `) t
			WHERE t.rk <= 3 AND NOT EXISTS (SELECT 1 FROM listing_founders lf WHERE lf.listing_id = t.id)`},
		{"founders without a name or a role", `SELECT COUNT(*) FROM founders f JOIN listing_founders lf ON lf.founder_id = f.id WHERE f.name = '' OR lf.role = ''`},
		{"founders sharing a name", `SELECT COUNT(*) - COUNT(DISTINCT name) FROM founders`},
		{"scheduled launches without followers", `SELECT COUNT(*) FROM listings l WHERE l.status = 'scheduled' AND l.follows_count < 3`},
		{"follows not by a demo account", `SELECT COUNT(*) FROM follows f WHERE NOT EXISTS (SELECT 1 FROM users u WHERE f.follower_key = 'user:' || u.id AND u.created_at <= f.created_at)`},
		{"reviews by an account made after them", `SELECT COUNT(*) FROM reviews r JOIN users u ON u.id = r.user_id WHERE u.created_at >= r.created_at`},
		{"counted reviews without an account", `SELECT COUNT(*) FROM reviews WHERE status = 'counted' AND user_id IS NULL`},
	}
	for _, c := range none {
		if n := queryInt(t, db, c.query, monday.Format(domain.DateLayout)); c.name == "held votes of a new account without their job" {
			if n = queryInt(t, db, c.query, demoNow.Unix()); n != 0 {
				t.Errorf("%s: %d", c.name, n)
			}
		} else if n != 0 {
			t.Errorf("%s: %d", c.name, n)
		}
	}
	for _, c := range []struct {
		name    string
		query   string
		min     int
		maximum int
	}{
		{"votes held as a burst", `SELECT COUNT(*) FROM votes WHERE held_reason = 'burst'`, domain.BurstVotes, 10},
		{"votes held for a new account", `SELECT COUNT(*) FROM votes WHERE held_reason = 'new_account'`, 1, 10},
		{"people who voted", `SELECT COUNT(DISTINCT user_id) FROM votes`, 4000, 6100},
		{"distinct networks", `SELECT COUNT(DISTINCT ip_hash) FROM votes`, 4000, 6100},
		{"followers of scheduled launches", `SELECT SUM(follows_count) FROM listings WHERE status = 'scheduled'`, 200, 5000},
		{"live listings with reviews", `SELECT COUNT(DISTINCT r.listing_id) FROM reviews r JOIN listings l ON l.id = r.listing_id WHERE l.status = 'live'`, 100, 250},
		{"distinct review texts", `SELECT COUNT(DISTINCT body) * 100 / COUNT(*) FROM reviews WHERE status = 'counted'`, 80, 100},
		{"listings with founders", `SELECT COUNT(DISTINCT listing_id) FROM listing_founders`, 100, 200},
		{"weeks ranked", `SELECT COUNT(DISTINCT launch_week) FROM (` + demoWeekRanks + `)`, demo.PastWeeks + 1, demo.PastWeeks + 1},
	} {
		if n := queryInt(t, db, c.query); n < c.min || n > c.maximum {
			t.Errorf("%s = %d, want %d-%d", c.name, n, c.min, c.maximum)
		}
	}
	// A vote of a new account counts when its job runs after the account is a day old.
	st, err := NewStore(t.Context(), db, demoSite)
	if err != nil {
		t.Fatal(err)
	}
	var id, countAt int64
	if err := db.sql.QueryRow(`SELECT id, count_at FROM votes WHERE held_reason = 'new_account' ORDER BY id LIMIT 1`).Scan(&id, &countAt); err != nil {
		t.Fatal(err)
	}
	if ok, err := st.CountDueVote(t.Context(), id, time.Unix(countAt, 0)); err != nil || !ok {
		t.Errorf("CountDueVote(%d) at its count_at = %v, %v; want counted", id, ok, err)
	}
}
