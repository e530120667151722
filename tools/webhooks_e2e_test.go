package tools

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/webhooksend"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// withWebhooks makes env's webhooks reach local receivers: the sender with
// the crawler's guard (loopback allowed, as --fetch-allow-loopback) in the
// outside world, and a job runner on the env's clock for the deliveries
// (env.runJobs runs them). The server key and the outbox are the wiring's;
// it returns the env's mail, where the disabling notices land.
func withWebhooks(t testing.TB, env *catEnv) *recordingMailer {
	t.Helper()
	runner := env.quietRunner()
	snd := webhooksend.New(webhooksend.Options{AllowLoopback: true, Timeout: 3 * time.Second})
	t.Cleanup(snd.Close)
	env.world.swap(func(w *testWorld) { w.sender = snd })
	env.svc.RegisterWebhookJobs(runner)
	return env.world.mail
}

// weekAfterDemo is the Monday of the week after the demo data's.
var weekAfterDemo = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)

// weekClockHooks is the prelude of the tests that turn the weekly clock
// (award.won, listing.live): webhooks wired into env, a listing of email's
// account inserted with cols, and an endpoint of that account subscribed to
// events at a new receiver. It returns the listing's id and slug and the
// receiver.
func weekClockHooks(t *testing.T, env *catEnv, email string, cols fixtures.Cols, events ...any) (int64, string, *hookReceiver) {
	t.Helper()
	withWebhooks(t, env)
	key := env.apiKey(t, email)
	id := env.ownedListing(t, email, cols)
	rcv := hooksFor(t, env, []string{key}, []map[string]any{{"events": events}})[0]
	return id, slugOf(t, env, id), rcv
}

// turnWeeksTwiceAt sets env's clock to at and turns the weeks, running the
// jobs, twice: what the first turn raised, the second must not raise again.
func turnWeeksTwiceAt(t *testing.T, env *catEnv, at time.Time) {
	t.Helper()
	env.clock.Set(at)
	for range 2 {
		if _, err := env.svc.TurnWeeks(t.Context()); err != nil {
			t.Fatal(err)
		}
		env.runJobs(t)
	}
}

// hookGot is one POST a receiver got.
type hookGot struct {
	id, typ  string
	body     map[string]any
	verified bool // a v1 signature of the header verified with one of the receiver's secrets
	header   http.Header
	raw      []byte
}

// hookReceiver is a webhook receiver on loopback that verifies each POST
// with the Standard Webhooks algorithm, written here from the spec (not
// with the service's signer): HMAC-SHA256 keyed by the base64-decoded
// secret over "id.timestamp.body", compared in constant time with each
// space-separated "v1," signature, and the timestamp within 5 minutes of now.
type hookReceiver struct {
	*httptest.Server
	mu      sync.Mutex
	secrets []string
	got     []hookGot
	// failNext answers the next failNext POSTs with 500.
	failNext int
	// answer, when set, answers instead (after failNext).
	answer http.HandlerFunc
	now    func() time.Time
}

func newHookReceiver(t *testing.T, now func() time.Time) *hookReceiver {
	r := &hookReceiver{now: now}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func (r *hookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	g := hookGot{id: req.Header.Get("webhook-id"), header: req.Header.Clone(), raw: body}
	_ = json.Unmarshal(body, &g.body)
	g.typ, _ = g.body["type"].(string)
	g.verified = verifyStandardWebhook(r.secrets, req.Header, body, r.now())
	r.got = append(r.got, g)
	switch {
	case r.failNext > 0:
		r.failNext--
		http.Error(w, "receiver down", http.StatusInternalServerError)
	case r.answer != nil:
		r.answer(w, req)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

func (r *hookReceiver) received() []hookGot {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hookGot(nil), r.got...)
}

func (r *hookReceiver) setSecrets(s ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets = s
}

func verifyStandardWebhook(secrets []string, h http.Header, body []byte, now time.Time) bool {
	id, ts, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || id == "" || now.Sub(time.Unix(sec, 0)).Abs() > 5*time.Minute {
		return false
	}
	for _, secret := range secrets {
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
		if err != nil {
			continue
		}
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id + "." + ts + "." + string(body)))
		want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
		for _, s := range strings.Fields(sigs) {
			if v, ok := strings.CutPrefix(s, "v1,"); ok && hmac.Equal([]byte(v), []byte(want)) {
				return true
			}
		}
	}
	return false
}

func createHook(t *testing.T, call draftCaller, args map[string]any) (int64, string) {
	t.Helper()
	st, v := call(t, "create_webhook", args)
	w, _ := v["webhook"].(map[string]any)
	if st != 201 || w == nil || w["id"] == nil || !strings.HasPrefix(w["secret"].(string), "whsec_") {
		t.Fatalf("create_webhook %v: %d %v", args, st, v)
	}
	return int64(w["id"].(float64)), w["secret"].(string)
}

func hookDeliveries(t *testing.T, call draftCaller, id int64) []map[string]any {
	t.Helper()
	st, v := call(t, "list_webhook_deliveries", map[string]any{"webhook_id": id, "per_page": 100})
	if st != 200 {
		t.Fatalf("list_webhook_deliveries: %d %v", st, v)
	}
	var out []map[string]any
	for _, it := range v["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

// TestWebhooks_DraftReadyDeliveredSigned: an endpoint created over REST (or
// MCP) receives draft.ready once when a submitted draft's build finishes,
// signed so that a Standard Webhooks verifier accepts it with the secret
// create_webhook showed once; the secret is stored encrypted. After a
// rotation a test event carries both signatures (the old secret and the new
// one each verify it).
func TestWebhooks_DraftReadyDeliveredSigned(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	withWebhooks(t, env)
	key := env.apiKey(t, "hooks@example.com")
	for _, tr := range []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	} {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			rcv := newHookReceiver(t, env.clock.Now)
			id, secret := createHook(t, call, map[string]any{"url": rcv.URL + "/hooks", "events": []any{"draft.ready", "draft.failed"}})
			rcv.setSecrets(secret)
			if stored := fixtures.Column(t, env.db, "webhook_endpoints", id, "secret"); !strings.HasPrefix(stored, "enc1:") || strings.Contains(stored, secret[6:]) {
				t.Errorf("secret stored as %q, want it encrypted", stored)
			}
			st, lst := call(t, "list_webhooks", map[string]any{})
			if raw, _ := json.Marshal(lst); st != 200 || strings.Contains(string(raw), secret) || !strings.Contains(string(raw), secret[:10]) {
				t.Fatalf("list_webhooks shows the secret or not its prefix: %d %s", st, raw)
			}

			st, d := call(t, "submit_listing", map[string]any{"url": site.URL})
			if st != 201 {
				t.Fatalf("submit_listing: %d %v", st, d)
			}
			draftID := d["id"].(string)
			builtDraft(t, env, call, draftID)
			env.runJobs(t) // the fan-out and the delivery it queued
			got := rcv.received()
			if len(got) != 1 || got[0].typ != "draft.ready" || !got[0].verified {
				t.Fatalf("receiver got %+v, want one verified draft.ready", got)
			}
			data, _ := got[0].body["data"].(map[string]any)
			if data["draft_id"] != draftID || got[0].body["id"] != got[0].id || got[0].body["version"] != float64(1) {
				t.Errorf("draft.ready body %v (webhook-id %s)", got[0].body, got[0].id)
			}
			env.runJobs(t)
			if n := len(rcv.received()); n != 1 {
				t.Errorf("%d POSTs after running the jobs again, want still 1", n)
			}
			ds := hookDeliveries(t, call, id)
			if len(ds) != 1 || ds[0]["state"] != "delivered" || ds[0]["event_id"] != got[0].id {
				t.Fatalf("delivery log %v", ds)
			}
			if lg := ds[0]["log"].([]any); len(lg) != 1 || lg[0].(map[string]any)["status"] != float64(204) {
				t.Errorf("attempt log %v", lg)
			}

			// Rotation: the old and the new secret both sign for a day.
			st, r := call(t, "rotate_webhook_secret", map[string]any{"webhook_id": id})
			newSecret, _ := r["webhook"].(map[string]any)["secret"].(string)
			if st != 200 || newSecret == "" || newSecret == secret {
				t.Fatalf("rotate_webhook_secret: %d %v", st, r)
			}
			if st, v := call(t, "send_test_webhook", map[string]any{"webhook_id": id}); st != 202 {
				t.Fatalf("send_test_webhook: %d %v", st, v)
			}
			env.runJobs(t)
			got = rcv.received()
			if len(got) != 2 || got[1].typ != "webhook.test" {
				t.Fatalf("after the test event the receiver got %+v", got)
			}
			now := env.clock.Now()
			if sigs := strings.Fields(got[1].header.Get("webhook-signature")); len(sigs) != 2 ||
				!verifyStandardWebhook([]string{secret}, got[1].header, got[1].raw, now) ||
				!verifyStandardWebhook([]string{newSecret}, got[1].header, got[1].raw, now) ||
				verifyStandardWebhook([]string{domain.NewWebhookSecret()}, got[1].header, got[1].raw, now) {
				t.Errorf("after rotation: signature %q, want one by the old and one by the new secret", got[1].header.Get("webhook-signature"))
			}
		})
	}
}

// TestWebhooks_RetriedOnTheClockThenDisabled: a receiver that keeps failing
// gets 8 attempts on the backoff schedule (the second not before 4 s, with
// jitter) over about a day of the test clock; the delivery ends failed, the
// endpoint is disabled with the reason and the owner is mailed. A receiver
// that fails 5 times and then recovers gets the event at the 6th attempt and
// stays enabled.
func TestWebhooks_RetriedOnTheClockThenDisabled(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	mailer := withWebhooks(t, env)
	call := restCaller(env, env.apiKey(t, "flaky@example.com"))

	t.Run("always failing", func(t *testing.T) {
		rcv := newHookReceiver(t, env.clock.Now)
		rcv.failNext = 1000
		id, _ := createHook(t, call, map[string]any{"url": rcv.URL, "events": []any{"draft.ready"}})
		if st, v := call(t, "send_test_webhook", map[string]any{"webhook_id": id}); st != 202 {
			t.Fatalf("send_test_webhook: %d %v", st, v)
		}
		env.runJobs(t)
		if n := len(rcv.received()); n != 1 {
			t.Fatalf("%d POSTs at once, want 1", n)
		}
		env.clock.Advance(3 * time.Second)
		env.runJobs(t)
		if n := len(rcv.received()); n != 1 {
			t.Fatalf("%d POSTs 3 s later, want still 1 (the first retry waits 5 s, at least 4 s with jitter)", n)
		}
		env.clock.Advance(4 * time.Second)
		env.runJobs(t)
		if n := len(rcv.received()); n != 2 {
			t.Fatalf("%d POSTs 7 s later, want 2", n)
		}
		for i := 0; i < 10; i++ {
			env.clock.Advance(12 * time.Hour) // beyond the longest wait (10 h, 12 h with jitter)
			env.runJobs(t)
		}
		got := rcv.received()
		if len(got) != domain.WebhookMaxAttempts {
			t.Fatalf("%d POSTs, want %d", len(got), domain.WebhookMaxAttempts)
		}
		for _, g := range got {
			if g.id != got[0].id {
				t.Errorf("retry with webhook-id %s, want the same %s", g.id, got[0].id)
			}
		}
		ds := hookDeliveries(t, call, id)
		if len(ds) != 1 || ds[0]["state"] != "failed" || ds[0]["attempts"] != float64(domain.WebhookMaxAttempts) {
			t.Fatalf("delivery %v", ds)
		}
		var prev time.Time
		for i, a := range ds[0]["log"].([]any) {
			a := a.(map[string]any)
			at, _ := time.Parse(time.RFC3339, a["at"].(string))
			if a["status"] != float64(500) || !strings.Contains(a["error"].(string), "500") || (i > 0 && !at.After(prev)) {
				t.Errorf("attempt %d: %v", i+1, a)
			}
			prev = at
		}
		_, lst := call(t, "list_webhooks", map[string]any{})
		w := lst["items"].([]any)[0].(map[string]any)
		if w["enabled"] != false || !strings.Contains(w["disabled_reason"].(string), "HTTP 500") {
			t.Fatalf("endpoint after a day of failures: %v", w)
		}
		mailer.mu.Lock()
		sent := strings.Join(mailer.sent, "\n")
		mailer.mu.Unlock()
		if !strings.Contains(sent, "flaky@example.com|") || !strings.Contains(sent, "disabled") || !strings.Contains(sent, rcv.URL) {
			t.Errorf("no disabling notice to the owner: %q", sent)
		}
		// Enabled again by its owner, with the receiver fixed: a redelivery succeeds.
		rcv.mu.Lock()
		rcv.failNext = 0
		rcv.mu.Unlock()
		if st, v := call(t, "update_webhook", map[string]any{"webhook_id": id, "enabled": true}); st != 200 || v["webhook"].(map[string]any)["enabled"] != true {
			t.Fatalf("update_webhook enabled: %d %v", st, v)
		}
		if st, v := call(t, "redeliver_webhook", map[string]any{"webhook_id": id, "delivery_id": ds[0]["id"]}); st != 202 {
			t.Fatalf("redeliver_webhook: %d %v", st, v)
		}
		env.runJobs(t)
		if got := rcv.received(); len(got) != domain.WebhookMaxAttempts+1 || got[len(got)-1].id != got[0].id {
			t.Fatalf("after redelivery the receiver got %d POSTs", len(got))
		}
		if ds := hookDeliveries(t, call, id); ds[0]["state"] != "delivered" {
			t.Errorf("redelivered: %v", ds[0])
		}
	})

	t.Run("recovers after 5 failures", func(t *testing.T) {
		rcv := newHookReceiver(t, env.clock.Now)
		rcv.failNext = 5
		id, _ := createHook(t, call, map[string]any{"url": rcv.URL, "events": []any{"draft.ready"}})
		call(t, "send_test_webhook", map[string]any{"webhook_id": id})
		for i := 0; i < 8; i++ {
			env.runJobs(t)
			env.clock.Advance(12 * time.Hour)
		}
		got := rcv.received()
		if len(got) != 6 {
			t.Fatalf("%d POSTs, want 6 (5 failures, then delivered)", len(got))
		}
		ds := hookDeliveries(t, call, id)
		_, lst := call(t, "list_webhooks", map[string]any{})
		var w map[string]any
		for _, it := range lst["items"].([]any) {
			if it.(map[string]any)["id"] == float64(id) {
				w = it.(map[string]any)
			}
		}
		if ds[0]["state"] != "delivered" || ds[0]["attempts"] != float64(6) || w["enabled"] != true {
			t.Fatalf("delivery %v, endpoint %v", ds[0], w)
		}
	})
}

// TestWebhooks_HostileAddresses: private, link-local, metadata and loopback
// addresses are refused at creation (400 naming url) when loopback is not
// allowed; a name that reaches loopback at delivery is refused by the dial
// guard and the log says why; a redirect is not followed; a huge answer is cut.
func TestWebhooks_HostileAddresses(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	withWebhooks(t, env)
	call := restCaller(env, env.apiKey(t, "hostile@example.com"))
	strict := webhooksend.New(webhooksend.Options{Timeout: 2 * time.Second})
	loose := env.svc.Hooks.Sender
	rcv := newHookReceiver(t, env.clock.Now)

	env.svc.Hooks.Sender = strict
	for _, u := range []string{"http://10.0.0.7/hook", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/",
		"http://[fe80::1]/", "http://100.64.0.1/", "http://127.0.0.1:8080/", "http://[::1]/", "http://localhost/hook", rcv.URL} {
		st, v := call(t, "create_webhook", map[string]any{"url": u, "events": []any{"draft.ready"}})
		if st != 400 || !hasFieldRule(v, "url", "public_address") {
			t.Errorf("create_webhook %s: %d %v, want 400 url public_address", u, st, v)
		}
	}
	if n := fixtures.Count(t, env.db, "webhook_endpoints", nil); n != 0 {
		t.Fatalf("%d endpoints stored after refusals", n)
	}

	// Created while loopback was allowed, delivered without: the dial guard refuses.
	env.svc.Hooks.Sender = loose
	id, _ := createHook(t, call, map[string]any{"url": strings.Replace(rcv.URL, "127.0.0.1", "localhost", 1), "events": []any{"draft.ready"}})
	env.svc.Hooks.Sender = strict
	call(t, "send_test_webhook", map[string]any{"webhook_id": id})
	env.runJobs(t)
	env.svc.Hooks.Sender = loose
	ds := hookDeliveries(t, call, id)
	if lg := ds[0]["log"].([]any); len(rcv.received()) != 0 || !strings.Contains(lg[0].(map[string]any)["error"].(string), "loopback address") {
		t.Fatalf("delivery to loopback without the flag: %d POSTs, log %v", len(rcv.received()), lg)
	}

	for _, c := range []struct {
		name, want string
		answer     http.HandlerFunc
	}{
		{"redirect", "not followed", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		}},
		{"huge", "larger than", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(strings.Repeat("x", 1<<20)))
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newHookReceiver(t, env.clock.Now)
			r.answer = c.answer
			id, _ := createHook(t, call, map[string]any{"url": r.URL, "events": []any{"draft.ready"}})
			call(t, "send_test_webhook", map[string]any{"webhook_id": id})
			env.runJobs(t)
			ds := hookDeliveries(t, call, id)
			lg := ds[0]["log"].([]any)
			if len(r.received()) != 1 || ds[0]["state"] != "pending" || !strings.Contains(lg[0].(map[string]any)["error"].(string), c.want) {
				t.Fatalf("%s: %d POSTs, delivery %v", c.name, len(r.received()), ds[0])
			}
		})
	}
}

func hasFieldRule(v map[string]any, field, rule string) bool {
	errs, _ := v["errors"].([]any)
	for _, e := range errs {
		if m := e.(map[string]any); m["field"] == field && (rule == "" || m["rule"] == rule) {
			return true
		}
	}
	return false
}

// TestWebhooks_StrangerCannotReadOrChange: another account's endpoint is a
// 404 for every operation naming it, and nothing of it changes (IDOR).
func TestWebhooks_StrangerCannotReadOrChange(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, false)
	withWebhooks(t, env)
	owner := restCaller(env, env.apiKey(t, "owner@example.com"))
	stranger := restCaller(env, env.apiKey(t, "stranger@example.com"))
	rcv := newHookReceiver(t, env.clock.Now)
	id, _ := createHook(t, owner, map[string]any{"url": rcv.URL, "events": []any{"draft.ready"}, "description": "mine"})
	owner(t, "send_test_webhook", map[string]any{"webhook_id": id})
	env.runJobs(t)
	did := hookDeliveries(t, owner, id)[0]["id"]

	if st, v := stranger(t, "list_webhooks", map[string]any{}); st != 200 || len(v["items"].([]any)) != 0 {
		t.Fatalf("stranger's list_webhooks: %d %v", st, v)
	}
	for _, c := range []struct {
		op   string
		args map[string]any
	}{
		{"update_webhook", map[string]any{"webhook_id": id, "url": "https://evil.example/hook"}},
		{"update_webhook", map[string]any{"webhook_id": id, "enabled": false}},
		{"rotate_webhook_secret", map[string]any{"webhook_id": id}},
		{"send_test_webhook", map[string]any{"webhook_id": id}},
		{"list_webhook_deliveries", map[string]any{"webhook_id": id}},
		{"redeliver_webhook", map[string]any{"webhook_id": id, "delivery_id": did}},
		{"delete_webhook", map[string]any{"webhook_id": id}},
	} {
		if st, v := stranger(t, c.op, c.args); st != 404 || v["code"] != "not_found" {
			t.Errorf("stranger %s: %d %v, want 404", c.op, st, v)
		}
	}
	_, lst := owner(t, "list_webhooks", map[string]any{})
	w := lst["items"].([]any)[0].(map[string]any)
	if w["url"] != rcv.URL || w["enabled"] != true || w["description"] != "mine" {
		t.Errorf("owner's endpoint changed: %v", w)
	}
	env.runJobs(t)
	if n := len(rcv.received()); n != 1 {
		t.Errorf("%d POSTs, want 1 (the owner's test event only)", n)
	}
}

// TestWebhooks_BadInput: each broken field is a 400 naming it, over REST
// and MCP, and nothing is stored.
func TestWebhooks_BadInput(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withWebhooks(t, env)
	key := env.apiKey(t, "input@example.com")
	env.apiKey(t, "someone-else@example.com")
	theirs := env.ownedListing(t, "someone-else@example.com")
	for _, tr := range []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	} {
		t.Run(tr.name, func(t *testing.T) {
			call := tr.call(t)
			ok := "https://hooks.example.com/launchdir"
			for _, c := range []struct {
				args  map[string]any
				field string
			}{
				{map[string]any{"url": "ftp://hooks.example.com/", "events": []any{"draft.ready"}}, "url"},
				{map[string]any{"url": "https://user:pw@hooks.example.com/", "events": []any{"draft.ready"}}, "url"},
				{map[string]any{"url": "", "events": []any{"draft.ready"}}, "url"},
				{map[string]any{"events": []any{"draft.ready"}}, "url"},
				{map[string]any{"url": ok}, "events"},
				{map[string]any{"url": ok, "events": []any{}}, "events"},
				{map[string]any{"url": ok, "events": []any{"draft.exploded"}}, "events"},
				{map[string]any{"url": ok, "events": []any{"draft.ready"}, "listing_ids": []any{theirs}}, "listing_ids"},
				{map[string]any{"url": ok, "events": []any{"draft.ready"}, "description": strings.Repeat("d", 201)}, "description"},
			} {
				st, v := call(t, "create_webhook", c.args)
				if st != 400 || !hasFieldRule(v, c.field, "") {
					t.Errorf("create_webhook %v: %d %v, want 400 naming %s", c.args, st, v, c.field)
				}
			}
			if n := fixtures.Count(t, env.db, "webhook_endpoints", nil); n != 0 {
				t.Fatalf("%d endpoints stored after bad input", n)
			}
		})
	}
}
