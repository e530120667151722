package search

import (
	"math"
	"math/bits"
)

// scratch holds one search's working memory; it is pooled, so a search
// allocates little beyond its result page. The per-doc arrays are indexed by
// internal doc number and never cleared between searches: stamp values from
// earlier searches are below the current base.
type scratch struct {
	stamp []uint32
	cur   []float32 // best score of the current word
	acc   []float32 // score of the words before it
	base  uint32

	next []uint32

	cbits, wbits []uint64  // and: the matches, one word's docs (topk.go)
	fbits        []uint64  // and, or: the docs passing the filter
	catb         []uint64  // filterBits: the docs in the filter's categories
	bound, wmax  []float32 // and: per window of 64 docs, score bounds
	top          []float32 // and: the highest bounds, a min-heap (cutBound)
	best         []float32 // and: per word and doc of a window, its score
	curs         []cursor  // and: per term
	heap         []hent
	k, sort      int

	tok     tokenizer
	words   []qword
	terms   []qterm
	missing bool // a query word matched no term
	buf     []byte
	pfx     []uint32
	order   []int
}

// baseStep leaves room for the OR encoding: base + (word+1)*32 + count.
const baseStep = 1024

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

// perDoc makes sure s has the per-doc arrays of the OR fallback, which most
// searches never need: at a million listings they are 12 MiB a scratch.
func (s *scratch) perDoc(n int) {
	if len(s.stamp) < n {
		c := n + n/8 + 64
		s.stamp, s.cur, s.acc = make([]uint32, c), make([]float32, c), make([]float32, c)
		s.base = 0
	}
}

func (ix *Index) release(s *scratch) {
	select {
	case ix.free <- s:
	default:
	}
}

// nextBase starts a new pass over the stamp array.
func (s *scratch) nextBase() uint32 {
	if s.base > math.MaxUint32-2*baseStep {
		clear(s.stamp)
		s.base = 0
	}
	s.base += baseStep
	return s.base
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

// or finds the docs matching any word, ranked by how many words they match,
// then by score; it pushes them on the heap and returns their number.
// A doc's stamp is base + (last word it matched + 1)*32 + words matched.
func (ix *Index) or(s *scratch, f *filter) int {
	s.perDoc(len(ix.ids))
	base := s.nextBase()
	stamp, cur, acc := s.stamp, s.cur, s.acc
	next := s.next[:0]
	for i, w := range s.words {
		mark := base + uint32(i+1)*32
		for _, t := range s.terms[w.lo:w.hi] {
			visit := func(d, q uint32) {
				v := t.w*float32(q) + t.bonus
				st := stamp[d]
				switch {
				case st < base:
					stamp[d], cur[d], acc[d] = mark+1, v, 0
					next = append(next, d)
				case st&^31 != mark: // first term of this word for d
					stamp[d] = mark + st&31 + 1
					acc[d] += cur[d]
					cur[d] = v
				case v > cur[d]:
					cur[d] = v
				}
			}
			if dn := ix.voc.dense[t.id]; dn != nil {
				dn.each(visit)
				continue
			}
			pl, d := ix.voc.list(t.id), uint32(0)
			for _, list := range [2][]byte{pl.a, pl.b} {
				for i := 0; i < len(list); {
					var q uint32
					if x := list[i]; x < 0x80 { // decode, inlined by hand for a one-byte gap
						i, d, q = i+2, d+uint32(x), uint32(list[i+1])
					} else {
						i, d, q = decodeLong(list, i, d)
					}
					visit(d, q)
				}
			}
		}
	}
	s.next = next
	s.fbits = grow(s.fbits, (len(ix.ids)+63)>>6)
	fb := s.fbits
	rest := ix.filterBits(s, f, fb)
	total := 0
	for _, d := range next {
		if fb[d>>6]>>(d&63)&1 != 0 && (!rest || ix.passDomain(f, d)) {
			total++
			s.push(ix, d, float64(stamp[d]&31)*orWordWeight+float64(acc[d]+cur[d]))
		}
	}
	return total
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
