package storage

import (
	"context"
	"slices"

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
	var page matchedMaps
	var at [][]string
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
			at = at[:0]
			for _, w := range h.Matched {
				at = append(at, where.Where(w, w == last, it.Name, it.Tagline, cat))
			}
			it.Matched = page.of(h.Matched, at)
		}
		items = append(items, it)
	}
	if len(items) == len(hits) { // a page missing a listing deleted since the index saw it is not kept
		s.results.put(gen, key, items, total)
	}
	return items, total, nil
}

// matchedMaps are the matched maps of a page's items, one per distinct
// answer: items that matched the same words in the same places share one
// (read-only, like every item's map once in the result cache), so a page
// makes a map per kind of match, not per item.
type matchedMaps []matchedMap

type matchedMap struct {
	words []string
	at    [][]string
	m     map[string][]string
}

// of returns the map of words, each found at the places of at with the same
// index.
func (p *matchedMaps) of(words []string, at [][]string) map[string][]string {
	for _, e := range *p {
		if slices.Equal(e.words, words) && slices.EqualFunc(e.at, at, slices.Equal) {
			return e.m
		}
	}
	m := make(map[string][]string, len(words))
	for i, w := range words {
		m[w] = at[i]
	}
	*p = append(*p, matchedMap{words, slices.Clone(at), m})
	return m
}
