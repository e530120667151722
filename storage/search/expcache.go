package search

import (
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// A query word's terms by exact form, stem and typo depend only on the
// dictionary (which terms exist, under which ids, and the typo table), not
// on postings: finding them (seven stems, the typo table's candidates
// checked with within1, the word with each rune deleted) was about a third
// of an index search. The dictionary only grows, and terms keep their ids
// (a compaction renumbers docs, not terms), so a word's candidates stay
// right until a term is added or the typo table is rebuilt; each of those
// changes vocab.epoch(). expCache keeps the candidates of recent words for
// the epoch they were found in and answers only for the current one.
// Which of them count (a term with no posting left is skipped), their idf
// and the prefix completions of the last word, which depend on postings,
// are worked out per query as before.

// expCacheMax bounds the words kept in each of the cache's two
// generations. When the current one is full it becomes the old one and
// the older is dropped; a word found in the old generation moves to the
// current one, so the words queries keep using ("for", "app", a common
// category's name) stay while words asked once (a listing's name) leave
// after at most two generations.
const expCacheMax = 4096

// cand is one term a word may match and how (qualityExact, qualityStem or
// qualityTypo).
type cand struct {
	id      uint32
	quality float64
}

type expCache struct {
	mu    sync.Mutex
	epoch uint64
	words map[string][]cand // read-only once stored
	old   map[string][]cand // the previous generation of words
	off   bool              // tests: every word is expanded afresh
}

// get returns the candidates of w found at epoch, if kept.
func (c *expCache) get(w string, epoch uint64) ([]cand, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off || c.epoch != epoch {
		return nil, false
	}
	cs, ok := c.words[w]
	if !ok {
		if cs, ok = c.old[w]; ok {
			c.add(w, cs)
		}
	}
	return cs, ok
}

// add keeps w's candidates in the current generation, which becomes the
// old one when full; called with c.mu held.
func (c *expCache) add(w string, cs []cand) {
	if len(c.words) >= expCacheMax || c.words == nil {
		c.old, c.words = c.words, make(map[string][]cand, 64)
	}
	c.words[strings.Clone(w)] = cs
}

// put keeps w's candidates found at epoch (a later epoch empties the cache).
func (c *expCache) put(w string, epoch uint64, cs []cand) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off || epoch < c.epoch {
		return
	}
	if epoch > c.epoch {
		c.words, c.old, c.epoch = nil, nil, epoch
	}
	c.add(w, cs)
}

// candidates returns the terms w matches as written, by a stem in one of the
// languages and within one typo, in that order (see expand); the slice is
// shared and must not be modified. Called under the index's read lock.
func (ix *Index) candidates(s *scratch, w string) []cand {
	v := &ix.voc
	if cs, ok := ix.exp.get(w, v.epoch()); ok {
		return cs
	}
	var cs []cand
	// The word and its stems in every language (stem.go) are looked up
	// after their slots of the term table are touched, loads whose cache
	// misses overlap (touchSlot).
	var sts [numLangs]string
	x := v.touchSlot(w)
	for l := range numLangs {
		if sts[l] = s.stem.stem(w, l); sts[l] != w {
			x += v.touchSlot(sts[l])
		}
	}
	s.sink += x
	if id, ok := v.lookupTerm(w); ok {
		cs = append(cs, cand{id, qualityExact})
	}
	for _, st := range sts {
		if st != w {
			if id, ok := v.lookupTerm(st); ok {
				cs = append(cs, cand{id, qualityStem})
			}
		}
	}
	cs = ix.typoCands(s, w, qualityTypo, cs)
	ix.exp.put(w, v.epoch(), cs)
	return cs
}

// typoCands appends the terms one edit from w (see the package doc) with
// this quality.
func (ix *Index) typoCands(s *scratch, w string, quality float64, cs []cand) []cand {
	v := &ix.voc
	runes := utf8.RuneCountInString(w)
	if runes < 3 || isDigits(w) {
		return cs
	}
	// Same length, one rune more and (4 runes or more) one rune less, of
	// the terms in the typo table; those after its last id are looked up
	// as w with each rune deleted. The table's candidates are gathered
	// first and their texts read in passes of loads that do not depend on
	// each other (touchTerms), so that their cache misses overlap; checked
	// as found, each candidate would wait for two misses in turn. Most of
	// a name's candidates (about 40, 2 of them one edit away) are left out
	// by their fingerprint, read beside their slot (runeFP).
	s.tids = s.tids[:0]
	var x uint32
	s.buf, x = v.typoCandidates(w, runes, runes >= 4, wordFP(w), s.buf, func(id uint32) { s.tids = append(s.tids, id) })
	s.sink += x + v.touchTerms(s.tids)
	for _, id := range s.tids {
		t := v.term(id)
		if (runes >= 4 || utf8.RuneCountInString(t) == runes) && within1(w, t) {
			cs = append(cs, cand{id, quality})
		}
	}
	if runes >= 4 && v.size() > maxDelID+1 {
		for i := 0; i < len(w); {
			_, size := utf8.DecodeRuneInString(w[i:])
			s.buf = append(append(s.buf[:0], w[:i]...), w[i+size:]...)
			if id, ok := v.lookupTerm(unsafe.String(unsafe.SliceData(s.buf), len(s.buf))); ok {
				cs = append(cs, cand{id, quality})
			}
			i += size
		}
	}
	return cs
}

// stemsMax bounds the words whose stems stemCache keeps; when full, it is
// emptied.
const stemsMax = 8192

// stemCache keeps the stems, in every language, of words recently asked
// about: a query's words and the words of the names, taglines and category
// names a page shows (Placer), which Snowball stemmed seven times each per
// page. A stem depends on the word only, so nothing ever makes one stale.
type stemCache struct {
	mu sync.Mutex
	m  map[string]*[numLangs]string // read-only once stored
}

var stems stemCache

// of returns w's stem in each language (w must be folded, as tokens are).
func (c *stemCache) of(st *stemmer, w string) *[numLangs]string {
	c.mu.Lock()
	ws, ok := c.m[w]
	c.mu.Unlock()
	if ok {
		return ws
	}
	w = strings.Clone(w) // w may borrow a tokenizer's bytes
	ws = new([numLangs]string)
	for l := range numLangs {
		ws[l] = st.stem(w, l)
	}
	c.mu.Lock()
	if len(c.m) >= stemsMax || c.m == nil {
		c.m = make(map[string]*[numLangs]string, 256)
	}
	c.m[w] = ws
	c.mu.Unlock()
	return ws
}
