package domain_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/demo"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// The weekly clock's tests (docs/weeks.md): a real SQLite file and a real
// PostgreSQL database (fixtures.OnEngines), the real vote path
// (Service.Vote), the real job Runner run by RunDue on a test clock.

// week16 is the Monday of the week the tests vote in; week23 the next one.
var (
	week16 = time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	week23 = week16.AddDate(0, 0, 7)
)

// outbox records the mails the service sends.
type outbox struct {
	mu   sync.Mutex
	sent []string // "to: subject"
}

func (o *outbox) SendMail(_ context.Context, to, subject, _ string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent = append(o.sent, to+": "+subject)
	return nil
}

func (o *outbox) all() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.sent...)
}

// clockEnv is one process of the site: a store over the shared database
// file, its service and its job runner, all on the one test clock.
type clockEnv struct {
	db     *storage.DB
	svc    *domain.Service
	st     *storage.Store
	runner *domain.Runner
	mail   *outbox
}

// clockDatabase is where a test's processes share one database on engine: a
// SQLite file in t's temporary directory or a fresh PostgreSQL database.
func clockDatabase(t *testing.T, engine string) string {
	t.Helper()
	if engine == "postgres" {
		return fixtures.MigratedPostgres(t)
	}
	return filepath.Join(t.TempDir(), "launchdir.db")
}

// openClockEnv opens (another process on) the database at path (a SQLite
// file or a postgres:// URL).
func openClockEnv(t *testing.T, path string, clock *testclock.Clock) *clockEnv {
	t.Helper()
	db, err := storage.Open(path, storage.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	svc, st := fixtures.Service(t, db, fixtures.Site, clock.Now)
	mail := &outbox{}
	svc.Owner.Mailer = mail
	svc.VoteMinAccountAge = domain.DefaultVoteMinAccountAge
	runner := domain.NewRunner(storage.NewJobStore(db), domain.RunnerOptions{Now: clock.Now})
	svc.RegisterVoteJobs(runner)
	svc.RegisterOrderJobs(runner)
	svc.RegisterWeekJobs(runner)
	return &clockEnv{db: db, svc: svc, st: st, runner: runner, mail: mail}
}

func (e *clockEnv) runDue(t *testing.T) int {
	t.Helper()
	n, err := e.runner.RunDue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// user creates the account email as signed up at at.
func (e *clockEnv) user(t *testing.T, email string, at time.Time) int64 {
	t.Helper()
	u, err := storage.NewAuthStore(e.db).UpsertUser(context.Background(), auth.EmailIssuer, email, email, "", at)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// launch adds a listing of week (live, or scheduled when scheduled) owned
// by owner's account ("" for none), named name.
func (e *clockEnv) launch(t *testing.T, owner, name string, week time.Time, scheduled bool) string {
	t.Helper()
	if fixtures.Count(t, e.db, "categories", nil) == 0 {
		fixtures.Insert(t, e.db, "categories", fixtures.Cols{"site_id": fixtures.First(t, e.db, "sites"), "slug": "tools", "name": "Tools"})
	}
	cols := fixtures.Cols{"slug": name, "name": strings.ToUpper(name[:1]) + name[1:], "status": "live",
		"launch_week": week.Format(domain.DateLayout), "launched_at": week.Unix()}
	if scheduled {
		cols["status"], cols["launched_at"], cols["scheduled_at"] = "scheduled", nil, week.Unix()
	}
	fixtures.Listing(t, e.db, owner, cols)
	return name
}

// vote casts userID's vote for slug through the real vote path.
func (e *clockEnv) vote(t *testing.T, userID int64, slug, network string) *domain.VoteResult {
	t.Helper()
	r, err := e.svc.Vote(context.Background(), userID, slug, network, "Mozilla/5.0 test")
	if err != nil {
		t.Fatalf("vote of %d for %s: %v", userID, slug, err)
	}
	return r
}

// awards returns week's awards as "rank:slug:votes".
func (e *clockEnv) awards(t *testing.T, week time.Time) []string {
	t.Helper()
	out, err := e.svc.ListAwards(context.Background(), domain.ListAwardsInput{Pagination: domain.Pagination{PerPage: 100}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := len(out.Items) - 1; i >= 0; i-- {
		a := out.Items[i]
		if a.Week == week.Format(domain.DateLayout) {
			got = append([]string{fmt.Sprintf("%d:%s:%d", a.Rank, a.Listing.Slug, a.Votes)}, got...)
		}
	}
	return got
}

// ranking returns get_launch_week's items of week as "rank:slug:votes".
func (e *clockEnv) ranking(t *testing.T, week time.Time) []string {
	t.Helper()
	out, err := e.svc.GetLaunchWeek(context.Background(), domain.GetLaunchWeekInput{Week: week.Format(domain.DateLayout)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range out.Items {
		got = append(got, fmt.Sprintf("%d:%s:%d", it.Rank, it.Listing.Slug, it.WeekVotes))
	}
	return got
}

func wantList(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestWeekClock_AwardsFromCountedVotes: 30 and more people vote across a
// week through the real vote path (established accounts, fresh accounts
// counted later in the week, fresh accounts whose vote is still held when
// the week ends, an owner, a burst from one network); the clock passes
// Monday; the awards are the top three by counted votes, the disqualified
// listing skipped with its reason, the week's scheduled launch live, the
// winners' owners and followers told once, and the next boundary scheduled.
func TestWeekClock_AwardsFromCountedVotes(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		clock := testclock.New(week16.Add(9 * time.Hour))
		e := openClockEnv(t, clockDatabase(t, engine), clock)
		established := week16.AddDate(0, 0, -20)
		owners := map[string]int64{}
		for _, n := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot"} {
			owners[n] = e.user(t, n+"-owner@example.com", established)
		}
		for _, n := range []string{"alpha", "bravo", "charlie", "delta", "echo"} {
			e.launch(t, n+"-owner@example.com", n, week16, false)
		}
		e.launch(t, "foxtrot-owner@example.com", "foxtrot", week23, true)
		fan := e.user(t, "fan@example.com", established)
		if err := e.svc.Follow(ctx, fan, "alpha", true); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.EnsureWeekClock(ctx, e.runner); err != nil {
			t.Fatal(err)
		}
		if n := e.runDue(t); n != 1 { // this week's clock job: nothing to finalise yet
			t.Fatalf("jobs run at the start = %d, want the clock's 1", n)
		}
		people := make([]int64, 30)
		for i := range people {
			people[i] = e.user(t, fmt.Sprintf("person%02d@example.com", i), established)
		}
		castAt := func(at time.Time, uid int64, slug, network string) *domain.VoteResult {
			t.Helper()
			clock.Set(at)
			return e.vote(t, uid, slug, network)
		}
		tue := week16.AddDate(0, 0, 1)
		// alpha: 8 counted votes on Tuesday.
		for i := 0; i < 8; i++ {
			castAt(tue.Add(time.Duration(i)*time.Minute), people[i], "alpha", fmt.Sprintf("10.0.0.%d", i))
		}
		// bravo: 9 counted votes, the most, but the site team disqualifies it.
		for i := 8; i < 17; i++ {
			castAt(tue.Add(time.Duration(i)*time.Minute), people[i], "bravo", fmt.Sprintf("10.0.0.%d", i))
		}
		// delta reaches 6 votes on Wednesday, charlie on Thursday: a tie that
		// delta wins, having reached its count first.
		for i := 17; i < 23; i++ {
			castAt(tue.Add(24*time.Hour+time.Duration(i)*time.Minute), people[i], "delta", fmt.Sprintf("10.0.0.%d", i))
		}
		for i := 23; i < 29; i++ {
			castAt(tue.Add(48*time.Hour+time.Duration(i)*time.Minute), people[i], "charlie", fmt.Sprintf("10.0.0.%d", i))
		}
		// charlie's owner votes for it: held, never counted.
		if r := castAt(tue.Add(49*time.Hour), owners["charlie"], "charlie", "10.0.1.1"); r.Status != domain.VoteHeld || r.Reason != domain.HeldOwner {
			t.Errorf("the owner's vote = %+v, want held (owner)", r)
		}
		// echo: 3 counted votes, 2 of accounts made on Monday that count on
		// Tuesday, a burst of 3 new accounts from one network (held), and 4 new
		// accounts voting late on Sunday, still held when the week ends.
		castAt(tue.Add(3*time.Hour), people[29], "echo", "10.0.0.29")
		castAt(tue.Add(3*time.Hour+time.Minute), people[0], "echo", "10.0.0.30")
		castAt(tue.Add(3*time.Hour+2*time.Minute), people[1], "echo", "10.0.0.31")
		for i := 0; i < 2; i++ {
			u := e.user(t, fmt.Sprintf("early%d@example.com", i), week16.Add(8*time.Hour))
			if r := castAt(week16.Add(10*time.Hour), u, "echo", fmt.Sprintf("10.0.2.%d", i)); r.Reason != domain.HeldNewAccount {
				t.Fatalf("an early new account's vote = %+v, want held (new_account)", r)
			}
		}
		clock.Set(tue.Add(9 * time.Hour))
		if n := e.runDue(t); n != 2 {
			t.Errorf("vote_count jobs run on Tuesday = %d, want 2", n)
		}
		sat := week16.AddDate(0, 0, 5)
		for i := 0; i < 3; i++ {
			u := e.user(t, fmt.Sprintf("burst%d@example.com", i), sat)
			castAt(sat.Add(time.Hour+time.Duration(i)*time.Minute), u, "echo", "203.0.113.7")
		}
		sun := week16.AddDate(0, 0, 6)
		for i := 0; i < 4; i++ {
			u := e.user(t, fmt.Sprintf("late%d@example.com", i), sun.Add(20*time.Hour))
			castAt(sun.Add(23*time.Hour+time.Duration(i)*time.Minute), u, "echo", fmt.Sprintf("10.0.3.%d", i))
		}
		fixtures.Insert(t, e.db, "week_disqualifications", fixtures.Cols{"site_id": fixtures.First(t, e.db, "sites"),
			"week": "2026-11-16", "listing_id": fixtures.ID(t, e.db, "listings", fixtures.Cols{"slug": "bravo"}),
			"reason": "votes bought on a forum", "decided_by": "team@example.com", "created_at": sun.Unix()})

		// Sunday night: nothing is decided yet.
		clock.Set(week23.Add(-time.Second))
		e.runDue(t) // the burst's first votes' vote_count jobs: they find the votes held for the burst
		if n := fixtures.Count(t, e.db, "jobs", fixtures.Cols{"kind": domain.WeekClockJob, "key": "2026-11-23", "state": "queued"}); n != 1 {
			t.Errorf("Monday's clock jobs still queued on Sunday night = %d, want 1", n)
		}
		if got := e.awards(t, week16); len(got) != 0 {
			t.Fatalf("awards before the week ended: %v", got)
		}

		// Monday 00:00 UTC: the clock turns.
		clock.Set(week23)
		if n := e.runDue(t); n != 1 {
			t.Errorf("jobs run at Monday 00:00 = %d, want the clock's 1", n)
		}
		wantAwards := []string{"1:alpha:8", "2:delta:6", "3:charlie:6"}
		wantList(t, "awards", e.awards(t, week16), wantAwards...)
		wantRanking := []string{"1:bravo:9", "2:alpha:8", "3:delta:6", "4:charlie:6", "5:echo:5"}
		wantList(t, "get_launch_week", e.ranking(t, week16), wantRanking...)
		fw := fixtures.Rows(t, e.db, "finalised_weeks", nil)
		if len(fw) != 1 || fw[0]["week"] != "2026-11-16" || fw[0]["finalised_at"] != fmt.Sprint(week23.Unix()) ||
			!strings.Contains(fw[0]["skipped"], `"slug":"bravo","reason":"votes bought on a forum"`) {
			t.Errorf("finalised_weeks = %v, want 2026-11-16 finalised at Monday 00:00 with bravo skipped and its reason", fw)
		}
		fox := fixtures.Rows(t, e.db, "listings", fixtures.Cols{"slug": "foxtrot"})
		if fox[0]["status"] != "live" || fox[0]["launched_at"] != fmt.Sprint(week23.Unix()) {
			t.Errorf("foxtrot after Monday: status %s launched_at %s, want live since Monday", fox[0]["status"], fox[0]["launched_at"])
		}
		if n := fixtures.Count(t, e.db, "jobs", fixtures.Cols{"kind": domain.WeekClockJob, "key": "2026-11-30", "state": "queued"}); n != 1 {
			t.Errorf("next boundary's clock jobs queued = %d, want 1", n)
		}
		// Told: the owners of the three winners and alpha's follower, once each.
		wantMail := []string{
			"alpha-owner@example.com: Alpha is Launch of the Week #1",
			"fan@example.com: Alpha, which you follow, is Launch of the Week #1",
			"delta-owner@example.com: Delta is Launch of the Week #2",
			"charlie-owner@example.com: Charlie is Launch of the Week #3",
		}
		wantList(t, "mail", e.mail.all(), wantMail...)
		notes, err := e.svc.Notifications(ctx, fan, domain.Pagination{})
		if err != nil || len(notes.Items) != 1 || notes.Items[0].AwardRank != 1 || notes.Items[0].ListingSlug != "alpha" || notes.Unread != 1 {
			t.Errorf("the follower's notifications = %+v, %v; want alpha's award, unread", notes, err)
		}

		// Afterwards: the late new accounts' votes turn counted, a voter takes
		// their vote back, the clock runs again. The finished week keeps its count.
		clock.Set(week23.Add(21 * time.Hour))
		if n := e.runDue(t); n != 4 {
			t.Errorf("vote_count jobs run on Monday night = %d, want the 4 late votes", n)
		}
		if err := e.svc.Unvote(ctx, people[0], "alpha"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.TurnWeeks(ctx); err != nil {
			t.Fatal(err)
		}
		wantList(t, "awards after the week", e.awards(t, week16), wantAwards...)
		wantList(t, "get_launch_week after the week", e.ranking(t, week16), wantRanking...)
		wantList(t, "mail after the clock ran again", e.mail.all(), wantMail...)
		board, err := e.svc.GetLeaderboard(ctx, domain.GetLeaderboardInput{Board: "community-weekly", Week: "2026-11-16"})
		if err != nil || len(board.Items) != 5 || board.Items[0].Listing.Slug != "bravo" || board.Items[4].Metric != 5 {
			t.Errorf("weekly board of the finished week = %+v, %v; want the frozen ranking", board, err)
		}
		echo, err := e.svc.GetListing(ctx, domain.SlugInput{Slug: "echo"})
		if err != nil || echo.Votes != 9 {
			t.Errorf("echo's all-time votes = %d, %v; want 9 (the late votes count all-time)", echo.Votes, err)
		}
	})
}

// TestWeekClock_KilledAcrossMonday: two processes share the database file.
// The first leases Monday's clock job and dies holding it; while its lease
// lasts nobody runs the job, then the second process takes it over and the
// week's awards are computed once, however often the clock runs afterwards
// in either process, even both at the same time.
func TestWeekClock_KilledAcrossMonday(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		clock := testclock.New(week16.Add(9 * time.Hour))
		path := clockDatabase(t, engine)
		dead := openClockEnv(t, path, clock)
		voters := make([]int64, 6)
		for i := range voters {
			voters[i] = dead.user(t, fmt.Sprintf("voter%d@example.com", i), week16.AddDate(0, 0, -10))
		}
		for i, n := range []string{"one", "two", "three", "four"} {
			dead.launch(t, "", n, week16, false)
			for _, v := range voters[:4-i] {
				dead.vote(t, v, n, "10.1.0.1")
			}
		}
		if err := dead.svc.EnsureWeekClock(ctx, dead.runner); err != nil {
			t.Fatal(err)
		}
		dead.runDue(t)

		// Monday 00:00: the first process leases the clock job and dies.
		clock.Set(week23)
		j, err := storage.NewJobStore(dead.db).LeaseJob(ctx, "worker-killed", []string{domain.WeekClockJob}, clock.Now(), 30*time.Second)
		if err != nil || j == nil || j.Key != "2026-11-23" {
			t.Fatalf("lease = %+v, %v; want Monday's clock job", j, err)
		}
		dead.db.Close()

		alive := openClockEnv(t, path, clock)
		if n := alive.runDue(t); n != 0 {
			t.Errorf("jobs run while the dead worker's lease lasts = %d, want 0", n)
		}
		if got := alive.awards(t, week16); len(got) != 0 {
			t.Fatalf("awards while the job is leased: %v", got)
		}
		clock.Advance(31 * time.Second)
		if n := alive.runDue(t); n != 1 {
			t.Errorf("jobs run after the lease ran out = %d, want the clock's 1", n)
		}
		want := []string{"1:one:4", "2:two:3", "3:three:2"}
		wantList(t, "awards", alive.awards(t, week16), want...)

		// A third process and the second run the clock at once: nothing changes.
		third := openClockEnv(t, path, clock)
		var wg sync.WaitGroup
		for _, e := range []*clockEnv{alive, third} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := e.svc.TurnWeeks(ctx); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		wantList(t, "awards after two more runs", alive.awards(t, week16), want...)
		if n := fixtures.Count(t, alive.db, "awards", nil); n != 3 {
			t.Errorf("award rows = %d, want 3", n)
		}
		if n := fixtures.Count(t, alive.db, "finalised_weeks", nil); n != 1 {
			t.Errorf("finalised weeks = %d, want 1", n)
		}
	})
}

// TestWeekClock_CatchesUpMissedWeeks: the site was down for three week
// boundaries. At start the clock finalises the three missed weeks in order,
// each from its own votes, starting each week's scheduled launches before
// finalising the week, then schedules the next boundary.
func TestWeekClock_CatchesUpMissedWeeks(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		w1 := week16.AddDate(0, 0, -21)
		clock := testclock.New(w1.Add(time.Hour))
		path := clockDatabase(t, engine)
		e := openClockEnv(t, path, clock)
		voters := make([]int64, 5)
		for i := range voters {
			voters[i] = e.user(t, fmt.Sprintf("voter%d@example.com", i), w1.AddDate(0, 0, -10))
		}
		for w := 0; w < 3; w++ {
			mon := w1.AddDate(0, 0, 7*w)
			for i := 0; i < 4; i++ {
				e.launch(t, "", fmt.Sprintf("w%d-l%d", w+1, i), mon, false)
			}
		}
		// Scheduled for the second week: the process is down when it starts.
		e.launch(t, "", "w2-late", w1.AddDate(0, 0, 7), true)
		if err := e.svc.EnsureWeekClock(ctx, e.runner); err != nil {
			t.Fatal(err)
		}
		e.runDue(t)
		// Votes in each week w (0-2): listing l<i> gets (i+w)%5 votes, so each
		// week has other winners with other counts.
		for w := 0; w < 3; w++ {
			clock.Set(w1.AddDate(0, 0, 7*w).Add(30 * time.Hour))
			for i := 0; i < 4; i++ {
				for _, v := range voters[:(i+w)%5] {
					e.vote(t, v, fmt.Sprintf("w%d-l%d", w+1, i), "10.2.0.1")
				}
			}
		}
		// Down from the first week's Sunday to the fourth week's Wednesday.
		clock.Set(week16.Add(2*24*time.Hour + 10*time.Hour))
		e.db.Close()
		e2 := openClockEnv(t, path, clock) // the process starts again
		if err := e2.svc.EnsureWeekClock(ctx, e2.runner); err != nil {
			t.Fatal(err)
		}
		e2.runDue(t)
		fw := fixtures.Rows(t, e2.db, "finalised_weeks", nil)
		var order []string
		for _, r := range fw {
			order = append(order, r["week"])
		}
		wantList(t, "finalised weeks in order", order, "2026-10-26", "2026-11-02", "2026-11-09")
		wantList(t, "awards of 2026-10-26", e2.awards(t, w1), "1:w1-l3:3", "2:w1-l2:2", "3:w1-l1:1")
		wantList(t, "awards of 2026-11-02", e2.awards(t, w1.AddDate(0, 0, 7)), "1:w2-l3:4", "2:w2-l2:3", "3:w2-l1:2")
		wantList(t, "awards of 2026-11-09", e2.awards(t, w1.AddDate(0, 0, 14)), "1:w3-l2:4", "2:w3-l1:3", "3:w3-l0:2")
		// The late launch went live at its Monday and was ranked in its week.
		late := fixtures.Rows(t, e2.db, "listings", fixtures.Cols{"slug": "w2-late"})
		if late[0]["status"] != "live" || late[0]["launched_at"] != fmt.Sprint(w1.AddDate(0, 0, 7).Unix()) {
			t.Errorf("w2-late: status %s launched_at %s, want live since its Monday", late[0]["status"], late[0]["launched_at"])
		}
		if r := e2.ranking(t, w1.AddDate(0, 0, 7)); len(r) != 5 || r[4] != "5:w2-late:0" {
			t.Errorf("the second week's ranking = %v, want w2-late last with 0 votes", r)
		}
		if n := fixtures.Count(t, e2.db, "jobs", fixtures.Cols{"kind": domain.WeekClockJob, "key": "2026-11-23", "state": "queued"}); n != 1 {
			t.Errorf("next boundary's clock jobs queued = %d, want 1", n)
		}
	})
}

// TestWeekClock_ProcessesTurnAtOnce: two missed weeks, and three processes
// on one database each run the clock from two goroutines at the same moment
// (as several serve processes starting together would, each catching up).
// Every week is finalised once with its awards once, each scheduled launch
// goes live once at its Monday, every owner and follower is told once
// across all the processes' mailers, and no run fails: on PostgreSQL the
// runs that lose a serialization conflict are run again and find the work
// done.
func TestWeekClock_ProcessesTurnAtOnce(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		w1, w2 := week16.AddDate(0, 0, -14), week16.AddDate(0, 0, -7)
		clock := testclock.New(w1.Add(30 * time.Hour))
		path := clockDatabase(t, engine)
		first := openClockEnv(t, path, clock)
		voters := make([]int64, 4)
		for i := range voters {
			voters[i] = first.user(t, fmt.Sprintf("voter%d@example.com", i), w1.AddDate(0, 0, -10))
		}
		fan := first.user(t, "fan@example.com", w1.AddDate(0, 0, -10))
		for w, mon := range []time.Time{w1, w2} {
			clock.Set(mon.Add(30 * time.Hour))
			for i := 0; i < 4; i++ {
				name := fmt.Sprintf("w%d-l%d", w+1, i)
				first.user(t, name+"@example.com", w1.AddDate(0, 0, -10))
				first.launch(t, name+"@example.com", name, mon, false)
				if err := first.svc.Follow(ctx, fan, name, true); err != nil {
					t.Fatal(err)
				}
				for _, v := range voters[:i] {
					first.vote(t, v, name, "10.3.0.1")
				}
			}
		}
		first.launch(t, "", "w2-late", w2, true)
		first.launch(t, "", "this-week", week16, true)

		clock.Set(week16.Add(time.Hour))
		envs := []*clockEnv{first, openClockEnv(t, path, clock), openClockEnv(t, path, clock)}
		start := make(chan struct{})
		var wg sync.WaitGroup
		for _, e := range envs {
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					if _, err := e.svc.TurnWeeks(ctx); err != nil {
						t.Errorf("TurnWeeks: %v", err)
					}
				}()
			}
		}
		close(start)
		wg.Wait()

		if n := fixtures.Count(t, first.db, "finalised_weeks", nil); n != 2 {
			t.Errorf("finalised weeks = %d, want 2", n)
		}
		wantList(t, "awards of the first week", first.awards(t, w1), "1:w1-l3:3", "2:w1-l2:2", "3:w1-l1:1")
		wantList(t, "awards of the second week", first.awards(t, w2), "1:w2-l3:3", "2:w2-l2:2", "3:w2-l1:1")
		if n := fixtures.Count(t, first.db, "awards", nil); n != 6 {
			t.Errorf("award rows = %d, want 6", n)
		}
		if n := fixtures.Count(t, first.db, "week_results", nil); n != 9 {
			t.Errorf("week_results rows = %d, want 9 (4 launches, then 5 with w2-late)", n)
		}
		// An owner and the follower per award: 12 notifications, each mailed once.
		if n := fixtures.Count(t, first.db, "notifications", nil); n != 12 {
			t.Errorf("notifications = %d, want 12", n)
		}
		var mail []string
		for _, e := range envs {
			mail = append(mail, e.mail.all()...)
		}
		slices.Sort(mail)
		var want []string
		for w := 1; w <= 2; w++ {
			for i := 1; i <= 3; i++ {
				name := fmt.Sprintf("w%d-l%d", w, i)
				title := domain.AwardTitle(4 - i)
				want = append(want, fmt.Sprintf("%s@example.com: W%d-l%d is %s", name, w, i, title),
					fmt.Sprintf("fan@example.com: W%d-l%d, which you follow, is %s", w, i, title))
			}
		}
		slices.Sort(want)
		wantList(t, "mail of all processes", mail, want...)
		for slug, mon := range map[string]time.Time{"w2-late": w2, "this-week": week16} {
			l := fixtures.Rows(t, first.db, "listings", fixtures.Cols{"slug": slug})
			if l[0]["status"] != "live" || l[0]["launched_at"] != fmt.Sprint(mon.Unix()) {
				t.Errorf("%s: status %s launched_at %s, want live since its Monday", slug, l[0]["status"], l[0]["launched_at"])
			}
		}
	})
}

// TestWeekClock_DemoAwardsAreTheTopThree is TestServe_DemoAwardsFromTheClock
// (cmd/launchdir) at the service, on both engines: the demo data as the
// clock's catch-up leaves it (fixtures seed it and turn the weeks, as serve
// --demo does at start) has three awards for each finished week, equal to
// the top three of that week's get_launch_week.
func TestWeekClock_DemoAwardsAreTheTopThree(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		ctx := context.Background()
		env := newEnvOn(t, engine, true)
		awards, err := env.Service.ListAwards(ctx, domain.ListAwardsInput{Pagination: domain.Pagination{PerPage: 100}})
		if err != nil {
			t.Fatal(err)
		}
		if awards.Total != 3*demo.PastWeeks {
			t.Fatalf("awards = %d, want 3 for each of the %d finished weeks", awards.Total, demo.PastWeeks)
		}
		byWeek := map[string][]string{}
		for _, a := range awards.Items {
			byWeek[a.Week] = append(byWeek[a.Week], fmt.Sprintf("%d:%s:%d", a.Rank, a.Listing.Slug, a.Votes))
		}
		this := domain.Monday(fixtures.Now)
		for w := 1; w <= demo.PastWeeks; w++ {
			week := this.AddDate(0, 0, -7*w).Format(domain.DateLayout)
			lw, err := env.Service.GetLaunchWeek(ctx, domain.GetLaunchWeekInput{Week: week})
			if err != nil || len(lw.Items) < 3 {
				t.Fatalf("get_launch_week %s: %v with %d launches", week, err, len(lw.Items))
			}
			var top []string
			for _, it := range lw.Items[:3] {
				top = append(top, fmt.Sprintf("%d:%s:%d", it.Rank, it.Listing.Slug, it.WeekVotes))
			}
			if got := strings.Join(byWeek[week], " "); got != strings.Join(top, " ") {
				t.Errorf("week %s: awards %s, want the top three of get_launch_week %s", week, got, strings.Join(top, " "))
			}
		}
	})
}
