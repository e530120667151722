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
	"github.com/launchdir/launchdir/domain/webhooksend"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// webhookTestKey is the server key of the webhook tests (secrets are stored encrypted with it).
var webhookTestKey = []byte("0123456789abcdef0123456789abcdef")

// withWebhooks wires the webhooks into env as serve does: the sender with
// the crawler's guard (loopback allowed, as --fetch-allow-loopback), a server
// key, a job runner on the env's clock (env.runJobs runs the deliveries) and
// a mailer that records the disabling notices.
func withWebhooks(t testing.TB, env *catEnv) *recordingMailer {
	t.Helper()
	m := &recordingMailer{}
	runner := env.quietRunner()
	snd := webhooksend.New(webhooksend.Options{AllowLoopback: true, Timeout: 3 * time.Second})
	t.Cleanup(snd.Close)
	env.svc.Hooks = &domain.Webhooking{Sender: snd, Key: webhookTestKey, Mailer: m, Wake: runner.Wake}
	env.svc.RegisterWebhookJobs(runner)
	return m
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
