package tools

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// withFreeLaunch wires the order and free launch jobs (week start, badge
// checks) on env's database and clock (the test runs them with
// env.runJobs), reads owners' pages on loopback, and records mail, as serve
// wires them. It returns the env's clock.
func withFreeLaunch(t *testing.T, env *catEnv) (*testclock.Clock, *recordingMailer) {
	t.Helper()
	mailer := withOwning(t, env, nil)
	runner := env.quietRunner()
	env.svc.RegisterOrderJobs(runner)
	env.svc.RegisterFreeJobs(runner)
	return env.clock, mailer
}

// freeHomepages is a local web site whose pages a test rewrites: the owners'
// freeHomepages the badge check reads. A path without a page is a 404.
type freeHomepages struct {
	*httptest.Server
	mu    sync.Mutex
	pages map[string]string
}

func newFreeHomepages(t *testing.T) *freeHomepages {
	h := &freeHomepages{pages: map[string]string{}}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		body, ok := h.pages[r.URL.Path]
		h.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(h.Close)
	return h
}

// set makes path's page a product homepage with extra in its footer.
func (h *freeHomepages) set(path, extra string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pages[path] = `<!doctype html><html><head><title>Product</title></head><body><h1>Product</h1>
<p>The best product. <a href="/pricing">Pricing</a> <a href="https://example.com/blog">Blog</a></p>
<footer>` + extra + `</footer></body></html>`
}

// freeListing inserts a listing of email's account whose homepage is path
// on h, with the given extra columns.
func (h *freeHomepages) freeListing(t *testing.T, env *catEnv, email, path string, cols ...fixtures.Cols) (int64, string) {
	t.Helper()
	h.set(path, "")
	id := env.ownedListing(t, email, append([]fixtures.Cols{{"url": h.URL + path}}, cols...)...)
	return id, listingColumn(t, env, id, "slug")
}

// badgeNearMisses are links that are not a link to slug's page on the site at base.
func badgeNearMisses(base, slug string) string {
	other := strings.Replace(base, "127.0.0.1", "launchdir.example", 1) // localhost is the same loopback server (loopbackAlias)
	return `<a href="` + base + `/">Listed on Launchdir</a> <a href="` + base + `/listings/` + slug + `-pro">Sister</a>
<a href="` + other + `/listings/` + slug + `">Other host</a> <a href="ftp://` + strings.TrimPrefix(base, "http://") + `/listings/` + slug + `">ftp</a>
<a href="` + base + `/categories/` + slug + `">Category</a> <img src="` + base + `/badges/` + slug + `/listed.svg">`
}

// freeWeek is freeMonday(k) as a date: with the default 6-8 weeks, the free
// weeks of a listing joining at catNow are freeWeek(6), (7) and (8).
func freeWeek(k int) string {
	return freeMonday(k).Format(domain.DateLayout)
}

// freeMonday is the first Monday at least k whole weeks after catNow.
func freeMonday(k int) time.Time {
	at := catNow.AddDate(0, 0, 7*k)
	if m := domain.Monday(at); !m.Before(at) {
		return m
	}
	return domain.Monday(at).AddDate(0, 0, 7)
}

// badgeCheckAfterJobs runs the due jobs and returns get_my_listing, whose
// last badge check must then be the one at when.
func badgeCheckAfterJobs(t *testing.T, env *catEnv, call draftCaller, id int64, when time.Time) map[string]any {
	t.Helper()
	env.runJobs(t)
	want := when.UTC().Format(time.RFC3339)
	st, l := call(t, "get_my_listing", map[string]any{"listing_id": id})
	if st != 200 {
		t.Fatalf("get_my_listing %d: %d %v", id, st, l)
	}
	if bc, _ := l["badge_checks"].(map[string]any); bc == nil || lastBadgeCheck(l) == nil || lastBadgeCheck(l)["checked_at"] != want {
		t.Fatalf("listing %d: no badge check at %s once the due jobs ran: %v", id, want, l["badge_checks"])
	}
	return l
}

func lastBadgeCheck(l map[string]any) map[string]any {
	last, _ := l["badge_checks"].(map[string]any)["last"].(map[string]any)
	return last
}

// TestFree_EndToEnd is the free path over REST and MCP: a homepage
// without the badge stays awaiting_badge through a check; the embed code of
// each badge shape, and a plain link, each schedule their listing at the next
// check; the clock moves to the week's Monday and they are live.
func TestFree_EndToEnd(t *testing.T) {
	t.Parallel()
	for _, tr := range []string{"rest", "mcp"} {
		t.Run(tr, func(t *testing.T) {
			env := catTestServer(t, Options{}, true)
			clock, _ := withFreeLaunch(t, env)
			clearFreeQueue(t, env)
			home := newFreeHomepages(t)
			key := env.apiKey(t, "founder@example.com")
			call := restCaller(env, key)
			if tr == "mcp" {
				call = mcpCaller(env, key)(t)
			}
			base := env.svc.Site.BaseURL
			type entry struct {
				id         int64
				slug, path string
				embed      string
				shape      string
			}
			var all []entry
			for i, shape := range append(slices.Clone(domain.BadgeShapes), "plain link") {
				path := fmt.Sprintf("/product-%d/", i)
				id, slug := home.freeListing(t, env, "founder@example.com", path, fixtures.Cols{"status": "submitted"})
				home.set(path, badgeNearMisses(base, slug))
				st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id})
				if st != 200 || f["status"] != "awaiting_badge" || f["launch_week"] != freeWeek(6) || f["expected_launch_date"] != freeWeek(6) ||
					f["queue_position"] != float64(i+1) {
					t.Fatalf("choose_free_listing %s: %d %v", shape, st, f)
				}
				checks := f["checks"].(map[string]any)
				last := checks["last"].(map[string]any)
				if last["found"] != false || last["status"] != "awaiting_badge" || checks["every_hours"] != float64(6) ||
					checks["next_check_at"] != catNow.Add(6*time.Hour).Format(time.RFC3339) {
					t.Fatalf("first check with near misses only: %v", checks)
				}
				badge := f["badge"].(map[string]any)
				page := base + "/listings/" + slug
				if badge["page_url"] != page || badge["homepage"] != home.URL+path || !strings.Contains(badge["embed_html"].(string), `href="`+page+`"`) ||
					!strings.Contains(f["next"].(string), "choose_free_listing again") {
					t.Fatalf("what to put on the homepage: %v", f)
				}
				e := entry{id: id, slug: slug, path: path, shape: shape, embed: `<a href="` + page + `/?utm_source=badge">our page on Launchdir</a>`}
				for _, s := range badge["shapes"].([]any) {
					if s := s.(map[string]any); s["shape"] == shape {
						e.embed = s["embed_html"].(string)
					}
				}
				all = append(all, e)
			}

			// The next check without the badge: still awaiting_badge.
			clock.Set(catNow.Add(6 * time.Hour))
			for _, e := range all {
				l := badgeCheckAfterJobs(t, env, call, e.id, clock.Now())
				if l["status"] != "awaiting_badge" || lastBadgeCheck(l)["found"] != false || lastBadgeCheck(l)["error"] != nil {
					t.Fatalf("%s after a check without the badge: %v", e.shape, l)
				}
			}

			// The badge (each shape) or a plain link: the next check schedules it.
			for _, e := range all {
				home.set(e.path, badgeNearMisses(base, e.slug)+"\n"+e.embed)
			}
			clock.Set(catNow.Add(12 * time.Hour))
			for _, e := range all {
				l := badgeCheckAfterJobs(t, env, call, e.id, clock.Now())
				last := lastBadgeCheck(l)
				if l["status"] != "scheduled" || last["found"] != true || !strings.HasPrefix(last["link"].(string), base+"/listings/"+e.slug) ||
					l["launch_week"] != freeWeek(6) || l["page_url"] == nil {
					t.Fatalf("%s: after the check with the badge: %v", e.shape, l)
				}
				if e.shape == "plain link" {
					continue
				}
				// Public now: get_badges gives the very code that was found.
				st, b := call(t, "get_badges", map[string]any{"slug": e.slug, "shape": e.shape})
				if st != 200 || b["items"].([]any)[0].(map[string]any)["embed_html"] != e.embed {
					t.Fatalf("get_badges %s: %d %v, want %s", e.shape, st, b, e.embed)
				}
			}
			// A repeat on the scheduled listing answers its state (idempotentHint, issue 28 item 18).
			if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": all[0].id}); st != 200 || f["status"] != "scheduled" ||
				f["launch_week"] != freeWeek(6) || !strings.Contains(f["next"].(string), "scheduled for the week of "+freeWeek(6)) {
				t.Fatalf("choose_free_listing on a scheduled listing: %d %v", st, f)
			}

			// The week starts: live.
			clock.Set(freeMonday(6))
			for _, e := range all {
				listingAfterJobs(t, env, e.id, "live")
			}
			st, l := call(t, "get_my_listing", map[string]any{"listing_id": all[0].id})
			if st != 200 || l["status"] != "live" || l["queue_position"] != nil || l["expected_launch_date"] != nil || l["launch_week"] != freeWeek(6) {
				t.Fatalf("live: %d %v", st, l)
			}
			st, wk := call(t, "get_launch_week", map[string]any{"week": freeWeek(6)})
			if st != 200 || !strings.Contains(fmt.Sprint(wk), all[5].slug) {
				t.Fatalf("the launch week does not show the free launch: %d", st)
			}
		})
	}
}

// TestFree_Bounds: listing_id 0, someone else's listing, each status and
// plan that cannot launch free, and the weeks from the site settings.
func TestFree_Bounds(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withFreeLaunch(t, env)
	home := newFreeHomepages(t)
	key := env.apiKey(t, "bounds@example.com")
	env.apiKey(t, "stranger@example.com")
	theirs, _ := home.freeListing(t, env, "stranger@example.com", "/theirs/")
	for _, tr := range []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	} {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			if st, p := call(t, "choose_free_listing", map[string]any{"listing_id": 0}); st != 400 {
				t.Fatalf("listing_id 0: %d %v", st, p)
			}
			for _, id := range []int64{theirs, 999999} {
				if st, p := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 404 || p["code"] != "not_found" ||
					p["detail"] != fmt.Sprintf("You have no listing %d (list_my_listings shows yours).", id) {
					t.Fatalf("listing %d: %d %v", id, st, p)
				}
			}
			if listingColumn(t, env, theirs, "status") != "draft" {
				t.Fatalf("someone else's listing changed")
			}
			for _, c := range []struct {
				set  fixtures.Cols
				want string
			}{
				{fixtures.Cols{"plan": "paid"}, "paid plan"},
				{fixtures.Cols{"plan": "paid", "status": "live"}, "live on the paid plan"},
				{fixtures.Cols{"status": "rejected"}, "rejected"},
				{fixtures.Cols{"status": "archived"}, "archived"},
			} {
				id, _ := home.freeListing(t, env, "bounds@example.com", "/x/", c.set)
				before := freeState(t, env, id)
				st, p := call(t, "choose_free_listing", map[string]any{"listing_id": id})
				if st != 409 || p["code"] != "conflict" || !strings.Contains(p["detail"].(string), c.want) {
					t.Fatalf("%v: %d %v", c.set, st, p)
				}
				if countBadgeChecks(t, env, id) != 0 || freeState(t, env, id) != before {
					t.Fatalf("%v: a refused call changed the listing", c.set)
				}
			}
		})
	}
}

// freeState is what choose_free_listing may change on a listing: its
// status, plan, launch week and last update.
func freeState(t *testing.T, env *catEnv, id int64) string {
	t.Helper()
	r := fixtures.Row(t, env.db, "listings", id)
	return r["status"] + r["plan"] + r["launch_week"] + r["updated_at"]
}

func countBadgeChecks(t *testing.T, env *catEnv, id int64) int {
	t.Helper()
	return countRows(t, env, "badge_checks", fixtures.Cols{"listing_id": id})
}

// freeSetting writes one key of the site's settings, as the site team does.
func freeSetting(t *testing.T, env *catEnv, key string, v int) {
	t.Helper()
	fixtures.SiteSetting(t, env.db, key, v)
}

// TestFree_WeeksFillInOrder: weeks 6, 7 and 8 weeks out fill in order up to
// free_week_capacity (read from sites.settings), counting other owners'
// free listings awaiting the badge (a skip_queue week) or scheduled, not paid
// ones; when all are full, a 409 suggests the paid launch. Queue positions
// follow week, then time queued. free_weeks_min/max move the weeks.
func TestFree_WeeksFillInOrder(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withFreeLaunch(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	key := env.apiKey(t, "queue@example.com")
	call := restCaller(env, key)
	env.apiKey(t, "others@example.com")
	earlier := catNow.Add(-24 * time.Hour).Unix()
	skipper := env.ownedListing(t, "others@example.com", fixtures.Cols{"status": "awaiting_badge", "launch_week": freeWeek(6), "created_at": earlier})
	sched := env.ownedListing(t, "others@example.com", fixtures.Cols{"status": "scheduled", "launch_week": freeWeek(7), "created_at": earlier})
	env.ownedListing(t, "others@example.com", fixtures.Cols{"status": "scheduled", "plan": "paid", "launch_week": freeWeek(8), "created_at": earlier})
	freeSetting(t, env, "free_week_capacity", 1)
	var ids []int64
	for i := range 5 {
		id, _ := home.freeListing(t, env, "queue@example.com", fmt.Sprintf("/q%d/", i))
		ids = append(ids, id)
	}
	full := func(id int64, cap int) {
		t.Helper()
		st, p := call(t, "choose_free_listing", map[string]any{"listing_id": id})
		if st != 409 || !strings.Contains(p["detail"].(string), fmt.Sprintf("Every free launch week from %s to %s is full (%d free listings a week)", freeWeek(6), freeWeek(8), cap)) ||
			!strings.Contains(p["detail"].(string), `"product": "launch"`) {
			t.Fatalf("all weeks full: %d %v", st, p)
		}
		if listingColumn(t, env, id, "status") != "draft" || countRows(t, env, "free_queue", fixtures.Cols{"listing_id": id}) != 0 {
			t.Fatalf("a refused listing changed")
		}
	}
	choose := func(id int64, want string) {
		t.Helper()
		if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 200 || f["launch_week"] != want {
			t.Fatalf("listing %d: %d %v, want week %s", id, st, f, want)
		}
	}
	choose(ids[0], freeWeek(8)) // the paid listing in week 8 takes no place
	// Called again after adding the badge: the same week, checked at once.
	home.set("/q0/", `<a href="`+env.svc.Site.BaseURL+`/listings/`+listingColumn(t, env, ids[0], "slug")+`">Launchdir</a>`)
	if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": ids[0]}); st != 200 || f["status"] != "scheduled" ||
		f["launch_week"] != freeWeek(8) || countBadgeChecks(t, env, ids[0]) != 2 {
		t.Fatalf("again with the badge: %d %v", st, f)
	}
	full(ids[1], 1)
	freeSetting(t, env, "free_week_capacity", 2)
	choose(ids[1], freeWeek(6))
	choose(ids[2], freeWeek(7))
	choose(ids[3], freeWeek(8))
	full(ids[4], 2)

	st, list := call(t, "list_my_listings", map[string]any{"per_page": 100})
	pos := map[int64]any{}
	for _, it := range list["items"].([]any) {
		it := it.(map[string]any)
		pos[int64(it["id"].(float64))] = it["queue_position"]
	}
	want := map[int64]any{ids[1]: 2.0, ids[2]: 4.0, ids[0]: 5.0, ids[3]: 6.0, ids[4]: nil}
	for id, w := range want {
		if pos[id] != w {
			t.Fatalf("list_my_listings queue positions: %d %v, want %v (skip_queue listing %d is 1, scheduled %d is 3)", st, pos, want, skipper, sched)
		}
	}
	// The weeks come from the settings too.
	freeSetting(t, env, "free_weeks_min", 3)
	freeSetting(t, env, "free_weeks_max", 3)
	choose(ids[4], freeWeek(3))
	if _, l := call(t, "get_my_listing", map[string]any{"listing_id": ids[4]}); l["queue_position"] != 1.0 || l["expected_launch_date"] != freeWeek(3) {
		t.Fatalf("week 3: %v", l)
	}
}

// clearFreeQueue moves the demo data's upcoming free launches to the paid
// plan, so that a test starts with empty free weeks.
func clearFreeQueue(t *testing.T, env *catEnv) {
	t.Helper()
	for _, status := range []string{"awaiting_badge", "scheduled"} {
		fixtures.Update(t, env.db, "listings", fixtures.Cols{"plan": "paid"}, fixtures.Cols{"plan": "free", "status": status})
	}
}

// TestFree_ConcurrentChoices: capacity 2, five listings choose at once:
// exactly two get week 6, two week 7, one week 8.
func TestFree_ConcurrentChoices(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withFreeLaunch(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	key := env.apiKey(t, "rush@example.com")
	freeSetting(t, env, "free_week_capacity", 2)
	var ids []int64
	for i := range 5 {
		id, _ := home.freeListing(t, env, "rush@example.com", fmt.Sprintf("/r%d/", i))
		ids = append(ids, id)
	}
	weeks := make([]string, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := catDo(t, env, "POST", fmt.Sprintf("/v1/me/listings/%d/free", id), nil, map[string]string{"Authorization": "Bearer " + key})
			var f map[string]any
			if err := json.Unmarshal(r.body, &f); err != nil || r.status != 200 {
				t.Errorf("listing %d: %d %s", id, r.status, r.body)
				return
			}
			weeks[i] = f["launch_week"].(string)
		}()
	}
	wg.Wait()
	count := map[string]int{}
	for _, w := range weeks {
		count[w]++
	}
	if count[freeWeek(6)] != 2 || count[freeWeek(7)] != 2 || count[freeWeek(8)] != 1 {
		t.Fatalf("weeks taken: %v", count)
	}
}

// TestFree_BadgePolicy: the badge going away. Scheduled and gone at a check:
// back to awaiting_badge (mailed). Still missing when its week starts: moved to
// the next week with room (mailed). Back: scheduled, then live. Gone after
// launch: a warning, and at the second check in a row unpublished (draft).
// A homepage that cannot be read is not found, with its reason kept; checks
// of a live listing end after four weeks.
func TestFree_BadgePolicy(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	clock, mailer := withFreeLaunch(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	key := env.apiKey(t, "policy@example.com")
	call := restCaller(env, key)
	base := env.svc.Site.BaseURL
	freeSetting(t, env, "free_week_capacity", 1)
	freeSetting(t, env, "badge_check_hours", 24)

	id, slug := home.freeListing(t, env, "policy@example.com", "/p/")
	link := `<a href="` + base + `/listings/` + slug + `">Launchdir</a>`
	home.set("/p/", link)
	st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id})
	if st != 200 || f["status"] != "scheduled" || f["launch_week"] != freeWeek(6) ||
		f["checks"].(map[string]any)["next_check_at"] != catNow.Add(24*time.Hour).Format(time.RFC3339) {
		t.Fatalf("badge there at once: %d %v", st, f)
	}
	// Week 7 is taken, so a move goes to week 8.
	bystander := env.apiKey(t, "bystander@example.com")
	other, _ := home.freeListing(t, env, "bystander@example.com", "/other/")
	if st, f := restCaller(env, bystander)(t, "choose_free_listing", map[string]any{"listing_id": other}); st != 200 || f["launch_week"] != freeWeek(7) {
		t.Fatalf("second listing: %d %v", st, f)
	}

	home.set("/p/", "")
	clock.Set(catNow.Add(24 * time.Hour))
	l := badgeCheckAfterJobs(t, env, call, id, clock.Now())
	if l["status"] != "awaiting_badge" || l["launch_week"] != freeWeek(6) || l["page_url"] != nil {
		t.Fatalf("scheduled, badge gone: %v", l)
	}
	// The checks keep going and the week's Monday is one of them.
	mon := freeMonday(6)
	if next := l["badge_checks"].(map[string]any)["next_check_at"]; next != catNow.Add(48*time.Hour).Format(time.RFC3339) {
		t.Fatalf("next check: %v", next)
	}
	clock.Set(mon.Add(-time.Hour))
	badgeCheckAfterJobs(t, env, call, id, clock.Now())
	if l := nextBadgeCheck(t, call, id); l != mon.Format(time.RFC3339) {
		t.Fatalf("the check before the week starts: next %v, want the Monday %s", l, mon)
	}
	clock.Set(mon)
	l = badgeCheckAfterJobs(t, env, call, id, mon)
	if l["status"] != "awaiting_badge" || l["launch_week"] != freeWeek(8) || l["expected_launch_date"] != freeWeek(8) {
		t.Fatalf("week started without the badge: %v, want week %s", l, freeWeek(8))
	}
	if listingColumn(t, env, id, "launched_at") != "" {
		t.Fatalf("went live without the badge")
	}

	home.set("/p/", `<p>Find us on <a href="`+base+`/listings/`+slug+`/">Launchdir</a></p>`)
	clock.Set(mon.Add(24 * time.Hour))
	if l = badgeCheckAfterJobs(t, env, call, id, clock.Now()); l["status"] != "scheduled" || l["launch_week"] != freeWeek(8) {
		t.Fatalf("badge back: %v", l)
	}
	clock.Set(freeMonday(8))
	badgeCheckAfterJobs(t, env, call, id, freeMonday(8)) // the check due before the Monday runs now
	listingAfterJobs(t, env, id, "live")

	home.set("/p/", "")
	next := nextBadgeCheck(t, call, id)
	nt, _ := time.Parse(time.RFC3339, next)
	clock.Set(nt)
	if l = badgeCheckAfterJobs(t, env, call, id, nt); l["status"] != "live" {
		t.Fatalf("live, one check without the badge: %v", l)
	}
	nt = nt.Add(24 * time.Hour)
	clock.Set(nt)
	if l = badgeCheckAfterJobs(t, env, call, id, nt); l["status"] != "draft" || l["launch_week"] != nil || l["page_url"] != nil ||
		l["badge_checks"].(map[string]any)["next_check_at"] != nil {
		t.Fatalf("live, two checks in a row without the badge: %v", l)
	}
	subjects := freeMailSubjects(mailer, "policy@example.com")
	want := []string{"our badge is gone", "moved to the week of " + freeWeek(8), "our badge is missing", "was unpublished"}
	if len(subjects) != len(want) {
		t.Fatalf("mail: %q, want %q", subjects, want)
	}
	for i := range want {
		if !strings.Contains(subjects[i], want[i]) {
			t.Fatalf("mail %d: %q, want %q", i, subjects[i], want[i])
		}
	}
	// Unpublished: it may join the queue again.
	if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 200 || f["status"] != "awaiting_badge" {
		t.Fatalf("again after unpublishing: %d %v", st, f)
	}

	// A homepage that cannot be read.
	gone, _ := home.freeListing(t, env, "policy@example.com", "/gone/")
	home.mu.Lock()
	delete(home.pages, "/gone/")
	home.mu.Unlock()
	st, f = call(t, "choose_free_listing", map[string]any{"listing_id": gone})
	last := f["checks"].(map[string]any)["last"].(map[string]any)
	if st != 200 || f["status"] != "awaiting_badge" || last["found"] != false || !strings.Contains(fmt.Sprint(last["error"]), "404") {
		t.Fatalf("homepage 404: %d %v", st, f)
	}
}

// nextBadgeCheck returns get_my_listing's next check time.
func nextBadgeCheck(t *testing.T, call draftCaller, id int64) string {
	t.Helper()
	_, l := call(t, "get_my_listing", map[string]any{"listing_id": id})
	next, _ := l["badge_checks"].(map[string]any)["next_check_at"].(string)
	return next
}

func freeMailSubjects(m *recordingMailer, to string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for _, s := range m.sent {
		if p := strings.SplitN(s, "|", 3); p[0] == to {
			out = append(out, p[1])
		}
	}
	return out
}

// TestFree_LiveChecksEnd: a live free listing is checked for four weeks; the
// first check after that ends the checks.
func TestFree_LiveChecksEnd(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	clock, _ := withFreeLaunch(t, env)
	home := newFreeHomepages(t)
	key := env.apiKey(t, "ends@example.com")
	call := restCaller(env, key)
	id, slug := home.freeListing(t, env, "ends@example.com", "/e/")
	home.set("/e/", `<a href="`+env.svc.Site.BaseURL+`/listings/`+slug+`">us</a>`)
	if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 200 || f["status"] != "scheduled" {
		t.Fatalf("choose: %d %v", st, f)
	}
	clock.Set(freeMonday(6))
	listingAfterJobs(t, env, id, "live")
	end := freeMonday(6).AddDate(0, 0, 7*domain.FreeLiveCheckWeeks)
	clock.Set(end.Add(-time.Hour))
	l := badgeCheckAfterJobs(t, env, call, id, end.Add(-time.Hour))
	if l["status"] != "live" || l["badge_checks"].(map[string]any)["next_check_at"] != nil {
		t.Fatalf("the last check of the four weeks: %v", l["badge_checks"])
	}
	before := countBadgeChecks(t, env, id)
	// A repeat on the live free listing answers its state and checks nothing
	// more (choose_free_listing is idempotent).
	if st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id}); st != 200 || f["status"] != "live" || countBadgeChecks(t, env, id) != before {
		t.Fatalf("live: %d %v", st, f)
	}
}

// TestFree_WeekAtLeastSixWholeWeeksOut: on every day of a
// week, REST and MCP alike, choose_free_listing queues the listing for a week
// that starts at least free_weeks_min (6) whole weeks after the call; on a
// Sunday it gave the week 36 days away, counted from that week's Monday.
func TestFree_WeekAtLeastSixWholeWeeksOut(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	clock, _ := withFreeLaunch(t, env)
	home := newFreeHomepages(t)
	monday := domain.Monday(catNow).AddDate(0, 0, 7)
	for d := range 7 {
		now := monday.AddDate(0, 0, d).Add(23 * time.Hour)
		for _, tr := range []string{"rest", "mcp"} {
			clock.Set(now)
			email := fmt.Sprintf("day%d-%s@example.com", d, tr)
			call := restCaller(env, env.apiKey(t, email))
			if tr == "mcp" {
				call = mcpCaller(env, env.apiKey(t, email))(t)
			}
			id, _ := home.freeListing(t, env, email, fmt.Sprintf("/d%d%s/", d, tr))
			st, f := call(t, "choose_free_listing", map[string]any{"listing_id": id})
			week, _ := f["launch_week"].(string)
			day, err := time.Parse(domain.DateLayout, week)
			if st != 200 || err != nil {
				t.Fatalf("%s %s: %d %v", now.Weekday(), tr, st, f)
			}
			if gap := day.Sub(now); gap < 6*7*24*time.Hour || gap >= 7*7*24*time.Hour {
				t.Errorf("%s %s (%s): week %s is %.1f days away, want at least 42 and under 49", tr, now.Format(time.RFC3339), now.Weekday(), week, gap.Hours()/24)
			}
		}
	}
}
