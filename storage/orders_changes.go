package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// ---- Changes of a pending order ----

// pendingOrder checks, inside tx, that order orderID of this site is pending:
// not_found when there is none, conflict naming what cannot be done otherwise.
func (s *OrderStore) pendingOrder(ctx context.Context, tx *Tx, orderID int64, doing string) (string, error) {
	var number, status string
	err := tx.QueryRowContext(ctx, `SELECT number, status FROM orders WHERE id = ? AND site_id = ?`, orderID, s.siteID).
		Scan(&number, &status)
	if err != nil {
		return "", mapErr(err, "order", strconv.FormatInt(orderID, 10))
	}
	switch status {
	case domain.OrderPending:
		return number, nil
	case domain.OrderCanceled:
		return "", domain.Errorf(domain.EConflict, "Order %s is canceled, so %s is not possible; make a new order instead.", number, doing)
	default:
		return "", domain.Errorf(domain.EConflict, "Order %s is %s already, so %s is not possible.", number, status, doing)
	}
}

// SaveBilling stores billing details with the VAT they give on a pending
// order: the order's VAT and totals, and each line's VAT and total (lines are
// matched by Index; prices fixed at creation are not changed).
func (s *OrderStore) SaveBilling(ctx context.Context, orderID int64, b domain.Billing, vat domain.VAT, lines []domain.OrderLine, subtotal, total int64) error {
	_, err := retry(ctx, func() (struct{}, error) {
		return struct{}{}, s.saveBilling(ctx, orderID, b, vat, lines, subtotal, total)
	})
	return err
}

// saveBilling is SaveBilling's transaction (SaveBilling retries it).
func (s *OrderStore) saveBilling(ctx context.Context, orderID int64, b domain.Billing, vat domain.VAT, lines []domain.OrderLine, subtotal, total int64) error {
	bj, err := billingJSON(&b)
	if err != nil {
		return err
	}
	vj, err := json.Marshal(vat)
	if err != nil {
		return fmt.Errorf("storage: order vat: %w", err)
	}
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err, "order", "")
	}
	defer tx.Rollback()
	number, err := s.pendingOrder(ctx, tx, orderID, "changing its billing details")
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET billing = ?, vat = ?, vat_cents = ?, subtotal_cents = ?,
		total_cents = ? WHERE id = ?`, bj, string(vj), vat.Cents, subtotal, total, orderID); err != nil {
		return mapErr(err, "order", number)
	}
	for _, l := range lines {
		res, err := tx.ExecContext(ctx, `UPDATE order_lines SET vat_cents = ?, total_cents = ? WHERE order_id = ? AND idx = ?`,
			l.VATCents, l.TotalCents, orderID, l.Index)
		if err != nil {
			return mapErr(err, "order line", number)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("storage: save billing of order %s: it has no line %d", number, l.Index)
		}
	}
	return mapErr(tx.Commit(), "order", number)
}

// BeginPayment records the provider and its reference on a pending order.
func (s *OrderStore) BeginPayment(ctx context.Context, orderID int64, provider, ref string) error {
	return s.changePending(ctx, orderID, "starting a payment",
		`UPDATE orders SET provider = ?, provider_ref = ? WHERE id = ?`, provider, ref, orderID)
}

// CancelOrder cancels a pending order.
func (s *OrderStore) CancelOrder(ctx context.Context, orderID int64, at time.Time) error {
	return s.changePending(ctx, orderID, "canceling it",
		`UPDATE orders SET status = 'canceled', canceled_at = ? WHERE id = ?`, at.Unix(), orderID)
}

// changePending runs one UPDATE on a pending order, in the transaction that checks it is pending.
func (s *OrderStore) changePending(ctx context.Context, orderID int64, doing, query string, args ...any) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.changePendingOnce(ctx, orderID, doing, query, args...) })
	return err
}

// changePendingOnce is changePending's transaction (changePending retries it).
func (s *OrderStore) changePendingOnce(ctx context.Context, orderID int64, doing, query string, args ...any) error {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err, "order", "")
	}
	defer tx.Rollback()
	number, err := s.pendingOrder(ctx, tx, orderID, doing)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, query, args...); err != nil {
		return mapErr(err, "order", number)
	}
	return mapErr(tx.Commit(), "order", number)
}

// MarkPaid records ev and marks the order paid, in one transaction. It gives
// false and changes nothing when ev was recorded before (a replayed webhook)
// or the order is paid already (a second event for it): the event row is kept
// only when it changed the order.
//
// A canceled order is paid too: the provider took the money (the person paid
// in a tab opened before canceling), so the payment is accepted and fulfilled
// rather than lost. So is a pending order past its expiry, for the same reason.
func (s *OrderStore) MarkPaid(ctx context.Context, orderID int64, ev domain.PaymentEvent, at time.Time, jobs ...domain.JobSpec) (bool, error) {
	return retry(ctx, func() (bool, error) { return s.markPaid(ctx, orderID, ev, at, jobs...) })
}

// markPaid is MarkPaid in one transaction (retried by MarkPaid).
func (s *OrderStore) markPaid(ctx context.Context, orderID int64, ev domain.PaymentEvent, at time.Time, jobs ...domain.JobSpec) (bool, error) {
	if ev.Provider == "" || ev.EventID == "" {
		return false, fmt.Errorf("storage: mark order %d paid: the event needs its provider and event id", orderID)
	}
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return false, mapErr(err, "order", "")
	}
	defer tx.Rollback()
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM orders WHERE id = ? AND site_id = ?`, orderID, s.siteID).
		Scan(&one); err != nil {
		return false, mapErr(err, "order", strconv.FormatInt(orderID, 10))
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO payment_events (provider, event_id, order_id, ref, amount_cents,
		currency, test_mode, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (provider, event_id) DO NOTHING`,
		ev.Provider, ev.EventID, orderID, ev.Ref, ev.AmountCents, ev.Currency, ev.TestMode, at.Unix())
	if err != nil {
		return false, mapErr(err, "payment event", ev.EventID)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil // replayed
	}
	res, err = tx.ExecContext(ctx, `UPDATE orders SET status = 'paid', paid_at = ?, provider = ?,
		provider_ref = CASE WHEN ? = '' THEN provider_ref ELSE ? END, test_mode = ?
		WHERE id = ? AND status IN ('pending', 'canceled')`, at.Unix(), ev.Provider, ev.Ref, ev.Ref, ev.TestMode, orderID)
	if err != nil {
		return false, mapErr(err, "order", "")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil // paid already: the rollback drops the event row
	}
	if err := s.addOrderPaidEventTx(ctx, tx, orderID, at); err != nil {
		return false, mapErr(err, "webhook event", "")
	}
	if err := s.db.enqueueTx(ctx, tx, jobs...); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, mapErr(err, "order", "")
	}
	return true, nil
}

// ---- Fulfilment ----

// WorkItems lists one page of the site's work items, open ones first, then
// newest first, and their count; limit <= 0 means all.
func (s *OrderStore) WorkItems(ctx context.Context, offset, limit int) ([]domain.WorkItem, int, error) {
	var total int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT COUNT(*) FROM work_items WHERE site_id = ?`, s.siteID).
		Scan(&total); err != nil {
		return nil, 0, mapErr(err, "work item", "")
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT id, kind, COALESCE(listing_id, 0), order_number, details, status,
		created_at, done_at FROM work_items WHERE site_id = ?
		ORDER BY status = 'open' DESC, created_at DESC, id DESC LIMIT ? OFFSET ?`, s.siteID, s.db.eng.limit(limit), max(offset, 0))
	if err != nil {
		return nil, 0, mapErr(err, "work item", "")
	}
	defer rows.Close()
	out := []domain.WorkItem{}
	for rows.Next() {
		var w domain.WorkItem
		var details string
		var created int64
		var done sql.NullInt64
		if err := rows.Scan(&w.ID, &w.Kind, &w.ListingID, &w.OrderNumber, &details, &w.Status, &created, &done); err != nil {
			return nil, 0, mapErr(err, "work item", "")
		}
		if !emptyJSON(details) {
			if err := decodeJSON(details, &w.Details, fmt.Sprintf("work item %d details", w.ID)); err != nil {
				return nil, 0, err
			}
		}
		w.CreatedAt, w.DoneAt = time.Unix(created, 0).UTC(), unixTime(done)
		out = append(out, w)
	}
	return out, total, mapErr(rows.Err(), "work item", "")
}

// FinishWorkItem marks work item id done at at; finishing it again changes nothing.
func (s *OrderStore) FinishWorkItem(ctx context.Context, id int64, at time.Time) error {
	key := strconv.FormatInt(id, 10)
	res, err := s.db.sql.ExecContext(ctx, `UPDATE work_items SET status = 'done', done_at = ?
		WHERE id = ? AND site_id = ? AND status = 'open'`, at.Unix(), id, s.siteID)
	if err != nil {
		return mapErr(err, "work item", key)
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return nil
	}
	var status string
	err = s.db.sql.QueryRowContext(ctx, `SELECT status FROM work_items WHERE id = ? AND site_id = ?`, id, s.siteID).Scan(&status)
	return mapErr(err, "work item", key)
}
