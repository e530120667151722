package storage

import (
	"context"
	"database/sql"
	"time"

	"github.com/launchdir/launchdir/domain"
)

var _ domain.OwnerStore = (*Store)(nil)

// ownedBy is the SQL condition "listing l is owned by the user": the account
// that submitted it (owner_id) or a co-owner (listing_owners, a verified
// claim). It takes the user id twice. Every ownership check uses it. It is
// never NULL (owner_id IS ?, not =), so it may be selected into a bool: a
// listing nobody owns has owner_id NULL, and "NULL = ?" is NULL.
func (e engine) ownedBy() string {
	return `(` + e.same("l.owner_id", "?") + ` OR l.id IN (SELECT lo.listing_id FROM listing_owners lo WHERE lo.user_id = ?))`
}

// queryRower is a *sqlDB or a *Tx.
type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// OwnedListingSlug returns the slug of listing id of this site when userID
// owns it, and ENotFound worded the same when it is missing or someone
// else's, so that nobody can probe which listing ids exist. Pass a
// transaction as q to check ownership inside it.
func (s *Store) OwnedListingSlug(ctx context.Context, q queryRower, userID, id int64) (string, error) {
	var slug string
	err := q.QueryRowContext(ctx, `SELECT l.slug FROM listings l WHERE l.site_id = ? AND l.id = ? AND `+s.db.eng.ownedBy(),
		s.siteID, id, userID, userID).Scan(&slug)
	if err == sql.ErrNoRows {
		return "", notOwned(id)
	}
	return slug, err
}

func notOwned(id int64) error {
	return domain.Errorf(domain.ENotFound, "You have no listing %d (list_my_listings shows yours).", id)
}

// ownCols are the columns of a MyListingSummary, read by scanOwn.
const ownCols = `l.id, l.slug, l.name, l.tagline, l.url, l.status, l.plan, l.launch_week, l.featured,
	l.verified, l.unlocked_sections, l.created_at, l.updated_at, l.hidden_at, l.hidden_reason, l.unpublished_at, l.unpublished_reason`

func (s *Store) scanOwn(row interface{ Scan(...any) error }) (domain.MyListingSummary, error) {
	var v domain.MyListingSummary
	var unlocked string
	var week sql.NullString
	var created, updated int64
	var hiddenAt, unpublishedAt sql.NullInt64
	var hiddenReason, unpublishedReason string
	if err := row.Scan(&v.ID, &v.Slug, &v.Name, &v.Tagline, &v.URL, &v.Status, &v.Plan, &week, &v.Featured,
		&v.Verified, &unlocked, &created, &updated, &hiddenAt, &hiddenReason, &unpublishedAt, &unpublishedReason); err != nil {
		return v, err
	}
	// What the site team did and why (docs/console.md "Listings").
	switch {
	case v.Status == domain.ListingHidden && hiddenAt.Valid:
		v.Moderation = &domain.ListingModeration{Action: "hidden", Reason: hiddenReason, At: time.Unix(hiddenAt.Int64, 0).UTC()}
	case v.Status == domain.ListingArchived && unpublishedAt.Valid:
		v.Moderation = &domain.ListingModeration{Action: "unpublished", Reason: unpublishedReason, At: time.Unix(unpublishedAt.Int64, 0).UTC()}
	}
	if err := decodeJSON(unlocked, &v.UnlockedSections, "listing "+v.Slug); err != nil {
		return v, err
	}
	if week.Valid && week.String != "" {
		v.LaunchWeek = &week.String
	}
	v.PageURL = s.site.ListingPageURL(v.Slug)
	v.CreatedAt, v.UpdatedAt = time.Unix(created, 0).UTC(), time.Unix(updated, 0).UTC()
	return v, nil
}

// OwnListings implements domain.OwnerStore.
func (s *Store) OwnListings(ctx context.Context, userID int64, offset, limit int) ([]domain.MyListingSummary, int, error) {
	var total int
	if err := s.db.sql.QueryRowContext(ctx, `SELECT count(*) FROM listings l WHERE l.site_id = ? AND `+s.db.eng.ownedBy(),
		s.siteID, userID, userID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.db.sql.QueryContext(ctx, `SELECT `+ownCols+` FROM listings l
		WHERE l.site_id = ? AND `+s.db.eng.ownedBy()+` ORDER BY l.created_at DESC, l.id DESC LIMIT ? OFFSET ?`,
		s.siteID, userID, userID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []domain.MyListingSummary{}
	for rows.Next() {
		v, err := s.scanOwn(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, v)
	}
	return out, total, rows.Err()
}

// OwnListing implements domain.OwnerStore: the profile is read like the
// public one, without the status filter and with every paid section.
func (s *Store) OwnListing(ctx context.Context, userID, id int64) (*domain.MyListing, error) {
	v, err := s.scanOwn(s.db.sql.QueryRowContext(ctx, `SELECT `+ownCols+` FROM listings l
		WHERE l.site_id = ? AND l.id = ? AND `+s.db.eng.ownedBy(), s.siteID, id, userID, userID))
	if err == sql.ErrNoRows {
		return nil, notOwned(id)
	}
	if err != nil {
		return nil, err
	}
	profile, _, err := s.loadListing(ctx, v.Slug, `l.id = ?`, true, id)
	if err != nil {
		return nil, err
	}
	profile.More = domain.MoreForStatus(v.Status, profile.More)
	return &domain.MyListing{MyListingSummary: v, Profile: profile}, nil
}
