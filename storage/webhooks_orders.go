package storage

import (
	"context"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Order events (docs/webhooks.md): order.paid is written in the transaction
// that marks the order paid, order.fulfilled in the one that fulfils its last
// line; both go to the account that made the order.

// orderLineFacts reads order orderID's lines for its events.
func orderLineFacts(ctx context.Context, tx *Tx, orderID int64) ([]domain.OrderLineFact, error) {
	rows, err := tx.QueryContext(ctx, `SELECT product, COALESCE(listing_id, 0), COALESCE(outcome, '') FROM order_lines WHERE order_id = ? ORDER BY idx`, orderID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []domain.OrderLineFact
	for rows.Next() {
		var l domain.OrderLineFact
		if err := rows.Scan(&l.Product, &l.ListingID, &l.Outcome); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// addOrderPaidEventTx writes order.paid of order orderID, paid at at, inside tx.
func (s *OrderStore) addOrderPaidEventTx(ctx context.Context, tx *Tx, orderID int64, at time.Time) error {
	var userID, total int64
	var number, currency string
	var test bool
	if err := tx.QueryRowContext(ctx, `SELECT user_id, number, total_cents, currency, test_mode FROM orders WHERE id = ?`, orderID).
		Scan(&userID, &number, &total, &currency, &test); err != nil {
		return err
	}
	lines, err := orderLineFacts(ctx, tx, orderID)
	if err != nil {
		return err
	}
	for i := range lines {
		lines[i].Outcome = ""
	}
	return s.db.addWebhookEventsTx(ctx, tx, s.siteID, domain.OrderPaidEvent(userID, number, total, currency, test, lines, at))
}

// addOrderFulfilledEventTx writes order.fulfilled of order orderID inside tx
// when none of its lines is left unfulfilled.
func (s *OrderStore) addOrderFulfilledEventTx(ctx context.Context, tx *Tx, orderID int64, at time.Time) error {
	var open int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM order_lines WHERE order_id = ? AND fulfilled_at IS NULL`, orderID).Scan(&open); err != nil {
		return err
	}
	if open > 0 {
		return nil
	}
	var userID int64
	var number string
	if err := tx.QueryRowContext(ctx, `SELECT user_id, number FROM orders WHERE id = ?`, orderID).Scan(&userID, &number); err != nil {
		return err
	}
	lines, err := orderLineFacts(ctx, tx, orderID)
	if err != nil {
		return err
	}
	return s.db.addWebhookEventsTx(ctx, tx, s.siteID, domain.OrderFulfilledEvent(userID, number, lines, at))
}
