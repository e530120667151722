package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Webhooks (docs/webhooks.md): an account's endpoints
// receive signed events (Standard Webhooks) from a durable outbox written in
// the same transaction as the change the event reports.

// Event types.
const (
	EventDraftReady       = "draft.ready"
	EventDraftFailed      = "draft.failed"
	EventListingPublished = "listing.published"
	EventListingScheduled = "listing.scheduled"
	EventListingLive      = "listing.live"
	// EventListingUnpublished: a listing left public view (docs/webhooks.md).
	EventListingUnpublished = "listing.unpublished"
	EventBadgeFound         = "badge.found"
	EventBadgeLost          = "badge.lost"
	EventClaimVerified      = "claim.verified"
	EventOrderPaid          = "order.paid"
	EventOrderFulfilled     = "order.fulfilled"
	EventAwardWon           = "award.won"
	EventReviewPosted       = "review.posted"
	EventUpdatePosted       = "update.posted"
	EventTrophyVerified     = "trophy.verified"
	// EventWebhookTest is send_test_webhook's event; it cannot be subscribed to.
	EventWebhookTest = "webhook.test"
)

// WebhookEventTypes are the types an endpoint may subscribe to, in the docs' order.
var WebhookEventTypes = []string{EventDraftReady, EventDraftFailed, EventListingPublished, EventListingScheduled,
	EventListingLive, EventListingUnpublished, EventBadgeFound, EventBadgeLost, EventClaimVerified, EventOrderPaid, EventOrderFulfilled,
	EventAwardWon, EventReviewPosted, EventUpdatePosted, EventTrophyVerified}

// Webhook rules.
const (
	// WebhookPayloadVersion is the version of every event's payload.
	WebhookPayloadVersion = 1
	// MaxWebhooks is how many endpoints one account may have.
	MaxWebhooks = 10
	// MaxWebhookListings bounds an endpoint's listing_ids.
	MaxWebhookListings = 50
	// WebhookSecretOverlap is how long a rotated secret keeps signing beside the new one.
	WebhookSecretOverlap = 24 * time.Hour
	// WebhookFanoutJob turns an outbox event into deliveries; WebhookDeliverJob sends one attempt.
	WebhookFanoutJob  = "webhook_fanout"
	WebhookDeliverJob = "webhook_deliver"
)

// Delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// WebhookEndpointRecord is an endpoint as stored.
type WebhookEndpointRecord struct {
	ID, UserID     int64
	URL            string
	Description    string
	Events         []string
	ListingIDs     []int64
	Secret         string // stored form: encrypted with the server key, or plain without one
	SecretPrefix   string
	PrevSecret     string // the secret before the last rotation, signing until PrevUntil
	PrevUntil      time.Time
	Enabled        bool
	DisabledReason string
	FailingSince   *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
	// OwnerEmail is filled by WebhookDelivery (for the disabling notice).
	OwnerEmail string
}

// WebhookEvent is an outbox row to write with a change.
type WebhookEvent struct {
	MsgID     string
	Type      string
	UserID    int64
	ListingID int64 // 0: not about a listing (a draft not saved yet)
	// EndpointID, when set, sends the event to that endpoint only (webhook.test).
	EndpointID int64
	Payload    []byte // the whole body sent
	CreatedAt  time.Time
}

// WebhookDeliveryRecord is one event to one endpoint, with its attempts.
type WebhookDeliveryRecord struct {
	ID, EndpointID, EventID int64
	MsgID, Type             string
	Payload                 []byte
	State                   string
	Attempts                int
	Manual                  bool
	NextAt                  *time.Time
	CreatedAt               time.Time
	Log                     []WebhookAttempt
}

// WebhookAttempt is one entry of a delivery log.
type WebhookAttempt struct {
	Attempt    int       `json:"attempt"`
	At         time.Time `json:"at"`
	Status     int       `json:"status,omitempty" jsonschema_description:"The receiver's HTTP status; absent when none came."`
	DurationMS int64     `json:"duration_ms"`
	Error      string    `json:"error,omitempty"`
}

// WebhookAttemptResult is what a delivery job records after one attempt.
type WebhookAttemptResult struct {
	DeliveryID int64
	WebhookAttempt
	OK bool
	// RetryAt is when the next attempt is due (nil: none, the delivery ends).
	RetryAt *time.Time
	// NextJob is the job of the next attempt (written with the outcome when RetryAt is set).
	NextJob JobSpec
	// Reason is the disabled_reason set when the endpoint is disabled.
	Reason string
}

// WebhookStore keeps endpoints, the outbox and the delivery log. Methods
// taking userID act only on that account's endpoints and give ENotFound,
// worded as a missing one, for another account's.
type WebhookStore interface {
	// CreateWebhook stores rec for rec.UserID unless the account has max endpoints (EInvalid naming url).
	CreateWebhook(ctx context.Context, rec *WebhookEndpointRecord, max int) error
	Webhooks(ctx context.Context, userID int64) ([]WebhookEndpointRecord, error)
	Webhook(ctx context.Context, userID, id int64) (*WebhookEndpointRecord, error)
	// UpdateWebhook writes rec's url, description, events, listing ids, secrets, enabled and reason.
	UpdateWebhook(ctx context.Context, rec *WebhookEndpointRecord) error
	DeleteWebhook(ctx context.Context, userID, id int64) error
	// NotOwnedListings returns the ids among ids that userID does not own.
	NotOwnedListings(ctx context.Context, userID int64, ids []int64) ([]int64, error)
	// AddWebhookEvents writes events and their fan-out jobs in one transaction
	// (an event for an account without an enabled endpoint is not written).
	AddWebhookEvents(ctx context.Context, events ...WebhookEvent) error
	// FanOutWebhookEvent writes a delivery and its first job for each enabled
	// endpoint the event matches (once: a second run adds none).
	FanOutWebhookEvent(ctx context.Context, eventID int64) (int, error)
	// WebhookDelivery returns a delivery and its endpoint (any account's).
	WebhookDelivery(ctx context.Context, id int64) (*WebhookDeliveryRecord, *WebhookEndpointRecord, error)
	// RecordWebhookAttempt records an attempt if the delivery is still pending
	// at attempt r.Attempt-1 (else recorded is false and nothing changes), with
	// the next attempt's job when r.RetryAt is set. A failed final attempt
	// disables the endpoint when it has not succeeded since the delivery's first attempt.
	RecordWebhookAttempt(ctx context.Context, r WebhookAttemptResult) (recorded, disabled bool, err error)
	// WebhookDeliveries lists an endpoint's deliveries newest first, with their attempts.
	WebhookDeliveries(ctx context.Context, userID, endpointID int64, offset, limit int) ([]WebhookDeliveryRecord, int, error)
	// RedeliverWebhook makes a delivery pending again with one manual attempt due now (job written with it).
	RedeliverWebhook(ctx context.Context, userID, endpointID, deliveryID int64, job func(attempt int) JobSpec) (*WebhookDeliveryRecord, error)
	// PruneWebhookLog deletes deliveries (with their attempts) that are not
	// pending, were created before before and have no attempt since, then
	// events created before before that have no delivery left; it returns
	// how many deliveries and events it deleted.
	PruneWebhookLog(ctx context.Context, before time.Time) (deliveries, events int, err error)
}

// WebhookSender is the adapter that POSTs to receivers (domain/webhooksend):
// only public addresses, no redirects, a timeout and a response size limit.
type WebhookSender interface {
	// CheckHost refuses a host (a name or an IP literal) that is plainly not
	// public; names are judged again at dial time.
	CheckHost(host string) error
	// Send POSTs body with header; status is 0 when no answer came.
	Send(ctx context.Context, url string, header map[string]string, body []byte) (status int, err error)
}

// Webhooking is what the webhook operations and jobs need.
type Webhooking struct {
	// Store keeps the endpoints, the outbox and the deliveries; required.
	Store WebhookStore
	// Sender delivers; required for delivery and for creating endpoints.
	Sender WebhookSender
	// Key is the server key (32 bytes) secrets are encrypted with; nil: stored as they are.
	Key []byte
	// Mailer sends the disabling notice; nil: no mail (the endpoint still says why).
	Mailer Mailer
	// Wake, when set, tells the job runner that jobs were written.
	Wake func()
}

func (s *Service) webhookStore() (WebhookStore, error) {
	if s.Hooks == nil || s.Hooks.Store == nil {
		return nil, Errorf(EInternal, "webhooks are not configured")
	}
	return s.Hooks.Store, nil
}

// callerWebhooks is the start of every webhook operation: the signed-in
// caller and the webhook store.
func (s *Service) callerWebhooks(ctx context.Context) (Caller, WebhookStore, error) {
	return callerWith(ctx, s.webhookStore)
}

// callerWebhook is callerWebhooks and the caller's endpoint id.
func (s *Service) callerWebhook(ctx context.Context, id int64) (Caller, WebhookStore, *WebhookEndpointRecord, error) {
	c, st, err := s.callerWebhooks(ctx)
	if err != nil {
		return Caller{}, nil, nil, err
	}
	rec, err := st.Webhook(ctx, c.UserID, id)
	return c, st, rec, err
}

func (s *Service) wakeHooks() {
	if s.Hooks != nil && s.Hooks.Wake != nil {
		s.Hooks.Wake()
	}
}

// WebhookEndpoint is an endpoint as the account sees it.
type WebhookEndpoint struct {
	ID             int64     `json:"id" jsonschema_description:"The webhook_id."`
	URL            string    `json:"url"`
	Description    string    `json:"description,omitempty"`
	Events         []string  `json:"events"`
	ListingIDs     []int64   `json:"listing_ids" jsonschema_description:"Only events about these listings; empty: all of the account's."`
	Enabled        bool      `json:"enabled"`
	DisabledReason string    `json:"disabled_reason,omitempty" jsonschema_description:"Why it was disabled (repeated failure)."`
	SecretPrefix   string    `json:"secret_prefix"`
	Secret         string    `json:"secret,omitempty" jsonschema_description:"The signing secret, shown only now: store it."`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
}

func webhookView(r *WebhookEndpointRecord) WebhookEndpoint {
	v := WebhookEndpoint{ID: r.ID, URL: r.URL, Description: r.Description, Events: r.Events, ListingIDs: r.ListingIDs,
		Enabled: r.Enabled, DisabledReason: r.DisabledReason, SecretPrefix: r.SecretPrefix, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
	if v.Events == nil {
		v.Events = []string{}
	}
	if v.ListingIDs == nil {
		v.ListingIDs = []int64{}
	}
	return v
}

// CreateWebhookInput is POST /me/webhooks.
type CreateWebhookInput struct {
	URL         string   `json:"url" jsonschema:"minLength=1,maxLength=500" jsonschema_description:"Public http(s) address that receives the POSTs."`
	Events      []string `json:"events" jsonschema:"minItems=1,maxItems=20" jsonschema_description:"Event types such as draft.ready or listing.live (docs/webhooks.md)."`
	ListingIDs  []int64  `json:"listing_ids,omitempty" jsonschema:"maxItems=50" jsonschema_description:"Only these listings of yours; default all."`
	Description string   `json:"description,omitempty" jsonschema:"maxLength=200"`
}

// WebhookIDInput names one of the caller's endpoints.
type WebhookIDInput struct {
	WebhookID int64 `json:"webhook_id" jsonschema:"minimum=1"`
}

// UpdateWebhookInput is PATCH /me/webhooks/{webhook_id}: only what is sent changes.
type UpdateWebhookInput struct {
	WebhookID   int64    `json:"webhook_id" jsonschema:"minimum=1"`
	URL         *string  `json:"url,omitempty" jsonschema:"minLength=1,maxLength=500"`
	Events      []string `json:"events,omitempty" jsonschema:"minItems=1,maxItems=20"`
	ListingIDs  []int64  `json:"listing_ids,omitempty" jsonschema:"maxItems=50" jsonschema_description:"Replaces the list; [] means all listings."`
	Description *string  `json:"description,omitempty" jsonschema:"maxLength=200"`
	Enabled     *bool    `json:"enabled,omitempty" jsonschema_description:"true re-enables a disabled endpoint."`

	sent map[string]json.RawMessage
}

// UnmarshalJSON remembers which keys were sent, so listing_ids [] (all) differs from absent.
func (p *UpdateWebhookInput) UnmarshalJSON(b []byte) error {
	type plain UpdateWebhookInput
	if err := json.Unmarshal(b, (*plain)(p)); err != nil {
		return err
	}
	return json.Unmarshal(b, &p.sent)
}

// ListWebhooksInput has no fields.
type ListWebhooksInput struct{}

// WebhookList is the caller's endpoints.
type WebhookList struct {
	Items []WebhookEndpoint `json:"items"`
}

// WebhookAnswer is one endpoint and what to do next.
type WebhookAnswer struct {
	Webhook WebhookEndpoint `json:"webhook"`
	Next    string          `json:"next"`
}

// checkWebhookURL validates an endpoint's address (field url).
func (s *Service) checkWebhookURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return "", Invalid("url", "format", "url must be an absolute http or https address, e.g. https://example.com/hooks/launchdir.")
	}
	if u.User != nil {
		return "", Invalid("url", "format", "url must not hold a user name or password; authenticate the POST by its webhook-signature.")
	}
	if u.Fragment != "" {
		return "", Invalid("url", "format", "url must not have a #fragment.")
	}
	if len(raw) > 500 {
		return "", Invalid("url", "maxLength", "url is longer than 500 characters.")
	}
	if s.Hooks == nil || s.Hooks.Sender == nil {
		return "", Errorf(EInternal, "webhook delivery is not configured")
	}
	if err := s.Hooks.Sender.CheckHost(u.Hostname()); err != nil {
		return "", Invalid("url", "public_address", "url must be a public address: %v. Webhooks are sent only to public addresses.", err)
	}
	return u.String(), nil
}

// checkWebhookEvents validates events (field events): known, no repeats (dropped).
func checkWebhookEvents(events []string) ([]string, error) {
	var out []string
	for _, e := range events {
		e = strings.TrimSpace(e)
		if !slices.Contains(WebhookEventTypes, e) {
			return nil, Invalid("events", "enum", "events: unknown event type %q; allowed: %s.", e, strings.Join(WebhookEventTypes, ", "))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return nil, Invalid("events", "minItems", "events must name at least one event type: %s.", strings.Join(WebhookEventTypes, ", "))
	}
	return out, nil
}

func (s *Service) checkWebhookListings(ctx context.Context, st WebhookStore, userID int64, ids []int64) ([]int64, error) {
	out := []int64{}
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	if len(out) > MaxWebhookListings {
		return nil, Invalid("listing_ids", "maxItems", "listing_ids holds at most %d listings.", MaxWebhookListings)
	}
	if len(out) == 0 {
		return out, nil
	}
	missing, err := st.NotOwnedListings(ctx, userID, out)
	if err != nil {
		return nil, err
	}
	if len(missing) > 0 {
		return nil, Invalid("listing_ids", "owned", "listing_ids: listing %d is not one of your listings (list_my_listings).", missing[0])
	}
	return out, nil
}

// CreateWebhook registers an endpoint for the caller and returns its secret, once.
func (s *Service) CreateWebhook(ctx context.Context, in CreateWebhookInput) (*WebhookAnswer, error) {
	c, st, err := s.callerWebhooks(ctx)
	if err != nil {
		return nil, err
	}
	u, err := s.checkWebhookURL(in.URL)
	if err != nil {
		return nil, err
	}
	events, err := checkWebhookEvents(in.Events)
	if err != nil {
		return nil, err
	}
	ids, err := s.checkWebhookListings(ctx, st, c.UserID, in.ListingIDs)
	if err != nil {
		return nil, err
	}
	desc := strings.TrimSpace(in.Description)
	if len([]rune(desc)) > 200 {
		return nil, Invalid("description", "maxLength", "description is longer than 200 characters.")
	}
	secret := NewWebhookSecret()
	stored, err := s.sealSecret(secret)
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Second)
	rec := &WebhookEndpointRecord{UserID: c.UserID, URL: u, Description: desc, Events: events, ListingIDs: ids,
		Secret: stored, SecretPrefix: secret[:10], Enabled: true, CreatedAt: now, UpdatedAt: now}
	if err := st.CreateWebhook(ctx, rec, MaxWebhooks); err != nil {
		return nil, err
	}
	v := webhookView(rec)
	v.Secret = secret
	return &WebhookAnswer{Webhook: v, Next: "Store the secret now: it is not shown again. Verify each POST's webhook-signature with it (Standard Webhooks); " +
		"send_test_webhook with webhook_id " + strconv.FormatInt(rec.ID, 10) + " sends a webhook.test event."}, nil
}

// ListWebhooks returns the caller's endpoints.
func (s *Service) ListWebhooks(ctx context.Context, _ ListWebhooksInput) (*WebhookList, error) {
	c, st, err := s.callerWebhooks(ctx)
	if err != nil {
		return nil, err
	}
	recs, err := st.Webhooks(ctx, c.UserID)
	if err != nil {
		return nil, err
	}
	out := &WebhookList{Items: []WebhookEndpoint{}}
	for i := range recs {
		out.Items = append(out.Items, webhookView(&recs[i]))
	}
	return out, nil
}

// UpdateWebhook changes what is sent of one of the caller's endpoints.
func (s *Service) UpdateWebhook(ctx context.Context, in UpdateWebhookInput) (*WebhookAnswer, error) {
	c, st, rec, err := s.callerWebhook(ctx, in.WebhookID)
	if err != nil {
		return nil, err
	}
	if in.URL != nil {
		if rec.URL, err = s.checkWebhookURL(*in.URL); err != nil {
			return nil, err
		}
	}
	if _, sent := in.sent["events"]; sent || in.Events != nil {
		if rec.Events, err = checkWebhookEvents(in.Events); err != nil {
			return nil, err
		}
	}
	if _, sent := in.sent["listing_ids"]; sent || in.ListingIDs != nil {
		if rec.ListingIDs, err = s.checkWebhookListings(ctx, st, c.UserID, in.ListingIDs); err != nil {
			return nil, err
		}
	}
	if in.Description != nil {
		d := strings.TrimSpace(*in.Description)
		if len([]rune(d)) > 200 {
			return nil, Invalid("description", "maxLength", "description is longer than 200 characters.")
		}
		rec.Description = d
	}
	next := "Saved."
	if in.Enabled != nil {
		if *in.Enabled && !rec.Enabled {
			rec.DisabledReason, rec.FailingSince = "", nil
			next = "Enabled again: new events are delivered; redeliver_webhook resends old ones."
		}
		rec.Enabled = *in.Enabled
		if !rec.Enabled && rec.DisabledReason == "" {
			rec.DisabledReason = "disabled by its owner"
		}
	}
	rec.UpdatedAt = s.now().Truncate(time.Second)
	if err := st.UpdateWebhook(ctx, rec); err != nil {
		return nil, err
	}
	return &WebhookAnswer{Webhook: webhookView(rec), Next: next}, nil
}

// DeleteWebhook removes one of the caller's endpoints with its delivery log.
func (s *Service) DeleteWebhook(ctx context.Context, in WebhookIDInput) (*WebhookAnswer, error) {
	c, st, rec, err := s.callerWebhook(ctx, in.WebhookID)
	if err != nil {
		return nil, err
	}
	if err := st.DeleteWebhook(ctx, c.UserID, in.WebhookID); err != nil {
		return nil, err
	}
	return &WebhookAnswer{Webhook: webhookView(rec), Next: "Deleted, with its delivery log; nothing more is sent to " + rec.URL + "."}, nil
}

// RotateWebhookSecret gives an endpoint a new secret, shown once; the old
// one keeps signing beside it for WebhookSecretOverlap.
func (s *Service) RotateWebhookSecret(ctx context.Context, in WebhookIDInput) (*WebhookAnswer, error) {
	_, st, rec, err := s.callerWebhook(ctx, in.WebhookID)
	if err != nil {
		return nil, err
	}
	secret := NewWebhookSecret()
	stored, err := s.sealSecret(secret)
	if err != nil {
		return nil, err
	}
	now := s.now().Truncate(time.Second)
	rec.PrevSecret, rec.PrevUntil = rec.Secret, now.Add(WebhookSecretOverlap)
	rec.Secret, rec.SecretPrefix, rec.UpdatedAt = stored, secret[:10], now
	if err := st.UpdateWebhook(ctx, rec); err != nil {
		return nil, err
	}
	v := webhookView(rec)
	v.Secret = secret
	return &WebhookAnswer{Webhook: v, Next: fmt.Sprintf("Store the new secret now: it is not shown again. Until %s each POST is signed with the old and the new secret (two v1 signatures).",
		rec.PrevUntil.Format(time.RFC3339))}, nil
}
