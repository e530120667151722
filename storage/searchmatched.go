package storage

import (
	"context"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage/search"
)

// SearchListingsMatched is SearchListings with, for a query with words, the
// words each listing matched and where (domain.SearchListingItem.Matched). The index says which words a listing matched; where is
// read from the summary's name, tagline and primary category's name, and is
// "text" for a word found only in the listing's other words (keywords,
// features, descriptions, other categories), which the index does not keep
// apart.
func (s *Store) SearchListingsMatched(ctx context.Context, q domain.ListingQuery) ([]domain.SearchListingItem, int, error) {
	gen := s.results.start() // before the index is read (resultcache.go)
	ix, sq, ok, err := s.searchQuery(ctx, q)
	if err != nil || !ok {
		return []domain.SearchListingItem{}, 0, err
	}
	key := resultKey(sq)
	if items, total, hit := s.results.get(key); hit {
		return items, total, nil
	}
	hits, total := ix.SearchHits(sq)
	if len(hits) == 0 {
		s.results.put(gen, key, nil, total)
		return []domain.SearchListingItem{}, total, nil
	}
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	sums, kept, err := s.pageSummariesAt(ctx, ids)
	if err != nil {
		return nil, 0, err
	}
	last := search.LastWord(q.Q)
	var where search.Placer // one for the page: the words' stems made once
	items := make([]domain.SearchListingItem, 0, len(hits))
	for i, h := range hits {
		if !kept[i] {
			continue
		}
		it := domain.SearchListingItem{ListingSummary: sums[i]}
		if len(h.Matched) > 0 {
			cat := ""
			if it.PrimaryCategory != nil {
				cat = it.PrimaryCategory.Name
			}
			it.Matched = make(map[string][]string, len(h.Matched))
			for _, w := range h.Matched {
				it.Matched[w] = where.Where(w, w == last, it.Name, it.Tagline, cat)
			}
		}
		items = append(items, it)
	}
	if len(items) == len(hits) { // a page missing a listing deleted since the index saw it is not kept
		s.results.put(gen, key, items, total)
	}
	return items, total, nil
}
