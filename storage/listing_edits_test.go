package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// editValues encodes field values the way the domain sends them.
func editValues(t *testing.T, kv ...any) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	for i := 0; i+1 < len(kv); i += 2 {
		b, err := json.Marshal(kv[i+1])
		if err != nil {
			t.Fatal(err)
		}
		out[kv[i].(string)] = b
	}
	return out
}

func editCount(t *testing.T, db *DB, query string, args ...any) int {
	t.Helper()
	var n int
	draftMust(t, db.sql.QueryRow(query, args...).Scan(&n))
	return n
}

// TestListingEdits_Versions: values equal to what a submitted draft wrote
// store nothing; a change is written with one version holding the before
// and after of the changed fields only, and reaches search_log; someone
// else's listing is not found.
func TestListingEdits_Versions(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		ann, bob := mkDraftUser(t, db, "ann@ex.test"), mkDraftUser(t, db, "bob@ex.test")
		id, err := st.SaveOwnListing(ctx, ann, 0, fullWrite())
		draftMust(t, err)
		now := time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)
		same := editValues(t, "tagline", "Team notes", "pricing_model", "freemium", "country", "DE", "founded_year", 2021,
			"features", []string{"Sync"}, "keywords", []string{"notes", "markdown"}, "faqs", []domain.FAQ{{Question: "Free?", Answer: "Yes."}},
			"socials", domain.Socials{"github": "https://github.test/ex"}, "seo_title", "Ex Notes: team notes", "headline", "")
		logBefore := editCount(t, db, `SELECT count(*) FROM search_log WHERE listing_id = ?`, id)
		res, err := st.EditOwnListing(ctx, domain.ListingEdit{UserID: ann, Email: "ann@ex.test", ListingID: id, Values: same, Now: now})
		if err != nil || res.Version != nil {
			t.Fatalf("the same values: %+v, %v", res, err)
		}
		if n := editCount(t, db, `SELECT count(*) FROM search_log WHERE listing_id = ?`, id); n != logBefore ||
			editCount(t, db, `SELECT count(*) FROM listing_versions`) != 0 {
			t.Fatalf("an edit that changed nothing wrote the listing (search_log %d -> %d) or a version", logBefore, n)
		}

		change := editValues(t, "tagline", "Notes for teams", "founded_year", nil, "features", []string{}, "country", "DE",
			"socials", domain.Socials{}, "headline", "The notes app")
		res, err = st.EditOwnListing(ctx, domain.ListingEdit{UserID: ann, Email: "ann@ex.test", ListingID: id, Values: change, Now: now})
		if err != nil || res.Version == nil || res.Version.Version != 1 || fmt.Sprint(res.Version.Fields) != "[tagline founded_year features headline socials]" ||
			res.Version.By != "ann@ex.test" || !res.Version.At.Equal(now) {
			t.Fatalf("a change: %+v, %v", res.Version, err)
		}
		var before, after, tagline, socials string
		var founded *int64
		var updated int64
		draftMust(t, db.sql.QueryRow(`SELECT v.before, v.after, l.tagline, l.founded_year, l.socials, l.updated_at
		FROM listing_versions v JOIN listings l ON l.id = v.listing_id WHERE v.listing_id = ?`, id).
			Scan(&before, &after, &tagline, &founded, &socials, &updated))
		if before != `{"features":["Sync"],"founded_year":2021,"headline":"","socials":{"github":"https://github.test/ex"},"tagline":"Team notes"}` ||
			after != `{"features":[],"founded_year":null,"headline":"The notes app","socials":{},"tagline":"Notes for teams"}` {
			t.Fatalf("version before %s after %s", before, after)
		}
		if tagline != "Notes for teams" || founded != nil || socials != "{}" || updated != now.Unix() {
			t.Fatalf("listing after the edit: %q %v %s %d", tagline, founded, socials, updated)
		}
		if n := editCount(t, db, `SELECT count(*) FROM search_log WHERE listing_id = ?`, id); n <= logBefore {
			t.Fatalf("the edit did not reach search_log")
		}

		_, err = st.EditOwnListing(ctx, domain.ListingEdit{UserID: bob, Email: "bob@ex.test", ListingID: id, Values: editValues(t, "tagline", "Bob's"), Now: now})
		wantDomainErr(t, err, domain.ENotFound, "someone else's listing")
		if _, err := st.RevertVersion(ctx, 999999, "team@ex.test", now); err == nil {
			t.Fatal("reverting an unknown version succeeded")
		}
		wantDomainErr(t, st.MarkVersionReviewed(ctx, 999999, "team@ex.test", now), domain.ENotFound, "reviewing an unknown version")
	})
}

// TestListingEdits_Concurrent: edits at the same time each get their own
// version number.
func TestListingEdits_Concurrent(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		db, st, _ := newFixtureOn(t, engine)
		ctx := context.Background()
		ann := mkDraftUser(t, db, "ann@ex.test")
		id, err := st.SaveOwnListing(ctx, ann, 0, fullWrite())
		draftMust(t, err)
		const n = 8
		errs := make([]error, n)
		values := make([]map[string]json.RawMessage, n)
		for i := range n {
			values[i] = editValues(t, "tagline", fmt.Sprintf("Tagline %d", i))
		}
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				_, errs[i] = st.EditOwnListing(ctx, domain.ListingEdit{UserID: ann, Email: "ann@ex.test", ListingID: id,
					Values: values[i], Now: time.Now()})
			})
		}
		wg.Wait()
		for _, err := range errs {
			draftMust(t, err)
		}
		if got := editCount(t, db, `SELECT count(DISTINCT version) FROM listing_versions WHERE listing_id = ? AND version BETWEEN 1 AND ?`, id, n); got != n {
			t.Fatalf("%d distinct versions 1-%d, want %d", got, n, n)
		}
	})
}
