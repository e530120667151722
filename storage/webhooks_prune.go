package storage

import (
	"context"
	"time"
)

// PruneWebhookLog implements domain.WebhookStore.
func (s *Store) PruneWebhookLog(ctx context.Context, before time.Time) (deliveries, events int, err error) {
	cut := before.Unix()
	err = s.db.inTx(ctx, func(tx *Tx) error {
		old := `SELECT d.id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
			WHERE e.site_id = ? AND d.state <> 'pending' AND d.created_at < ?
			AND NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = d.id AND a.at >= ?)`
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_attempts WHERE delivery_id IN (`+old+`)`, s.siteID, cut, cut); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM webhook_deliveries WHERE id IN (`+old+`)`, s.siteID, cut, cut)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		deliveries = int(n)
		res, err = tx.ExecContext(ctx, `DELETE FROM webhook_events WHERE site_id = ? AND created_at < ?
			AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`, s.siteID, cut)
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		events = int(n)
		return nil
	})
	return deliveries, events, mapErr(err, "webhook delivery", "")
}
