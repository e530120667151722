package storage

import (
	"context"
	"slices"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/search"
)

// SearchListings answers search_listings from the in-memory index, after
// applying recent changes from search_log. The category filter covers the
// category and its descendants; an unknown category or stage matches nothing. The
// domain has checked q's stage and status (live or upcoming); the index
// reads them.
func (s *Store) SearchListings(ctx context.Context, q domain.ListingQuery) ([]domain.ListingSummary, int, error) {
	ix, sq, ok, err := s.searchQuery(ctx, q)
	if err != nil || !ok {
		return []domain.ListingSummary{}, 0, err
	}
	ids, total := ix.Search(sq)
	items, err := s.pageSummaries(ctx, ids)
	return items, total, err
}

// searchQuery resolves q for the index; ok is false when q can match nothing.
func (s *Store) searchQuery(ctx context.Context, q domain.ListingQuery) (*search.Index, search.Query, bool, error) {
	ix, err := s.maybeRefresh(ctx)
	if err != nil {
		return nil, search.Query{}, false, err
	}
	sq := search.Query{Text: q.Q, Stage: q.Stage, Country: q.Country, PricingModel: q.PricingModel,
		Domain: q.Domain, Status: q.Status, Sort: q.Sort, Offset: q.Offset, Limit: q.Limit}
	if q.Category != "" {
		all, err := s.allCategories(ctx)
		if err != nil {
			return nil, sq, false, err
		}
		i := slices.IndexFunc(all, func(c catRow) bool { return c.slug == q.Category })
		if i < 0 {
			return nil, sq, false, nil
		}
		sq.Categories = descendants(all, all[i].id)
	}
	return ix, sq, true, nil
}
