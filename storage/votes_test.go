package storage

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// The vote store beyond RecordVote (docs/votes.md), on both engines: casting
// (counted, held for a new account with its count job, held for the owner,
// a burst), taking back, the count job, the voter's slugs, trending, and
// votes cast and taken back concurrently.

// cast is CastVote of userID for slug from network at at, with the rules of
// serve (a day's account age, the burst rule); jobs collects the count jobs.
func (f *modFixture) cast(userID int64, slug, network string, at time.Time, jobs *[]domain.JobSpec) (*domain.VoteResult, error) {
	v := domain.VoteCast{UserID: userID, Slug: slug, Network: network, UserAgent: "Firefox", At: at, MinAccountAge: 24 * time.Hour,
		BurstVotes: domain.BurstVotes, BurstWindow: domain.BurstWindow, BurstAccountAge: domain.BurstAccountAge}
	var specs func(int64, time.Time) []domain.JobSpec
	if jobs != nil {
		specs = func(id int64, countAt time.Time) []domain.JobSpec {
			s := domain.JobSpec{Kind: "vote_count", Key: fmt.Sprint(id), Payload: map[string]int64{"vote_id": id}, RunAt: countAt}
			*jobs = append(*jobs, s)
			return []domain.JobSpec{s}
		}
	}
	return f.st.CastVote(context.Background(), v, specs)
}

// listing1 returns Notely's votes_count and trending_score.
func (f *modFixture) listing1() (int, float64) {
	f.t.Helper()
	r := f.rows("listings", cols{"id": 1})[0]
	n, err := strconv.Atoi(r["votes_count"])
	if err != nil {
		f.t.Fatal(err)
	}
	score, err := strconv.ParseFloat(r["trending_score"], 64)
	if err != nil {
		f.t.Fatal(err)
	}
	return n, score
}

// wantTrending fails unless Notely's trending_score is the score of its
// counted votes at their cast times (docs/search.md).
func (f *modFixture) wantTrending(what string) {
	f.t.Helper()
	var times []int64
	for _, v := range f.rows("votes", cols{"listing_id": 1, "status": "counted"}) {
		times = append(times, mustInt(f.t, v["created_at"]))
	}
	slices.Sort(times)
	want := 0.0
	for _, at := range times {
		want = TrendingAdd(want, time.Unix(at, 0))
	}
	if _, got := f.listing1(); math.Abs(got-want) > 1e-9 {
		f.t.Errorf("%s: trending_score %v, want %v from %d counted votes", what, got, want, len(times))
	}
}

// TestStore_VoteLifecycle: a vote counts at once or is held (new account,
// with its count job in the same transaction; owner; burst, the earlier
// votes of the burst held too), voting again changes nothing, the count job
// counts a due vote once, taking a vote back uncounts it, a listing that has
// not launched takes no vote; votes_count, trending and VotedSlugs follow.
func TestStore_VoteLifecycle(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newModFixtureOn(t, engine)
		ctx := context.Background()
		old := fxNow.AddDate(0, 0, -30)
		count := func(what string, want int) {
			t.Helper()
			if n, _ := f.listing1(); n != want {
				t.Errorf("%s: votes_count %d, want %d", what, n, want)
			}
			f.wantTrending(what)
		}
		if n, _ := f.listing1(); n != 3 {
			t.Fatalf("the fixture's votes_count: %d, want 3", n)
		}

		ann := f.user("ann@example.com", old)
		r, err := f.cast(ann, "notely", "203.0.113.1", fxNow, nil)
		if err != nil || r.Status != domain.VoteCounted {
			t.Fatalf("an established account's vote: %+v, %v; want counted", r, err)
		}
		count("after ann's vote", 4)
		if r, err := f.cast(ann, "notely", "203.0.113.1", fxNow.Add(time.Minute), nil); err != nil || r.Status != domain.VoteCounted {
			t.Errorf("ann votes again: %+v, %v; want her counted vote", r, err)
		}
		if n := len(f.rows("votes", cols{"voter_key": domain.VoterKey(ann)})); n != 1 {
			t.Errorf("ann's vote rows: %d, want 1", n)
		}
		count("after ann votes again", 4)

		// A new account: held until it is a day old, with its count job.
		bob := f.user("bob@example.com", fxNow.Add(-time.Hour))
		var jobs []domain.JobSpec
		r, err = f.cast(bob, "notely", "198.51.100.1", fxNow, &jobs)
		if err != nil || r.Status != domain.VoteHeld || r.Reason != domain.HeldNewAccount || !r.CountAt.Equal(fxNow.Add(23*time.Hour)) {
			t.Fatalf("a new account's vote: %+v, %v; want held (new_account) until the account is a day old", r, err)
		}
		if len(jobs) != 1 || len(f.rows("jobs", cols{"kind": "vote_count", "key": jobs[0].Key})) != 1 {
			t.Errorf("count jobs: %+v, want one, stored with the vote", jobs)
		}
		count("with bob's vote held", 4)
		bobVote := mustInt(t, f.rows("votes", cols{"voter_key": domain.VoterKey(bob)})[0]["id"])
		if ok, err := f.st.CountDueVote(ctx, bobVote, fxNow.Add(22*time.Hour)); ok || err != nil {
			t.Errorf("count job before the vote is due: %v, %v; want nothing done", ok, err)
		}
		if ok, err := f.st.CountDueVote(ctx, bobVote, fxNow.Add(23*time.Hour)); !ok || err != nil {
			t.Errorf("count job when the vote is due: %v, %v; want counted", ok, err)
		}
		if ok, err := f.st.CountDueVote(ctx, bobVote, fxNow.Add(24*time.Hour)); ok || err != nil {
			t.Errorf("count job run again: %v, %v; want nothing done", ok, err)
		}
		count("after bob's vote counted", 5)

		// The owner's vote never counts.
		owner := f.user("owner@example.com", old)
		setRows(t, f.db, "listings", cols{"owner_id": owner}, cols{"id": 1})
		if r, err := f.cast(owner, "notely", "192.0.2.1", fxNow, nil); err != nil || r.Reason != domain.HeldOwner {
			t.Errorf("the owner's vote: %+v, %v; want held (owner)", r, err)
		}
		count("with the owner's vote", 5)

		// A burst: three accounts of two days from one network within ten
		// minutes. The first two count, then all three are held.
		var burst []int64
		for i := range domain.BurstVotes {
			u := f.user(fmt.Sprintf("young%d@example.com", i), fxNow.AddDate(0, 0, -2))
			burst = append(burst, u)
			r, err := f.cast(u, "notely", "100.64.0.1", fxNow.Add(time.Duration(i)*time.Minute), nil)
			if err != nil {
				t.Fatal(err)
			}
			if i < domain.BurstVotes-1 && r.Status != domain.VoteCounted || i == domain.BurstVotes-1 && r.Reason != domain.HeldBurst {
				t.Errorf("burst vote %d: %+v", i, r)
			}
		}
		count("after the burst", 5)
		for _, u := range burst {
			if v := f.rows("votes", cols{"voter_key": domain.VoterKey(u)})[0]; v["status"] != "held" || v["held_reason"] != "burst" {
				t.Errorf("a vote of the burst: %s (%s), want held (burst)", v["status"], v["held_reason"])
			}
		}

		voted, err := f.st.VotedSlugs(ctx, burst[0])
		if err != nil || len(voted) != 1 || voted["notely"] != "burst" {
			t.Errorf("VotedSlugs of a burst voter: %v, %v", voted, err)
		}
		if voted, err := f.st.VotedSlugs(ctx, ann); err != nil || len(voted) != 1 || voted["notely"] != "" {
			t.Errorf("VotedSlugs of ann: %v, %v; want notely, counted", voted, err)
		}

		// Taken back: a counted vote stops counting; a held one just goes.
		if err := f.st.RemoveVote(ctx, ann, "notely"); err != nil {
			t.Fatal(err)
		}
		count("after ann took her vote back", 4)
		if err := f.st.RemoveVote(ctx, ann, "notely"); err != nil {
			t.Errorf("taking back a vote twice: %v, want nothing to do", err)
		}
		if err := f.st.RemoveVote(ctx, burst[1], "notely"); err != nil {
			t.Fatal(err)
		}
		count("after a held vote was taken back", 4)
		if voted, err := f.st.VotedSlugs(ctx, ann); err != nil || len(voted) != 0 {
			t.Errorf("VotedSlugs of ann after taking it back: %v, %v", voted, err)
		}

		// Only launched listings take votes; unknown ones are not found.
		if _, err := f.cast(ann, "soonly", "203.0.113.1", fxNow, nil); domain.ErrorCode(err) != domain.EConflict {
			t.Errorf("a vote for a scheduled listing: %v, want conflict", err)
		}
		if _, err := f.cast(ann, "drafty", "203.0.113.1", fxNow, nil); domain.ErrorCode(err) != domain.ENotFound {
			t.Errorf("a vote for a draft: %v, want not found", err)
		}
		if err := f.st.RemoveVote(ctx, ann, "nothing-here"); domain.ErrorCode(err) != domain.ENotFound {
			t.Errorf("taking back a vote of an unknown listing: %v, want not found", err)
		}
	})
}

// TestStore_VotesConcurrent: 12 people vote for one listing at the same
// moment, one person votes four times at once, then the 12 take their votes
// back at once. Every call succeeds, the person's four calls leave one vote,
// and votes_count and trending are exact after each burst. On PostgreSQL the
// votes' transactions all update the listing's count and conflict: they are
// run again (DB.inTx) rather than fail.
func TestStore_VotesConcurrent(t *testing.T) {
	t.Parallel()
	onEngines(t, func(t *testing.T, engine string) {
		f := newModFixtureOn(t, engine)
		ctx := context.Background()
		old := fxNow.AddDate(0, 0, -30)
		people := make([]int64, 12)
		for i := range people {
			people[i] = f.user(fmt.Sprintf("p%02d@example.com", i), old)
		}
		twice := f.user("eager@example.com", old)
		all := func(n int, fn func(i int) error) {
			t.Helper()
			start := make(chan struct{})
			errs := make(chan error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					errs <- fn(i)
				}()
			}
			close(start)
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("a concurrent call: %v", err)
				}
			}
		}
		all(len(people)+4, func(i int) error {
			u, network := twice, "198.51.100.9"
			if i < len(people) {
				u, network = people[i], fmt.Sprintf("203.0.113.%d", i)
			}
			r, err := f.cast(u, "notely", network, fxNow.Add(time.Duration(i)*time.Second), nil)
			if err == nil && r.Status != domain.VoteCounted {
				err = fmt.Errorf("vote of %d: %+v, want counted", u, r)
			}
			return err
		})
		if n, _ := f.listing1(); n != 3+len(people)+1 {
			t.Errorf("votes_count after concurrent votes: %d, want %d", n, 3+len(people)+1)
		}
		if n := len(f.rows("votes", cols{"voter_key": domain.VoterKey(twice)})); n != 1 {
			t.Errorf("votes of the person who voted four times at once: %d, want 1", n)
		}
		f.wantTrending("after concurrent votes")

		all(len(people), func(i int) error { return f.st.RemoveVote(ctx, people[i], "notely") })
		if n, _ := f.listing1(); n != 3+1 {
			t.Errorf("votes_count after concurrent take-backs: %d, want 4", n)
		}
		f.wantTrending("after concurrent take-backs")
	})
}
