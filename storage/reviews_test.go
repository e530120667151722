package storage_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// reviewEnv is a database with one live listing owned by owner@example.com
// and a service on a test clock starting at fixtures.Now.
type reviewEnv struct {
	db    *storage.DB
	svc   *domain.Service
	clock *testclock.Clock
	id    int64
	slug  string
}

func newReviewEnv(t *testing.T) *reviewEnv {
	t.Helper()
	return newReviewEnvOn(t, "sqlite")
}

// newReviewEnvOn is newReviewEnv on engine (see jobEngines).
func newReviewEnvOn(t *testing.T, engine string) *reviewEnv {
	t.Helper()
	var db *storage.DB
	if engine == "postgres" {
		db = fixtures.OpenAt(t, fixtures.MigratedPostgres(t), false)
	} else {
		db = fixtures.Open(t, false)
	}
	clock := testclock.New(fixtures.Now)
	svc, _ := fixtures.Service(t, db, fixtures.Site, clock.Now)
	fixtures.User(t, db, "owner@example.com")
	fixtures.Insert(t, db, "categories", fixtures.Cols{"site_id": fixtures.First(t, db, "sites"), "slug": "notes", "name": "Notes"})
	id := fixtures.Listing(t, db, "owner@example.com", fixtures.Cols{"status": "live", "launch_week": "2026-11-16"})
	return &reviewEnv{db: db, svc: svc, clock: clock, id: id, slug: fixtures.Column(t, db, "listings", id, "slug")}
}

// write writes email's review from network (creating the account).
func (e *reviewEnv) write(t *testing.T, email, network string, stars int, body string) (*domain.OwnReview, error) {
	t.Helper()
	return e.svc.WriteReview(context.Background(), fixtures.User(t, e.db, email), e.slug, stars, body, network, "test-agent")
}

func (e *reviewEnv) listing(t *testing.T) *domain.Listing {
	t.Helper()
	l, err := e.svc.GetListing(context.Background(), domain.SlugInput{Slug: e.slug})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

const goodBody = "Does what it says, and the import from CSV took a minute."

func TestReviews_HoldingRules(t *testing.T) {
	t.Parallel()
	for _, engine := range jobEngines {
		t.Run(engine, func(t *testing.T) {
			skipSQLiteInE2E(t, engine)
			e := newReviewEnvOn(t, engine)
			ctx := context.Background()
			e.svc.VoteMinAccountAge = 24 * time.Hour

			// A fresh account: held for its age, with its job in the same transaction.
			own, err := e.write(t, "ann.lee+reviews@example.com", "198.51.100.1", 4, "  "+goodBody+"\r\n\r\nWould buy again.  ")
			if err != nil {
				t.Fatal(err)
			}
			if own.Status != domain.ReviewHeld || own.Reason != domain.HeldNewAccount || !own.CountAt.Equal(fixtures.Now.Add(24*time.Hour)) {
				t.Fatalf("a fresh account's review: %+v", own)
			}
			if own.Body != goodBody+"\n\nWould buy again." || own.Author != "ann.lee" {
				t.Fatalf("stored text %q by %q: want trimmed, LF line ends, the email's local part", own.Body, own.Author)
			}
			jobs := fixtures.Rows(t, e.db, "jobs", fixtures.Cols{"kind": domain.ReviewCountJob})
			if len(jobs) != 1 || jobs[0]["key"] != "1" || jobs[0]["run_at"] != fmt.Sprint(fixtures.Now.Add(24*time.Hour).Unix()) {
				t.Fatalf("review_count jobs: %v", jobs)
			}
			row := fixtures.Rows(t, e.db, "reviews", nil)[0]
			if len(row["ip_hash"]) != 64 || len(row["ua_hash"]) != 64 || strings.Contains(row["ip_hash"], "198.51") {
				t.Fatalf("audit hashes: %v", row)
			}
			if l := e.listing(t); l.CommunityRating != nil || l.Reviews.Count != 0 {
				t.Fatalf("a held review counts: %+v %+v", l.CommunityRating, l.Reviews)
			}
			// Not due yet: nothing; then due: counted.
			e.clock.Advance(23 * time.Hour)
			if ok, err := e.svc.Reviews.CountDueReview(ctx, own.ID, e.clock.Now()); ok || err != nil {
				t.Fatalf("counted early: %v %v", ok, err)
			}
			// An edit keeps the status and the hold.
			if own, err = e.write(t, "ann.lee+reviews@example.com", "198.51.100.1", 5, goodBody); err != nil || own.Status != domain.ReviewHeld ||
				own.Stars != 5 || own.UpdatedAt == nil || !own.UpdatedAt.Equal(e.clock.Now()) {
				t.Fatalf("edit of a held review: %+v %v", own, err)
			}
			e.clock.Advance(time.Hour)
			if ok, err := e.svc.Reviews.CountDueReview(ctx, own.ID, e.clock.Now()); !ok || err != nil {
				t.Fatalf("due review not counted: %v %v", ok, err)
			}
			l := e.listing(t)
			if l.CommunityRating == nil || *l.CommunityRating != (domain.Rating{Average: 5, Count: 1}) || l.Reviews.Count != 1 ||
				len(l.Reviews.Items) != 1 || l.Reviews.Items[0].Author != "ann.lee" || l.Reviews.Items[0].UpdatedAt == nil {
				t.Fatalf("after counting: %+v %+v", l.CommunityRating, l.Reviews)
			}

			// The owner is refused; nothing stored.
			if _, err := e.write(t, "owner@example.com", "198.51.100.9", 5, goodBody); domain.ErrorCode(err) != domain.EForbidden {
				t.Fatalf("owner's review: %v", err)
			}
			// A co-owner too.
			co := fixtures.User(t, e.db, "co@example.com")
			fixtures.Insert(t, e.db, "listing_owners", fixtures.Cols{"listing_id": e.id, "user_id": co, "created_at": fixtures.Now.Unix()})
			if _, err := e.write(t, "co@example.com", "198.51.100.9", 5, goodBody); domain.ErrorCode(err) != domain.EForbidden {
				t.Fatalf("co-owner's review: %v", err)
			}
			// Bad input: invalid, naming the field, nothing stored.
			for _, tc := range []struct {
				stars       int
				body, field string
			}{{0, goodBody, "stars"}, {6, goodBody, "stars"}, {3, "  too short        ", "body"}, {3, strings.Repeat("é", 2001), "body"}} {
				_, err := e.write(t, "bad@example.com", "198.51.100.2", tc.stars, tc.body)
				var de *domain.Error
				if domain.ErrorCode(err) != domain.EInvalid || !asErr(err, &de) || de.Fields[0].Field != tc.field {
					t.Errorf("stars %d body %d runes: %v, want invalid %s", tc.stars, len([]rune(tc.body)), err, tc.field)
				}
			}
			if _, err := e.write(t, "bad@example.com", "198.51.100.2", 3, strings.Repeat("é", 2000)); err != nil {
				t.Errorf("2000 two-byte characters are within the bound: %v", err)
			}
			if n := fixtures.Count(t, e.db, "reviews", nil); n != 2 {
				t.Fatalf("reviews stored: %d, want 2", n)
			}
		})
	}
}

func asErr(err error, de **domain.Error) bool {
	e, ok := err.(*domain.Error)
	*de = e
	return ok && len(e.Fields) > 0
}

func TestReviews_Burst(t *testing.T) {
	t.Parallel()
	for _, engine := range jobEngines {
		t.Run(engine, func(t *testing.T) {
			skipSQLiteInE2E(t, engine)
			e := newReviewEnvOn(t, engine)
			e.svc.VoteMinAccountAge = 0
			// Two young accounts from one network count; an old account from it too.
			old := fixtures.User(t, e.db, "old@example.com")
			fixtures.Update(t, e.db, "users", fixtures.Cols{"created_at": fixtures.Now.AddDate(0, -1, 0).Unix()}, fixtures.Cols{"id": old})
			for _, who := range []string{"a@example.com", "b@example.com", "old@example.com"} {
				if own, err := e.write(t, who, "203.0.113.5", 5, goodBody); err != nil || own.Status != domain.ReviewCounted {
					t.Fatalf("%s: %+v %v", who, own, err)
				}
			}
			if r := e.listing(t).CommunityRating; r == nil || r.Count != 3 {
				t.Fatalf("before the burst: %+v", r)
			}
			// The third young account within 10 minutes: all three young ones held.
			e.clock.Advance(9 * time.Minute)
			if own, err := e.write(t, "c@example.com", "203.0.113.5", 1, goodBody); err != nil || own.Reason != domain.HeldBurst {
				t.Fatalf("third of the burst: %+v %v", own, err)
			}
			if n := fixtures.Count(t, e.db, "reviews", fixtures.Cols{"status": "held", "held_reason": "burst"}); n != 3 {
				t.Fatalf("burst reviews held: %d, want 3", n)
			}
			if r := e.listing(t).CommunityRating; r == nil || r.Count != 1 {
				t.Fatalf("after the burst only the old account's review counts: %+v", r)
			}
			// Another network, later: not part of it.
			e.clock.Advance(11 * time.Minute)
			if own, err := e.write(t, "d@example.com", "203.0.113.5", 4, goodBody); err != nil || own.Status != domain.ReviewCounted {
				t.Fatalf("after the window: %+v %v", own, err)
			}
		})
	}
}

func TestReviews_AnswerDeleteHidden(t *testing.T) {
	t.Parallel()
	for _, engine := range jobEngines {
		t.Run(engine, func(t *testing.T) {
			skipSQLiteInE2E(t, engine)
			e := newReviewEnvOn(t, engine)
			ctx := context.Background()
			e.svc.VoteMinAccountAge = 0
			ownerID := fixtures.ID(t, e.db, "users", fixtures.Cols{"email": "owner@example.com"})
			own, err := e.write(t, "ann@example.com", "198.51.100.1", 4, goodBody)
			if err != nil {
				t.Fatal(err)
			}
			ann := fixtures.ID(t, e.db, "users", fixtures.Cols{"email": "ann@example.com"})
			if err := e.svc.AnswerReview(ctx, ann, e.slug, own.ID, "Thanks!"); domain.ErrorCode(err) != domain.EForbidden {
				t.Fatalf("a reviewer answering: %v", err)
			}
			if err := e.svc.AnswerReview(ctx, ownerID, e.slug, own.ID, "   "); domain.ErrorCode(err) != domain.EInvalid {
				t.Fatalf("an empty answer: %v", err)
			}
			if err := e.svc.AnswerReview(ctx, ownerID, e.slug, own.ID+100, "Thanks!"); domain.ErrorCode(err) != domain.ENotFound {
				t.Fatalf("answering no review: %v", err)
			}
			if err := e.svc.AnswerReview(ctx, ownerID, e.slug, own.ID, " Thanks, Ann: CSV export is next. "); err != nil {
				t.Fatal(err)
			}
			if err := e.svc.AnswerReview(ctx, ownerID, e.slug, own.ID, "Changed my mind"); domain.ErrorCode(err) != domain.EConflict {
				t.Fatalf("a second answer: %v", err)
			}
			l := e.listing(t)
			if a := l.Reviews.Items[0].Answer; a == nil || a.Body != "Thanks, Ann: CSV export is next." || !a.AnsweredAt.Equal(fixtures.Now) {
				t.Fatalf("the answer: %+v", a)
			}
			// The owner's view: owner, no review; Ann's: her review.
			if rv, err := e.svc.ReviewerOf(ctx, ownerID, e.slug); err != nil || !rv.Owner || rv.Own != nil {
				t.Fatalf("owner as reviewer: %+v %v", rv, err)
			}
			if rv, err := e.svc.ReviewerOf(ctx, ann, e.slug); err != nil || rv.Owner || rv.Own == nil || rv.Own.ID != own.ID {
				t.Fatalf("Ann as reviewer: %+v %v", rv, err)
			}
			// Delete, then write again: a new review.
			if err := e.svc.DeleteReview(ctx, ann, e.slug); err != nil {
				t.Fatal(err)
			}
			if l := e.listing(t); l.CommunityRating != nil || fixtures.Count(t, e.db, "reviews", nil) != 0 {
				t.Fatalf("after delete: %+v", l.CommunityRating)
			}
			if err := e.svc.DeleteReview(ctx, ann, e.slug); err != nil {
				t.Fatalf("deleting nothing: %v", err)
			}
			own, err = e.write(t, "ann@example.com", "198.51.100.1", 2, goodBody)
			if err != nil {
				t.Fatal(err)
			}
			// A review the site team hid can be neither changed nor deleted.
			fixtures.Update(t, e.db, "reviews", fixtures.Cols{"status": "hidden"}, fixtures.Cols{"id": own.ID})
			if _, err := e.write(t, "ann@example.com", "198.51.100.1", 5, goodBody); domain.ErrorCode(err) != domain.EConflict {
				t.Fatalf("editing a hidden review: %v", err)
			}
			if err := e.svc.DeleteReview(ctx, ann, e.slug); domain.ErrorCode(err) != domain.EConflict {
				t.Fatalf("deleting a hidden review: %v", err)
			}
			if r := fixtures.Row(t, e.db, "reviews", own.ID); r["stars"] != "2" || r["status"] != "hidden" {
				t.Fatalf("the hidden review changed: %v", r)
			}
			// Scheduled listings take no reviews yet.
			fixtures.Update(t, e.db, "listings", fixtures.Cols{"status": "scheduled"}, fixtures.Cols{"id": e.id})
			if _, err := e.write(t, "bob@example.com", "198.51.100.1", 5, goodBody); domain.ErrorCode(err) != domain.EConflict {
				t.Fatalf("a review of a scheduled listing: %v", err)
			}
		})
	}
}
