package storage

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// Reviews written by people on the site (docs/reviews.md): one per account
// and listing, held by the rules of votes, answered once by an owner.

// reviewCols are the columns scanReview reads, from reviews r.
const reviewCols = `r.id, r.author_name, r.stars, r.body, r.created_at, r.updated_at, r.answer, r.answered_at`

// scanReview scans reviewCols (and extra) into a Review.
func scanReview(sc interface{ Scan(...any) error }, extra ...any) (domain.Review, error) {
	var rv domain.Review
	var created int64
	var updated, answered sql.NullInt64
	var answer string
	if err := sc.Scan(append([]any{&rv.ID, &rv.Author, &rv.Stars, &rv.Body, &created, &updated, &answer, &answered}, extra...)...); err != nil {
		return rv, err
	}
	rv.CreatedAt = time.Unix(created, 0).UTC()
	rv.UpdatedAt = unixTime(updated)
	if answer != "" && answered.Valid {
		rv.Answer = &domain.Answer{Body: answer, AnsweredAt: *unixTime(answered)}
	}
	return rv, nil
}

// listingReviews returns the community rating (nil without counted reviews)
// and the latest counted reviews of listing id.
func listingReviews(ctx context.Context, q *sqlDB, id int64) (*domain.Rating, domain.ReviewList, error) {
	list := domain.ReviewList{Items: []domain.Review{}}
	var avg sql.NullFloat64
	if err := q.QueryRowContext(ctx, `SELECT AVG(stars), COUNT(*) FROM reviews WHERE listing_id = ? AND status = 'counted'`, id).
		Scan(&avg, &list.Count); err != nil {
		return nil, list, err
	}
	if list.Count == 0 {
		return nil, list, nil
	}
	rating := &domain.Rating{Average: float64(int(avg.Float64*100+0.5)) / 100, Count: list.Count}
	rows, err := q.QueryContext(ctx, `SELECT `+reviewCols+` FROM reviews r WHERE r.listing_id = ? AND r.status = 'counted'
		ORDER BY r.created_at DESC, r.id DESC LIMIT ?`, id, domain.ListingReviews)
	if err != nil {
		return nil, list, err
	}
	defer rows.Close()
	for rows.Next() {
		rv, err := scanReview(rows)
		if err != nil {
			return nil, list, err
		}
		list.Items = append(list.Items, rv)
	}
	return rating, list, rows.Err()
}

// authorName is how a review names its author: the account's name, else
// the part of its email address before the @ (and before a +tag).
func authorName(name, email string) string {
	if n := strings.TrimSpace(name); n != "" {
		return n
	}
	local, _, _ := strings.Cut(email, "@")
	local, _, _ = strings.Cut(local, "+")
	if local == "" {
		return "A member"
	}
	return local
}

// liveListingFor returns the id of the public listing slug and whether
// userID owns it; a listing that is not live yet is a conflict (what).
func (s *Store) liveListingFor(ctx context.Context, tx *Tx, userID int64, slug, what string) (int64, bool, error) {
	var id int64
	var status string
	var owner bool
	err := tx.QueryRowContext(ctx, `SELECT l.id, l.status, `+s.db.eng.ownedBy()+` FROM listings l WHERE l.site_id = ? AND l.slug = ? AND `+publicStatus,
		userID, userID, s.siteID, slug).Scan(&id, &status, &owner)
	if err != nil {
		return 0, false, mapErr(err, "listing", slug)
	}
	if status != "live" {
		return 0, false, domain.Errorf(domain.EConflict, "This listing has not launched yet: %s open on its launch day.", what)
	}
	return id, owner, nil
}

// SaveReview implements domain.ReviewStore.
func (s *Store) SaveReview(ctx context.Context, w domain.ReviewWrite, jobs func(reviewID int64, countAt time.Time) []domain.JobSpec) (*domain.OwnReview, error) {
	return retry(ctx, func() (*domain.OwnReview, error) { return s.saveReview(ctx, w, jobs) })
}

// saveReview is SaveReview's transaction (SaveReview retries it).
func (s *Store) saveReview(ctx context.Context, w domain.ReviewWrite, jobs func(reviewID int64, countAt time.Time) []domain.JobSpec) (*domain.OwnReview, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	listingID, owner, err := s.liveListingFor(ctx, tx, w.UserID, w.Slug, "reviews")
	if err != nil {
		return nil, err
	}
	if owner {
		return nil, domain.Errorf(domain.EForbidden, "You own this listing, so you cannot review it: reviews come from people who are not its owners or founders. You can answer its reviews instead.")
	}
	var userCreated int64
	var name, email string
	if err := tx.QueryRowContext(ctx, `SELECT created_at, name, email FROM users WHERE id = ?`, w.UserID).Scan(&userCreated, &name, &email); err != nil {
		return nil, mapErr(err, "account", "")
	}
	author, at := authorName(name, email), w.At.Unix()
	// An existing review takes the new stars and text and keeps its status.
	var id int64
	var status string
	err = tx.QueryRowContext(ctx, `SELECT id, status FROM reviews WHERE listing_id = ? AND user_id = ?`, listingID, w.UserID).Scan(&id, &status)
	switch {
	case err == nil && (status == domain.ReviewDiscarded || status == domain.ReviewHidden):
		return nil, domain.Errorf(domain.EConflict, "The site team removed your review of this listing, so it cannot be changed.")
	case err == nil:
		if _, err := tx.ExecContext(ctx, `UPDATE reviews SET stars = ?, body = ?, author_name = ?, updated_at = ? WHERE id = ?`,
			w.Stars, w.Body, author, at, id); err != nil {
			return nil, mapErr(err, "review", w.Slug)
		}
		own, err := ownReview(ctx, tx, id)
		if err != nil {
			return nil, err
		}
		return own, mapErr(tx.Commit(), "review", w.Slug)
	case err != sql.ErrNoRows:
		return nil, mapErr(err, "review", w.Slug)
	}
	auditKey, err := voteAuditKey(ctx, tx, w.At)
	if err != nil {
		return nil, mapErr(err, "review", w.Slug)
	}
	ipHash, uaHash := auditHash(auditKey, "network", w.Network), auditHash(auditKey, "user-agent", w.UserAgent)
	var burst []int64
	if w.Burst > 0 && userCreated > w.At.Add(-w.BurstAccountAge).Unix() {
		burst, err = youngBurst(ctx, tx, "reviews", listingID, ipHash, w.At, w.BurstWindow, w.BurstAccountAge,
			`AND x.status IN ('counted', 'held')`)
		if err != nil {
			return nil, mapErr(err, "review", w.Slug)
		}
		if len(burst)+1 < w.Burst {
			burst = nil
		}
	}
	status, reason := domain.ReviewCounted, ""
	var countAt sql.NullInt64
	switch {
	case burst != nil:
		status, reason = domain.ReviewHeld, domain.HeldBurst
	case userCreated > w.At.Add(-w.MinAccountAge).Unix():
		status, reason = domain.ReviewHeld, domain.HeldNewAccount
		countAt = sql.NullInt64{Int64: time.Unix(userCreated, 0).Add(w.MinAccountAge).Unix(), Valid: true}
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO reviews (listing_id, user_id, author_name, stars, body, status, held_reason, count_at, ip_hash, ua_hash, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		listingID, w.UserID, author, w.Stars, w.Body, status, reason, countAt, ipHash, uaHash, at).Scan(&id)
	if err != nil {
		return nil, mapErr(err, "review", w.Slug)
	}
	for _, b := range burst {
		// The earlier reviews of the burst are held too.
		if _, err := tx.ExecContext(ctx, `UPDATE reviews SET status = 'held', held_reason = 'burst', count_at = NULL WHERE id = ?`, b); err != nil {
			return nil, mapErr(err, "review", w.Slug)
		}
	}
	if status == domain.ReviewCounted { // published now: review.posted to the owners' webhooks
		if err := s.reviewPostedTx(ctx, tx, id, w.At); err != nil {
			return nil, mapErr(err, "webhook event", "")
		}
	}
	if countAt.Valid && jobs != nil {
		if err := s.db.enqueueTx(ctx, tx, jobs(id, time.Unix(countAt.Int64, 0).UTC())...); err != nil {
			return nil, err
		}
	}
	own, err := ownReview(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return own, mapErr(tx.Commit(), "review", w.Slug)
}

// youngBurst returns the ids of the rows of table (votes or reviews) for
// listingID from network ipHash within window before at, each by an account
// younger than age at at; where narrows them further (on alias x).
func youngBurst(ctx context.Context, tx *Tx, table string, listingID int64, ipHash string, at time.Time, window, age time.Duration, where string) ([]int64, error) {
	return queryIDs(ctx, tx, `SELECT x.id FROM `+table+` x JOIN users u ON u.id = x.user_id
		WHERE x.listing_id = ? AND x.ip_hash = ? AND x.created_at > ? AND u.created_at > ? `+where,
		listingID, ipHash, at.Add(-window).Unix(), at.Add(-age).Unix())
}

// ownReview reads review id with its status.
func ownReview(ctx context.Context, q queryRower, id int64) (*domain.OwnReview, error) {
	own := &domain.OwnReview{}
	var countAt sql.NullInt64
	rv, err := scanReview(q.QueryRowContext(ctx, `SELECT `+reviewCols+`, r.status, r.held_reason, r.count_at FROM reviews r WHERE r.id = ?`, id),
		&own.Status, &own.Reason, &countAt)
	if err != nil {
		return nil, mapErr(err, "review", "")
	}
	own.Review = rv
	if t := unixTime(countAt); t != nil {
		own.CountAt = *t
	}
	return own, nil
}

// DeleteReview implements domain.ReviewStore.
func (s *Store) DeleteReview(ctx context.Context, userID int64, slug string) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.deleteReview(ctx, userID, slug) })
	return err
}

// deleteReview is DeleteReview's transaction (DeleteReview retries it).
func (s *Store) deleteReview(ctx context.Context, userID int64, slug string) error {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	id, err := s.publicListingID(ctx, tx, slug)
	if err != nil {
		return err
	}
	var status string
	err = tx.QueryRowContext(ctx, `SELECT status FROM reviews WHERE listing_id = ? AND user_id = ?`, id, userID).Scan(&status)
	if err == sql.ErrNoRows {
		return nil // nothing to delete
	}
	if err != nil {
		return mapErr(err, "review", slug)
	}
	if status == domain.ReviewDiscarded || status == domain.ReviewHidden {
		return domain.Errorf(domain.EConflict, "The site team removed your review of this listing, so it cannot be changed.")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM reviews WHERE listing_id = ? AND user_id = ?`, id, userID); err != nil {
		return mapErr(err, "review", slug)
	}
	return mapErr(tx.Commit(), "review", slug)
}

// AnswerReview implements domain.ReviewStore.
func (s *Store) AnswerReview(ctx context.Context, userID int64, slug string, reviewID int64, answer string, at time.Time) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.answerReview(ctx, userID, slug, reviewID, answer, at) })
	return err
}

// answerReview is AnswerReview's transaction (AnswerReview retries it).
func (s *Store) answerReview(ctx context.Context, userID int64, slug string, reviewID int64, answer string, at time.Time) error {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	listingID, owner, err := s.liveListingFor(ctx, tx, userID, slug, "reviews")
	if err != nil {
		return err
	}
	if !owner {
		return domain.Errorf(domain.EForbidden, "Only the owners of this listing can answer its reviews.")
	}
	var prev string
	err = tx.QueryRowContext(ctx, `SELECT answer FROM reviews WHERE id = ? AND listing_id = ? AND status = 'counted'`, reviewID, listingID).Scan(&prev)
	if err == sql.ErrNoRows {
		return domain.Errorf(domain.ENotFound, "This listing has no such review to answer.")
	}
	if err != nil {
		return mapErr(err, "review", slug)
	}
	if prev != "" {
		return domain.Errorf(domain.EConflict, "This review has an answer already: a review is answered once.")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE reviews SET answer = ?, answered_by = ?, answered_at = ? WHERE id = ?`,
		answer, userID, at.Unix(), reviewID); err != nil {
		return mapErr(err, "review", slug)
	}
	return mapErr(tx.Commit(), "review", slug)
}

// CountDueReview implements domain.ReviewStore. The review is published
// then, so review.posted is written in the same transaction.
func (s *Store) CountDueReview(ctx context.Context, reviewID int64, at time.Time) (bool, error) {
	var counted bool
	err := s.db.inTx(ctx, func(tx *Tx) error {
		counted = false
		res, err := tx.ExecContext(ctx, `UPDATE reviews SET status = 'counted', held_reason = '', count_at = NULL
			WHERE id = ? AND status = 'held' AND held_reason = 'new_account' AND count_at <= ?
			AND listing_id IN (SELECT id FROM listings WHERE site_id = ?)`, reviewID, at.Unix(), s.siteID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil || n != 1 {
			return err
		}
		counted = true
		return s.reviewPostedTx(ctx, tx, reviewID, at)
	})
	return counted, mapErr(err, "review", "")
}

// reviewPostedTx writes review.posted of review id, published at at, for
// every owner of its listing, inside tx.
func (s *Store) reviewPostedTx(ctx context.Context, tx *Tx, id int64, at time.Time) error {
	var listingID int64
	var slug string
	var stars int
	if err := tx.QueryRowContext(ctx, `SELECT r.listing_id, l.slug, r.stars FROM reviews r JOIN listings l ON l.id = r.listing_id WHERE r.id = ?`, id).
		Scan(&listingID, &slug, &stars); err != nil {
		return err
	}
	return s.addListingEventsTx(ctx, tx, listingID, domain.ReviewPostedEvent(id, listingID, slug, stars, at))
}

// ReviewerOf implements domain.ReviewStore.
func (s *Store) ReviewerOf(ctx context.Context, userID int64, slug string) (*domain.Reviewer, error) {
	var listingID int64
	rv := &domain.Reviewer{}
	err := s.db.sql.QueryRowContext(ctx, `SELECT l.id, `+s.db.eng.ownedBy()+` FROM listings l WHERE l.site_id = ? AND l.slug = ? AND `+publicStatus,
		userID, userID, s.siteID, slug).Scan(&listingID, &rv.Owner)
	if err != nil {
		return nil, mapErr(err, "listing", slug)
	}
	var id int64
	err = s.db.sql.QueryRowContext(ctx, `SELECT id FROM reviews WHERE listing_id = ? AND user_id = ?`, listingID, userID).Scan(&id)
	if err == sql.ErrNoRows {
		return rv, nil
	}
	if err != nil {
		return nil, mapErr(err, "review", slug)
	}
	rv.Own, err = ownReview(ctx, s.db.sql, id)
	return rv, err
}
