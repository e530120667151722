package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Webhooks: endpoints, the outbox and the delivery log (migration 0035,
// docs/webhooks.md).

var _ domain.WebhookStore = (*Store)(nil)

const webhookCols = `w.id, w.user_id, w.url, w.description, w.events, w.listing_ids, w.secret, w.secret_prefix, w.prev_secret,
	w.prev_until, w.enabled, w.disabled_reason, w.failing_since, w.created_at, w.updated_at`

func scanWebhook(row interface{ Scan(...any) error }, extra ...any) (*domain.WebhookEndpointRecord, error) {
	var r domain.WebhookEndpointRecord
	var events, ids string
	var prevUntil, created, updated int64
	var enabled int
	var failing sql.NullInt64
	dest := append([]any{&r.ID, &r.UserID, &r.URL, &r.Description, &events, &ids, &r.Secret, &r.SecretPrefix, &r.PrevSecret,
		&prevUntil, &enabled, &r.DisabledReason, &failing, &created, &updated}, extra...)
	if err := row.Scan(dest...); err != nil {
		return nil, err
	}
	_ = json.Unmarshal([]byte(events), &r.Events)
	_ = json.Unmarshal([]byte(ids), &r.ListingIDs)
	r.Enabled, r.FailingSince = enabled == 1, unixTime(failing)
	r.CreatedAt, r.UpdatedAt = time.Unix(created, 0).UTC(), time.Unix(updated, 0).UTC()
	if prevUntil > 0 {
		r.PrevUntil = time.Unix(prevUntil, 0).UTC()
	}
	return &r, nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func nonNilIDs(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

// CreateWebhook implements domain.WebhookStore.
func (s *Store) CreateWebhook(ctx context.Context, rec *domain.WebhookEndpointRecord, max int) error {
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_endpoints WHERE site_id = ? AND user_id = ?`, s.siteID, rec.UserID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return domain.Invalid("url", "max_endpoints", "An account has at most %d webhook endpoints; delete one (delete_webhook) or add events to an existing one.", max)
		}
		return tx.QueryRowContext(ctx, `INSERT INTO webhook_endpoints (site_id, user_id, url, description, events, listing_ids, secret, secret_prefix,
			enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?) RETURNING id`,
			s.siteID, rec.UserID, rec.URL, rec.Description, jsonText(rec.Events), jsonText(nonNilIDs(rec.ListingIDs)), rec.Secret, rec.SecretPrefix,
			rec.CreatedAt.Unix(), rec.UpdatedAt.Unix()).Scan(&rec.ID)
	})
	return mapErr(err, "webhook", "")
}

// Webhooks implements domain.WebhookStore.
func (s *Store) Webhooks(ctx context.Context, userID int64) ([]domain.WebhookEndpointRecord, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+webhookCols+` FROM webhook_endpoints w WHERE w.site_id = ? AND w.user_id = ? ORDER BY w.id`, s.siteID, userID)
	if err != nil {
		return nil, mapErr(err, "webhook", "")
	}
	defer rows.Close()
	var out []domain.WebhookEndpointRecord
	for rows.Next() {
		r, err := scanWebhook(rows)
		if err != nil {
			return nil, mapErr(err, "webhook", "")
		}
		out = append(out, *r)
	}
	return out, mapErr(rows.Err(), "webhook", "")
}

// Webhook implements domain.WebhookStore.
func (s *Store) Webhook(ctx context.Context, userID, id int64) (*domain.WebhookEndpointRecord, error) {
	r, err := scanWebhook(s.db.sql.QueryRowContext(ctx, `SELECT `+webhookCols+` FROM webhook_endpoints w WHERE w.id = ? AND w.site_id = ? AND w.user_id = ?`,
		id, s.siteID, userID))
	return r, mapErr(err, "webhook", strconv.FormatInt(id, 10))
}

// UpdateWebhook implements domain.WebhookStore.
func (s *Store) UpdateWebhook(ctx context.Context, rec *domain.WebhookEndpointRecord) error {
	var prevUntil int64
	if !rec.PrevUntil.IsZero() {
		prevUntil = rec.PrevUntil.Unix()
	}
	res, err := s.db.sql.ExecContext(ctx, `UPDATE webhook_endpoints SET url = ?, description = ?, events = ?, listing_ids = ?, secret = ?, secret_prefix = ?,
		prev_secret = ?, prev_until = ?, enabled = ?, disabled_reason = ?, failing_since = ?, updated_at = ?
		WHERE id = ? AND site_id = ? AND user_id = ?`,
		rec.URL, rec.Description, jsonText(rec.Events), jsonText(nonNilIDs(rec.ListingIDs)), rec.Secret, rec.SecretPrefix,
		rec.PrevSecret, prevUntil, rec.Enabled, rec.DisabledReason, unixOrNil(rec.FailingSince), rec.UpdatedAt.Unix(),
		rec.ID, s.siteID, rec.UserID)
	if err != nil {
		return mapErr(err, "webhook", strconv.FormatInt(rec.ID, 10))
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return domain.NotFound("webhook", strconv.FormatInt(rec.ID, 10))
	}
	return nil
}

// DeleteWebhook implements domain.WebhookStore.
func (s *Store) DeleteWebhook(ctx context.Context, userID, id int64) error {
	err := s.db.inTx(ctx, func(tx *Tx) error {
		// Its deliveries and their attempts go with it (and test events addressed to it).
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ?)`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE endpoint_id = ?`, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_events WHERE endpoint_id = ?`, id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE id = ? AND site_id = ? AND user_id = ?`, id, s.siteID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return domain.NotFound("webhook", strconv.FormatInt(id, 10))
		}
		return nil
	})
	return mapErr(err, "webhook", strconv.FormatInt(id, 10))
}

// NotOwnedListings implements domain.WebhookStore.
func (s *Store) NotOwnedListings(ctx context.Context, userID int64, ids []int64) ([]int64, error) {
	var missing []int64
	for _, id := range ids {
		var one int
		err := s.db.sql.QueryRowContext(ctx, `SELECT 1 FROM listings l WHERE l.id = ? AND l.site_id = ? AND `+s.db.eng.ownedBy(), id, s.siteID, userID, userID).Scan(&one)
		if err == sql.ErrNoRows {
			missing = append(missing, id)
			continue
		}
		if err != nil {
			return nil, mapErr(err, "listing", strconv.FormatInt(id, 10))
		}
	}
	return missing, nil
}

// AddWebhookEvents implements domain.WebhookStore.
func (s *Store) AddWebhookEvents(ctx context.Context, events ...domain.WebhookEvent) error {
	return mapErr(s.db.inTx(ctx, func(tx *Tx) error { return s.addWebhookEventsTx(ctx, tx, events...) }), "webhook event", "")
}

// addWebhookEventsTx writes the outbox rows of events inside tx, the
// transaction of the change they report, each with its fan-out job. An event
// for an account without an enabled endpoint (test events: for a missing
// endpoint) is not written: nobody could receive it.
func (s *Store) addWebhookEventsTx(ctx context.Context, tx *Tx, events ...domain.WebhookEvent) error {
	return s.db.addWebhookEventsTx(ctx, tx, s.siteID, events...)
}

// addWebhookEventsTx is Store.addWebhookEventsTx for any store of site siteID
// (the order store writes order events with it).
func (db *DB) addWebhookEventsTx(ctx context.Context, tx *Tx, siteID int64, events ...domain.WebhookEvent) error {
	for _, ev := range events {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO webhook_events (site_id, msg_id, user_id, type, listing_id, endpoint_id, payload, created_at)
			SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.site_id = ? AND w.user_id = ?
				AND (w.enabled = 1 OR w.id = ?) AND (? = 0 OR w.id = ?))
			RETURNING id`,
			siteID, ev.MsgID, ev.UserID, ev.Type, nullID(ev.ListingID), nullID(ev.EndpointID), string(ev.Payload), ev.CreatedAt.Unix(),
			siteID, ev.UserID, ev.EndpointID, ev.EndpointID, ev.EndpointID).Scan(&id)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return err
		}
		if err := db.enqueueTx(ctx, tx, domain.WebhookFanoutJobSpec(id)); err != nil {
			return err
		}
	}
	return nil
}

// addListingEventsTx writes, inside tx, the event build makes for each owner
// of listing id: its submitter and every co-owner (listing_owners).
func (s *Store) addListingEventsTx(ctx context.Context, tx *Tx, listingID int64, build domain.ListingEventFunc) error {
	return s.db.addListingEventsTx(ctx, tx, s.siteID, listingID, build)
}

// addListingEventsTx is Store.addListingEventsTx for any store of site
// siteID (the go-live shared by the order and week stores writes with it).
func (db *DB) addListingEventsTx(ctx context.Context, tx *Tx, siteID, listingID int64, build domain.ListingEventFunc) error {
	rows, err := tx.QueryContext(ctx, `SELECT l.owner_id FROM listings l WHERE l.id = ? AND l.site_id = ? AND l.owner_id IS NOT NULL
		UNION SELECT lo.user_id FROM listing_owners lo WHERE lo.listing_id = ? ORDER BY 1`, listingID, siteID, listingID)
	if err != nil {
		return err
	}
	var owners []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		owners = append(owners, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range owners {
		if err := db.addWebhookEventsTx(ctx, tx, siteID, build(id)); err != nil {
			return err
		}
	}
	return nil
}

// FanOutWebhookEvent implements domain.WebhookStore.
func (s *Store) FanOutWebhookEvent(ctx context.Context, eventID int64) (int, error) {
	n := 0
	err := s.db.inTx(ctx, func(tx *Tx) error {
		n = 0
		var typ string
		var userID int64
		var listingID, endpointID sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT type, user_id, listing_id, endpoint_id FROM webhook_events WHERE id = ? AND site_id = ?`, eventID, s.siteID).
			Scan(&typ, &userID, &listingID, &endpointID)
		if err == sql.ErrNoRows {
			return nil // its endpoint was deleted
		}
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT w.id, w.events, w.listing_ids, w.enabled FROM webhook_endpoints w WHERE w.site_id = ? AND w.user_id = ? ORDER BY w.id`, s.siteID, userID)
		if err != nil {
			return err
		}
		var targets []int64
		for rows.Next() {
			var id int64
			var events, ids string
			var enabled int
			if err := rows.Scan(&id, &events, &ids, &enabled); err != nil {
				rows.Close()
				return err
			}
			if endpointID.Valid { // a test event: its endpoint only, enabled or not
				if id == endpointID.Int64 {
					targets = append(targets, id)
				}
				continue
			}
			var evs []string
			var lids []int64
			_ = json.Unmarshal([]byte(events), &evs)
			_ = json.Unmarshal([]byte(ids), &lids)
			if enabled == 1 && slices.Contains(evs, typ) && (len(lids) == 0 || listingID.Valid && slices.Contains(lids, listingID.Int64)) {
				targets = append(targets, id)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		now := s.db.Now().Unix()
		for _, ep := range targets {
			var did int64
			err := tx.QueryRowContext(ctx, `INSERT INTO webhook_deliveries (endpoint_id, event_id, next_at, created_at) VALUES (?, ?, ?, ?)
				ON CONFLICT (event_id, endpoint_id) DO NOTHING RETURNING id`, ep, eventID, now, now).Scan(&did)
			if err == sql.ErrNoRows {
				continue // fanned out before
			}
			if err != nil {
				return err
			}
			if err := s.db.enqueueTx(ctx, tx, domain.WebhookDeliverJobSpec(did, 1, time.Time{})); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, mapErr(err, "webhook event", strconv.FormatInt(eventID, 10))
}

const deliveryCols = `d.id, d.endpoint_id, d.event_id, e.msg_id, e.type, e.payload, d.state, d.attempts, d.manual, d.next_at, d.created_at`

func scanDelivery(row interface{ Scan(...any) error }) (*domain.WebhookDeliveryRecord, error) {
	var d domain.WebhookDeliveryRecord
	var payload string
	var manual int
	var next sql.NullInt64
	var created int64
	if err := row.Scan(&d.ID, &d.EndpointID, &d.EventID, &d.MsgID, &d.Type, &payload, &d.State, &d.Attempts, &manual, &next, &created); err != nil {
		return nil, err
	}
	d.Payload, d.Manual, d.NextAt, d.CreatedAt = []byte(payload), manual == 1, unixTime(next), time.Unix(created, 0).UTC()
	return &d, nil
}

// WebhookDelivery implements domain.WebhookStore.
func (s *Store) WebhookDelivery(ctx context.Context, id int64) (*domain.WebhookDeliveryRecord, *domain.WebhookEndpointRecord, error) {
	d, err := scanDelivery(s.db.sql.QueryRowContext(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
		WHERE d.id = ? AND e.site_id = ?`, id, s.siteID))
	if err != nil {
		return nil, nil, mapErr(err, "webhook delivery", strconv.FormatInt(id, 10))
	}
	var email string
	ep, err := scanWebhook(s.db.sql.QueryRowContext(ctx, `SELECT `+webhookCols+`, u.email FROM webhook_endpoints w JOIN users u ON u.id = w.user_id WHERE w.id = ?`, d.EndpointID), &email)
	if err != nil {
		return nil, nil, mapErr(err, "webhook", strconv.FormatInt(d.EndpointID, 10))
	}
	ep.OwnerEmail = email
	return d, ep, nil
}

// RecordWebhookAttempt implements domain.WebhookStore.
func (s *Store) RecordWebhookAttempt(ctx context.Context, r domain.WebhookAttemptResult) (recorded, disabled bool, err error) {
	err = s.db.inTx(ctx, func(tx *Tx) error {
		recorded, disabled = false, false
		state, next := domain.DeliveryPending, unixOrNil(r.RetryAt)
		switch {
		case r.OK:
			state = domain.DeliveryDelivered
		case r.RetryAt == nil:
			state = domain.DeliveryFailed
		}
		res, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET state = ?, attempts = ?, next_at = ? WHERE id = ? AND state = 'pending' AND attempts = ?`,
			state, r.Attempt, next, r.DeliveryID, r.Attempt-1)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // another run of this attempt recorded it
		}
		recorded = true
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, attempt, at, status, duration_ms, error) VALUES (?, ?, ?, ?, ?, ?)`,
			r.DeliveryID, r.Attempt, r.At.Unix(), r.Status, r.DurationMS, clip(r.Error, 500)); err != nil {
			return err
		}
		endpoint := `(SELECT endpoint_id FROM webhook_deliveries WHERE id = ?)`
		if r.OK {
			_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = `+endpoint, r.DeliveryID)
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = ? WHERE failing_since IS NULL AND id = `+endpoint,
			r.At.Unix(), r.DeliveryID); err != nil {
			return err
		}
		if state != domain.DeliveryFailed {
			return s.db.enqueueTx(ctx, tx, r.NextJob)
		}
		// Failed for good: disable the endpoint if it has not succeeded since
		// this delivery's first attempt (it has been failing all along).
		res, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ?
			WHERE enabled = 1 AND id = `+endpoint+` AND failing_since IS NOT NULL
			AND failing_since <= (SELECT MIN(at) FROM webhook_attempts WHERE delivery_id = ?)
			AND (SELECT manual FROM webhook_deliveries WHERE id = ?) = 0
			AND (SELECT COUNT(*) FROM webhook_attempts WHERE delivery_id = ?) >= ?`,
			clip(r.Reason, 500), r.At.Unix(), r.DeliveryID, r.DeliveryID, r.DeliveryID, r.DeliveryID, domain.WebhookMaxAttempts)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		disabled = n > 0
		return nil
	})
	return recorded, disabled, mapErr(err, "webhook delivery", strconv.FormatInt(r.DeliveryID, 10))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !strings.HasSuffix(s, " ") && s[len(s)-1]&0xC0 == 0x80 {
		s = s[:len(s)-1]
	}
	return s
}

// WebhookDeliveries implements domain.WebhookStore.
func (s *Store) WebhookDeliveries(ctx context.Context, userID, endpointID int64, offset, limit int) ([]domain.WebhookDeliveryRecord, int, error) {
	if _, err := s.Webhook(ctx, userID, endpointID); err != nil {
		return nil, 0, err
	}
	var total int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_deliveries WHERE endpoint_id = ?`, endpointID).Scan(&total); err != nil {
		return nil, 0, mapErr(err, "webhook delivery", "")
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
		WHERE d.endpoint_id = ? ORDER BY d.id DESC LIMIT ? OFFSET ?`, endpointID, limit, offset)
	if err != nil {
		return nil, 0, mapErr(err, "webhook delivery", "")
	}
	var out []domain.WebhookDeliveryRecord
	for rows.Next() {
		d, err := scanDelivery(rows)
		if err != nil {
			rows.Close()
			return nil, 0, mapErr(err, "webhook delivery", "")
		}
		out = append(out, *d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, mapErr(err, "webhook delivery", "")
	}
	for i := range out {
		if out[i].Log, err = s.webhookAttempts(ctx, out[i].ID); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

func (s *Store) webhookAttempts(ctx context.Context, deliveryID int64) ([]domain.WebhookAttempt, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT attempt, at, status, duration_ms, error FROM webhook_attempts WHERE delivery_id = ? ORDER BY id`, deliveryID)
	if err != nil {
		return nil, mapErr(err, "webhook delivery", "")
	}
	defer rows.Close()
	out := []domain.WebhookAttempt{}
	for rows.Next() {
		var a domain.WebhookAttempt
		var at int64
		if err := rows.Scan(&a.Attempt, &at, &a.Status, &a.DurationMS, &a.Error); err != nil {
			return nil, mapErr(err, "webhook delivery", "")
		}
		a.At = time.Unix(at, 0).UTC()
		out = append(out, a)
	}
	return out, mapErr(rows.Err(), "webhook delivery", "")
}

// RedeliverWebhook implements domain.WebhookStore.
func (s *Store) RedeliverWebhook(ctx context.Context, userID, endpointID, deliveryID int64, job func(attempt int) domain.JobSpec) (*domain.WebhookDeliveryRecord, error) {
	if _, err := s.Webhook(ctx, userID, endpointID); err != nil {
		return nil, err
	}
	key := strconv.FormatInt(deliveryID, 10)
	var d *domain.WebhookDeliveryRecord
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var err error
		d, err = scanDelivery(tx.QueryRowContext(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
			WHERE d.id = ? AND d.endpoint_id = ?`, deliveryID, endpointID))
		if err == sql.ErrNoRows {
			return domain.NotFound("webhook delivery", key)
		}
		if err != nil {
			return err
		}
		if d.State == domain.DeliveryPending {
			return domain.Errorf(domain.EConflict, "Delivery %d is still pending (attempt %d is queued); wait for its outcome in list_webhook_deliveries.", deliveryID, d.Attempts+1)
		}
		now := s.db.Now().Unix()
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET state = 'pending', manual = 1, next_at = ? WHERE id = ?`, now, deliveryID); err != nil {
			return err
		}
		d.State, d.Manual = domain.DeliveryPending, true
		t := time.Unix(now, 0).UTC()
		d.NextAt = &t
		return s.db.enqueueTx(ctx, tx, job(d.Attempts+1))
	})
	if err != nil {
		return nil, mapErr(err, "webhook delivery", key)
	}
	d.Log, err = s.webhookAttempts(ctx, deliveryID)
	return d, err
}
