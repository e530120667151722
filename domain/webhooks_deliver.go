package domain

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// WebhookSchedule is the wait before each retry (Standard Webhooks'
// schedule): attempt n+1 is due WebhookSchedule[n-1] after attempt n fails,
// times a jitter factor in [0.8, 1.2]. 8 attempts over about 27.5 hours.
var WebhookSchedule = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
	5 * time.Hour, 10 * time.Hour, 10 * time.Hour}

// WebhookMaxAttempts is how many attempts a delivery gets.
var WebhookMaxAttempts = len(WebhookSchedule) + 1

// NewWebhookSecret returns a Standard Webhooks secret: whsec_ and base64 of 24 random bytes.
func NewWebhookSecret() string {
	return "whsec_" + base64.StdEncoding.EncodeToString(RandomBytes(24))
}

// newWebhookMsgID returns an event id: msg_ and 26 base32 characters (130 random bits).
func newWebhookMsgID() string {
	return "msg_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(RandomBytes(17)))[:26]
}

// SignWebhook is the Standard Webhooks signature of one message: "v1," and
// base64 of HMAC-SHA256 over "{id}.{timestamp}.{body}", keyed by the
// base64-decoded secret after "whsec_".
func SignWebhook(secret, msgID string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return "", fmt.Errorf("webhook secret is not base64: %w", err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// sealSecret is how a secret is stored: AES-256-GCM under the server key
// ("enc1:" + base64 of nonce and ciphertext), or as it is without a key.
func (s *Service) sealSecret(secret string) (string, error) {
	if s.Hooks == nil || len(s.Hooks.Key) == 0 {
		return secret, nil
	}
	gcm, err := webhookGCM(s.Hooks.Key)
	if err != nil {
		return "", err
	}
	nonce := RandomBytes(gcm.NonceSize())
	return "enc1:" + base64.StdEncoding.EncodeToString(gcm.Seal(nonce, nonce, []byte(secret), nil)), nil
}

// openSecret reverses sealSecret.
func (s *Service) openSecret(stored string) (string, error) {
	rest, ok := strings.CutPrefix(stored, "enc1:")
	if !ok {
		return stored, nil
	}
	if s.Hooks == nil || len(s.Hooks.Key) == 0 {
		return "", errors.New("webhook secret is encrypted but serve has no --webhook-key")
	}
	gcm, err := webhookGCM(s.Hooks.Key)
	if err != nil {
		return "", err
	}
	b, err := base64.StdEncoding.DecodeString(rest)
	if err != nil || len(b) < gcm.NonceSize() {
		return "", errors.New("webhook secret: bad stored form")
	}
	plain, err := gcm.Open(nil, b[:gcm.NonceSize()], b[gcm.NonceSize():], nil)
	if err != nil {
		return "", errors.New("webhook secret: cannot decrypt with this --webhook-key")
	}
	return string(plain), nil
}

func webhookGCM(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("webhook key must be 32 bytes, not %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// webhookBody is every event's JSON body.
type webhookBody struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	Version   int    `json:"version"`
	Timestamp string `json:"timestamp"`
	Data      any    `json:"data"`
}

// NewWebhookEvent builds the outbox row of an event for userID.
func NewWebhookEvent(typ string, userID, listingID int64, at time.Time, data any) WebhookEvent {
	id := newWebhookMsgID()
	b, _ := json.Marshal(webhookBody{ID: id, Type: typ, Version: WebhookPayloadVersion, Timestamp: at.UTC().Format(time.RFC3339), Data: data})
	return WebhookEvent{MsgID: id, Type: typ, UserID: userID, ListingID: listingID, Payload: b, CreatedAt: at.UTC()}
}

// draftEvent is the draft.ready or draft.failed event of a draft whose build just ended.
func (s *Service) draftEvent(rec *DraftRecord) WebhookEvent {
	var lid any
	if rec.ListingID != 0 {
		lid = rec.ListingID
	}
	if rec.Status == DraftFailed {
		data := map[string]any{"draft_id": rec.ID, "url": rec.URL, "reason": "", "message": ""}
		if rec.Error != nil {
			data["reason"], data["message"] = rec.Error.Reason, rec.Error.Message
		}
		return NewWebhookEvent(EventDraftFailed, rec.UserID, rec.ListingID, s.now(), data)
	}
	comp, _ := completeness(&rec.Doc)
	data := map[string]any{"draft_id": rec.ID, "url": rec.URL, "listing_id": lid, "completeness": comp}
	return NewWebhookEvent(EventDraftReady, rec.UserID, rec.ListingID, s.now(), data)
}

type webhookFanoutPayload struct {
	EventID int64 `json:"event_id"`
}

type webhookDeliverPayload struct {
	DeliveryID int64 `json:"delivery_id"`
	Attempt    int   `json:"attempt"`
}

// WebhookDeliverJobSpec is the job of a delivery's attempt (its key names both,
// so a retry is a new job while the current one is still leased).
func WebhookDeliverJobSpec(deliveryID int64, attempt int, runAt time.Time) JobSpec {
	return JobSpec{Kind: WebhookDeliverJob, Key: strconv.FormatInt(deliveryID, 10) + "/" + strconv.Itoa(attempt),
		Payload: webhookDeliverPayload{DeliveryID: deliveryID, Attempt: attempt}, RunAt: runAt}
}

// WebhookFanoutJobSpec is the job that fans an outbox event out.
func WebhookFanoutJobSpec(eventID int64) JobSpec {
	return JobSpec{Kind: WebhookFanoutJob, Key: strconv.FormatInt(eventID, 10), Payload: webhookFanoutPayload{EventID: eventID}}
}

// RegisterWebhookJobs registers the fan-out and delivery jobs on r.
func (s *Service) RegisterWebhookJobs(r *Runner) {
	r.Handle(WebhookFanoutJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p webhookFanoutPayload
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		st, err := s.webhookStore()
		if err != nil {
			return err
		}
		if _, err := st.FanOutWebhookEvent(ctx, p.EventID); err != nil {
			return err
		}
		s.wakeHooks()
		return nil
	}, MaxAttempts: 10})
	// A delivery job does its own retries (a new job per attempt, on the
	// schedule); an error here is the store's, retried by the runner.
	r.Handle(WebhookDeliverJob, JobKind{Run: func(ctx context.Context, j Job) error {
		var p webhookDeliverPayload
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(err)
		}
		return s.deliverWebhook(ctx, p)
	}, MaxAttempts: 10})
	s.registerWebhookPrune(r)
}

// deliverWebhook sends one attempt of a delivery and records it. A job that
// is not the delivery's next attempt (a duplicate, or a delivery that ended
// or was deleted) does nothing; a process killed after sending and before
// recording sends the same attempt again (same webhook-id).
func (s *Service) deliverWebhook(ctx context.Context, p webhookDeliverPayload) error {
	st, err := s.webhookStore()
	if err != nil {
		return err
	}
	d, ep, err := st.WebhookDelivery(ctx, p.DeliveryID)
	if ErrorCode(err) == ENotFound {
		return nil
	}
	if err != nil {
		return err
	}
	if d.State != DeliveryPending || d.Attempts != p.Attempt-1 {
		return nil
	}
	now := s.now()
	res := WebhookAttemptResult{DeliveryID: d.ID, WebhookAttempt: WebhookAttempt{Attempt: p.Attempt, At: now.Truncate(time.Second)}}
	switch {
	case !ep.Enabled && d.Type != EventWebhookTest && !d.Manual:
		res.Error = "not sent: the endpoint is disabled"
	case s.Hooks == nil || s.Hooks.Sender == nil:
		return Errorf(EInternal, "webhook delivery is not configured")
	default:
		header, herr := s.webhookHeader(ep, d, now)
		if herr != nil {
			res.Error = herr.Error()
			break
		}
		start := s.now()
		status, serr := s.Hooks.Sender.Send(ctx, ep.URL, header, d.Payload)
		if ctx.Err() != nil {
			return ctx.Err() // shutting down or lease lost: the attempt runs again
		}
		res.DurationMS, res.Status = s.now().Sub(start).Milliseconds(), status
		switch {
		case serr != nil:
			res.Error = serr.Error()
		case status < 200 || status > 299:
			res.Error = "HTTP " + strconv.Itoa(status) + ": not a 2xx answer"
		default:
			res.OK = true
		}
	}
	if !res.OK && !d.Manual && p.Attempt < WebhookMaxAttempts && (ep.Enabled || d.Type == EventWebhookTest) {
		wait := WebhookSchedule[p.Attempt-1]
		wait = time.Duration(float64(wait) * (0.8 + 0.4*mrand.Float64()))
		at := now.Add(wait)
		res.RetryAt, res.NextJob = &at, WebhookDeliverJobSpec(d.ID, p.Attempt+1, at)
	}
	if !res.OK {
		res.Reason = fmt.Sprintf("every attempt to deliver %s (%s) failed for over a day; last: %s", d.MsgID, d.Type, res.Error)
	}
	recorded, disabled, err := st.RecordWebhookAttempt(ctx, res)
	if err != nil {
		return err
	}
	if recorded && res.RetryAt != nil {
		s.wakeHooks()
	}
	if disabled && s.Hooks.Mailer != nil && ep.OwnerEmail != "" {
		site := s.Site.In(ctx)
		body := fmt.Sprintf("Your webhook endpoint %s on %s was disabled: %s.\n\nFix the receiver, then enable it again on %s/account (Webhooks) or with update_webhook (enabled: true); "+
			"send_test_webhook checks it first, and redeliver_webhook resends events it missed.\n", ep.URL, site.Name, res.Reason, site.BaseURL)
		if merr := s.Hooks.Mailer.SendMail(ctx, ep.OwnerEmail, site.Name+": webhook endpoint disabled", body); merr != nil {
			slog.Default().Warn("webhooks: the disabling notice was not sent", "endpoint", ep.ID, "err", merr)
		}
	}
	return nil
}

// webhookHeader is the Standard Webhooks headers of one attempt; the
// previous secret signs too while it overlaps.
func (s *Service) webhookHeader(ep *WebhookEndpointRecord, d *WebhookDeliveryRecord, now time.Time) (map[string]string, error) {
	ts := now.Unix()
	secret, err := s.openSecret(ep.Secret)
	if err != nil {
		return nil, err
	}
	sig, err := SignWebhook(secret, d.MsgID, ts, d.Payload)
	if err != nil {
		return nil, err
	}
	if ep.PrevSecret != "" && now.Before(ep.PrevUntil) {
		if prev, err := s.openSecret(ep.PrevSecret); err == nil {
			if old, err := SignWebhook(prev, d.MsgID, ts, d.Payload); err == nil {
				sig += " " + old
			}
		}
	}
	return map[string]string{"webhook-id": d.MsgID, "webhook-timestamp": strconv.FormatInt(ts, 10), "webhook-signature": sig,
		"Content-Type": "application/json", "User-Agent": "launchdir-webhooks/1"}, nil
}

// WebhookDelivery is a delivery as the account sees it.
type WebhookDelivery struct {
	ID        int64            `json:"id" jsonschema_description:"The delivery_id."`
	EventID   string           `json:"event_id" jsonschema_description:"The webhook-id header."`
	Type      string           `json:"type"`
	State     string           `json:"state" jsonschema:"enum=pending,enum=delivered,enum=failed"`
	Attempts  int              `json:"attempts"`
	NextAt    *time.Time       `json:"next_attempt_at,omitempty"`
	CreatedAt time.Time        `json:"created_at"`
	Log       []WebhookAttempt `json:"log"`
}

func deliveryView(d *WebhookDeliveryRecord) WebhookDelivery {
	v := WebhookDelivery{ID: d.ID, EventID: d.MsgID, Type: d.Type, State: d.State, Attempts: d.Attempts, NextAt: d.NextAt, CreatedAt: d.CreatedAt, Log: d.Log}
	if v.Log == nil {
		v.Log = []WebhookAttempt{}
	}
	return v
}

// ListWebhookDeliveriesInput pages an endpoint's delivery log.
type ListWebhookDeliveriesInput struct {
	WebhookID int64 `json:"webhook_id" jsonschema:"minimum=1"`
	Pagination
}

// WebhookDeliveryList is one page of the log, newest first.
type WebhookDeliveryList struct {
	Items []WebhookDelivery `json:"items"`
	Page
}

// RedeliverWebhookInput names a delivery of one of the caller's endpoints.
type RedeliverWebhookInput struct {
	WebhookID  int64 `json:"webhook_id" jsonschema:"minimum=1"`
	DeliveryID int64 `json:"delivery_id" jsonschema:"minimum=1"`
}

// WebhookDeliveryAnswer is one delivery and what happens next.
type WebhookDeliveryAnswer struct {
	Delivery WebhookDelivery `json:"delivery"`
	Next     string          `json:"next"`
}

// ListWebhookDeliveries returns an endpoint's delivery log.
func (s *Service) ListWebhookDeliveries(ctx context.Context, in ListWebhookDeliveriesInput) (*WebhookDeliveryList, error) {
	c, st, err := s.callerWebhooks(ctx)
	if err != nil {
		return nil, err
	}
	recs, total, err := st.WebhookDeliveries(ctx, c.UserID, in.WebhookID, in.Offset(), in.Limit())
	if err != nil {
		return nil, err
	}
	page, per := in.Norm()
	out := &WebhookDeliveryList{Items: []WebhookDelivery{}, Page: NewPage(page, per, total)}
	for i := range recs {
		out.Items = append(out.Items, deliveryView(&recs[i]))
	}
	return out, nil
}

// SendTestWebhook queues a webhook.test event to one of the caller's endpoints.
func (s *Service) SendTestWebhook(ctx context.Context, in WebhookIDInput) (*WebhookDeliveryAnswer, error) {
	c, st, ep, err := s.callerWebhook(ctx, in.WebhookID)
	if err != nil {
		return nil, err
	}
	ev := NewWebhookEvent(EventWebhookTest, c.UserID, 0, s.now(), map[string]any{"webhook_id": ep.ID,
		"message": "A test event from " + s.Site.Name + ": your endpoint receives and verifies webhooks."})
	ev.EndpointID = ep.ID
	if err := st.AddWebhookEvents(ctx, ev); err != nil {
		return nil, err
	}
	s.wakeHooks()
	d := WebhookDelivery{EventID: ev.MsgID, Type: ev.Type, State: DeliveryPending, CreatedAt: ev.CreatedAt.Truncate(time.Second), Log: []WebhookAttempt{}}
	return &WebhookDeliveryAnswer{Delivery: d, Next: "Queued; it is sent within seconds. list_webhook_deliveries shows the outcome (status, timing, error)."}, nil
}

// RedeliverWebhook queues one more attempt of a delivery, at once.
func (s *Service) RedeliverWebhook(ctx context.Context, in RedeliverWebhookInput) (*WebhookDeliveryAnswer, error) {
	c, st, err := s.callerWebhooks(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	d, err := st.RedeliverWebhook(ctx, c.UserID, in.WebhookID, in.DeliveryID, func(attempt int) JobSpec {
		return WebhookDeliverJobSpec(in.DeliveryID, attempt, now)
	})
	if err != nil {
		return nil, err
	}
	s.wakeHooks()
	return &WebhookDeliveryAnswer{Delivery: deliveryView(d), Next: "Queued one more attempt with the same webhook-id; it is not retried if it fails."}, nil
}
