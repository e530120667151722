package storage

import (
	"context"
	"strings"
	"testing"
)

// TestVotedSlugs_UsesVoterIndex: VotedSlugs (the vote buttons of every page
// a signed-in person sees) finds that person's votes by the index on
// votes.voter_key (migration 0037), not by one look-up per listing of the
// site: before, no index led on voter_key, and SQLite walked the site's
// listings and searched each one's votes (votes' UNIQUE (listing_id,
// voter_key)).
func TestVotedSlugs_UsesVoterIndex(t *testing.T) {
	t.Parallel()
	db := openEngine(t, "sqlite")
	rows, err := db.sql.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+votedSlugsQuery, int64(1), "user:1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(plan) == 0 || !strings.HasPrefix(plan[0], "SEARCH v USING INDEX votes_voter (voter_key=?)") {
		t.Errorf("VotedSlugs' plan, want it to start with a search of votes by votes_voter (voter_key=?):\n%s", strings.Join(plan, "\n"))
	}
}
