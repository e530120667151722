package storage

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
)

// modFixture is the fixture database with accounts that vote for Notely
// (listing 1, live this week).
type modFixture struct {
	t  *testing.T
	db *DB
	st *Store
}

func newModFixture(t *testing.T) *modFixture {
	t.Helper()
	return newModFixtureOn(t, "sqlite")
}

// newModFixtureOn is newModFixture on engine (see openEngine).
func newModFixtureOn(t *testing.T, engine string) *modFixture {
	t.Helper()
	db, st, _ := newFixtureOn(t, engine)
	return &modFixture{t: t, db: db, st: st}
}

// user adds an account created at created.
func (f *modFixture) user(email string, created time.Time) int64 {
	f.t.Helper()
	return putRow(f.t, f.db, "users", cols{"issuer": "urn:launchdir:email", "subject": email, "email": email, "created_at": created.Unix()})
}

// vote casts userID's vote for slug from network at fxNow (accounts younger
// than a day are held) and returns the vote's id.
func (f *modFixture) vote(userID int64, slug, network string) int64 {
	f.t.Helper()
	v := domain.VoteCast{UserID: userID, Slug: slug, Network: network, UserAgent: "Firefox", At: fxNow, MinAccountAge: 24 * time.Hour,
		BurstVotes: domain.BurstVotes, BurstWindow: domain.BurstWindow, BurstAccountAge: domain.BurstAccountAge}
	if _, err := f.st.CastVote(context.Background(), v, nil); err != nil {
		f.t.Fatalf("vote of %d for %s: %v", userID, slug, err)
	}
	rows := f.rows("votes", cols{"voter_key": domain.VoterKey(userID)})
	return mustInt(f.t, rows[len(rows)-1]["id"])
}

func (f *modFixture) rows(table string, where cols) []Row {
	f.t.Helper()
	rows, err := f.db.Rows(context.Background(), table, where)
	if err != nil {
		f.t.Fatal(err)
	}
	return rows
}

// logged is the number of moderation_log rows.
func (f *modFixture) logged() int { return len(f.rows("moderation_log", nil)) }

// wantCode fails unless err has code, and the log has n rows.
func (f *modFixture) wantCode(what string, err error, code domain.Code, logged int) {
	f.t.Helper()
	if domain.ErrorCode(err) != code {
		f.t.Errorf("%s: %v, want %s", what, err, code)
	}
	if n := f.logged(); n != logged {
		f.t.Errorf("%s: %d log rows, want %d", what, n, logged)
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("%q is not a number", s)
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// TestStore_ModerateVotes: the site team counts a held vote (votes_count
// and trending follow), discards one (it stays held, never counts, cannot
// be taken back or cast again, and its age job finds nothing), cannot
// count an owner's vote, and a second decision or a vote taken back is a
// conflict or not found that logs nothing.
func TestStore_ModerateVotes(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newModFixtureOn(t, engine)
		ctx := context.Background()
		old := fxNow.Add(-30 * 24 * time.Hour)
		owner := f.user("owner@example.com", old)
		setRows(t, f.db, "listings", cols{"owner_id": owner}, cols{"id": 1})
		ann, bob, cat := f.user("ann@example.com", fxNow), f.user("bob@example.com", fxNow), f.user("cat@example.com", fxNow)
		annVote, bobVote := f.vote(ann, "notely", "203.0.113.7"), f.vote(bob, "notely", "198.51.100.1")
		ownerVote := f.vote(owner, "notely", "192.0.2.1")
		count := func() string { return f.rows("listings", cols{"id": 1})[0]["votes_count"] }
		// The fixture has 3 counted votes for Notely, without accounts.
		if got := count(); got != "3" {
			t.Fatalf("votes_count with three held votes: %s, want the fixture's 3", got)
		}

		q, err := f.st.ModerationQueue(ctx, 100)
		if err != nil || q.HeldVotes != 3 || len(q.Votes) != 3 {
			t.Fatalf("queue: %+v, %v", q, err)
		}
		byID := map[int64]console.HeldVote{}
		for _, v := range q.Votes {
			byID[v.ID] = v
		}
		if v := byID[annVote]; v.Email != "ann@example.com" || v.Reason != domain.HeldNewAccount || v.CountAt == nil ||
			!v.CountAt.Equal(fxNow.Add(24*time.Hour)) || len(v.Network) != 64 || len(v.Agent) != 64 || v.ListingSlug != "notely" || !v.At.Equal(fxNow) {
			t.Errorf("ann's held vote in the queue: %+v", v)
		}
		if v := byID[ownerVote]; v.Reason != domain.HeldOwner || v.CountAt != nil || !v.AccountAt.Equal(old) {
			t.Errorf("the owner's held vote in the queue: %+v", v)
		}

		at := fxNow.Add(time.Hour)
		if err := f.st.DecideVote(ctx, "team@example.com", annVote, true, at); err != nil {
			t.Fatal(err)
		}
		if got := count(); got != "4" {
			t.Errorf("votes_count after counting ann's vote: %s, want 4", got)
		}
		if score := f.rows("listings", cols{"id": 1})[0]["trending_score"]; score == "0" || score == "0.0" {
			t.Errorf("trending_score after counting: %s", score)
		}
		if v := f.rows("votes", cols{"id": annVote})[0]; v["status"] != "counted" || v["held_reason"] != "" || v["count_at"] != "" {
			t.Errorf("ann's vote after counting: %v", v)
		}
		log := f.rows("moderation_log", nil)
		if len(log) != 1 || log[0]["actor"] != "team@example.com" || log[0]["action"] != console.ModCountVote || log[0]["vote_id"] != itoa(annVote) ||
			log[0]["listing_id"] != "1" || log[0]["reason"] != domain.HeldNewAccount || log[0]["created_at"] != itoa(at.Unix()) || log[0]["review_id"] != "" {
			t.Fatalf("the log after counting: %v", log)
		}
		f.wantCode("counting twice", f.st.DecideVote(ctx, "team@example.com", annVote, true, at), domain.EConflict, 1)
		f.wantCode("discarding a counted vote", f.st.DecideVote(ctx, "team@example.com", annVote, false, at), domain.EConflict, 1)

		f.wantCode("counting an owner's vote", f.st.DecideVote(ctx, "team@example.com", ownerVote, true, at), domain.EConflict, 1)
		if got := count(); got != "4" {
			t.Errorf("votes_count after refusing the owner's vote: %s", got)
		}

		if err := f.st.DecideVote(ctx, "team@example.com", bobVote, false, at); err != nil {
			t.Fatal(err)
		}
		if v := f.rows("votes", cols{"id": bobVote})[0]; v["status"] != "held" || v["discarded_at"] != itoa(at.Unix()) {
			t.Errorf("bob's vote after discarding: %v", v)
		}
		f.wantCode("discarding twice", f.st.DecideVote(ctx, "team@example.com", bobVote, false, at), domain.EConflict, 2)
		f.wantCode("counting a discarded vote", f.st.DecideVote(ctx, "team@example.com", bobVote, true, at), domain.EConflict, 2)
		// Its account grows old enough: the age job does nothing.
		if counted, err := f.st.CountDueVote(ctx, bobVote, fxNow.Add(48*time.Hour)); err != nil || counted {
			t.Errorf("the age job counted a discarded vote: %v %v", counted, err)
		}
		// Taking it back and voting again changes nothing.
		if err := f.st.RemoveVote(ctx, bob, "notely"); err != nil {
			t.Fatal(err)
		}
		f.vote(bob, "notely", "198.51.100.1")
		if rows := f.rows("votes", cols{"voter_key": domain.VoterKey(bob)}); len(rows) != 1 || rows[0]["discarded_at"] == "" {
			t.Errorf("bob's votes after unvote and vote: %v", rows)
		}
		if got := count(); got != "4" {
			t.Errorf("votes_count after the discarded vote: %s, want 4", got)
		}
		if voted, err := f.st.VotedSlugs(ctx, bob); err != nil || voted["notely"] != domain.VoteDiscarded {
			t.Errorf("bob's vote as his pages see it: %v %v, want discarded", voted, err)
		}

		// A vote taken back before the decision is not found.
		catVote := f.vote(cat, "notely", "203.0.113.9")
		if err := f.st.RemoveVote(ctx, cat, "notely"); err != nil {
			t.Fatal(err)
		}
		f.wantCode("a vote taken back", f.st.DecideVote(ctx, "team@example.com", catVote, true, at), domain.ENotFound, 2)

		q, err = f.st.ModerationQueue(ctx, 100)
		if err != nil || q.HeldVotes != 1 || len(q.Votes) != 1 || q.Votes[0].ID != ownerVote || len(q.Log) != 2 ||
			q.Log[0].Action != console.ModDiscardVote || q.Log[0].ListingName != "Notely" || q.Log[1].VoteID != annVote {
			t.Fatalf("queue after the decisions: %+v, %v", q, err)
		}
		if err := f.st.DecideVote(ctx, "team@example.com", ownerVote, false, at); err != nil {
			t.Fatalf("discarding the owner's vote: %v", err)
		}
	})
}

// TestStore_ModerateReviews: a held review is counted (community_rating
// follows) or discarded; a counted review is hidden and shown again; a
// decision on a review in another state is a conflict, on one that is gone
// not found, and neither logs.
func TestStore_ModerateReviews(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newModFixtureOn(t, engine)
		ctx := context.Background()
		ann := f.user("ann@example.com", fxNow)
		delRows(t, f.db, "reviews", cols{"listing_id": 1}) // the fixture's
		review := func(stars int, status, reason string, user any) int64 {
			return putRow(t, f.db, "reviews", cols{"listing_id": 1, "user_id": user, "author_name": "Someone", "stars": stars,
				"body": "A review long enough to count.", "status": status, "held_reason": reason, "created_at": fxNow.Unix()})
		}
		counted := review(5, "counted", "", nil)
		flagged := review(1, "held", "flagged", nil)
		fresh := review(3, "held", "new_account", ann)
		owner := f.user("owner@example.com", fxNow.Add(-30*24*time.Hour))
		putRow(t, f.db, "listing_owners", cols{"listing_id": 1, "user_id": owner, "created_at": 0})
		owned := review(5, "held", "burst", owner) // a co-owner since
		// community_rating as get_listing shows it (read from its JSON, whatever
		// the Go type).
		rating := func() float64 {
			l, err := f.st.Listing(ctx, "notely")
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				CommunityRating struct {
					Average float64 `json:"average"`
				} `json:"community_rating"`
			}
			b, _ := json.Marshal(l)
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			return r.CommunityRating.Average
		}
		if got := rating(); got != 5 {
			t.Fatalf("rating with one counted review: %v", got)
		}
		q, err := f.st.ModerationQueue(ctx, 100)
		if err != nil || q.HeldReviews != 3 || len(q.Reviews) != 3 || len(q.Recent) != 1 || q.Recent[0].ID != counted {
			t.Fatalf("queue: %+v, %v", q, err)
		}
		for _, r := range q.Reviews {
			if r.ID == fresh && (r.Email != "ann@example.com" || r.Reason != domain.HeldNewAccount || r.Stars != 3) {
				t.Errorf("ann's held review in the queue: %+v", r)
			}
		}

		at := fxNow.Add(time.Hour)
		steps := []struct {
			id     int64
			action string
			want   domain.Code
			status string
		}{
			{fresh, console.ModCountReview, "", "counted"},
			{fresh, console.ModCountReview, domain.EConflict, "counted"},
			{flagged, console.ModDiscardReview, "", "discarded"},
			{flagged, console.ModCountReview, domain.EConflict, "discarded"},
			{flagged, console.ModHideReview, domain.EConflict, "discarded"},
			{counted, console.ModHideReview, "", "hidden"},
			{counted, console.ModHideReview, domain.EConflict, "hidden"},
			{counted, console.ModCountReview, domain.EConflict, "hidden"},
			{counted, console.ModUnhideReview, "", "counted"},
			{counted, console.ModUnhideReview, domain.EConflict, "counted"},
			{owned, console.ModCountReview, domain.EConflict, "held"},
			{owned, console.ModDiscardReview, "", "discarded"},
			{999, console.ModHideReview, domain.ENotFound, ""},
		}
		logged := 0
		for _, s := range steps {
			err := f.st.DecideReview(ctx, "team@example.com", s.id, s.action, at)
			if s.want == "" {
				logged++
			}
			f.wantCode(s.action+" of review "+itoa(s.id), err, s.want, logged)
			if s.status != "" {
				if got := f.rows("reviews", cols{"id": s.id})[0]["status"]; got != s.status {
					t.Errorf("after %s of review %d: status %s, want %s", s.action, s.id, got, s.status)
				}
			}
		}
		if got := rating(); got != 4 {
			t.Errorf("rating after counting the 3-star review: %v, want 4", got)
		}
		log := f.rows("moderation_log", nil)
		if log[0]["action"] != console.ModCountReview || log[0]["review_id"] != itoa(fresh) || log[0]["vote_id"] != "" || log[0]["listing_id"] != "1" {
			t.Errorf("the first log row: %v", log[0])
		}
	})
}

// TestStore_Disqualify: a listing is disqualified from its launch week and
// the disqualification lifted before the week is finalised; once it is,
// neither changes; the wrong week, an unknown listing, a second
// disqualification and lifting nothing store nothing.
func TestStore_Disqualify(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newModFixtureOn(t, engine)
		ctx := context.Background()
		at := fxNow.Add(time.Hour)
		d := func(slug, week string) console.Disqualification {
			return console.Disqualification{Actor: "team@example.com", Slug: slug, Week: week, Reason: "Bought votes", At: at}
		}
		if err := f.st.Disqualify(ctx, d("notely", "2026-11-16"), false); err != nil {
			t.Fatal(err)
		}
		rows := f.rows("week_disqualifications", nil)
		if len(rows) != 1 || rows[0]["listing_id"] != "1" || rows[0]["week"] != "2026-11-16" || rows[0]["reason"] != "Bought votes" ||
			rows[0]["decided_by"] != "team@example.com" || rows[0]["created_at"] != itoa(at.Unix()) {
			t.Fatalf("week_disqualifications: %v", rows)
		}
		if log := f.rows("moderation_log", nil); len(log) != 1 || log[0]["action"] != console.ModDisqualify || log[0]["week"] != "2026-11-16" ||
			log[0]["reason"] != "Bought votes" || log[0]["listing_id"] != "1" {
			t.Fatalf("log: %v", log)
		}
		f.wantCode("twice", f.st.Disqualify(ctx, d("notely", "2026-11-16"), false), domain.EConflict, 1)
		f.wantCode("another week", f.st.Disqualify(ctx, d("notely", "2026-11-23"), false), domain.EInvalid, 1)
		f.wantCode("a draft", f.st.Disqualify(ctx, d("drafty", "2026-11-16"), false), domain.EInvalid, 1)
		err := f.st.Disqualify(ctx, d("nobody", "2026-11-16"), false)
		f.wantCode("an unknown listing", err, domain.EInvalid, 1)
		if e, ok := err.(*domain.Error); !ok || e.Fields[0].Field != "listing" {
			t.Errorf("an unknown listing: %v, want the field listing", err)
		}
		q, err := f.st.ModerationQueue(ctx, 100)
		if err != nil || len(q.Disqualifications) != 1 || q.Disqualifications[0].ListingName != "Notely" || q.Disqualifications[0].Finalised {
			t.Fatalf("queue: %+v %v", q, err)
		}

		if err := f.st.Disqualify(ctx, d("notely", "2026-11-16"), true); err != nil {
			t.Fatal(err)
		}
		if rows := f.rows("week_disqualifications", nil); len(rows) != 0 {
			t.Fatalf("after lifting: %v", rows)
		}
		if log := f.rows("moderation_log", nil); len(log) != 2 || log[1]["action"] != console.ModRequalify || log[1]["reason"] != "Bought votes" {
			t.Fatalf("log after lifting: %v", log)
		}
		f.wantCode("lifting nothing", f.st.Disqualify(ctx, d("notely", "2026-11-16"), true), domain.ENotFound, 2)

		// Last week (Sketchy's) is finalised: nothing changes any more.
		if err := f.st.Disqualify(ctx, d("sketchy", "2026-11-09"), false); err != nil {
			t.Fatal(err)
		}
		putRow(t, f.db, "finalised_weeks", cols{"site_id": f.st.siteID, "week": "2026-11-09", "finalised_at": fxNow.Unix()})
		f.wantCode("lifting after finalisation", f.st.Disqualify(ctx, d("sketchy", "2026-11-09"), true), domain.EConflict, 3)
		delRows(t, f.db, "week_disqualifications", cols{"week": "2026-11-09"})
		f.wantCode("disqualifying after finalisation", f.st.Disqualify(ctx, d("sketchy", "2026-11-09"), false), domain.EConflict, 3)
		if rows := f.rows("week_disqualifications", nil); len(rows) != 0 {
			t.Fatalf("a finalised week got a disqualification: %v", rows)
		}
	})
}

// TestStore_ModerateVoteOnce: two team members count one vote at the same
// moment, through two connections of the pool: one succeeds, the other is
// a conflict, the vote is counted once and the log has one row.
func TestStore_ModerateVoteOnce(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newModFixtureOn(t, engine)
		id := f.vote(f.user("ann@example.com", fxNow), "notely", "203.0.113.7")
		errs := make(chan error, 2)
		for _, actor := range []string{"one@example.com", "two@example.com"} {
			go func() { errs <- f.st.DecideVote(context.Background(), actor, id, true, fxNow) }()
		}
		var ok, conflict int
		for range 2 {
			switch err := <-errs; domain.ErrorCode(err) {
			case "":
				ok++
			case domain.EConflict:
				conflict++
			default:
				t.Errorf("a concurrent decision: %v", err)
			}
		}
		if ok != 1 || conflict != 1 || f.logged() != 1 {
			t.Errorf("two concurrent counts: %d ok, %d conflicts, %d log rows; want 1, 1, 1", ok, conflict, f.logged())
		}
		if got := f.rows("listings", cols{"id": 1})[0]["votes_count"]; got != "4" {
			t.Errorf("votes_count: %s, want 4 (the fixture's 3 and this one)", got)
		}
	})
}
