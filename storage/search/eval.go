package search

import (
	"math/bits"
	"slices"
)

// scratch holds one search's working memory; it is pooled, so a search
// allocates little beyond its result page.
type scratch struct {
	nwin        int         // windows of 64 doc numbers in the index searched
	full        []float64   // match: per window, the bound of its docs' keys
	cbits       []uint64    // match: the docs to rank (topk.go)
	wsets       []uint64    // match: per word (in s.order), its docs
	ubits       []uint64    // match: the docs matching any non-generic word
	xsets       []uint64    // match: per word (in s.order), its exact term's docs when that term is not dense
	fbits       []uint64    // match: the docs passing the filter
	catb        []uint64    // filterBits: the docs in the filter's categories
	bound, wmax []float32   // match: per window of 64 docs, extra-score bounds
	wmaxs       []float32   // match: per word (in s.order) and window, its best extra score there
	first       int         // match: the word (in s.order) score takes first
	wlvl        []int64     // match: per window, the highest level of its docs to rank
	win         []uint32    // match: when sparse, the windows holding the query's postings (sparseWindows)
	wsum        []uint64    // sparseWindows: the windows in win, one bit each
	gtop        []float64   // match: the highest bound of each group
	acc         [64]int64   // match: the levels of a window's docs
	mask        [64]uint32  // match: the words (bits in s.order) a window's docs match (docBounds)
	dub         [64]float64 // match: the bounds of a window's docs' keys (docBounds)
	best        []float32   // match: per word and doc of a window, its extra score
	levels      int         // match: the number of sets of words matched apart (selectLevels; 0 when not run)
	mlvl        []int64     // match: the level of each set of words (selectLevels)
	mcnt        []int32     // match: the number of docs matching each set of words exactly (selectLevels)
	leafs       []leaf      // match: the sets of words the docs of each window match (splitMasks)
	lvlKeys     []int64     // match: the sets of words present, by level (selectLevels)
	tdn         []*dense    // match: per term, its dense form if any
	nsets       []uint64    // match: per word (in s.order), the docs of its terms without a dense form
	ws          [][]float32 // match: per word (in s.order) that keeps them, per doc, its best score over those terms (valid where nsets has the doc)
	curs        []cursor    // match: per term without a dense form of a word that does not keep its scores, its cursor (scoreList)
	heap        []hent      // the candidates for the page, unsorted (push)
	thr         hent        // once hasThr, the k-th best candidate of a selection: nothing else can rank before it
	hasThr      bool
	k, sort     int

	// score: per word (in s.order), the window's docs having the word as
	// written (exactDocs); match: the best score its other terms give a
	// doc, set while counting (wordBound).
	xm [MaxQueryWords]uint64
	nx [MaxQueryWords]float32
	// typoCands: the typo table's candidates of a word, and a sum of their
	// texts' first bytes (touchTerms)
	tids []uint32
	sink uint32
	// match: per group of bounds, its first window (-1: none), and per
	// window the next one of its group (byBound)
	ghead, wnext []int32

	tok   tokenizer
	stem  stemmer
	words []qword
	terms []qterm
	buf   []byte
	split []string // parse: a closed compound's two parts
	pfx   []uint32
	cands []cand // expand: the candidates of a fallback
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

// push offers doc d with relevance score to the best s.k entries. A doc
// enters when it ranks before s.thr, the k-th best so far (anything until
// there is one). Up to heapMaxK entries are a binary heap; a deeper page's
// are a buffer of candidates: when it holds 2k entries the k best are
// selected by partitioning (selectTop) and s.thr becomes the worst of them.
// Every entry the final page could hold ranks before s.thr, so the result
// is the one a heap gives, ties included; entering costs an append instead
// of a sift over log2(k) levels, which for the deep pages (k up to about a
// thousand) was a fifth of a search.
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
	if s.below(key) { // cannot enter: skip the tie-breakers
		return
	}
	s.offer(hent{key: key, votes: ix.votes[d], doc: d, id: ix.idOf(d)})
}

// offer adds e to the candidates when it can still be on the page.
func (s *scratch) offer(e hent) {
	if s.hasThr && !better(e, s.thr) {
		return
	}
	if s.k <= heapMaxK {
		s.heapPush(e)
		return
	}
	s.heap = append(s.heap, e)
	if len(s.heap) >= 2*s.k {
		s.cutTop()
	}
}

// heapMaxK is the largest page (offset+limit) kept as a binary heap, whose
// root, the worst entry kept, is the threshold after every entry: a small
// heap is cheap to sift, and its threshold rises sooner than a buffer's,
// so fewer docs are scored (a first page of 20 ranked 10% slower with the
// buffer).
const heapMaxK = 128

// heapPush adds e to s.heap, a min-heap by better of at most s.k entries
// (e ranks before the root when the heap is full), and keeps s.thr at the
// root once it is full.
func (s *scratch) heapPush(e hent) {
	h := s.heap
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
	} else {
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
	if len(h) == s.k {
		s.thr, s.hasThr = h[0], true
	}
}

// below reports whether a key is below the k-th best kept so far, so that
// no entry with it, whatever its tie-breakers, can be on the page.
func (s *scratch) below(key float64) bool { return s.hasThr && key < s.thr.key }

// resetTop empties the candidates and their threshold.
func (s *scratch) resetTop() {
	s.heap, s.hasThr = s.heap[:0], false
}

// cutTop keeps the s.k best candidates and sets s.thr to the worst of them.
func (s *scratch) cutTop() {
	if len(s.heap) < s.k || s.k <= 0 {
		return
	}
	selectTop(s.heap, s.k)
	s.heap = s.heap[:s.k]
	s.thr, s.hasThr = s.heap[s.k-1], true
}

// selectTop reorders h so that h[:k] holds its k best entries (by better),
// with the k-th best at h[k-1]: quickselect with a median of three, which
// the strict order (ids are unique) keeps from degenerating on ties; after
// 2*log2(len) rounds without reaching k it sorts what remains.
func selectTop(h []hent, k int) {
	if k <= 0 || k >= len(h) {
		if k > 0 && k == len(h) { // the k-th best must be last
			slices.SortFunc(h, cmpHent)
		}
		return
	}
	lo, hi := 0, len(h)-1 // the k-th best (index k-1) lies in h[lo:hi+1]
	for depth := 2 * bits.Len(uint(len(h))); hi > lo; depth-- {
		if depth == 0 {
			slices.SortFunc(h[lo:hi+1], cmpHent)
			return
		}
		// median of three as the pivot, moved to h[hi]
		mid := lo + (hi-lo)/2
		if better(h[mid], h[lo]) {
			h[mid], h[lo] = h[lo], h[mid]
		}
		if better(h[hi], h[lo]) {
			h[hi], h[lo] = h[lo], h[hi]
		}
		if better(h[hi], h[mid]) {
			h[hi], h[mid] = h[mid], h[hi]
		}
		// now h[lo] best, h[mid] median, h[hi] worst of the three
		h[mid], h[hi] = h[hi], h[mid]
		p := h[hi]
		i := lo
		for j := lo; j < hi; j++ {
			if better(h[j], p) {
				h[i], h[j] = h[j], h[i]
				i++
			}
		}
		h[i], h[hi] = h[hi], h[i]
		switch {
		case i == k-1:
			return
		case i < k-1:
			lo = i + 1
		default:
			hi = i - 1
		}
	}
}

// cmpHent orders entries best first.
func cmpHent(a, b hent) int {
	if better(a, b) {
		return -1
	}
	if better(b, a) {
		return 1
	}
	return 0
}

// finishTop leaves the s.k best candidates in s.heap, best first.
func (s *scratch) finishTop() {
	if len(s.heap) > s.k {
		selectTop(s.heap, s.k)
		s.heap = s.heap[:s.k]
	}
	slices.SortFunc(s.heap, cmpHent)
}
