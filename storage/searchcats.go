package storage

import (
	"context"
	"slices"
	"strconv"
)

// A listing's categories' names, and their parents', are in its index
// document, but a category's rename or move logs only the
// listings whose primary category it is (the summaries show that one). So
// the store remembers each category's name and parent as its index holds
// them (catSeen, guarded by syncMu) and, whenever it reads the categories to
// apply changes (reindex) or is told a category changed (Refresh), re-reads
// the listings of every category whose name or parent changed, and of its
// subcategories.

// catKey is what of a category the index depends on.
func catKey(c catRow) string { return c.name + "\x00" + strconv.FormatInt(c.parentID, 10) }

// noteCategories records cats as the index's and returns the ids of the
// categories whose name or parent changed since, with their descendants
// (none the first time). Called with syncMu held.
func (s *Store) noteCategories(cats map[int64]catRow) []int64 {
	old := s.catSeen
	s.catSeen = make(map[int64]string, len(cats))
	for id, c := range cats {
		s.catSeen[id] = catKey(c)
	}
	if old == nil {
		return nil
	}
	var moved []int64
	for id, c := range cats {
		if k, ok := old[id]; ok && k != catKey(c) {
			moved = append(moved, id)
		}
	}
	for grew := len(moved) > 0; grew; { // and their subcategories
		grew = false
		for id, c := range cats {
			if c.parentID != 0 && slices.Contains(moved, c.parentID) && !slices.Contains(moved, id) {
				moved, grew = append(moved, id), true
			}
		}
	}
	return moved
}

// recheckCategories re-reads the listings of the categories renamed or moved
// since the index last saw them. Called with syncMu held.
func (s *Store) recheckCategories(ctx context.Context) error {
	cats, err := s.categoryMap(ctx)
	if err != nil {
		return err
	}
	moved := s.noteCategories(cats)
	if len(moved) == 0 {
		return nil
	}
	return s.reindex(ctx, s.ix.Load().InCategories(moved))
}
