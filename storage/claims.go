package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/launchdir/launchdir/domain"
)

var _ domain.ClaimStore = (*Store)(nil)

// claimCols are the columns of a domain.ClaimRecord, read by scanClaim from
// claims c joined with its listing l and the claimant u.
const claimCols = `c.id, c.listing_id, c.user_id, c.method, c.status, c.token, c.email, u.email, c.mailed_at,
	c.domain, c.home_url, c.last_check_at, c.last_check, c.created_at, c.expires_at, c.verified_at,
	l.slug, l.name, l.status, l.url, l.domain`

const claimFrom = ` FROM claims c JOIN listings l ON l.id = c.listing_id JOIN users u ON u.id = c.user_id`

func scanClaim(row interface{ Scan(...any) error }) (*domain.ClaimRecord, error) {
	var r domain.ClaimRecord
	var mailed, checked, verified sql.NullInt64
	var created, expires int64
	var check string
	if err := row.Scan(&r.ID, &r.ListingID, &r.UserID, &r.Method, &r.Status, &r.Token, &r.Email, &r.ClaimantEmail, &mailed,
		&r.Domain, &r.HomeURL, &checked, &check, &created, &expires, &verified,
		&r.Slug, &r.ListingName, &r.ListingStatus, &r.ListingURL, &r.ListingDomain); err != nil {
		return nil, err
	}
	r.MailedAt, r.VerifiedAt = unixPtr(mailed), unixPtr(verified)
	r.LastCheck = lastClaimCheck(checked, check)
	r.CreatedAt, r.ExpiresAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
	return &r, nil
}

// lastClaimCheck reads claims.last_check: the JSON of a domain.ClaimCheck,
// or (written before it was JSON) the message alone; nil when empty.
func lastClaimCheck(at sql.NullInt64, stored string) *domain.ClaimCheck {
	if stored == "" || !at.Valid {
		return nil
	}
	var c domain.ClaimCheck
	if json.Unmarshal([]byte(stored), &c) != nil || c.Message == "" {
		c = domain.ClaimCheck{Message: stored}
	}
	c.CheckedAt = time.Unix(at.Int64, 0).UTC()
	if c.Seen.Values == nil {
		c.Seen.Values = []string{}
	}
	return &c
}

func unixPtr(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.Unix(v.Int64, 0).UTC()
	return &t
}

// ClaimTarget implements domain.ClaimStore.
func (s *Store) ClaimTarget(ctx context.Context, userID int64, slug string) (*domain.ClaimableListing, error) {
	var l domain.ClaimableListing
	err := s.db.sql.QueryRowContext(ctx, `SELECT l.id, l.slug, l.name, l.status, l.url, l.domain, `+s.db.eng.ownedBy()+`
		FROM listings l WHERE l.site_id = ? AND l.slug = ? AND `+publicStatus,
		userID, userID, s.siteID, slug).Scan(&l.ID, &l.Slug, &l.Name, &l.Status, &l.URL, &l.Domain, &l.CallerOwns)
	if err == sql.ErrNoRows {
		return nil, domain.Errorf(domain.ENotFound, "No public listing %q exists: only scheduled and live listings can be claimed (search_listings finds them).", slug)
	}
	if err != nil {
		return nil, mapErr(err, "listing", slug)
	}
	p, err := scanClaim(s.db.sql.QueryRowContext(ctx, `SELECT `+claimCols+claimFrom+`
		WHERE c.listing_id = ? AND c.user_id = ? AND c.status = 'pending'`, l.ID, userID))
	switch {
	case err == nil:
		l.CallerPending = p
	case err != sql.ErrNoRows:
		return nil, mapErr(err, "claim", slug)
	}
	return &l, nil
}

// CreateClaim implements domain.ClaimStore.
func (s *Store) CreateClaim(ctx context.Context, rec *domain.ClaimRecord) error {
	_, err := retry(ctx, func() (struct{}, error) { return struct{}{}, s.createClaim(ctx, rec) })
	return err
}

// createClaim is CreateClaim's transaction (CreateClaim retries it).
func (s *Store) createClaim(ctx context.Context, rec *domain.ClaimRecord) error {
	if rec.Status != domain.ClaimPending || rec.UserID == 0 || rec.ListingID == 0 {
		return fmt.Errorf("storage: create claim: a new claim is pending and has a user and a listing")
	}
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return mapErr(err, "claim", "")
	}
	defer tx.Rollback()
	now := rec.CreatedAt.Unix()
	if _, err := tx.ExecContext(ctx, `UPDATE claims SET status = CASE WHEN expires_at <= ? THEN 'expired' ELSE 'replaced' END
		WHERE listing_id = ? AND user_id = ? AND status = 'pending'`, now, rec.ListingID, rec.UserID); err != nil {
		return mapErr(err, "claim", "")
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO claims (listing_id, user_id, method, status, token, email, domain, home_url,
		created_at, expires_at) VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?) RETURNING id`,
		rec.ListingID, rec.UserID, rec.Method, rec.Token, rec.Email, rec.Domain, rec.HomeURL, now, rec.ExpiresAt.Unix()).Scan(&rec.ID)
	if err != nil {
		return mapErr(err, "claim", "")
	}
	return mapErr(tx.Commit(), "claim", "")
}

// SetClaimLink implements domain.ClaimStore.
func (s *Store) SetClaimLink(ctx context.Context, id int64, linkHash string, mailedAt time.Time) error {
	if !tokenHashRE.MatchString(linkHash) {
		return fmt.Errorf("storage: claim %d: the link hash must be the lower-case SHA-256 hex of the link secret", id)
	}
	_, err := s.db.sql.ExecContext(ctx, `UPDATE claims SET link_hash = ?, mailed_at = ? WHERE id = ? AND method = 'email'`,
		linkHash, mailedAt.Unix(), id)
	return mapErr(err, "claim", "")
}

// UserClaim implements domain.ClaimStore.
func (s *Store) UserClaim(ctx context.Context, userID, id int64) (*domain.ClaimRecord, error) {
	r, err := scanClaim(s.db.sql.QueryRowContext(ctx, `SELECT `+claimCols+claimFrom+`
		WHERE c.id = ? AND c.user_id = ? AND l.site_id = ?`, id, userID, s.siteID))
	if err == sql.ErrNoRows {
		return nil, domain.Errorf(domain.ENotFound, "You have no claim %d (list_my_claims shows yours).", id)
	}
	return r, mapErr(err, "claim", "")
}

// LinkClaim implements domain.ClaimStore.
func (s *Store) LinkClaim(ctx context.Context, linkHash string) (*domain.ClaimRecord, error) {
	r, err := scanClaim(s.db.sql.QueryRowContext(ctx, `SELECT `+claimCols+claimFrom+`
		WHERE c.link_hash = ? AND l.site_id = ?`, linkHash, s.siteID))
	if err == sql.ErrNoRows {
		return nil, domain.Errorf(domain.ENotFound, "This link confirms no claim: it is incomplete, or a newer link was mailed since.")
	}
	return r, mapErr(err, "claim", "")
}

// UserClaims implements domain.ClaimStore.
func (s *Store) UserClaims(ctx context.Context, userID int64, offset, limit int) ([]domain.ClaimRecord, int, error) {
	var total int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT count(*) FROM claims c JOIN listings l ON l.id = c.listing_id
		WHERE c.user_id = ? AND l.site_id = ?`, userID, s.siteID).Scan(&total); err != nil {
		return nil, 0, mapErr(err, "claim", "")
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+claimCols+claimFrom+`
		WHERE c.user_id = ? AND l.site_id = ? ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?`,
		userID, s.siteID, limit, offset)
	if err != nil {
		return nil, 0, mapErr(err, "claim", "")
	}
	defer rows.Close()
	out := []domain.ClaimRecord{}
	for rows.Next() {
		r, err := scanClaim(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, *r)
	}
	return out, total, rows.Err()
}

// RecordClaimCheck implements domain.ClaimStore.
// The check is kept as JSON in last_check, its time in last_check_at.
func (s *Store) RecordClaimCheck(ctx context.Context, id int64, c domain.ClaimCheck) error {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("storage: claim %d: encode check: %w", id, err)
	}
	_, err = s.db.sql.ExecContext(ctx, `UPDATE claims SET last_check_at = ?, last_check = ? WHERE id = ? AND status = 'pending'`,
		c.CheckedAt.Unix(), string(b), id)
	return mapErr(err, "claim", "")
}

// VerifyClaim implements domain.ClaimStore: the claim, the new owner and the
// listing's verified mark change together.
func (s *Store) VerifyClaim(ctx context.Context, id int64, at time.Time, events ...domain.ListingEventFunc) ([]string, bool, error) {
	var r1 bool
	first, err := retry(ctx, func() ([]string, error) {
		var first []string
		var err error
		first, r1, err = s.verifyClaim(ctx, id, at, events)
		return first, err
	})
	return first, r1, err
}

// verifyClaim is VerifyClaim's transaction (VerifyClaim retries it).
func (s *Store) verifyClaim(ctx context.Context, id int64, at time.Time, events []domain.ListingEventFunc) ([]string, bool, error) {
	tx, err := s.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, false, mapErr(err, "claim", "")
	}
	defer tx.Rollback()
	var listingID, userID int64
	err = tx.QueryRowContext(ctx, `UPDATE claims SET status = 'verified', verified_at = ?, last_check_at = ?, last_check = ''
		WHERE id = ? AND status = 'pending' AND expires_at > ? RETURNING listing_id, user_id`,
		at.Unix(), at.Unix(), id, at.Unix()).Scan(&listingID, &userID)
	if err == sql.ErrNoRows {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, mapErr(err, "claim", "")
	}
	// The other owners, before the claimant joins them.
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT u.email FROM users u WHERE u.id != ? AND u.email != '' AND (
		u.id = (SELECT owner_id FROM listings WHERE id = ?) OR u.id IN (SELECT user_id FROM listing_owners WHERE listing_id = ?))
		ORDER BY u.email`, userID, listingID, listingID)
	if err != nil {
		return nil, false, mapErr(err, "claim", "")
	}
	owners := []string{}
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			rows.Close()
			return nil, false, err
		}
		owners = append(owners, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO listing_owners (listing_id, user_id, via, created_at)
		SELECT l.id, ?, 'claim', ? FROM listings l WHERE l.id = ? AND `+s.db.eng.differs("l.owner_id", "?")+`
		ON CONFLICT DO NOTHING`,
		userID, at.Unix(), listingID, userID); err != nil {
		return nil, false, mapErr(err, "claim", "")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE listings SET verified = 1 WHERE id = ?`, listingID); err != nil {
		return nil, false, mapErr(err, "claim", "")
	}
	for _, ev := range events { // claim.verified, to every owner (the claimant now one)
		if err := s.addListingEventsTx(ctx, tx, listingID, ev); err != nil {
			return nil, false, mapErr(err, "webhook event", "")
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, false, mapErr(err, "claim", "")
	}
	return owners, true, nil
}
