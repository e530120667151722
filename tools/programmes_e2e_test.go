package tools

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// programmeEnv is a seeded server whose programme clock and vote jobs run on
// the env's clock (env.runJobs), with the first two demo categories.
type programmeEnv struct {
	*catEnv
	cats []string
}

func newProgrammeEnv(t *testing.T) *programmeEnv {
	t.Helper()
	env := catTestServer(t, Options{}, true)
	r := env.quietRunner()
	env.svc.RegisterProgrammeJobs(r)
	env.svc.RegisterVoteJobs(r)
	var cats []string
	for _, id := range fixtures.IDs(t, env.db, "categories", nil)[:2] {
		cats = append(cats, fixtures.Column(t, env.db, "categories", id, "slug"))
	}
	return &programmeEnv{catEnv: env, cats: cats}
}

// programme creates a programme as the console does: entries and voting
// open on the env's day (2026-11-18), entries close at the end of the 19th,
// voting at the end of the 20th; launches of November 2026; one winner.
func (e *programmeEnv) programme(t *testing.T, name string, cats []string) *domain.ProgrammeRecord {
	t.Helper()
	rec, err := e.svc.CreateProgramme(context.Background(), domain.CreateProgrammeInput{Name: name, Description: "The makers' favourites.",
		Categories: cats, LaunchedFrom: "2026-11-01", LaunchedTo: "2026-11-30", EntryOpens: "2026-11-18", EntryCloses: "2026-11-19",
		VotingOpens: "2026-11-18", VotingCloses: "2026-11-20", Winners: 1}, "team@example.com")
	if err != nil {
		t.Fatalf("CreateProgramme: %v", err)
	}
	return rec
}

// entrant inserts a live listing launched on launched, owned by email, in
// the first category (primary) and the extra categories.
func (e *programmeEnv) entrant(t *testing.T, email, name string, launched time.Time, extra ...string) (int64, string) {
	t.Helper()
	id := e.ownedListing(t, email, fixtures.Cols{"status": "live", "launched_at": launched.Unix(), "name": name})
	for _, c := range extra {
		fixtures.ExtraCategory(t, e.db, id, c)
	}
	return id, listingColumn(t, e.catEnv, id, "slug")
}

// voter is an account made at created that votes for slug at the env's
// time through Service.Vote, the vote the site's form casts.
func (e *programmeEnv) voter(t *testing.T, email string, created time.Time) int64 {
	t.Helper()
	id := fixtures.User(t, e.db, email)
	fixtures.Update(t, e.db, "users", fixtures.Cols{"created_at": created.Unix()}, fixtures.Cols{"id": id})
	return id
}

func (e *programmeEnv) vote(t *testing.T, user int64, slug, network string) *domain.VoteResult {
	t.Helper()
	res, err := e.svc.Vote(context.Background(), user, slug, network, "test-agent")
	if err != nil {
		t.Fatalf("vote %s: %v", slug, err)
	}
	return res
}

func entryOf(p map[string]any, slug string) map[string]any {
	for _, it := range p["items"].([]any) {
		if m := it.(map[string]any); m["listing"].(map[string]any)["slug"] == slug {
			return m
		}
	}
	return nil
}

// TestProgrammes_EnterVoteClose: owners enter eligible listings over REST
// and MCP during the entry window (a category chosen or the first that
// fits), withdraw and enter again; a stranger can neither enter nor withdraw
// someone else's listing (404, nothing stored); bad input is a 400 naming the
// field and an ineligible listing a 409, nothing stored. People's votes in
// the voting window count under the vote rules (an owner's vote and a new
// account's vote do not); when the window closes on the test clock the
// clock decides the winners once; they are trophies won here in their
// cabinets, on the trophy leaderboard and in the Hall of Fame, and the
// owners and followers are notified.
func TestProgrammes_EnterVoteClose(t *testing.T) {
	t.Parallel()
	env := newProgrammeEnv(t)
	owner := env.apiKey(t, "entrant@example.com")
	stranger := env.apiKey(t, "stranger@example.com")
	p := env.programme(t, "Makers Choice 2026", env.cats)
	launched := catNow.Add(-72 * time.Hour)
	entries := func() int { return fixtures.Count(t, env.db, "programme_entries", fixtures.Cols{"programme_id": p.ID}) }

	slugs := map[string][2]string{} // transport: the listing in cats[0], the listing in cats[1]
	transports(t, env.catEnv, owner, func(t *testing.T, tr string, call draftCaller) {
		a, aSlug := env.entrant(t, "entrant@example.com", "Alpha "+tr, launched)
		c, cSlug := env.entrant(t, "entrant@example.com", "Gamma "+tr, launched, env.cats[1])
		old, _ := env.entrant(t, "entrant@example.com", "Oldie "+tr, time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC))
		slugs[tr] = [2]string{aSlug, cSlug}

		before := entries()
		for _, bad := range []struct {
			args        map[string]any
			status      int
			field, rule string
		}{
			{map[string]any{"listing_id": a, "programme": p.Slug, "category": "no-such-category"}, 400, "category", "enum"},
			{map[string]any{"listing_id": a, "programme": "Not A Slug"}, 400, "programme", "pattern"},
			{map[string]any{"listing_id": 0, "programme": p.Slug}, 400, "listing_id", "minimum"},
			{map[string]any{"listing_id": a, "programme": "no-such-programme"}, 404, "", ""},
			{map[string]any{"listing_id": old, "programme": p.Slug}, 409, "", ""},
			{map[string]any{"listing_id": a, "programme": p.Slug, "category": env.cats[1]}, 409, "", ""}, // not in that category
		} {
			st, v := call(t, "enter_programme", bad.args)
			if st != bad.status {
				t.Fatalf("enter_programme %v: %d %v, want %d", bad.args, st, v, bad.status)
			}
			if bad.field != "" && !strings.Contains(fmt.Sprint(v), bad.field) {
				t.Fatalf("enter_programme %v: the problem does not name %s: %v", bad.args, bad.field, v)
			}
		}
		if n := entries(); n != before {
			t.Fatalf("refused entries stored something: %d entries, want %d", n, before)
		}

		// A stranger cannot enter or withdraw the owner's listing.
		strangerCall := restCaller(env.catEnv, stranger)
		if st, v := strangerCall(t, "enter_programme", map[string]any{"listing_id": a, "programme": p.Slug}); st != 404 {
			t.Fatalf("a stranger entering someone else's listing: %d %v, want 404", st, v)
		}
		if n := entries(); n != before {
			t.Fatalf("the stranger's entry was stored")
		}

		st, v := call(t, "enter_programme", map[string]any{"listing_id": a, "programme": p.Slug})
		if st != 201 || v["category"] != env.cats[0] {
			t.Fatalf("enter_programme: %d %v", st, v)
		}
		if st, v := call(t, "enter_programme", map[string]any{"listing_id": a, "programme": p.Slug}); st != 409 {
			t.Fatalf("entering twice: %d %v, want 409", st, v)
		}
		if st, v := strangerCall(t, "withdraw_programme_entry", map[string]any{"listing_id": a, "programme": p.Slug}); st != 404 || entries() != before+1 {
			t.Fatalf("a stranger withdrawing someone else's entry: %d %v, want 404 and the entry kept", st, v)
		}
		if st, v := call(t, "withdraw_programme_entry", map[string]any{"listing_id": a, "programme": p.Slug}); st != 200 || entries() != before {
			t.Fatalf("withdraw_programme_entry: %d %v", st, v)
		}
		if st, v := call(t, "enter_programme", map[string]any{"listing_id": a, "programme": p.Slug}); st != 201 {
			t.Fatalf("entering again: %d %v", st, v)
		}
		if st, v := call(t, "enter_programme", map[string]any{"listing_id": c, "programme": p.Slug, "category": env.cats[1]}); st != 201 || v["category"] != env.cats[1] {
			t.Fatalf("enter_programme in %s: %d %v", env.cats[1], st, v)
		}

		// Public reads.
		st, got := call(t, "get_programme", map[string]any{"slug": p.Slug})
		if st != 200 || got["state"] != "voting" || got["entries_open"] != true || entryOf(got, aSlug) == nil || entryOf(got, cSlug)["category"] != env.cats[1] {
			t.Fatalf("get_programme: %d %v", st, got)
		}
		if st, list := call(t, "list_programmes", map[string]any{}); st != 200 || len(list["items"].([]any)) != 3 { // and the two of the demo
			t.Fatalf("list_programmes: %d %v", st, list)
		}
	})

	// Votes: people vote on the page (Service.Vote, what the form calls).
	old := catNow.AddDate(0, -1, 0)
	for i := 0; i < 3; i++ {
		env.vote(t, env.voter(t, fmt.Sprintf("fan%d@example.com", i), old), slugs["rest"][0], fmt.Sprintf("203.0.113.%d", i))
	}
	env.vote(t, env.voter(t, "fan-mcp@example.com", old), slugs["mcp"][0], "198.51.100.1")
	env.vote(t, env.voter(t, "fan-c@example.com", old), slugs["rest"][1], "198.51.100.2")
	ownerID := fixtures.ID(t, env.db, "users", fixtures.Cols{"email": "entrant@example.com"})
	if res := env.vote(t, ownerID, slugs["mcp"][0], "198.51.100.3"); res.Reason != domain.HeldOwner {
		t.Fatalf("the owner's vote: %+v, want held (owner)", res)
	}
	// Late on the last day, two new accounts vote for the mcp listing: held
	// until the accounts are a day old, after the window closes.
	env.clock.Set(time.Date(2026, 11, 20, 20, 0, 0, 0, time.UTC))
	t.Cleanup(func() { env.clock.Set(catNow) })
	for i := 0; i < 2; i++ {
		if res := env.vote(t, env.voter(t, fmt.Sprintf("newbie%d@example.com", i), env.clock.Now()), slugs["mcp"][0], fmt.Sprintf("192.0.2.%d", i)); res.Reason != domain.HeldNewAccount {
			t.Fatalf("a new account's vote: %+v", res)
		}
	}
	// A follower of the winner is told too.
	winnerID := fixtures.ID(t, env.db, "listings", fixtures.Cols{"slug": slugs["rest"][0]})
	fan0 := fixtures.ID(t, env.db, "users", fixtures.Cols{"email": "fan0@example.com"})
	fixtures.Insert(t, env.db, "follows", fixtures.Cols{"listing_id": winnerID, "follower_key": fmt.Sprintf("user:%d", fan0), "created_at": catNow.Unix()})

	pub := restCaller(env.catEnv, stranger) // public reads (anonymous ones: the parity cases)
	_, got := pub(t, "get_programme", map[string]any{"slug": p.Slug})
	if e := entryOf(got, slugs["rest"][0]); e["votes"] != 3.0 || got["state"] != "voting" {
		t.Fatalf("votes while voting: %v", got)
	}
	if e := entryOf(got, slugs["mcp"][0]); e["votes"] != 1.0 {
		t.Fatalf("held votes counted: %v", e)
	}
	if n := env.runJobs(t); fixtures.Count(t, env.db, "programme_winners", fixtures.Cols{"programme_id": p.ID}) != 0 {
		t.Fatalf("winners before the window closed (%d jobs ran)", n)
	}

	// Voting closes: the clock decides, once.
	env.clock.Set(time.Date(2026, 11, 21, 0, 0, 1, 0, time.UTC))
	if st, v := restCaller(env.catEnv, owner)(t, "enter_programme", map[string]any{"listing_id": winnerID, "programme": p.Slug}); st != 409 {
		t.Fatalf("entering after the entry window: %d %v", st, v)
	}
	env.runJobs(t)
	winners := fixtures.Rows(t, env.db, "programme_winners", fixtures.Cols{"programme_id": p.ID})
	if len(winners) != 2 {
		t.Fatalf("winners: %v, want the most voted of each category", winners)
	}
	if again, err := env.svc.CloseProgramme(context.Background(), p.ID); err != nil || len(again) != 0 {
		t.Fatalf("closing again: %v %v, want nothing", again, err)
	}
	_, got = pub(t, "get_programme", map[string]any{"slug": p.Slug})
	if e := entryOf(got, slugs["rest"][0]); got["state"] != "finished" || e["winner"] != true || e["rank"] != 1.0 {
		t.Fatalf("finished programme: %v", got)
	}
	if e := entryOf(got, slugs["rest"][1]); e["winner"] != true {
		t.Fatalf("the other category's winner: %v", e)
	}
	if e := entryOf(got, slugs["mcp"][0]); e["winner"] == true || e["votes"] != 1.0 {
		t.Fatalf("the runner-up (owner's and new accounts' votes do not count): %v", e)
	}

	// The trophy is in the cabinet, on the leaderboard and in the Hall of Fame.
	_, cab := pub(t, "get_trophy_cabinet", map[string]any{"slug": slugs["rest"][0]})
	found := false
	for _, it := range cab["items"].([]any) {
		m := it.(map[string]any)
		if m["source"] == "here" && strings.HasPrefix(m["title"].(string), "Makers Choice 2026: ") && m["rank"] == 1.0 && m["state"] == "verified" &&
			m["date"] == "2026-11-20" && strings.HasSuffix(m["award_url"].(string), "/programmes/"+p.Slug) {
			found = true
		}
	}
	if !found || cab["points"] != 5.0 {
		t.Fatalf("cabinet of the winner: %v", cab)
	}
	_, board := pub(t, "get_trophy_leaderboard", map[string]any{"year": 2026})
	onBoard := false
	for _, it := range board["items"].([]any) {
		if m := it.(map[string]any); m["listing"].(map[string]any)["slug"] == slugs["rest"][0] && m["points"] == 5.0 && m["firsts"] == 1.0 {
			onBoard = true
		}
	}
	if !onBoard {
		t.Fatalf("trophy leaderboard 2026: %v", board)
	}
	_, hof := pub(t, "get_hall_of_fame", map[string]any{"year": 2026})
	if s := fmt.Sprint(hof); !strings.Contains(s, slugs["rest"][0]) || !strings.Contains(s, "Makers Choice 2026") {
		t.Fatalf("Hall of Fame 2026: %v", hof)
	}
	// Owners and followers are notified, once each.
	for _, w := range winners {
		if w["listing_id"] == fmt.Sprint(winnerID) {
			n := fixtures.Count(t, env.db, "notifications", fixtures.Cols{"programme_win_id": w["id"]})
			if n != 2 {
				t.Fatalf("notifications of the win: %d, want the owner and the follower", n)
			}
		}
	}
}

// TestProgrammes_ClosedOnceAcrossProcesses: two services, each with its
// own connection pool on one SQLite file (two processes), close the same
// programme at once: the winners are written once and notified once.
func TestProgrammes_ClosedOnceAcrossProcesses(t *testing.T) {
	t.Parallel()
	env := newProgrammeEnv(t)
	env.apiKey(t, "twice@example.com")
	p := env.programme(t, "Twice Closed", nil)
	ids := [2]int64{}
	for i := range ids {
		ids[i], _ = env.entrant(t, "twice@example.com", fmt.Sprintf("Entry %d", i), catNow.Add(-time.Hour))
		fixtures.Insert(t, env.db, "programme_entries", fixtures.Cols{"programme_id": p.ID, "listing_id": ids[i], "category": "", "created_at": catNow.Unix()})
	}
	for i := 0; i < 3; i++ {
		v := env.voter(t, fmt.Sprintf("v%d@example.com", i), catNow.AddDate(0, -1, 0))
		env.vote(t, v, listingColumn(t, env.catEnv, ids[i%2], "slug"), fmt.Sprintf("203.0.113.%d", i))
	}
	closed := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	var svcs []*domain.Service
	for i := 0; i < 2; i++ {
		db, err := storage.Open(env.dbPath, storage.WithClock(func() time.Time { return closed }))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		svc, _ := fixtures.Service(t, db, domain.Site{Key: "main", Name: "Launchdir", BaseURL: env.URL}, func() time.Time { return closed })
		svcs = append(svcs, svc)
	}
	var wg sync.WaitGroup
	wins := make([][]domain.ProgrammeWin, 2)
	errs := make([]error, 2)
	for i := range svcs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wins[i], errs[i] = svcs[i].CloseProgramme(context.Background(), p.ID)
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("closing: %v %v", errs[0], errs[1])
	}
	if n := len(wins[0]) + len(wins[1]); n != 1 || (len(wins[0]) != 0 && len(wins[1]) != 0) {
		t.Fatalf("wins written: %v and %v, want one win written by one process", wins[0], wins[1])
	}
	if n := fixtures.Count(t, env.db, "programme_winners", fixtures.Cols{"programme_id": p.ID}); n != 1 {
		t.Fatalf("%d winners stored, want 1", n)
	}
	if n := fixtures.Count(t, env.db, "notifications", fixtures.Cols{"user_id": fixtures.ID(t, env.db, "users", fixtures.Cols{"email": "twice@example.com"})}); n != 1 {
		t.Fatalf("%d notifications of the owner, want 1", n)
	}
}
