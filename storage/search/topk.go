package search

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// match finds the docs matching the query's words and passing f (see
// SearchHits), pushes the ones that can reach the page on the heap and
// returns their number.
//
// Counting: each word's docs are the union of its terms' lists (a common
// term's bitset ORed in, the others' postings decoded into bits), kept per
// word in s.wsets; the matches are the union of the non-generic words'
// docs, filtered, and total is its popcount, so nothing is scored to count.
//
// Ranking: docs are taken in windows of 64 doc numbers (one bitset word).
// A window's bound is the highest level of its docs plus, word by word, the
// best extra score any of the word's terms can give a doc in it (w*weight+ex,
// with a dense term's largest weight in the window and a rarer term's exact
// weights), summed as scores are. A window whose bound is below the heap's
// worst entry once the heap is full holds no doc that can enter it, and is
// not scored. The bound uses the same float operations as the key, so it is
// never below it and results, ties included, are those of scoring every
// match. When fewer docs than the page needs match every word, the docs'
// levels are counted first and only those at or above the level that fills
// the page are ranked. Windows are scored from the highest bound down
// (byBound). A doc's score for a word's terms without a dense form is
// kept per doc while their lists are decoded for counting (s.ws), so
// scoring reads it there; a dense term's weight is read from its form.
func (ix *Index) match(s *scratch, f *filter) int {
	if len(s.words) == 0 {
		return 0
	}
	s.order, s.levels = s.order[:0], 0
	for i := range s.words {
		s.order = append(s.order, i)
	}
	slices.SortFunc(s.order, func(a, b int) int { return s.words[a].total - s.words[b].total })
	v := &ix.voc
	nwin := (len(ix.ids) + 63) >> 6
	s.nwin = nwin
	nw := len(s.order)
	rel := s.sort == sortRelevance
	s.wsets, s.nsets = grow(s.wsets, nw*nwin), grow(s.nsets, nw*nwin)
	s.tdn = grow(s.tdn, len(s.terms))
	if rel && len(s.ws) < nw {
		s.ws = append(s.ws, make([][]float32, nw-len(s.ws))...)
	}
	s.cbits, s.ubits = grow(s.cbits, nwin), grow(s.ubits, nwin)
	if rel {
		s.bound, s.wmax = grow(s.bound, nwin), grow(s.wmax, nwin)
		s.wmaxs = grow(s.wmaxs, nw*nwin)
	}
	for i, t := range s.terms {
		s.tdn[i] = v.dense[t.id]
	}
	// A query whose terms have no dense form and few postings (a name, a
	// misspelt name) has docs in few windows: the passes below visit those
	// (s.win) instead of every window of the index.
	sparse := ix.sparseWindows(s, nwin)
	nj := nwin // the windows the passes visit: j = i, or s.win[i] when sparse
	if sparse {
		nj = len(s.win)
	}
	n := float64(max(ix.live, 1))
	var all int64 // the level of a doc matching every word
	for k, wi := range s.order {
		w := &s.words[wi]
		if w.generic { // it adds its BM25 only: no exactness, no level
			for i := w.lo; i < w.hi; i++ {
				s.terms[i].ex = 0
			}
		}
		// The word as written (the one term with an exactness bonus), whose
		// docs need none of the word's other terms in score.
		w.x, w.xd = -1, nil
		if rel && w.hi-w.lo > 1 {
			for i := w.lo; i < w.hi; i++ {
				if s.terms[i].ex > 0 {
					w.x, w.xd = i, v.dense[s.terms[i].id]
				}
			}
			if w.x >= 0 && w.xd == nil {
				s.xsets = grow(s.xsets, nw*nwin)
			}
		}
		wb := s.wsets[k*nwin : (k+1)*nwin]
		clearWins(s, wb, sparse)
		wmax := s.wmax
		if rel {
			clearWins(s, wmax, sparse)
		}
		// The exact term's docs as bits (w.x without a dense form), set while
		// its list is decoded below.
		var xb []uint64
		if w.x >= 0 && w.xd == nil {
			xb = s.xsets[k*nwin : (k+1)*nwin]
			clearWins(s, xb, sparse)
		}
		// The docs of the word's terms that have no dense form, and, for
		// ranking, each one's best score over them (ws, set on a doc's
		// first posting, so never cleared): score reads a doc's score there
		// instead of walking these terms' lists again.
		nb := s.nsets[k*nwin : (k+1)*nwin]
		clearWins(s, nb, sparse)
		s.nx[k] = 0
		var ws []float32
		lists := 0 // postings of the word's terms without a dense form
		for ti, t := range s.terms[w.lo:w.hi] {
			if s.tdn[w.lo+ti] == nil {
				lists += int(v.df[t.id])
			}
		}
		w.keep = rel && lists > 0 && ix.keep.keeps(len(ix.ids), lists)
		for ti, t := range s.terms[w.lo:w.hi] {
			if dn := s.tdn[w.lo+ti]; dn != nil {
				for j, x := range dn.bits[:min(len(dn.bits), nwin)] {
					wb[j] |= x
				}
				if rel {
					if sc := dn.spread(t, wmax); w.lo+ti != w.x {
						s.nx[k] = max(s.nx[k], sc)
					}
				}
				continue
			}
			if rel && !w.keep {
				s.curs = grow(s.curs, len(s.terms))
				s.curs[w.lo+ti] = cursor{pl: v.list(t.id), sk: v.skips[t.id]}
				s.curs[w.lo+ti].peek()
			}
			if w.keep && ws == nil {
				s.ws[k] = grow(s.ws[k], len(ix.ids))
				ws = s.ws[k]
			}
			pl, d := v.list(t.id), uint32(0)
			exact := xb // nil unless t is the word as written
			if w.lo+ti != w.x {
				exact = nil
			}
			qmax := uint32(0) // the term's largest weight
			for _, list := range [2][]byte{pl.a, pl.b} {
				for i := 0; i < len(list); {
					var q uint32
					if x := list[i]; x < 0x80 { // decode, inlined by hand for a one-byte gap
						i, d, q = i+2, d+uint32(x), uint32(list[i+1])
					} else {
						i, d, q = decodeLong(list, i, d)
					}
					bit := uint64(1) << (d & 63)
					if exact != nil {
						exact[d>>6] |= bit
					}
					if rel {
						sc := t.w*float32(q) + t.ex
						if ws != nil && (nb[d>>6]&bit == 0 || sc > ws[d]) {
							ws[d] = sc
						}
						if sc > wmax[d>>6] {
							wmax[d>>6] = sc
						}
						qmax = max(qmax, q)
					}
					nb[d>>6] |= bit
				}
			}
			if w.lo+ti != w.x && qmax > 0 { // its best score, as a doc's is made
				s.nx[k] = max(s.nx[k], t.w*float32(qmax)+t.ex)
			}
		}
		df := 0
		if sparse {
			for _, j := range s.win {
				wb[j] |= nb[j]
				df += bits.OnesCount64(wb[j])
			}
		} else {
			for j, x := range nb {
				wb[j] |= x
			}
			for _, x := range wb {
				df += bits.OnesCount64(x)
			}
		}
		idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		r := min(max(int64(math.Round(idf*rarityScale)), 1), maxRarity)
		w.lvl = wordLevel + r*rarityLevel
		if w.generic {
			w.lvl = 0
		}
		all += w.lvl
		switch {
		case rel && sparse:
			for _, j := range s.win {
				s.wmaxs[k*nwin+int(j)] = wmax[j]
				if k == 0 {
					s.bound[j] = wmax[j]
				} else {
					s.bound[j] += wmax[j]
				}
			}
		case rel:
			copy(s.wmaxs[k*nwin:(k+1)*nwin], wmax)
			if k == 0 {
				copy(s.bound, wmax)
			} else {
				for j, x := range wmax {
					s.bound[j] += x
				}
			}
		}
	}
	s.fbits = grow(s.fbits, nwin)
	rest := false
	if sparse {
		rest = ix.filterWins(s, f, s.fbits)
	} else {
		rest = ix.filterBits(s, f, s.fbits)
	}
	total, ngN := 0, 0
	var ngAt [MaxQueryWords]int // where each non-generic word's docs start in s.wsets
	ng := ngAt[:0]
	for k, wi := range s.order {
		if !s.words[wi].generic {
			ng = append(ng, k*nwin)
		}
	}
	if rel {
		s.full = grow(s.full, nwin)
	}
	top := math.Inf(-1) // the highest bound of a window with docs to rank
	for i := range nj {
		j := s.window(i, sparse)
		u, g := uint64(0), s.fbits[j]
		for _, at := range ng {
			x := s.wsets[at+j]
			u, g = u|x, g&x
		}
		u &= s.fbits[j]
		for m := u; rest && m != 0; m &= m - 1 {
			if d := uint32(j<<6 + bits.TrailingZeros64(m)); !ix.passDomain(f, d) {
				u &^= 1 << (d & 63)
			}
		}
		g &= u
		s.ubits[j] = u
		s.cbits[j] = g
		total += bits.OnesCount64(u)
		ngN += bits.OnesCount64(g)
		if rel {
			// The window's bound when at least a page of docs match
			// every word (else selectLevels sets it below).
			b := float64(all) + float64(s.bound[j])
			s.full[j] = b
			if b > top && g != 0 {
				top = b
			}
		}
	}
	if total == 0 {
		return 0
	}
	if !rel { // the sort key is not the score: every match is offered
		set := s.cbits
		if ngN == 0 {
			set = s.ubits
		} else {
			total = ngN
		}
		for i := range nj {
			j := s.window(i, sparse)
			for x := set[j]; x != 0; x &= x - 1 {
				s.push(ix, uint32(j<<6+bits.TrailingZeros64(x)), 0)
			}
		}
		return total
	}
	if ngN < s.k && ngN < total {
		top = ix.selectLevels(s, sparse)
	}
	s.first = 0 // the word with the fewest terms (see score)
	for k, wi := range s.order {
		w, f := &s.words[wi], &s.words[s.order[s.first]]
		if w.hi-w.lo < f.hi-f.lo {
			s.first = k
		}
	}
	// Windows go from the highest bound down (byBound), so that the
	// heap's worst entry soon reaches about its final value and the
	// windows whose bound is below it are never scored. Nothing in score
	// walks a list: windows may come in any order.
	s.best = grow(s.best, nw*64)
	best := s.best
	s.byBound(top, sparse)
	for g, top := range s.gtop {
		if s.ghead[g] < 0 {
			continue // no window
		}
		if s.below(top) {
			break // every later group's bounds are lower
		}
		for j := s.ghead[g]; j >= 0; j = s.wnext[j] {
			if !s.below(s.full[j]) {
				ix.score(s, best, uint32(j)<<6, s.cbits[j])
			}
		}
	}
	return total
}

// boundGroups is the number of groups byBound sorts windows into: a
// window's group is its bound's distance below the highest, in steps of a
// quarter of a power of two (distances below 1 in group 0).
const boundGroups = 3 + 4*61

// boundGroup returns the group of a bound at distance d (>= 0) below the
// highest: higher groups for larger distances, so lower bounds.
func boundGroup(d float64) int {
	if !(d >= 1) {
		return 0
	}
	q := uint64(min(d, 1<<62))
	l := bits.Len64(q) // 1..63
	if l < 3 {
		return l
	}
	return 3 + 4*(l-3) + int(q>>(l-3)&3)
}

// byBound sorts the windows with docs to rank (s.cbits) into groups by
// their bounds (s.full; top is the highest of them; only the windows s.win
// when sparse), highest first: group g's windows are s.ghead[g],
// s.wnext[s.ghead[g]], ... (-1 ends), in doc order, and s.gtop[g] is their
// highest bound, so that a group whose highest bound is below the page's
// threshold ends the search. It is a bucket sort in one pass over the
// windows, from the last: each is put at the head of its group's list (a
// counting sort takes two passes and a sum over the groups).
func (s *scratch) byBound(top float64, sparse bool) {
	var gtop [boundGroups]float64
	if len(s.ghead) != boundGroups {
		s.ghead = make([]int32, boundGroups)
		for g := range s.ghead {
			s.ghead[g] = -1
		}
	} else {
		for g := range s.gtop { // the groups the last search used; the others are empty
			s.ghead[g] = -1
		}
	}
	s.wnext = grow(s.wnext, len(s.cbits))
	last := 0
	nj := len(s.cbits)
	if sparse {
		nj = len(s.win)
	}
	for i := nj - 1; i >= 0; i-- {
		j := s.window(i, sparse)
		if s.cbits[j] == 0 {
			continue
		}
		b := s.full[j]
		g := boundGroup(top - b)
		if s.ghead[g] < 0 || b > gtop[g] {
			gtop[g] = b
		}
		s.wnext[j] = s.ghead[g]
		s.ghead[g] = int32(j)
		last = max(last, g)
	}
	s.gtop = append(s.gtop[:0], gtop[:last+1]...)
}

// leaf is a set of words (a mask of bits in s.order) and the docs of
// window j that match exactly those words.
type leaf struct {
	mask uint32
	j    uint32
	docs uint64
}

// splitMasks appends to s.leafs the sets of words that the docs m of window
// j match, with their docs: the docs are split word by word, so that the
// cost is the number of sets present (at most one per doc), not of docs.
func (s *scratch) splitMasks(j int, m uint64) {
	type part struct {
		docs uint64
		k    int
		mask uint32
	}
	var stack [MaxQueryWords + 2]part
	stack[0] = part{docs: m}
	nw := len(s.order)
	for n := 1; n > 0; {
		n--
		p := stack[n]
		if p.k == nw {
			s.leafs = append(s.leafs, leaf{p.mask, uint32(j), p.docs})
			continue
		}
		w := s.wsets[p.k*s.nwin+j]
		if x := p.docs &^ w; x != 0 {
			stack[n] = part{x, p.k + 1, p.mask}
			n++
		}
		if x := p.docs & w; x != 0 {
			stack[n] = part{x, p.k + 1, p.mask | 1<<p.k}
			n++
		}
	}
}

// selectLevels sets s.cbits to the matching docs (s.ubits) whose level is at
// least the highest level that, with the levels above it, fills the page,
// and s.full to their windows' bounds. A doc's level and bound depend only
// on the set of words it matches (a mask): docs are counted per mask
// (splitMasks), not one by one. It returns the highest of those bounds.
// When sparse, only the windows s.win hold docs, and only they are read and
// set.
func (ix *Index) selectLevels(s *scratch, sparse bool) float64 {
	nw := len(s.order)
	s.mlvl, s.mcnt = grow(s.mlvl, 1<<nw), grow(s.mcnt, 1<<nw)
	clear(s.mcnt)
	for mask := range s.mlvl {
		l := int64(0)
		for k, wi := range s.order {
			if mask>>k&1 != 0 {
				l += s.words[wi].lvl
			}
		}
		s.mlvl[mask] = l
	}
	s.leafs = s.leafs[:0]
	if sparse {
		for _, j := range s.win {
			if u := s.ubits[j]; u != 0 {
				s.splitMasks(int(j), u)
			}
		}
	} else {
		for j, u := range s.ubits {
			if u != 0 {
				s.splitMasks(j, u)
			}
		}
	}
	for _, l := range s.leafs {
		s.mcnt[l.mask] += int32(bits.OnesCount64(l.docs))
	}
	// The level that fills the page: masks by level, highest first.
	s.lvlKeys = s.lvlKeys[:0]
	for mask, c := range s.mcnt {
		if c > 0 {
			s.lvlKeys = append(s.lvlKeys, int64(mask))
		}
	}
	slices.SortFunc(s.lvlKeys, func(a, b int64) int { return cmp.Compare(s.mlvl[b], s.mlvl[a]) })
	cut, n := int64(0), 0
	for _, mask := range s.lvlKeys {
		cut = s.mlvl[mask]
		if n += int(s.mcnt[mask]); n >= s.k {
			break
		}
	}
	s.levels = len(s.lvlKeys)
	// A doc's bound: its level plus, over the words it matches only, each
	// word's best extra score in the window (s.wmaxs), summed in s.order
	// with the float32 operations of the key (score), so never below it.
	// A doc matching one word of two is bounded by that word alone, not by
	// the window's best for both (which, when the other word is common and
	// written exactly, added its exactness bonus to every window and kept
	// every window in reach of the page).
	clearWins(s, s.cbits, sparse)
	top := math.Inf(-1)
	for _, l := range s.leafs {
		lv := s.mlvl[l.mask]
		if lv < cut {
			continue
		}
		var acc float32
		for mk := l.mask; mk != 0; mk &= mk - 1 {
			acc += s.wmaxs[bits.TrailingZeros32(mk)*s.nwin+int(l.j)]
		}
		b := float64(lv) + float64(acc)
		if s.cbits[l.j] == 0 || b > s.full[l.j] {
			s.full[l.j] = b
		}
		if b > top {
			top = b
		}
		s.cbits[l.j] |= l.docs
	}
	return top
}

// docBounds sets, for the docs m of window j, s.acc to their levels, s.mask
// to the words (bits in s.order) they match and s.dub to the bound of
// their keys: their level plus, over the words they match only, each
// word's best extra score in the window (s.wmaxs), summed in s.order with
// the float32 operations of the key (score), so never below it. It
// returns the highest of them: the window's bound. A doc matching one word
// of two is bounded by that word alone, not by the window's best for both
// (which, when the other word is common and written exactly, added its
// exactness bonus to every window and kept every window in reach of the
// page).
func (s *scratch) docBounds(j int, m uint64) float64 {
	s.acc, s.mask = [64]int64{}, [64]uint32{}
	for k, wi := range s.order {
		lvl := s.words[wi].lvl
		for x := s.wsets[k*s.nwin+j] & m; x != 0; x &= x - 1 {
			b := bits.TrailingZeros64(x)
			s.acc[b] += lvl
			s.mask[b] |= 1 << k
		}
	}
	top := math.Inf(-1)
	for y := m; y != 0; y &= y - 1 {
		b := bits.TrailingZeros64(y)
		var acc float32
		for mk := s.mask[b]; mk != 0; mk &= mk - 1 {
			acc += s.wordBound(bits.TrailingZeros32(mk), j, b)
		}
		s.dub[b] = float64(s.acc[b]) + float64(acc)
		top = max(top, s.dub[b])
	}
	return top
}

// exactDocs returns the docs of window j having the word as written of
// word s.order[k] (every doc when that word has no such term apart,
// w.x < 0).
func (s *scratch) exactDocs(k, j int) uint64 {
	w := &s.words[s.order[k]]
	switch {
	case w.x < 0:
		return ^uint64(0)
	case w.xd != nil:
		if j < len(w.xd.bits) {
			return w.xd.bits[j]
		}
		return 0
	}
	return s.xsets[k*s.nwin+j]
}

// wordBound bounds the score of doc b of window j for word s.order[k]
// (which the doc matches): the word's best in the window, or s.nx[k] when
// lower and the doc lacks the word as written (s.xm[k], set by score for
// the window).
func (s *scratch) wordBound(k, j, b int) float32 {
	e := s.wmaxs[k*s.nwin+j]
	if s.xm[k]>>b&1 == 0 {
		e = min(e, s.nx[k])
	}
	return e
}

// score pushes the docs m of the window of 64 docs from a, scoring them
// word by word (scoreWord).
func (ix *Index) score(s *scratch, best []float32, a uint32, m uint64) {
	clear(best)
	nw := len(s.order)
	j := int(a >> 6)
	// umask and ulvl are the words and level of every doc m when they all
	// match the same words (uni), as when each matches every word.
	uni, umask, ulvl := true, uint32(0), int64(0)
	// inexact: the docs m matching some word they match with a term other
	// than the word as written (s.xm), whose bound for that word is at most
	// s.nx, far below the exactness bonus its window's best may hold.
	inexact := uint64(0)
	if nw > 1 && s.hasThr {
		for k, wi := range s.order {
			x := s.wsets[k*s.nwin+j] & m
			s.xm[k] = s.exactDocs(k, j)
			inexact |= x &^ s.xm[k]
			if !uni {
				continue
			}
			if x == m {
				umask |= 1 << k
				ulvl += s.words[wi].lvl
			} else if x != 0 {
				uni = false
			}
		}
		if uni && inexact != 0 {
			// Every doc matches the same words: the exact ones are bounded
			// by the window's bound, which did not skip it; the others by
			// their own, each word's best in the window or, for a word
			// matched inexactly, s.nx when lower.
			for y := inexact; y != 0; y &= y - 1 {
				b := bits.TrailingZeros64(y)
				var acc float32
				for mk := umask; mk != 0; mk &= mk - 1 {
					acc += s.wordBound(bits.TrailingZeros32(mk), j, b)
				}
				if s.below(float64(ulvl) + float64(acc)) {
					m &^= 1 << b
				}
			}
			if m == 0 {
				return
			}
		}
		if !uni {
			// A doc whose own bound (its level, the best extra scores of
			// the words it matches) is below the page's threshold cannot
			// enter it: no word scores it. (When the docs match the same
			// words, their bound is the window's, which did not skip it.)
			s.docBounds(j, m)
			for y := m; y != 0; y &= y - 1 {
				if b := bits.TrailingZeros64(y); s.below(s.dub[b]) {
					m &^= 1 << b
				}
			}
			if m == 0 {
				return
			}
		}
	}
	for i := range nw {
		// The word with the fewest terms scores first (s.first), the others
		// in s.order; each keeps its place in best.
		k := i
		if f := s.first; f > 0 && i <= f {
			k = (i + f) % (f + 1) // f, 0, 1, ..., f-1
		}
		bw := best[k*64 : k*64+64]
		s.scoreWord(k, bw, a, m)
		if i == 0 && nw > 1 && s.hasThr {
			// A doc whose score for this word plus the other matched
			// words' best in the window (summed in s.order and with the
			// float operations of its key below, each term no lower; its
			// level and words from docBounds above) stays below the
			// page's threshold cannot enter it: the other words need not
			// score it.
			if uni && bits.OnesCount32(umask) == 2 && umask>>k&1 != 0 {
				// Every doc matches the same two words, this one among
				// them: the key's sum is this word's score plus the
				// other's (float addition is commutative).
				o := bits.TrailingZeros32(umask &^ (1 << k))
				lv, e := float64(ulvl), s.wmaxs[o*s.nwin+j]
				ei, xo := min(e, s.nx[o]), s.xm[o]
				for y := m; y != 0; y &= y - 1 {
					b := bits.TrailingZeros64(y)
					eb := e
					if xo>>b&1 == 0 {
						eb = ei
					}
					if s.below(lv + float64(bw[b]+eb)) {
						m &^= 1 << b
					}
				}
			} else {
				for y := m; y != 0; y &= y - 1 {
					b := bits.TrailingZeros64(y)
					mk, lvl := umask, ulvl
					if !uni {
						mk, lvl = s.mask[b], s.acc[b]
					}
					var acc float32
					for ; mk != 0; mk &= mk - 1 {
						kk := bits.TrailingZeros32(mk)
						e := bw[b]
						if kk != k {
							e = s.wordBound(kk, j, b)
						}
						acc += e
					}
					if s.below(float64(lvl) + float64(acc)) {
						m &^= 1 << b
					}
				}
			}
			if m == 0 {
				return
			}
		}
	}
	lvl0 := s.words[s.order[0]].lvl
	for ; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		acc, lvl := best[b], int64(0)
		if acc > 0 {
			lvl = lvl0
		}
		for k := 1; k < nw; k++ {
			if e := best[k*64+b]; e > 0 {
				acc += e
				lvl += s.words[s.order[k]].lvl
			}
		}
		key := float64(lvl) + float64(acc)
		if s.below(key) {
			continue // what push would do first
		}
		s.push(ix, a+uint32(b), key)
	}
}

// scoreWord sets bw, the extra scores of the docs m of the window of 64
// docs from a for the word s.order[k]: the best of its terms' scores.
func (s *scratch) scoreWord(k int, bw []float32, a uint32, m uint64) {
	w := &s.words[s.order[k]]
	j := int(a >> 6)
	rest := m // the docs the word's other terms may raise
	if w.xd != nil {
		// The word as written scores first; the docs having it need
		// none of the word's other terms, whose scores are all below
		// its exactness bonus (a doc's score for a word is the best of
		// its terms').
		s.scoreDense(w.x, bw, a, m)
		if j < len(w.xd.bits) {
			rest &^= w.xd.bits[j]
		}
		if rest == 0 {
			return
		}
	}
	// The terms without a dense form: their best score, kept per doc
	// while their lists were decoded (match), or read from their lists.
	switch {
	case w.keep:
		ws := s.ws[k]
		for y := rest & s.nsets[k*s.nwin+j]; y != 0; y &= y - 1 {
			b := bits.TrailingZeros64(y)
			if sc := ws[a+uint32(b)]; sc > bw[b] {
				bw[b] = sc
			}
		}
	case rest&s.nsets[k*s.nwin+j] != 0:
		if w.x >= 0 && w.xd == nil {
			s.scoreList(w.x, bw, a, rest)
			if rest &^= s.xsets[k*s.nwin+j]; rest == 0 {
				return
			}
		}
		for ti := w.lo; ti < w.hi; ti++ {
			if ti != w.x && s.tdn[ti] == nil {
				s.scoreList(ti, bw, a, rest)
			}
		}
	}
	if w.x >= 0 && w.xd == nil {
		if rest &^= s.xsets[k*s.nwin+j]; rest == 0 {
			return
		}
	}
	for ti := w.lo; ti < w.hi; ti++ {
		if ti != w.x && s.tdn[ti] != nil {
			s.scoreDense(ti, bw, a, rest)
		}
	}
}

// keepRule says which words keep their per-doc scores (keeps): every word
// while an index has at most docs doc numbers, whose array of scores (4
// bytes a doc number) stays in the processor's cache; in a larger index a
// word whose terms without a dense form have at most one posting per
// sparse doc numbers. Otherwise writing a score at each posting misses the
// caches (at 1M docs the array is 4 MB) and costs more than it saves, and
// scoring reads the lists in the windows it scores instead (scoreList).
// At 1M, with every word keeping them, prefix, two- and three-word queries
// took 15-25% more CPU than with these rules (docs/search.md).
type keepRule struct{ docs, sparse int }

var defaultKeep = keepRule{docs: 1 << 18, sparse: 256}

// keeps reports whether a word whose terms without a dense form have this
// many postings keeps their best score per doc, in an index of docs doc
// numbers.
func (r keepRule) keeps(docs, postings int) bool {
	return docs <= r.docs || postings*r.sparse <= docs
}

// scoreList raises bw, the best extra scores of the docs of the window of
// 64 docs from a for one word, by term ti's scores of the docs m; the term
// has no dense form and is read with its cursor. A list with no posting in
// the window costs a comparison.
func (s *scratch) scoreList(ti int, bw []float32, a uint32, m uint64) {
	t, c := s.terms[ti], &s.curs[ti]
	if c.nd < a || (c.i > 0 && c.prev >= a) {
		c.seek(a)
	}
	for ; c.nd < a+64; c.next() {
		if b := c.nd - a; m>>b&1 != 0 {
			if sc := t.w*float32(c.nq) + t.ex; sc > bw[b] {
				bw[b] = sc
			}
		}
	}
}

// cursor walks one posting list. It holds the next posting decoded (nd,
// nq; nd is math.MaxUint32 once the list is exhausted), so that a window
// the list has no posting in costs one comparison: i is that posting's
// byte (its packed part and tail counted as one), ni the byte after it,
// prev the doc before it (every posting before i is at most prev).
type cursor struct {
	pl     plist
	sk     []skip
	i, ni  int
	prev   uint32
	nd, nq uint32
}

// peek decodes the posting at byte c.i into nd and nq.
func (c *cursor) peek() {
	na := len(c.pl.a)
	switch {
	case c.i < na:
		c.ni, c.nd, c.nq = decode(c.pl.a, c.i, c.prev)
	case c.i < na+len(c.pl.b):
		c.ni, c.nd, c.nq = decode(c.pl.b, c.i-na, c.prev)
		c.ni += na
	default:
		c.nd = math.MaxUint32
	}
}

// next moves c to the posting after nd.
func (c *cursor) next() {
	c.i, c.prev = c.ni, c.nd
	c.peek()
}

// seek moves c to the first posting at or after doc a, forward or back:
// windows are scored by bound, not in doc order (byBound). It jumps to the
// last skip block that starts after a doc below a (found by binary search)
// when that block is ahead of c or c is past a, to the list's start when c
// is past a and no such block exists, then decodes forward.
func (c *cursor) seek(a uint32) {
	back := c.i > 0 && c.prev >= a
	b, _ := slices.BinarySearchFunc(c.sk, a, func(e skip, a uint32) int { return cmp.Compare(e.prev, a) })
	switch {
	case b > 0 && (back || int(c.sk[b-1].off) > c.i):
		c.i, c.prev = int(c.sk[b-1].off), c.sk[b-1].prev
		c.peek()
	case back:
		c.i, c.prev = 0, 0
		c.peek()
	}
	for c.nd < a {
		c.next()
	}
}

// scoreDense raises bw, the best extra scores of the docs of the window of
// 64 docs from a for one word, by term ti's scores of the docs m; the term
// has a dense form.
func (s *scratch) scoreDense(ti int, bw []float32, a uint32, m uint64) {
	t, dn := s.terms[ti], s.tdn[ti]
	j := a >> 6
	if int(j) >= len(dn.bits) {
		return
	}
	x, r := dn.bits[j], dn.rank[j]
	for y := x & m; y != 0; y &= y - 1 {
		b := bits.TrailingZeros64(y)
		q := dn.weights[r+uint32(bits.OnesCount64(x&(1<<b-1)))]
		if sc := t.w*float32(q) + t.ex; sc > bw[b] {
			bw[b] = sc
		}
	}
}

// matched appends to out the query words doc d matched, in query order.
func (s *scratch) matched(d uint32, out []string) []string {
	var mask uint32
	for k, wi := range s.order {
		if s.wsets[k*s.nwin+int(d>>6)]>>(d&63)&1 != 0 {
			mask |= 1 << wi
		}
	}
	for i, w := range s.words {
		if mask>>i&1 != 0 {
			out = append(out, w.text)
		}
	}
	return out
}

// spread raises wmax, per window of 64 docs, to the best score term t
// (whose dense form dn is) can give a doc in it; it returns the best of
// them.
func (dn *dense) spread(t qterm, wmax []float32) float32 {
	var top uint8 // the largest weight: its score is the best (float32 rounding is monotone)
	for j, m := range dn.wmax[:min(len(dn.wmax), len(wmax))] {
		top = max(top, m)
		if sc := t.w*float32(m) + t.ex; m != 0 && sc > wmax[j] {
			wmax[j] = sc
		}
	}
	if top == 0 {
		return 0
	}
	return t.w*float32(top) + t.ex
}

// sparseFrac: a query is sparse (sparseWindows) when its terms hold at
// most one posting per sparseFrac windows of 64 doc numbers.
const sparseFrac = 8

// sparseWindows reports whether the query's terms (s.terms, their dense
// forms in s.tdn) have no dense form and few postings; if so it sets s.win
// to the windows holding their postings, in doc order. Every doc the query
// can match is in them, so the passes of match visit only those windows:
// its per-window arrays are then cleared and read there alone.
func (ix *Index) sparseWindows(s *scratch, nwin int) bool {
	v := &ix.voc
	n := 0
	for i, t := range s.terms {
		if s.tdn[i] != nil {
			return false
		}
		n += int(v.df[t.id])
	}
	if n*sparseFrac > nwin {
		return false
	}
	s.wsum = grow(s.wsum, (nwin+63)>>6)
	clear(s.wsum)
	s.win = s.win[:0]
	for _, t := range s.terms {
		pl, d := v.list(t.id), uint32(0)
		for _, list := range [2][]byte{pl.a, pl.b} {
			for i := 0; i < len(list); {
				i, d, _ = decode(list, i, d)
				if j := d >> 6; s.wsum[j>>6]>>(j&63)&1 == 0 {
					s.wsum[j>>6] |= 1 << (j & 63)
					s.win = append(s.win, j)
				}
			}
		}
	}
	slices.Sort(s.win)
	return true
}

// window is the i-th window the passes of match visit: s.win[i] when
// sparse, else window i.
func (s *scratch) window(i int, sparse bool) int {
	if sparse {
		return int(s.win[i])
	}
	return i
}

// clearWins zeroes a, a per-window array: only the windows s.win when
// sparse (sparseWindows), else all of it.
func clearWins[T uint64 | float32](s *scratch, a []T, sparse bool) {
	if !sparse {
		clear(a)
		return
	}
	for _, j := range s.win {
		a[j] = 0
	}
}

// grow returns s with length n, reusing its array when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/8)
	}
	return s[:n]
}
