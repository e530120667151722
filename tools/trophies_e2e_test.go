package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// trophyEnv is a seeded server whose trophy checks run on the env's clock
// (env.runJobs) and read award pages on loopback with the crawler's rules
// (as serve with --fetch-allow-loopback), and a local site of award pages.
type trophyEnv struct {
	*catEnv
	awards *freeHomepages
}

func newTrophyEnv(t *testing.T) *trophyEnv {
	t.Helper()
	env := catTestServer(t, Options{}, true)
	runner := env.quietRunner()
	env.svc.RegisterTrophyJobs(runner)
	f := fetch.New(fetch.Options{AllowLoopback: true})
	t.Cleanup(f.Close)
	env.svc.TrophyPages = f
	return &trophyEnv{catEnv: env, awards: newFreeHomepages(t)}
}

func (e *trophyEnv) page(path, body string) {
	e.awards.mu.Lock()
	defer e.awards.mu.Unlock()
	if body == "" {
		delete(e.awards.pages, path)
		return
	}
	e.awards.pages[path] = body
}

// trophyListing inserts a live listing named name at https://<dom>/ owned by email.
func (e *trophyEnv) trophyListing(t *testing.T, email, name, dom string) (int64, string) {
	t.Helper()
	id := e.ownedListing(t, email, fixtures.Cols{"status": "live", "launched_at": catNow.Add(-48 * time.Hour).Unix(),
		"name": name, "url": "https://" + dom + "/", "domain": dom})
	return id, listingColumn(t, e.catEnv, id, "slug")
}

// trophyByID finds trophy id in a cabinet answer (nil when absent).
func trophyByID(cab map[string]any, id float64) map[string]any {
	for _, it := range cab["items"].([]any) {
		if m := it.(map[string]any); m["id"] == id {
			return m
		}
	}
	return nil
}

func addTrophy(t *testing.T, call draftCaller, args map[string]any) float64 {
	t.Helper()
	st, v := call(t, "add_trophy", args)
	tr, _ := v["trophy"].(map[string]any)
	if st != 201 || tr == nil || tr["state"] != "pending" || tr["id"] == nil {
		t.Fatalf("add_trophy %v: %d %v", args, st, v)
	}
	return tr["id"].(float64)
}

// TestTrophies_Verification: award pages on a local site that link to the
// listing's domain or name it near award words verify the trophy; a page
// that does not name it rejects it with the reason; a verified page that
// disappears makes the trophy unconfirmed at the next scheduled check (test
// clock), with the date; only verified trophies score; private addresses
// are refused by the crawler's guard. Over REST and MCP.
func TestTrophies_Verification(t *testing.T) {
	t.Parallel()
	env := newTrophyEnv(t)
	key := env.apiKey(t, "maker@example.com")
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		dom := "quillcraft-" + tr + ".test"
		name := "Quillcraft " + strings.ToUpper(tr)
		id, slug := env.trophyListing(t, "maker@example.com", name, dom)
		env.page("/link-"+tr, `<!doctype html><html><head><title>Product of the Day</title></head><body><h1>Product of the Day, November 10</h1>`+
			`<ol><li><a href="https://www.`+dom+`/?ref=hunt">Quill</a> writes your docs</li></ol></body></html>`)
		env.page("/name-"+tr, `<!doctype html><html><head><title>Weekly winners</title></head><body><p>Congratulations to `+name+
			`, our Tool of the Week winner!</p></body></html>`)
		env.page("/other-"+tr, `<!doctype html><html><head><title>Product of the Day</title></head><body><p>Product of the Day: Someone Else</p>`+
			`<a href="https://someone-else.test/">visit</a></body></html>`)
		base := map[string]any{"listing_id": id, "platform": "Product Hunt", "date": "2026-11-10"}
		with := func(kv ...any) map[string]any {
			m := map[string]any{}
			for k, v := range base {
				m[k] = v
			}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		link := addTrophy(t, call, with("title", "Product of the Day", "rank", 1, "award_url", env.awards.URL+"/link-"+tr))
		named := addTrophy(t, call, with("title", "Tool of the Week", "rank", 2, "award_url", env.awards.URL+"/name-"+tr))
		other := addTrophy(t, call, with("title", "Product of the Day", "rank", 1, "award_url", env.awards.URL+"/other-"+tr))
		private := addTrophy(t, call, with("title", "Golden", "award_url", "http://10.20.30.40/award"))
		metadata := addTrophy(t, call, with("title", "Golden", "award_url", "http://169.254.169.254/latest/meta-data/"))

		// Before the job runs: pending, and nothing public.
		if st, cab := call(t, "get_trophy_cabinet", map[string]any{"slug": slug}); st != 200 || len(cab["items"].([]any)) != 0 || cab["points"] != 0.0 {
			t.Fatalf("public cabinet before any check: %d %v", st, cab)
		}
		env.runJobs(t)

		st, mine := call(t, "list_my_trophies", map[string]any{"listing_id": id})
		if st != 200 || len(mine["items"].([]any)) != 5 {
			t.Fatalf("list_my_trophies: %d %v", st, mine)
		}
		for _, c := range []struct {
			id          float64
			state, text string
		}{
			{link, "verified", "links to https://www." + dom + "/"},
			{named, "verified", `names "` + name + `" near`},
			{other, "rejected", "does not name " + name},
			{private, "rejected", "a private address; only sites on public addresses are read"},
			{metadata, "rejected", "only sites on public addresses are read"},
		} {
			got := trophyByID(mine, c.id)
			v, _ := got["verification"].(map[string]any)
			if got == nil || got["state"] != c.state || !strings.Contains(v["text"].(string), c.text) {
				t.Fatalf("trophy %v: want %s saying %q, got %v", c.id, c.state, c.text, got)
			}
			if c.state == "verified" && (v["how"] != "page" || v["verified_at"] == nil || v["next_check_at"] == nil) {
				t.Fatalf("verified trophy %v does not say how and when: %v", c.id, v)
			}
		}
		if mine["points"] != 8.0 || !strings.Contains(mine["points_rule"].(string), "#1 = 5 points") {
			t.Fatalf("points: want 8 (5 + 3) with the rule, got %v", mine)
		}

		// The public cabinet: only the verified ones, each saying how and when.
		st, cab := call(t, "get_trophy_cabinet", map[string]any{"slug": slug})
		if st != 200 || len(cab["items"].([]any)) != 2 || trophyByID(cab, link) == nil || trophyByID(cab, named) == nil || cab["points"] != 8.0 {
			t.Fatalf("public cabinet: %d %v", st, cab)
		}
		if v := trophyByID(cab, link)["verification"].(map[string]any); v["next_check_at"] != nil || !strings.Contains(v["text"].(string), "Verified on 2026-11-18") {
			t.Fatalf("public verification: %v", v)
		}

		// The link page disappears: at the scheduled re-check it becomes
		// unconfirmed since that day, still shown, scoring nothing.
		env.page("/link-"+tr, "")
		t.Cleanup(func() { env.clock.Set(catNow) })
		env.clock.Set(catNow.Add(domainTrophyRecheck + time.Hour))
		env.runJobs(t)
		_, cab = call(t, "get_trophy_cabinet", map[string]any{"slug": slug})
		gone := trophyByID(cab, link)
		v, _ := gone["verification"].(map[string]any)
		since := catNow.Add(domainTrophyRecheck + time.Hour).Format("2006-01-02")
		if gone == nil || gone["state"] != "unconfirmed" || gone["points"] != 0.0 || v["unconfirmed_since"] == nil ||
			!strings.Contains(v["text"].(string), "Unconfirmed since "+since) || !strings.Contains(v["text"].(string), "404") {
			t.Fatalf("after the page went away: %v", gone)
		}
		if still := trophyByID(cab, named); still["state"] != "verified" || cab["points"] != 3.0 {
			t.Fatalf("the page still there stays verified (3 points): %v", cab)
		}
		env.clock.Set(catNow)
	})
}

// domainTrophyRecheck mirrors domain.TrophyRecheck for the test's clock.
const domainTrophyRecheck = 30 * 24 * time.Hour

// TestTrophies_Robots: an award page robots.txt forbids is not read; the
// trophy is rejected saying so.
func TestTrophies_Robots(t *testing.T) {
	t.Parallel()
	env := newTrophyEnv(t)
	key := env.apiKey(t, "robots@example.com")
	id, _ := env.trophyListing(t, "robots@example.com", "Robotix", "robotix.test")
	env.page("/robots.txt", "User-agent: *\nDisallow: /private/\n")
	env.page("/private/award", `<html><body><a href="https://robotix.test/">Robotix</a> won</body></html>`)
	tid := addTrophy(t, restCaller(env.catEnv, key), map[string]any{"listing_id": id, "platform": "Hunt", "title": "Top",
		"date": "2026-11-01", "award_url": env.awards.URL + "/private/award"})
	env.runJobs(t)
	_, mine := restCaller(env.catEnv, key)(t, "list_my_trophies", map[string]any{"listing_id": id})
	got := trophyByID(mine, tid)
	if got["state"] != "rejected" || !strings.Contains(got["verification"].(map[string]any)["text"].(string), "robots.txt") {
		t.Fatalf("robots.txt forbids the page: %v", got)
	}
}

// TestTrophies_Ownership: a stranger can neither add to nor delete from
// someone else's cabinet, nor read its pending trophies; the answers are
// the 404 of a missing listing and nothing changes. Over REST and MCP.
func TestTrophies_Ownership(t *testing.T) {
	t.Parallel()
	env := newTrophyEnv(t)
	owner := env.apiKey(t, "owner@example.com")
	stranger := env.apiKey(t, "stranger@example.com")
	id, _ := env.trophyListing(t, "owner@example.com", "Ownedthing", "ownedthing.test")
	tid := addTrophy(t, restCaller(env.catEnv, owner), map[string]any{"listing_id": id, "platform": "Hunt", "title": "Top",
		"date": "2026-11-01", "award_url": env.awards.URL + "/x"})
	transports(t, env.catEnv, stranger, func(t *testing.T, tr string, call draftCaller) {
		for _, c := range []struct {
			op   string
			args map[string]any
		}{
			{"add_trophy", map[string]any{"listing_id": id, "platform": "Hunt", "title": "Mine now", "date": "2026-11-01", "award_url": env.awards.URL + "/y"}},
			{"delete_trophy", map[string]any{"listing_id": id, "trophy_id": tid}},
			{"list_my_trophies", map[string]any{"listing_id": id}},
		} {
			if st, p := call(t, c.op, c.args); st != 404 || p["code"] != "not_found" {
				t.Fatalf("%s by a stranger: want 404, got %d %v", c.op, st, p)
			}
		}
	})
	if n := fixtures.Count(t, env.db, "trophies", fixtures.Cols{"listing_id": id}); n != 1 {
		t.Fatalf("the owner's cabinet has %d trophies, want 1", n)
	}
	// The owner deletes it.
	if st, v := restCaller(env.catEnv, owner)(t, "delete_trophy", map[string]any{"listing_id": id, "trophy_id": tid}); st != 200 || v["trophy"].(map[string]any)["id"] != tid {
		t.Fatalf("owner's delete: %d %v", st, v)
	}
	if n := fixtures.Count(t, env.db, "trophies", fixtures.Cols{"listing_id": id}); n != 0 {
		t.Fatalf("%d trophies left after delete", n)
	}
}

// TestTrophies_BadInput: every bad field is a 400 naming it and its rule,
// and nothing is stored. Over REST and MCP.
func TestTrophies_BadInput(t *testing.T) {
	t.Parallel()
	env := newTrophyEnv(t)
	key := env.apiKey(t, "bad@example.com")
	id, _ := env.trophyListing(t, "bad@example.com", "Badinput", "badinput.test")
	transports(t, env.catEnv, key, func(t *testing.T, tr string, call draftCaller) {
		good := func(kv ...any) map[string]any {
			m := map[string]any{"listing_id": id, "platform": "Hunt", "title": "Top", "date": "2026-11-01", "award_url": "https://hunt.test/a"}
			for i := 0; i < len(kv); i += 2 {
				if kv[i+1] == nil {
					delete(m, kv[i].(string))
				} else {
					m[kv[i].(string)] = kv[i+1]
				}
			}
			return m
		}
		for _, c := range []struct {
			args        map[string]any
			field, rule string
		}{
			{good("platform", ""), "platform", "minLength"},
			{good("platform", strings.Repeat("p", 61)), "platform", "maxLength"},
			{good("platform", "   "), "platform", "required"},
			{good("title", strings.Repeat("t", 121)), "title", "maxLength"},
			{good("title", nil), "title", "required"},
			{good("rank", 0), "rank", "minimum"},
			{good("rank", 1001), "rank", "maximum"},
			{good("date", "2026-02-30"), "date", "date"},
			{good("date", "1999-12-31"), "date", "minimum"},
			{good("date", "2027-01-01"), "date", "maximum"},
			{good("award_url", "ftp://hunt.test/a"), "award_url", "url"},
			{good("award_url", "https://user:pw@hunt.test/a"), "award_url", "url"},
			{good("award_url", "/relative"), "award_url", "url"},
			{good("award_url", "https://hunt.test/"+strings.Repeat("a", 500)), "award_url", "maxLength"},
			{good("award_url", nil), "award_url", "required"},
		} {
			st, p := call(t, "add_trophy", c.args)
			errs, _ := p["errors"].([]any)
			if st != 400 || p["code"] != "invalid" || len(errs) == 0 {
				t.Fatalf("%v: want 400 invalid, got %d %v", c.args, st, p)
			}
			fe := errs[0].(map[string]any)
			if fe["field"] != c.field || fe["rule"] != c.rule {
				t.Fatalf("%v: want field %s rule %s, got %v", c.args, c.field, c.rule, fe)
			}
		}
	})
	if n := fixtures.Count(t, env.db, "trophies", fixtures.Cols{"listing_id": id}); n != 0 {
		t.Fatalf("%d trophies stored by refused calls", n)
	}
}

// TestTrophies_BoardsAndHallOfFame: the trophy leaderboard counts verified
// trophies and the awards won here by the points rule, all-time and per
// year; the Hall of Fame lists the Launch of the Week #1s by year.
func TestTrophies_BoardsAndHallOfFame(t *testing.T) {
	t.Parallel()
	env := newTrophyEnv(t)
	key := env.apiKey(t, "board@example.com")
	call := restCaller(env.catEnv, key)
	id, slug := env.trophyListing(t, "board@example.com", "Boardtopper", "boardtopper.test")
	// Awards won here (the weekly clock's rows): a #1 and a #2 for the
	// listing, a #1 for another.
	other, otherSlug := env.trophyListing(t, "board@example.com", "Otherwinner", "otherwinner.test")
	site := fixtures.First(t, env.db, "sites")
	for _, a := range []fixtures.Cols{
		{"week": "2026-11-02", "rank": 1, "listing_id": id, "votes": 40},
		{"week": "2025-06-02", "rank": 2, "listing_id": id, "votes": 30},
		{"week": "2025-06-02", "rank": 1, "listing_id": other, "votes": 35},
	} {
		a["site_id"] = site
		fixtures.Insert(t, env.db, "awards", a)
	}
	env.page("/b", `<html><body><a href="https://boardtopper.test/">Boardtopper</a></body></html>`)
	for i, date := range []string{"2026-11-02", "2026-10-02", "2026-09-02", "2026-08-02", "2025-06-01", "2024-03-03"} {
		addTrophy(t, call, map[string]any{"listing_id": id, "platform": "Hunt", "title": "Top", "rank": 1, "date": date,
			"award_url": env.awards.URL + "/b?n=" + string(rune('a'+i))})
	}
	env.runJobs(t)
	// One added after the run stays pending and scores nothing.
	addTrophy(t, call, map[string]any{"listing_id": id, "platform": "Hunt", "title": "Top", "rank": 1, "date": "2026-11-04",
		"award_url": env.awards.URL + "/b?n=late"})

	st, all := call(t, "get_trophy_leaderboard", map[string]any{"per_page": 5})
	items, _ := all["items"].([]any)
	if st != 200 || len(items) == 0 || !strings.Contains(all["points_rule"].(string), "#1 = 5 points") {
		t.Fatalf("leaderboard: %d %v", st, all)
	}
	top := items[0].(map[string]any)
	if top["listing"].(map[string]any)["slug"] != slug || top["points"] != 38.0 || top["firsts"] != 7.0 || top["trophies"] != 8.0 || top["rank"] != 1.0 {
		t.Fatalf("all-time: want %s first with 6 verified #1s and awards here #1 and #2 = 38 points, got %v", slug, top)
	}
	prev := 1e9
	for _, it := range items {
		p := it.(map[string]any)["points"].(float64)
		if p > prev {
			t.Fatalf("leaderboard not in points order: %v", items)
		}
		prev = p
	}
	found := false
	for page := 1; page <= 20 && !found; page++ {
		_, y := call(t, "get_trophy_leaderboard", map[string]any{"year": 2025, "per_page": 100, "page": page})
		if y["year"] != 2025.0 {
			t.Fatalf("year board: %v", y)
		}
		for _, it := range y["items"].([]any) {
			if m := it.(map[string]any); m["listing"].(map[string]any)["slug"] == slug {
				found = true
				if m["points"] != 8.0 || m["trophies"] != 2.0 {
					t.Fatalf("2025: want a #1 trophy and a #2 here, 8 points, got %v", m)
				}
			}
		}
		if len(y["items"].([]any)) < 100 {
			break
		}
	}
	if !found {
		t.Fatal("the listing is not on the 2025 board")
	}
	if st, p := call(t, "get_trophy_leaderboard", map[string]any{"year": 1999}); st != 400 || p["errors"].([]any)[0].(map[string]any)["field"] != "year" {
		t.Fatalf("year 1999: %d %v", st, p)
	}

	st, hof := call(t, "get_hall_of_fame", map[string]any{})
	years, _ := hof["years"].([]any)
	if st != 200 || len(years) == 0 {
		t.Fatalf("hall of fame: %d %v", st, hof)
	}
	_, awards := call(t, "list_awards", map[string]any{"per_page": 100})
	firsts := 0
	for _, a := range awards["items"].([]any) {
		if a.(map[string]any)["rank"] == 1.0 {
			firsts++
		}
	}
	n, last := 0, 1e9
	for _, y := range years {
		ym := y.(map[string]any)
		if yr := ym["year"].(float64); yr >= last {
			t.Fatalf("years not newest first: %v", years)
		} else {
			last = yr
		}
		for _, w := range ym["winners"].([]any) {
			wm := w.(map[string]any)
			if wm["rank"] != 1.0 || !strings.HasPrefix(wm["week"].(string), fmt.Sprint(int(last))+"-") {
				t.Fatalf("winner %v in year %v", wm, last)
			}
			n++
		}
	}
	if total := awards["total"].(float64); total <= 100 && n != firsts {
		t.Fatalf("hall of fame has %d winners, list_awards %d #1s", n, firsts)
	}
	if y := years[0].(map[string]any); y["year"] != 2026.0 || y["winners"].([]any)[0].(map[string]any)["listing"].(map[string]any)["slug"] != slug {
		t.Fatalf("2026's first winner: %v", y)
	}
	_, y25 := call(t, "get_hall_of_fame", map[string]any{"year": 2025})
	if ys := y25["years"].([]any); len(ys) != 1 || ys[0].(map[string]any)["winners"].([]any)[0].(map[string]any)["listing"].(map[string]any)["slug"] != otherSlug {
		t.Fatalf("2025's Hall of Fame: %v", y25)
	}
	// The cabinet shows the awards won here, verified as such.
	_, cab := call(t, "get_trophy_cabinet", map[string]any{"slug": slug})
	here := 0
	for _, it := range cab["items"].([]any) {
		if m := it.(map[string]any); m["source"] == "here" {
			here++
			if v := m["verification"].(map[string]any); v["how"] != "award_here" || m["state"] != "verified" || !strings.Contains(v["text"].(string), "community votes") {
				t.Fatalf("award here: %v", m)
			}
		}
	}
	if here != 2 || cab["points"] != 38.0 {
		t.Fatalf("cabinet: want 2 awards here and 38 points, got %v", cab)
	}
}

// TestTrophies_OneDecisionPerCheck: a check's outcome is written only while
// its due time is still the trophy's next check, so a second run of the same
// check (another process, a retried job) changes nothing and queues nothing;
// a deleted trophy's queued check does nothing either.
func TestTrophies_OneDecisionPerCheck(t *testing.T) {
	t.Parallel()
	env := newTrophyEnv(t)
	key := env.apiKey(t, "once@example.com")
	id, _ := env.trophyListing(t, "once@example.com", "Oncely", "oncely.test")
	env.page("/once", `<html><body><a href="https://oncely.test/">Oncely</a></body></html>`)
	tid := addTrophy(t, restCaller(env.catEnv, key), map[string]any{"listing_id": id, "platform": "Hunt", "title": "Top",
		"date": "2026-11-01", "award_url": env.awards.URL + "/once"})
	st := env.svc.Store.(domain.TrophyStore)
	rec, err := st.Trophy(context.Background(), int64(tid))
	if err != nil || rec.NextCheckAt == nil {
		t.Fatalf("trophy %v: %v %v", tid, rec, err)
	}
	due := *rec.NextCheckAt
	d := domain.TrophyDecision{State: "rejected", Method: "page", Reason: "first", CheckedAt: catNow}
	if ok, err := st.RecordTrophyCheck(context.Background(), rec.ID, due, d, nil); !ok || err != nil {
		t.Fatalf("first decision: %v %v", ok, err)
	}
	d.State, d.Reason = "verified", "second"
	if ok, err := st.RecordTrophyCheck(context.Background(), rec.ID, due, d, nil); ok || err != nil {
		t.Fatalf("second decision of the same check: %v %v, want false", ok, err)
	}
	if got, _ := st.Trophy(context.Background(), rec.ID); got.State != "rejected" || got.Reason != "first" {
		t.Fatalf("the second decision changed the trophy: %+v", got)
	}
	// The queued job of that check now finds it decided and does nothing.
	env.runJobs(t)
	if got, _ := st.Trophy(context.Background(), rec.ID); got.State != "rejected" || got.Reason != "first" {
		t.Fatalf("the stale job changed the trophy: %+v", got)
	}
}
