package storage

import (
	"context"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// ListingUpdates implements domain.FeedStore.
func (s *Store) ListingUpdates(ctx context.Context, slug string, limit int) ([]domain.PublicUpdate, error) {
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+summaryCols+`, u.id, u.title, u.body, u.posted_at
		FROM listing_updates u JOIN listings l ON l.id = u.listing_id`+summaryJoins+`
		WHERE l.site_id = ? AND l.slug = ? AND `+publicStatus+` ORDER BY u.posted_at DESC, u.id DESC LIMIT ?`,
		s.siteID, slug, limit)
	if err != nil {
		return nil, mapErr(err, "update", "")
	}
	defer rows.Close()
	out := []domain.PublicUpdate{}
	for rows.Next() {
		var r summaryRow
		var u domain.PublicUpdate
		var at int64
		if err := rows.Scan(r.dest(&u.ID, &u.Title, &u.Body, &at)...); err != nil {
			return nil, mapErr(err, "update", "")
		}
		u.Listing, u.PostedAt = s.summary(&r), time.Unix(at, 0).UTC()
		out = append(out, u)
	}
	return out, mapErr(rows.Err(), "update", "")
}
