package domain

import (
	"context"
	"log/slog"
	"time"
)

// Pruning the delivery log (docs/webhooks.md, "Delivery log"): a daily job
// deletes deliveries that ended (delivered or failed) more than
// WebhookLogRetention ago, with their attempts, and outbox events older than
// that left without a delivery. Pending deliveries are never pruned.

const (
	// WebhookLogRetention is how long an ended delivery stays in the log.
	WebhookLogRetention = 30 * 24 * time.Hour
	// WebhookPruneJob prunes the delivery log once a day.
	WebhookPruneJob = "webhook_prune"
)

// PruneWebhookLog prunes what is older than the retention, on the service clock.
func (s *Service) PruneWebhookLog(ctx context.Context) (deliveries, events int, err error) {
	st, err := s.webhookStore()
	if err != nil {
		return 0, 0, err
	}
	return st.PruneWebhookLog(ctx, s.now().Add(-WebhookLogRetention))
}

func (s *Service) registerWebhookPrune(r *Runner) {
	r.Handle(WebhookPruneJob, JobKind{Run: func(ctx context.Context, j Job) error {
		d, e, err := s.PruneWebhookLog(ctx)
		if err != nil {
			return err
		}
		if d+e > 0 {
			slog.Default().Info("webhooks: pruned the delivery log", "deliveries", d, "events", e)
		}
		return s.scheduleWebhookPrune(ctx, r, s.now().Add(24*time.Hour))
	}, MaxAttempts: 20})
}

// EnsureWebhookPruneJob makes sure the daily pruning job exists (due now
// when none is queued for today): idempotent, as EnsureOpenDataJob.
func (s *Service) EnsureWebhookPruneJob(ctx context.Context, r *Runner) error {
	return s.scheduleWebhookPrune(ctx, r, s.now())
}

func (s *Service) scheduleWebhookPrune(ctx context.Context, r *Runner, at time.Time) error {
	key := at.UTC().Format(DateLayout)
	return r.EnqueueAt(ctx, WebhookPruneJob, key, struct {
		Day string `json:"day"`
	}{key}, at)
}
