package domain

import "context"

// Feeds (docs/feeds.md) are pages served by web/: they read the public
// operations' results, and a listing's updates through FeedStore.

// FeedStore reads what the feeds need beyond the public operations
// (storage.Store implements it).
type FeedStore interface {
	// ListingUpdates lists the updates of public listing slug, newest
	// first, at most limit; not_found when slug is no public listing.
	ListingUpdates(ctx context.Context, slug string, limit int) ([]PublicUpdate, error)
}

// ListingUpdates lists the updates of the public listing slug, newest first,
// at most limit (1-100), with the listing's summary: a listing's feed. A
// slug that names no public listing is the not_found of get_listing (with
// the listing it meant).
func (s *Service) ListingUpdates(ctx context.Context, slug string, limit int) (ListingSummary, []PublicUpdate, error) {
	st := s.Feeds
	if st == nil {
		return ListingSummary{}, nil, Errorf(EInternal, "listing updates are not configured")
	}
	l, err := s.publicListing(ctx, slug)
	if err != nil {
		return ListingSummary{}, nil, err
	}
	ups, err := st.ListingUpdates(ctx, slug, min(max(limit, 1), 100))
	return l.ListingSummary, ups, err
}
