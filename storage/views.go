package storage

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"

	"github.com/launchdir/launchdir/domain"
)

var _ domain.ViewRecorder = (*Store)(nil)

// viewKeyDays is how many days' view keys are kept: today's and
// yesterday's (a process whose clock is a little behind still finds its
// day's key). Older keys are deleted, and with them any way to link the
// hashes of those days to a network and user agent.
const viewKeyDays = 2

// RecordView counts a view of the public listing v.Slug once per visitor and
// UTC day (docs/views.md). In one transaction: the keys older than
// viewKeyDays are deleted, the day's random key is read or created (the
// first view of a day creates it; every process and a restart share it),
// and the view is inserted unless the same viewer key already viewed the
// listing. On SQLite the transaction takes the write lock first
// (_txlock=immediate); on PostgreSQL it is serializable and retried (inTx):
// either way concurrent views of one visitor count once.
func (s *Store) RecordView(ctx context.Context, v domain.PageView) (bool, error) {
	now := s.db.Now()
	day := now.Format(domain.DateLayout)
	var counted bool
	err := s.db.inTx(ctx, func(tx *Tx) error {
		var listingID int64
		if err := tx.QueryRowContext(ctx, `SELECT l.id FROM listings l WHERE l.site_id = ? AND l.slug = ? AND `+publicStatus,
			s.siteID, v.Slug).Scan(&listingID); err != nil {
			return mapErr(err, "listing", v.Slug)
		}
		oldest := now.AddDate(0, 0, 1-viewKeyDays).Format(domain.DateLayout)
		if _, err := tx.ExecContext(ctx, `DELETE FROM view_keys WHERE day < ?`, oldest); err != nil {
			return err
		}
		fresh := domain.RandomBytes(32)
		if _, err := tx.ExecContext(ctx, `INSERT INTO view_keys (day, key, created_at) VALUES (?, ?, ?) ON CONFLICT (day) DO NOTHING`,
			day, fresh, now.Unix()); err != nil {
			return err
		}
		var key []byte
		if err := tx.QueryRowContext(ctx, `SELECT key FROM view_keys WHERE day = ?`, day).Scan(&key); err != nil {
			return err
		}
		viewer := viewerKey(key, v.Network, v.UserAgent, day)
		res, err := tx.ExecContext(ctx, `INSERT INTO views (listing_id, viewer_key, created_at)
		SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM views WHERE listing_id = ? AND viewer_key = ?)`,
			listingID, viewer, now.Unix(), listingID, viewer)
		if err != nil {
			return mapErr(err, "view", v.Slug)
		}
		n, err := res.RowsAffected()
		counted = n == 1
		return err
	})
	if err != nil {
		return false, mapErr(err, "view", v.Slug)
	}
	return counted, nil
}

// viewerKey is HMAC-SHA256(key, network, user agent, day) in hex, each part
// length-prefixed so that no two different triples hash the same input.
func viewerKey(key []byte, network, userAgent, day string) string {
	m := hmac.New(sha256.New, key)
	for _, p := range []string{network, userAgent, day} {
		m.Write(binary.BigEndian.AppendUint32(nil, uint32(len(p))))
		m.Write([]byte(p))
	}
	return "v1:" + hex.EncodeToString(m.Sum(nil))
}
