package search

import "math/bits"

// scratch holds one search's working memory; it is pooled, so a search
// allocates little beyond its result page.
type scratch struct {
	nwin        int       // windows of 64 doc numbers in the index searched
	full        []float64 // match: per window, the bound of its docs' keys
	cbits       []uint64  // match: the docs to rank (topk.go)
	wsets       []uint64  // match: per word (in s.order), its docs
	ubits       []uint64  // match: the docs matching any non-generic word
	xsets       []uint64  // match: per word (in s.order), its exact term's docs when that term is not dense
	fbits       []uint64  // match: the docs passing the filter
	catb        []uint64  // filterBits: the docs in the filter's categories
	bound, wmax []float32 // match: per window of 64 docs, extra-score bounds
	wlvl        []int64   // match: per window, the highest level of its docs to rank
	top         []float64 // match: the highest bounds, a min-heap (cutBound)
	acc         [64]int64 // match: the levels of a window's docs
	best        []float32 // match: per word and doc of a window, its extra score
	levels      map[int64]int32
	lvlKeys     []int64
	curs        []cursor // match: per term
	heap        []hent
	k, sort     int

	tok   tokenizer
	stem  stemmer
	words []qword
	terms []qterm
	buf   []byte
	split []string // parse: a closed compound's two parts
	pfx   []uint32
	order []int
}

// maxFree is how many idle scratches an index keeps. They live in a
// channel rather than a sync.Pool, which the GC empties: rebuilding the
// per-doc arrays of a large index costs milliseconds.
const maxFree = 8

func (ix *Index) scratch() *scratch {
	var s *scratch
	select {
	case s = <-ix.free:
	default:
		s = &scratch{}
	}
	return s
}

func (ix *Index) release(s *scratch) {
	select {
	case ix.free <- s:
	default:
	}
}

// browse pushes every doc passing f (a query without words) and returns
// their number. The filters but the domain are ANDed as bitsets.
func (ix *Index) browse(s *scratch, f *filter) int {
	nwin := (len(ix.ids) + 63) >> 6
	s.cbits = grow(s.cbits, nwin)
	fb := s.cbits
	rest := ix.filterBits(s, f, fb)
	n := 0
	for j, x := range fb {
		for ; x != 0; x &= x - 1 {
			d := uint32(j<<6 + bits.TrailingZeros64(x))
			if !rest || ix.passDomain(f, d) {
				n++
				s.push(ix, d, 0)
			}
		}
	}
	return n
}

// hent is a heap entry: the sort key, then votes and id to break ties.
type hent struct {
	key   float64
	votes int32
	doc   uint32
	id    int64
}

// better reports whether a ranks before b.
func better(a, b hent) bool {
	if a.key != b.key {
		return a.key > b.key
	}
	if a.votes != b.votes {
		return a.votes > b.votes
	}
	return a.id < b.id
}

// push offers doc d with relevance score to the bounded heap of the best
// s.k entries; the heap's root is the worst entry kept.
func (s *scratch) push(ix *Index, d uint32, score float64) {
	key := score
	switch s.sort {
	case sortNewest:
		key = float64(ix.newest[d])
	case sortVotes:
		key = float64(ix.votes[d])
	case sortTrending:
		key = ix.trending[d]
	case sortViews:
		key = float64(ix.views[d])
	case sortFollows:
		key = float64(ix.follows[d])
	}
	h := s.heap
	if len(h) == s.k && key < h[0].key { // cannot enter: skip the tie-breakers
		return
	}
	e := hent{key: key, votes: ix.votes[d], doc: d, id: ix.idOf(d)}
	if len(h) < s.k {
		h = append(h, e)
		for i := len(h) - 1; i > 0; { // sift up
			p := (i - 1) / 2
			if !better(h[p], h[i]) {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		s.heap = h
		return
	}
	if !better(e, h[0]) {
		return
	}
	h[0] = e
	for i := 0; ; { // sift down: move the worse child up
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		c := l
		if r := l + 1; r < len(h) && better(h[l], h[r]) {
			c = r
		}
		if !better(h[i], h[c]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
