package storage

import (
	"context"
	"database/sql"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// LatestUpdates implements domain.OwnerNewsStore.
func (s *Store) LatestUpdates(ctx context.Context, offset, limit int) ([]domain.PublicUpdate, int, error) {
	var total int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT count(*) FROM listing_updates u JOIN listings l ON l.id = u.listing_id
		WHERE l.site_id = ? AND `+publicStatus, s.siteID).Scan(&total); err != nil {
		return nil, 0, mapErr(err, "update", "")
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+summaryCols+`, u.id, u.title, u.body, u.posted_at
		FROM listing_updates u JOIN listings l ON l.id = u.listing_id`+summaryJoins+`
		WHERE l.site_id = ? AND `+publicStatus+` ORDER BY u.posted_at DESC, u.id DESC LIMIT ? OFFSET ?`,
		s.siteID, limit, offset)
	if err != nil {
		return nil, 0, mapErr(err, "update", "")
	}
	defer rows.Close()
	out := []domain.PublicUpdate{}
	for rows.Next() {
		var r summaryRow
		var u domain.PublicUpdate
		var at int64
		if err := rows.Scan(r.dest(&u.ID, &u.Title, &u.Body, &at)...); err != nil {
			return nil, 0, mapErr(err, "update", "")
		}
		u.Listing, u.PostedAt = s.summary(&r), time.Unix(at, 0).UTC()
		out = append(out, u)
	}
	return out, total, mapErr(rows.Err(), "update", "")
}

// publicListingID returns the id of the public listing slug of this site.
func (s *Store) publicListingID(ctx context.Context, q queryRower, slug string) (int64, error) {
	var id int64
	err := q.QueryRowContext(ctx, `SELECT l.id FROM listings l WHERE l.site_id = ? AND l.slug = ? AND `+publicStatus,
		s.siteID, slug).Scan(&id)
	return id, mapErr(err, "listing", slug)
}

// SetFollow implements domain.OwnerNewsStore.
func (s *Store) SetFollow(ctx context.Context, userID int64, slug string, follow bool, at time.Time) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.setFollow(ctx, userID, slug, follow, at) })
	return err
}

// setFollow is SetFollow's transaction (SetFollow retries it).
func (s *Store) setFollow(ctx context.Context, userID int64, slug string, follow bool, at time.Time) error {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	id, err := s.publicListingID(ctx, tx, slug)
	if err != nil {
		return err
	}
	key := domain.FollowerKey(userID)
	if follow {
		_, err = tx.ExecContext(ctx, `INSERT INTO follows (listing_id, follower_key, created_at) VALUES (?, ?, ?)
			ON CONFLICT DO NOTHING`, id, key, at.Unix())
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM follows WHERE listing_id = ? AND follower_key = ?`, id, key)
	}
	if err != nil {
		return mapErr(err, "follow", slug)
	}
	return tx.Commit()
}

// Following implements domain.OwnerNewsStore.
func (s *Store) Following(ctx context.Context, userID int64, slug string) (bool, error) {
	var n int
	err := s.db.sql.QueryRowContext(ctx, `SELECT count(*) FROM follows f JOIN listings l ON l.id = f.listing_id
		WHERE l.site_id = ? AND l.slug = ? AND f.follower_key = ?`, s.siteID, slug, domain.FollowerKey(userID)).Scan(&n)
	return n > 0, mapErr(err, "follow", slug)
}

// FanOutUpdate implements domain.OwnerNewsStore.
func (s *Store) FanOutUpdate(ctx context.Context, updateID int64, at time.Time) (*domain.UpdateNews, []domain.UpdateRecipient, error) {
	var r1 []domain.UpdateRecipient
	first, err := retry(ctx, func() (*domain.UpdateNews, error) {
		var first *domain.UpdateNews
		var err error
		first, r1, err = s.fanOutUpdate(ctx, updateID, at)
		return first, err
	})
	return first, r1, err
}

// fanOutUpdate is FanOutUpdate's transaction (FanOutUpdate retries it).
func (s *Store) fanOutUpdate(ctx context.Context, updateID int64, at time.Time) (*domain.UpdateNews, []domain.UpdateRecipient, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	var n domain.UpdateNews
	var listingID, posted int64
	var author sql.NullInt64
	var public bool
	err = tx.QueryRowContext(ctx, `SELECT l.id, l.slug, l.name, u.title, u.body, u.posted_at, u.author_id, `+publicStatus+`
		FROM listing_updates u JOIN listings l ON l.id = u.listing_id WHERE u.id = ? AND l.site_id = ?`, updateID, s.siteID).
		Scan(&listingID, &n.ListingSlug, &n.ListingName, &n.Title, &n.Body, &posted, &author, &public)
	if err != nil {
		return nil, nil, mapErr(err, "update", "")
	}
	if public {
		if _, err := tx.ExecContext(ctx, `INSERT INTO notifications (user_id, listing_id, update_id, created_at)
			SELECT u.id, ?, ?, ? `+userFollowers+` ON CONFLICT (update_id, user_id) DO NOTHING`,
			listingID, updateID, at.Unix(), listingID, posted, author.Int64); err != nil {
			return nil, nil, mapErr(err, "notification", "")
		}
	}
	rows, err := tx.QueryContext(ctx, `SELECT n.id, u.email FROM notifications n JOIN users u ON u.id = n.user_id
		WHERE n.update_id = ? AND n.mailed_at IS NULL ORDER BY n.id`, updateID)
	if err != nil {
		return nil, nil, mapErr(err, "notification", "")
	}
	var to []domain.UpdateRecipient
	for rows.Next() {
		var r domain.UpdateRecipient
		if err := rows.Scan(&r.NotificationID, &r.Email); err != nil {
			rows.Close()
			return nil, nil, mapErr(err, "notification", "")
		}
		to = append(to, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	return &n, to, tx.Commit()
}

// ClaimMail implements domain.OwnerNewsStore.
func (s *Store) ClaimMail(ctx context.Context, notificationID int64, at time.Time) (bool, error) {
	res, err := s.db.sql.ExecContext(ctx, `UPDATE notifications SET mailed_at = ? WHERE id = ? AND mailed_at IS NULL`,
		at.Unix(), notificationID)
	if err != nil {
		return false, mapErr(err, "notification", "")
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReleaseMail implements domain.OwnerNewsStore.
func (s *Store) ReleaseMail(ctx context.Context, notificationID int64) error {
	_, err := s.db.sql.ExecContext(ctx, `UPDATE notifications SET mailed_at = NULL WHERE id = ?`, notificationID)
	return mapErr(err, "notification", "")
}

// Notifications implements domain.OwnerNewsStore. Only this site's listings count.
func (s *Store) Notifications(ctx context.Context, userID int64, offset, limit int) ([]domain.Notification, int, int, error) {
	var total, unread int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE n.read_at IS NULL)
		FROM notifications n JOIN listings l ON l.id = n.listing_id WHERE n.user_id = ? AND l.site_id = ?`,
		userID, s.siteID).Scan(&total, &unread); err != nil {
		return nil, 0, 0, mapErr(err, "notification", "")
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT n.id, l.slug, l.name, COALESCE(u.id, 0), COALESCE(u.title, ''), COALESCE(u.body, ''),
			COALESCE(u.posted_at, n.created_at) AS at, n.read_at IS NOT NULL, COALESCE(a.rank, 0), COALESCE(a.week, ''), COALESCE(a.votes, 0),
			COALESCE(pp.slug, ''), COALESCE(pp.name, ''), COALESCE(pw.category, ''), COALESCE(pw.rank, 0), COALESCE(pw.votes, 0)
		FROM notifications n JOIN listings l ON l.id = n.listing_id
		LEFT JOIN listing_updates u ON u.id = n.update_id LEFT JOIN awards a ON a.id = n.award_id
		LEFT JOIN programme_winners pw ON pw.id = n.programme_win_id LEFT JOIN programmes pp ON pp.id = pw.programme_id
		WHERE n.user_id = ? AND l.site_id = ? ORDER BY at DESC, n.id DESC LIMIT ? OFFSET ?`,
		userID, s.siteID, limit, offset)
	if err != nil {
		return nil, 0, 0, mapErr(err, "notification", "")
	}
	defer rows.Close()
	out := []domain.Notification{}
	for rows.Next() {
		var v domain.Notification
		var at int64
		if err := rows.Scan(&v.ID, &v.ListingSlug, &v.ListingName, &v.UpdateID, &v.Title, &v.Body, &at, &v.Read,
			&v.AwardRank, &v.AwardWeek, &v.AwardVotes, &v.ProgrammeSlug, &v.ProgrammeName, &v.ProgrammeCategory, &v.ProgrammeRank, &v.ProgrammeVotes); err != nil {
			return nil, 0, 0, mapErr(err, "notification", "")
		}
		v.PostedAt = time.Unix(at, 0).UTC()
		out = append(out, v)
	}
	return out, total, unread, mapErr(rows.Err(), "notification", "")
}

// MarkNotificationsRead implements domain.OwnerNewsStore.
func (s *Store) MarkNotificationsRead(ctx context.Context, userID int64, at time.Time) error {
	_, err := s.db.sql.ExecContext(ctx, `UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL
		AND listing_id IN (SELECT id FROM listings WHERE site_id = ?)`, at.Unix(), userID, s.siteID)
	return mapErr(err, "notification", "")
}
