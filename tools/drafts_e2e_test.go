package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/internal/fetch"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// draftSiteDir is a realistic 10-page product site of the extractor's test set.
const draftSiteDir = "../domain/extract/testdata/sites/ledgerly"

// withDrafting makes env's drafts build from local sites: the real fetcher
// with loopback allowed (as --fetch-allow-loopback) in the outside world,
// and a job runner on the env's SQLite file and clock for the builds (the
// test runs them with env.runJobs, see builtDraft). The drafter (the
// grounded extractor) and the outbox are the wiring's. It returns the local
// product site and the env's mail.
func withDrafting(t testing.TB, env *catEnv) (*httptest.Server, *recordingMailer) {
	t.Helper()
	site := httptest.NewServer(http.FileServer(http.Dir(draftSiteDir)))
	t.Cleanup(site.Close)
	runner := env.quietRunner()
	sites := fetch.New(fetch.Options{AllowLoopback: true})
	t.Cleanup(sites.Close)
	env.world.swap(func(w *testWorld) { w.sites = sites })
	env.svc.RegisterDraftJobs(runner, nil)
	return site, env.world.mail
}

// idleDrafting configures the draft operations as serve does, with a job
// runner that is not started: drafts stay queued (withDrafting runs one).
// Only the stacks still built by hand use it (see docs/decisions.md).
func idleDrafting(db *storage.DB, st *storage.Store) *domain.Drafting {
	return &domain.Drafting{
		Store: st, Fetcher: fetch.New(fetch.Options{}), Drafter: extract.New(),
		Enqueue: domain.NewRunner(storage.NewJobStore(db), domain.RunnerOptions{Now: db.Now}).Enqueue,
	}
}

type recordingMailer struct {
	mu   sync.Mutex
	sent []string // "to|subject|body"
}

func (m *recordingMailer) SendMail(_ context.Context, to, subject, body string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, to+"|"+subject+"|"+body)
	return nil
}

// draftCaller calls an operation over one transport and returns the HTTP-like
// status and the JSON body (the problem body for errors).
type draftCaller func(t testing.TB, op string, args map[string]any) (int, map[string]any)

// restCaller calls the operations over REST with the key.
func restCaller(env *catEnv, key string) draftCaller {
	return func(t testing.TB, op string, args map[string]any) (int, map[string]any) {
		t.Helper()
		b := env.tools.byName[op]
		path := b.Path
		body := map[string]any{}
		for k, v := range args {
			if strings.Contains(path, "{"+k+"}") {
				path = strings.ReplaceAll(path, "{"+k+"}", fmt.Sprint(v))
			} else {
				body[k] = v
			}
		}
		var raw []byte
		if b.Method != "GET" && len(body) > 0 {
			raw, _ = json.Marshal(body)
		} else if b.Method == "GET" && len(body) > 0 {
			q := []string{}
			for k, v := range body {
				q = append(q, k+"="+fmt.Sprint(v))
			}
			path += "?" + strings.Join(q, "&")
		}
		r := catDo(t, env, b.Method, "/v1"+path, raw, map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json"})
		var out map[string]any
		if err := json.Unmarshal(r.body, &out); err != nil {
			t.Fatalf("%s: body is not a JSON object: %s", op, r.body)
		}
		return r.status, out
	}
}

// mcpCaller calls the operations as MCP tools with the key; an error result
// is turned back into its problem's status.
func mcpCaller(env *catEnv, key string) func(t *testing.T) draftCaller {
	return func(t *testing.T) draftCaller {
		cs := catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + key})
		return func(t testing.TB, op string, args map[string]any) (int, map[string]any) {
			t.Helper()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: op, Arguments: args})
			if err != nil {
				t.Fatalf("%s: %v", op, err)
			}
			var out map[string]any
			text := res.Content[0].(*mcp.TextContent).Text
			if err := json.Unmarshal([]byte(text), &out); err != nil {
				t.Fatalf("%s: result is not a JSON object: %s", op, text)
			}
			if res.IsError {
				return int(out["status"].(float64)), out
			}
			return env.tools.byName[op].SuccessStatus(), out
		}
	}
}

// builtDraft runs the due jobs (the draft's build among them) and returns
// get_draft, which must then be built: ready or failed.
func builtDraft(t testing.TB, env *catEnv, call draftCaller, id string) map[string]any {
	t.Helper()
	env.runJobs(t)
	st, d := call(t, "get_draft", map[string]any{"id": id})
	if st != 200 {
		t.Fatalf("get_draft: %d %v", st, d)
	}
	if d["status"] != "ready" && d["status"] != "failed" {
		t.Fatalf("draft still %v once the due jobs ran: %v", d["status"], d["progress"])
	}
	return d
}

func field(d map[string]any, name string) map[string]any {
	return d["fields"].(map[string]any)[name].(map[string]any)
}

// listingColumn reads a column of a listing from the database, the only
// way to see a listing that is not published yet before the owner's listing
// operations exist.
func listingColumn(t *testing.T, env *catEnv, id int64, col string) string {
	t.Helper()
	return fixtures.Column(t, env.db, "listings", id, col)
}

func TestDrafts_EndToEnd(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, mailer := withDrafting(t, env)
	key := env.apiKey(t, "owner@example.com")
	for _, tr := range []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	} {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			st, d := call(t, "submit_listing", map[string]any{"url": site.URL})
			if st != 201 || d["status"] != "crawling" {
				t.Fatalf("submit_listing: %d %v", st, d)
			}
			id := d["id"].(string)
			d = builtDraft(t, env, call, id)
			if d["status"] != "ready" {
				t.Fatalf("draft ended %v: %v", d["status"], d["error"])
			}
			name := field(d, "name")
			if name["state"] != "ai" || name["value"] != "Ledgerly" || len(name["evidence"].([]any)) == 0 {
				t.Fatalf("name = %v", name)
			}
			for fname, f := range d["fields"].(map[string]any) {
				f := f.(map[string]any)
				if f["state"] == "ai" {
					for _, e := range f["evidence"].([]any) {
						if u := e.(map[string]any)["url"].(string); !strings.HasPrefix(u, site.URL) {
							t.Errorf("%s: evidence from %s, not the site", fname, u)
						}
					}
				}
			}
			if len(d["not_found_on_website"].([]any)) == 0 || d["completeness"].(float64) <= 0 {
				t.Errorf("not_found_on_website %v completeness %v", d["not_found_on_website"], d["completeness"])
			}
			origTagline := field(d, "tagline")["value"]

			// Edit: a typed value is "edited", the AI's original kept.
			st, d = call(t, "update_draft", map[string]any{"id": id, "fields": map[string]any{"tagline": "Books that close themselves", "city": nil}})
			if st != 200 || field(d, "tagline")["state"] != "edited" || field(d, "tagline")["ai_value"] != origTagline {
				t.Fatalf("edit: %d %v", st, d["fields"])
			}
			if c := field(d, "city"); c["value"] != nil || (c["state"] != "deleted" && c["state"] != "not_found") {
				t.Errorf("city after null = %v", c)
			}
			// Lock, then a redraft of the locked field is refused and changes nothing.
			st, d = call(t, "update_draft", map[string]any{"id": id, "lock_fields": []string{"tagline"}})
			if st != 200 || field(d, "tagline")["state"] != "override" {
				t.Fatalf("lock: %d %v", st, field(d, "tagline"))
			}
			st, p := call(t, "update_draft", map[string]any{"id": id, "regenerate": []string{"tagline"}})
			if st != 400 || !strings.Contains(fmt.Sprint(p["errors"]), "locked") {
				t.Fatalf("regenerate of a locked field: %d %v", st, p)
			}
			// Restore puts the AI's original back (and unlocks); regenerate redrafts from the evidence.
			st, d = call(t, "update_draft", map[string]any{"id": id, "restore": []string{"tagline"}, "regenerate": []string{"description"}})
			if st != 200 || field(d, "tagline")["state"] != "ai" || field(d, "tagline")["value"] != origTagline {
				t.Fatalf("restore: %d %v", st, field(d, "tagline"))
			}
			if s := field(d, "description")["state"]; s != "ai" && s != "not_found" {
				t.Errorf("regenerated description state %v", s)
			}
			// Bad input names the field and changes nothing.
			st, p = call(t, "update_draft", map[string]any{"id": id, "fields": map[string]any{"country": "Atlantis"}, "faqs": []any{}})
			if st != 400 || !strings.Contains(fmt.Sprint(p["errors"]), "fields.country") {
				t.Fatalf("bad country: %d %v", st, p)
			}
			if _, again := call(t, "get_draft", map[string]any{"id": id}); len(again["faqs"].([]any)) != len(d["faqs"].([]any)) {
				t.Errorf("a refused update changed the FAQs")
			}

			st, sub := call(t, "submit_draft", map[string]any{"id": id})
			if st != 200 || sub["created"] != true {
				t.Fatalf("submit_draft: %d %v", st, sub)
			}
			lid := int64(sub["listing_id"].(float64))
			if got := listingColumn(t, env, lid, "name"); got != "Ledgerly" {
				t.Errorf("listing name %q", got)
			}
			if got := listingColumn(t, env, lid, "status"); got != "draft" {
				t.Errorf("listing status %q, want draft (saved, not published)", got)
			}
			// An edit after submit updates the listing; submit again is the same listing.
			if st, _ := call(t, "update_draft", map[string]any{"id": id, "fields": map[string]any{"tagline": "After submit"}}); st != 200 {
				t.Fatalf("edit after submit: %d", st)
			}
			if got := listingColumn(t, env, lid, "tagline"); got != "After submit" {
				t.Errorf("listing tagline %q after editing the submitted draft", got)
			}
			st, sub = call(t, "submit_draft", map[string]any{"id": id})
			if st != 200 || sub["created"] != false || int64(sub["listing_id"].(float64)) != lid {
				t.Fatalf("second submit_draft: %d %v", st, sub)
			}

			st, inv := call(t, "invite_cofounder", map[string]any{"id": id, "email": "cofounder@example.org"})
			if st != 201 || inv["email"] != "cofounder@example.org" {
				t.Fatalf("invite: %d %v", st, inv)
			}
			st, list := call(t, "list_my_drafts", map[string]any{})
			// (The env's clock is fixed, so both transports' drafts have one creation
			// time; the order by time is a storage test.)
			found := false
			for _, it := range list["items"].([]any) {
				it := it.(map[string]any)
				found = found || it["id"] == id && it["status"] == "ready" && it["completeness"].(float64) > 0
			}
			if st != 200 || !found {
				t.Fatalf("list_my_drafts: %d %v", st, list)
			}
		})
	}
	mailer.mu.Lock()
	defer mailer.mu.Unlock()
	if len(mailer.sent) != 2 || !strings.Contains(mailer.sent[0], env.URL+domain.InvitePath+"/ld_inv_") {
		t.Errorf("invite mails: %v", mailer.sent)
	}
}

func TestDrafts_OthersDraftIsNotFound(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	alice, bob := restCaller(env, env.apiKey(t, "alice@example.com")), restCaller(env, env.apiKey(t, "bob@example.com"))
	_, d := alice(t, "submit_listing", map[string]any{"url": site.URL})
	id := d["id"].(string)
	for _, op := range []string{"get_draft", "submit_draft"} {
		if st, p := bob(t, op, map[string]any{"id": id}); st != 404 {
			t.Errorf("%s of another user's draft: %d %v, want 404", op, st, p)
		}
	}
	if st, p := bob(t, "update_draft", map[string]any{"id": id, "fields": map[string]any{"name": "Mine"}}); st != 404 {
		t.Errorf("update_draft of another user's draft: %d %v", st, p)
	}
	if st, _ := bob(t, "get_draft", map[string]any{"id": "not-a-uuid"}); st != 400 {
		t.Errorf("malformed id: %d, want 400", st)
	}
	if _, l := bob(t, "list_my_drafts", map[string]any{}); len(l["items"].([]any)) != 0 {
		t.Errorf("bob sees drafts: %v", l["items"])
	}
}

func TestDrafts_SubmitListingInput(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withDrafting(t, env)
	key := env.apiKey(t, "a@example.com")
	for _, tc := range []struct {
		body, field string
	}{
		{`{"url":"ftp://example.com/"}`, "url"},
		{`{"url":"https://` + strings.Repeat("a", 2050) + `.com"}`, "url"},
		{`{"url":"https://example.com","name":"x"}`, "name"},
		{`{}`, "url"},
		{`{"url":"https://user:pw@example.com/"}`, "url"},
	} {
		r := catDo(t, env, "POST", "/v1/drafts", []byte(tc.body), map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json"})
		if r.status != 400 || !bytes.Contains(r.body, []byte(`"field":"`+tc.field)) {
			t.Errorf("%s: %d %s", tc.body, r.status, r.body)
		}
	}
	if r := catDo(t, env, "POST", "/v1/drafts", []byte(`{"url":"https://example.com"}`), nil); r.status != 401 || r.header.Get("WWW-Authenticate") == "" {
		t.Errorf("no sign-in: %d %v", r.status, r.header)
	}
	if _, l := restCaller(env, key)(t, "list_my_drafts", nil); len(l["items"].([]any)) != 0 {
		t.Errorf("refused submissions stored drafts: %v", l["items"])
	}
}

// A site whose robots.txt forbids us ends as a failed draft saying why, and
// none of its pages is read.
func TestDrafts_RobotsForbidden(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withDrafting(t, env)
	var pages sync.Map
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pages.Store(r.URL.Path, true)
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /\n")
			return
		}
		io.WriteString(w, "<html><title>Secret</title><h1>Secret product</h1></html>")
	}))
	defer site.Close()
	call := restCaller(env, env.apiKey(t, "a@example.com"))
	_, d := call(t, "submit_listing", map[string]any{"url": site.URL})
	d = builtDraft(t, env, call, d["id"].(string))
	if d["status"] != "failed" || d["error"].(map[string]any)["reason"] != "robots" {
		t.Fatalf("draft = %v %v", d["status"], d["error"])
	}
	pages.Range(func(k, _ any) bool {
		if k != "/robots.txt" {
			t.Errorf("read %v although robots.txt forbids it", k)
		}
		return true
	})
}

// Twenty concurrent submit_listing calls with one Idempotency-Key make one
// draft and twenty equal answers.
func TestDrafts_SubmitListingIdempotent(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	key := env.apiKey(t, "owner@example.com")
	body := []byte(`{"url":"` + site.URL + `"}`)
	hdr := map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/json", "Idempotency-Key": "a4d2c1e0-submit-once"}
	answers := make([]catResp, 20)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = catDo(t, env, "POST", "/v1/drafts", body, hdr)
		}()
	}
	wg.Wait()
	for i, a := range answers {
		if a.status != 201 || !bytes.Equal(a.body, answers[0].body) {
			t.Errorf("answer %d: %d %s, want 201 and the first answer %s", i, a.status, a.body, answers[0].body)
		}
	}
	_, list := restCaller(env, key)(t, "list_my_drafts", nil)
	if n := len(list["items"].([]any)); n != 1 {
		t.Errorf("%d drafts, want 1", n)
	}
	// The same key with another URL is refused, and makes no draft.
	other := catDo(t, env, "POST", "/v1/drafts", []byte(`{"url":"`+site.URL+`/about.html"}`), hdr)
	if other.status != 422 {
		t.Errorf("same key, other request: %d %s", other.status, other.body)
	}
}

// BenchmarkDraftToReady measures the time from submit_listing to status ready
// for a local 10-page site (the extractor's ledgerly), through REST, the job
// runner, the real fetcher and the grounded extractor. It reports p50 and p95.
func BenchmarkDraftToReady(b *testing.B) {
	env := catTestServer(b, Options{}, true)
	site, _ := withDrafting(b, env)
	key := env.apiKey(b, "bench@example.com")
	call := restCaller(env, key)
	var times []time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		_, d := call(b, "submit_listing", map[string]any{"url": site.URL})
		d = builtDraft(b, env, call, d["id"].(string))
		times = append(times, time.Since(start))
		if d["status"] != "ready" {
			b.Fatalf("draft %v", d["status"])
		}
	}
	b.StopTimer()
	slices.Sort(times)
	pct := func(p float64) float64 { return float64(times[int(p*float64(len(times)-1))].Microseconds()) / 1000 }
	b.ReportMetric(pct(0.5), "p50_ms")
	b.ReportMetric(pct(0.95), "p95_ms")
}

// competitor_url reads another site and stores a comparison; an unreadable one
// is a 400 on the field and stores nothing. Inviting yourself is a 400.
func TestDrafts_CompetitorAndInviteRules(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	rival := httptest.NewServer(http.FileServer(http.Dir("../domain/extract/testdata/sites/notably")))
	defer rival.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close() // nothing listens there any more
	call := restCaller(env, env.apiKey(t, "owner@example.com"))
	_, d := call(t, "submit_listing", map[string]any{"url": site.URL})
	id := d["id"].(string)
	builtDraft(t, env, call, id)

	st, d := call(t, "update_draft", map[string]any{"id": id, "competitor_url": rival.URL})
	comp, _ := d["competitor"].(map[string]any)
	if st != 200 || comp == nil || comp["name"] != "Notably" || len(comp["rows"].([]any)) == 0 {
		t.Fatalf("competitor: %d %v", st, d["competitor"])
	}
	st, p := call(t, "update_draft", map[string]any{"id": id, "competitor_url": closed.URL, "fields": map[string]any{"city": "Nowhere"}})
	if st != 400 || !strings.Contains(fmt.Sprint(p["errors"]), "competitor_url") {
		t.Fatalf("unreadable competitor: %d %v", st, p)
	}
	_, d = call(t, "get_draft", map[string]any{"id": id})
	if d["competitor_url"] != rival.URL+"/" || field(d, "city")["value"] == "Nowhere" {
		t.Errorf("a refused update changed the draft: competitor_url %v city %v", d["competitor_url"], field(d, "city"))
	}
	if st, _ := call(t, "update_draft", map[string]any{"id": id, "competitor_url": ""}); st != 200 {
		t.Fatalf("clearing competitor_url: %d", st)
	}
	if _, d = call(t, "get_draft", map[string]any{"id": id}); d["competitor"] != nil || d["competitor_url"] != nil {
		t.Errorf("competitor after clearing: %v %v", d["competitor_url"], d["competitor"])
	}
	if st, p := call(t, "invite_cofounder", map[string]any{"id": id, "email": "Owner@Example.com"}); st != 400 || !strings.Contains(fmt.Sprint(p["errors"]), "email") {
		t.Errorf("inviting yourself: %d %v", st, p)
	}
}

// Edits and submit while a draft is being built answer 409 and change nothing.
func TestDrafts_BusyWhileBuilding(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true) // the idle runner: drafts stay queued
	call := restCaller(env, env.apiKey(t, "owner@example.com"))
	_, d := call(t, "submit_listing", map[string]any{"url": "https://example.com/"})
	id := d["id"].(string)
	if st, p := call(t, "update_draft", map[string]any{"id": id, "fields": map[string]any{"name": "Early"}}); st != 409 {
		t.Errorf("update while building: %d %v", st, p)
	}
	if st, p := call(t, "submit_draft", map[string]any{"id": id}); st != 409 {
		t.Errorf("submit while building: %d %v", st, p)
	}
	if _, d = call(t, "get_draft", map[string]any{"id": id}); d["status"] != "crawling" || field(d, "name")["value"] != nil {
		t.Errorf("draft changed: %v %v", d["status"], field(d, "name"))
	}
}
