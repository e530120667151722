package domain_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestSignWebhook_SpecVector: the Standard Webhooks specification's test
// vector (secret, id, timestamp, body -> signature), as its reference
// libraries check it.
func TestSignWebhook_SpecVector(t *testing.T) {
	got, err := domain.SignWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("signature %s, want %s", got, want)
	}
}

// sentHooks is a WebhookSender that keeps the headers of what it is asked
// to send and answers 204.
type sentHooks struct{ headers []map[string]string }

func (f *sentHooks) CheckHost(string) error { return nil }

func (f *sentHooks) Send(_ context.Context, _ string, header map[string]string, _ []byte) (int, error) {
	f.headers = append(f.headers, header)
	return 204, nil
}

// TestWebhookSecret_SealedAndOpened: with a server key the stored form of
// an endpoint's secret is encrypted, and a delivery opens it to sign with
// the secret create_webhook returned; a service with another key cannot
// open it, and the attempt says so.
func TestWebhookSecret_SealedAndOpened(t *testing.T) {
	t.Parallel()
	env := newEnvOn(t, "sqlite", false)
	ctx := fixtures.Caller(t, env.DB, context.Background(), "hooks@example.com")
	// hooks wires env's service to deliver with key through its own runner.
	hooks := func(key string) (*domain.Service, *sentHooks, *domain.Runner) {
		svc, _ := fixtures.Service(t, env.DB, fixtures.Site, func() time.Time { return fixtures.Now })
		sent := &sentHooks{}
		svc.Hooks = &domain.Webhooking{Store: env.Store, Sender: sent, Key: []byte(key)}
		r := domain.NewRunner(storage.NewJobStore(env.DB), domain.RunnerOptions{Now: func() time.Time { return fixtures.Now }})
		svc.RegisterWebhookJobs(r)
		return svc, sent, r
	}
	// deliverTest sends a test event through svc and runs the jobs it queues.
	deliverTest := func(svc *domain.Service, r *domain.Runner, id int64) {
		t.Helper()
		if _, err := svc.SendTestWebhook(ctx, domain.WebhookIDInput{WebhookID: id}); err != nil {
			t.Fatalf("send_test_webhook: %v", err)
		}
		if _, err := r.RunDue(context.Background()); err != nil {
			t.Fatalf("RunDue: %v", err)
		}
	}

	svc, sent, r := hooks("0123456789abcdef0123456789abcdef")
	created, err := svc.CreateWebhook(ctx, domain.CreateWebhookInput{URL: "https://hooks.example.com/in", Events: []string{domain.EventDraftReady}})
	if err != nil {
		t.Fatal(err)
	}
	secret, id := created.Webhook.Secret, created.Webhook.ID
	stored := fixtures.Column(t, env.DB, "webhook_endpoints", id, "secret")
	if stored == secret || strings.Contains(stored, secret) || len(stored) < 40 || stored[:5] != "enc1:" {
		t.Fatalf("stored %q for the secret %q", stored, secret)
	}
	deliverTest(svc, r, id)
	if len(sent.headers) != 1 {
		t.Fatalf("sent %d deliveries, want 1", len(sent.headers))
	}
	h := sent.headers[0]
	ts, _ := strconv.ParseInt(h["webhook-timestamp"], 10, 64)
	payload := fixtures.Column(t, env.DB, "webhook_events", fixtures.ID(t, env.DB, "webhook_events", fixtures.Cols{"msg_id": h["webhook-id"]}), "payload")
	if want, err := domain.SignWebhook(secret, h["webhook-id"], ts, []byte(payload)); err != nil || h["webhook-signature"] != want {
		t.Fatalf("signature %q, want %q (%v): not signed with the secret create_webhook returned", h["webhook-signature"], want, err)
	}

	other, otherSent, otherRunner := hooks("fedcba9876543210fedcba9876543210")
	deliverTest(other, otherRunner, id)
	if len(otherSent.headers) != 0 {
		t.Fatalf("another key sent %v", otherSent.headers)
	}
	log, err := other.ListWebhookDeliveries(ctx, domain.ListWebhookDeliveriesInput{WebhookID: id})
	if err != nil || len(log.Items) != 2 || len(log.Items[0].Log) != 1 || !strings.Contains(log.Items[0].Log[0].Error, "cannot decrypt") {
		t.Fatalf("the delivery under another key: %+v, %v; want its attempt to say the secret cannot be decrypted", log, err)
	}
}
