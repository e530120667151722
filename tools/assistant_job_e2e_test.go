package tools

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/web"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// loopbackTestServer is catTestServer as serve runs without --base-url on a
// loopback address: auth.WithOrigins answers localhost, 127.0.0.1 and [::1]
// on the listener's port, each from its own origin, and the site's pages
// (checkout among them) are served next to /v1 and /mcp.
func loopbackTestServer(t *testing.T) *catEnv {
	t.Helper()
	var env *catEnv
	var inner http.Handler
	srv := httptest.NewUnstartedServer(nil)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	origins := domain.Origins{Default: "http://127.0.0.1:" + port, LoopbackPort: port}
	srv.Config.Handler = auth.WithOrigins(origins, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := env.pages.Load(); p != nil && !strings.HasPrefix(r.URL.Path, "/v1") && r.URL.Path != "/mcp" {
			(*p).ServeHTTP(w, r)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	// A copy of the demo data as SeedDemo leaves it, as catTestServer takes it.
	dbPath := fixtures.SeededFile(t, fixtures.DemoSeeded)
	clock := testclock.New(catNow)
	// The service, the console and auth as serve wires them
	// (internal/wiring); the test replaces the outside world only.
	world := newTestWorld(t)
	core := wiredCore(t, dbPath, origins.Default, clock.Now, world)
	svc, db, a := core.Service, core.DB, core.Auth
	s := New(svc, Options{Now: svc.Now, Auth: a, Idem: storage.NewIdemStore(db)})
	inner = s.Handler()
	srv.Start()
	t.Cleanup(srv.Close)
	env = &catEnv{Server: srv, tools: s, svc: svc, console: core.Console, auth: a, store: storage.NewAuthStore(db), db: db, dbPath: dbPath,
		clock: clock, core: core, world: world}
	return env
}

// jobStep is one answer of the assistant job: the tool and its JSON text.
type jobStep struct{ tool, text string }

// jobCaller calls tools over one MCP session and keeps every answer.
type jobCaller struct {
	env   *catEnv
	cs    *mcp.ClientSession
	steps []jobStep
}

func (j *jobCaller) call(t *testing.T, tool string, args map[string]any) (int, map[string]any) {
	t.Helper()
	res, err := j.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	j.steps = append(j.steps, jobStep{tool, text})
	var out map[string]any
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("%s: result is not a JSON object: %s", tool, text)
	}
	if res.IsError {
		return int(out["status"].(float64)), out
	}
	return j.env.tools.byName[tool].SuccessStatus(), out
}

// must calls tool and fails unless it answers want.
func (j *jobCaller) must(t *testing.T, want int, tool string, args map[string]any) map[string]any {
	t.Helper()
	st, out := j.call(t, tool, args)
	if st != want {
		t.Fatalf("%s %v: %d, want %d: %v", tool, args, st, want, out)
	}
	return out
}

var jobURLRE = regexp.MustCompile(`https?://[^\s"'<>\\)]+`)

// TestAssistantJob_MCP is issue 28's whole assistant job over MCP with the
// go-sdk client, against the server addressed as 127.0.0.1 and as
// localhost: search, submit_listing, update_draft, submit_draft,
// choose_free_listing, quote_order, create_checkout, pay on the checkout
// page, get_order. Every write tool annotated idempotentHint is called twice
// and the repeat must answer the same. Then every URL of this server in any
// answer must use the host name the client used ("urls follow the host").
func TestAssistantJob_MCP(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	for _, host := range []string{"127.0.0.1", "localhost"} {
		t.Run(host, func(t *testing.T) {
			t.Parallel() // a server and database copy each
			env := loopbackTestServer(t)
			site, _ := withDrafting(t, env)
			withFreeLaunch(t, env)
			pages := web.New(env.svc)
			env.pages.Store(&pages)
			_, port, _ := net.SplitHostPort(strings.TrimPrefix(env.URL, "http://"))
			base := "http://" + host + ":" + port
			key := env.apiKey(t, "assistant@example.com")
			j := &jobCaller{env: env, cs: catConnect(t, base, "2025-11-25", map[string]string{"Authorization": "Bearer " + key})}

			j.must(t, 200, "search_listings", map[string]any{"q": "notes"})
			d := j.must(t, 201, "submit_listing", map[string]any{"url": site.URL + "/"})
			env.runJobs(t)
			d = j.must(t, 200, "get_draft", map[string]any{"id": d["id"]})
			if d["status"] != "ready" {
				t.Fatalf("draft not ready: %v", d["status"])
			}
			j.must(t, 200, "update_draft", map[string]any{"id": d["id"], "fields": map[string]any{"stage": "beta"}})
			sub := j.must(t, 200, "submit_draft", map[string]any{"id": d["id"]})
			if again := j.must(t, 200, "submit_draft", map[string]any{"id": d["id"]}); again["listing_id"] != sub["listing_id"] {
				t.Fatalf("submit_draft again: listing %v, first %v", again["listing_id"], sub["listing_id"])
			}
			id := sub["listing_id"]
			free := j.must(t, 200, "choose_free_listing", map[string]any{"listing_id": id})
			if free["status"] != "awaiting_badge" {
				t.Fatalf("choose_free_listing: %v", free)
			}
			if again := j.must(t, 200, "choose_free_listing", map[string]any{"listing_id": id}); again["launch_week"] != free["launch_week"] {
				t.Fatalf("choose_free_listing again moved the week: %v", again)
			}
			checkBadgeWorks(t, free["badge"].(map[string]any)["embed_html"].(string), free["name"].(string))
			items := []any{map[string]any{"product": "skip_queue", "listing_id": id, "week": freeWeek(1)}}
			q := j.must(t, 200, "quote_order", map[string]any{"items": items, "billing_country": "DE"})
			if q2 := j.must(t, 200, "quote_order", map[string]any{"items": items, "billing_country": "DE"}); q2["total_cents"] != q["total_cents"] {
				t.Fatalf("quote_order again: %v, first %v", q2["total_cents"], q["total_cents"])
			}
			o := j.must(t, 201, "create_checkout", map[string]any{"items": items, "billing_country": "DE"})
			checkout := o["checkout_url"].(string)
			if !strings.HasPrefix(checkout, base+"/") {
				t.Fatalf("checkout_url %s is not on %s", checkout, base)
			}
			payOnPage(t, env, checkout, url.Values{"name": {"Ada Lovelace"}, "address": {"Unter den Linden 1, 10117 Berlin"}, "country": {"DE"}})
			env.runJobs(t)
			got := j.must(t, 200, "get_order", map[string]any{"number": o["number"]})
			if got["status"] != "paid" || got["fulfilled"] != true {
				t.Fatalf("get_order after paying: %v", got)
			}
			l := j.must(t, 200, "get_my_listing", map[string]any{"listing_id": id})
			if l["launch_week"] != freeWeek(1) {
				t.Fatalf("skip_queue did not move the week: %v", l["launch_week"])
			}

			t.Run("urls follow the host", func(t *testing.T) {
				bad := map[string][]string{} // tool -> URLs on another host name
				for _, s := range j.steps {
					for _, u := range jobURLRE.FindAllString(s.text, -1) {
						pu, err := url.Parse(u)
						if err != nil || pu.Port() != port {
							continue // not this server (the product site, example.com)
						}
						if pu.Hostname() != host {
							bad[s.tool] = append(bad[s.tool], u)
						}
					}
				}
				for tool, us := range bad {
					t.Errorf("%s answered %d URLs on another host name to a client on %s, e.g. %s", tool, len(us), host, us[0])
				}
			})
		})
	}
}

// TestAnnotations_IdempotentWritesRepeat: every tool
// that writes and is annotated idempotentHint answers a repeat of a call
// that took effect with success and the same state, over MCP; a new such
// tool without a case here fails the test.
func TestAnnotations_IdempotentWritesRepeat(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	withFreeLaunch(t, env)
	clearFreeQueue(t, env)
	home := newFreeHomepages(t)
	key := env.apiKey(t, "repeat@example.com")
	cs := catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + key})
	j := &jobCaller{env: env, cs: cs}

	// A listing from a draft; a free listing whose homepage has the badge
	// (the first choose_free_listing schedules it); a paid live listing.
	d := j.must(t, 201, "submit_listing", map[string]any{"url": site.URL + "/"})
	env.runJobs(t)
	draftID := d["id"]
	free, slug := home.freeListing(t, env, "repeat@example.com", "/home/", fixtures.Cols{"status": "submitted"})
	home.set("/home/", `<a href="`+env.svc.Site.ListingPageURL(slug)+`">Listed on Launchdir</a>`)
	paid := env.ownedListing(t, "repeat@example.com", fixtures.Cols{"status": "live", "plan": "paid", "launch_week": "2026-11-09"})
	qs := j.must(t, 200, "list_interview_questions", map[string]any{})
	qid := qs["items"].([]any)[0].(map[string]any)["id"]
	withWebhooks(t, env)
	hook := j.must(t, 201, "create_webhook", map[string]any{"url": "https://hooks.example.com/launchdir", "events": []any{"draft.ready"}})
	hookID := hook["webhook"].(map[string]any)["id"]

	cases := map[string]struct {
		args map[string]any
		same []string // result fields a repeat must keep
	}{
		"submit_draft":        {map[string]any{"id": draftID}, []string{"listing_id", "status"}},
		"choose_free_listing": {map[string]any{"listing_id": free}, []string{"status", "launch_week"}},
		"update_my_listing": {map[string]any{"listing_id": paid, "fields": map[string]any{"pricing_summary": "Free; Team $8 per user."}},
			[]string{"status"}},
		"set_founder_story": {map[string]any{"listing_id": paid, "why_started": "Lost a week of notes once."}, []string{"status"}},
		"answer_interview": {map[string]any{"answers": []any{map[string]any{"question_id": qid, "answer": "Talk to users first."}}},
			[]string{"status"}},
		"quote_order": {map[string]any{"items": []any{map[string]any{"product": "featured", "listing_id": paid}}, "billing_country": "DE"},
			[]string{"total_cents"}},
		"update_webhook": {map[string]any{"webhook_id": hookID, "description": "CI hook", "events": []any{"draft.ready", "listing.live"}},
			[]string{"webhook"}},
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var covered []string
	for _, tl := range res.Tools {
		a := tl.Annotations
		if a == nil || a.ReadOnlyHint || !a.IdempotentHint {
			continue
		}
		c, ok := cases[tl.Name]
		if !ok {
			t.Errorf("%s writes and is annotated idempotentHint: add a repeat case here", tl.Name)
			continue
		}
		covered = append(covered, tl.Name)
		st1, first := j.call(t, tl.Name, c.args)
		st2, second := j.call(t, tl.Name, c.args)
		if st1/100 != 2 || st2 != st1 {
			t.Errorf("%s: first %d, repeat %d (%v): an idempotent call repeated must answer the same", tl.Name, st1, st2, second)
			continue
		}
		for _, f := range c.same {
			if a, b := first[f], second[f]; !jsonEqual(a, b) {
				t.Errorf("%s: %s %v, after the repeat %v", tl.Name, f, a, b)
			}
		}
	}
	slices.Sort(covered)
	t.Logf("idempotent write tools repeated: %v", covered)
	if len(covered) < 5 {
		t.Fatalf("only %v covered", covered)
	}
}

// TestDraft_FieldStatesExplained: get_draft and
// update_draft answers over MCP explain every field state they use
// (field_states), since the MCP output schema drops nested descriptions; the
// states the person makes (edited, manual, override, deleted) included.
func TestDraft_FieldStatesExplained(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	key := env.apiKey(t, "states@example.com")
	j := &jobCaller{env: env, cs: catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + key})}
	d := j.must(t, 201, "submit_listing", map[string]any{"url": site.URL + "/"})
	check := func(what string, d map[string]any) {
		t.Helper()
		legend, _ := d["field_states"].(map[string]any)
		for name, f := range d["fields"].(map[string]any) {
			st := f.(map[string]any)["state"].(string)
			if s, _ := legend[st].(string); len(s) < 10 {
				t.Errorf("%s: field %s is %s, which field_states does not explain: %v", what, name, st, legend)
			}
		}
	}
	check("get_draft while building", j.must(t, 200, "get_draft", map[string]any{"id": d["id"]}))
	env.runJobs(t)
	check("get_draft ready", j.must(t, 200, "get_draft", map[string]any{"id": d["id"]}))
	fields := j.must(t, 200, "get_draft", map[string]any{"id": d["id"]})["fields"].(map[string]any)
	var ai, empty []string
	for name, f := range fields {
		switch f := f.(map[string]any); f["state"] {
		case "ai":
			if slices.Contains([]string{"tagline", "description", "short_description", "company", "pricing_summary", "city", "founded_year"}, name) {
				ai = append(ai, name)
			}
		case "not_found":
			if slices.Contains([]string{"city", "company", "tagline", "pricing_summary", "short_description", "description"}, name) {
				empty = append(empty, name)
			}
		}
	}
	slices.Sort(ai)
	slices.Sort(empty)
	if len(ai) < 3 || len(empty) < 1 {
		t.Fatalf("draft fields: ai %v, not_found %v", ai, empty)
	}
	u := j.must(t, 200, "update_draft", map[string]any{"id": d["id"], "fields": map[string]any{ai[0]: "Edited by the person", ai[1]: nil, empty[0]: "Typed by the person"},
		"lock_fields": []any{ai[2]}})
	states := map[string]bool{}
	for _, f := range u["fields"].(map[string]any) {
		states[f.(map[string]any)["state"].(string)] = true
	}
	if !states["deleted"] || !states["manual"] || !states["override"] {
		t.Fatalf("update_draft did not make the person's states: %v", states)
	}
	check("update_draft", u)
}
