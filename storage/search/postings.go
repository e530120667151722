package search

import (
	"math/bits"
	"slices"
)

// Posting lists are byte strings: for each posting, in doc-number order, the
// gap to the previous doc number (the first: the doc number itself) as an
// unsigned varint, then the doc's quantised term weight (1..255) as one byte.
// A common term's gaps fit in one byte, so most postings take two bytes
// instead of the four of a flat uint32 (24-bit doc, 8-bit weight).
//
// While a bulk load runs, each term's list is a slice of its own
// (vocab.lists) that grows by append. pack then moves every list into one
// arena in term order (vocab.arena, term id's list at
// arena[pOff[id]:pOff[id+1]]): no slice header, allocation rounding or
// growth slack per term, which at a million mostly one-posting terms is
// most of what the lists took. Postings appended to a packed list go to its
// tail (vocab.tail), whose first gap counts from the packed part's last doc,
// so that the packed part and the tail read as one list; a compaction
// (rewrite) or Trim packs the tails in again.
//
// Lists longer than skipEvery postings also get a skip table (vocab.skips):
// one entry per block of skipEvery postings, holding the doc number before
// the block and the block's byte offset in the list (packed part and tail
// counted as one), so that lookup decodes one block instead of the whole
// list.

// skipEvery is the number of postings per skip block.
const skipEvery = 64

// skip is one skip-table entry: a block of postings starts at byte off, and
// its first gap counts from doc prev.
type skip struct {
	prev, off uint32
}

// plist is a posting list as two byte strings read one after the other: a
// packed part and a tail (either may be empty).
type plist struct {
	a, b []byte
}

// list returns term id's posting list (empty for a dense term).
func (v *vocab) list(id uint32) plist {
	if !v.packed {
		return plist{a: v.lists[id]}
	}
	lo, hi := v.pOff[id], v.pOff[id+1]
	pl := plist{a: v.arena[lo:hi:hi]}
	if len(v.tail) > 0 {
		pl.b = v.tail[id]
	}
	return pl
}

// lastDoc returns the doc number of the last posting of term id's list,
// decoding from its last skip block; the list must not be empty.
func (v *vocab) lastDoc(id uint32) uint32 {
	pl := v.list(id)
	i, d := 0, uint32(0)
	if sk := v.skips[id]; len(sk) > 0 {
		i, d = int(sk[len(sk)-1].off), sk[len(sk)-1].prev
	}
	for n := len(pl.a); i < n+len(pl.b); {
		if i < n {
			i, d, _ = decode(pl.a, i, d)
		} else {
			i, d, _ = decode(pl.b, i-n, d)
			i += n
		}
	}
	return d
}

// appendPosting appends doc d with weight w to term id's list. Docs arrive
// in increasing order.
func (v *vocab) appendPosting(id, d uint32, w uint8) {
	if dn := v.dense[id]; dn != nil {
		dn.add(d, w)
		v.df[id]++
		return
	}
	n := v.df[id]
	if !v.packed {
		list := v.lists[id]
		if n > 0 && n%skipEvery == 0 {
			v.skips[id] = append(v.skips[id], skip{prev: v.last[id], off: uint32(len(list))})
		}
		v.lists[id] = appendPost(list, d-v.last[id], w)
		v.last[id] = d
		v.df[id] = n + 1
		return
	}
	last := uint32(0)
	if n > 0 {
		last = v.lastDoc(id)
	}
	t := v.tail[id]
	if n > 0 && n%skipEvery == 0 {
		v.skips[id] = append(v.skips[id], skip{prev: last, off: v.pOff[id+1] - v.pOff[id] + uint32(len(t))})
	}
	if v.tail == nil {
		v.tail = map[uint32][]byte{}
	}
	v.tail[id] = appendPost(t, d-last, w)
	v.df[id] = n + 1
}

// appendPost appends a posting with this gap and weight to list.
func appendPost(list []byte, gap uint32, w uint8) []byte {
	for gap >= 0x80 {
		list = append(list, byte(gap)|0x80)
		gap >>= 7
	}
	return append(list, byte(gap), w)
}

// pack moves every term's list (but dense terms') into one arena, tails
// included, and ends the load mode. Unless forced, a packed vocabulary
// without tails is left as it is.
func (v *vocab) pack(force bool) {
	if v.packed && len(v.tail) == 0 && !force {
		return
	}
	total := 0
	for id := range uint32(v.size()) {
		if v.dense[id] == nil {
			pl := v.list(id)
			total += len(pl.a) + len(pl.b)
		}
	}
	arena := make([]byte, 0, total)
	pOff := make([]uint32, 1, v.size()+1)
	for id := range uint32(v.size()) {
		if v.dense[id] == nil {
			pl := v.list(id)
			arena = append(append(arena, pl.a...), pl.b...)
		}
		pOff = append(pOff, uint32(len(arena)))
	}
	v.arena, v.pOff, v.tail, v.lists, v.last, v.packed = arena, pOff, nil, nil, nil, true
}

// Which terms get a dense form (vocab.denseMin, denseFrac): at least 1024
// postings and at least one doc in 16.
const denseMinDefault, denseFracDefault = 1024, 16

// dense is a common term's posting list in the form of a bitset of its docs,
// the count of its docs before each window of 64 doc numbers, the weights in
// doc order, and the largest weight in each window. It replaces the term's
// byte list: a query counts its matches by ORing and ANDing bitsets, bounds a
// window's scores by the window maxima, and reads a doc's weight at
// weights[rank[j]+popcount(bits[j] below the doc)] instead of decoding the
// list up to it. From about one doc in five it is also smaller than the
// list (1 byte a posting plus 3/16 byte a doc number, against 2 bytes a
// posting).
type dense struct {
	bits    []uint64
	rank    []uint32
	weights []uint8
	wmax    []uint8
}

// add appends doc d (above every doc in dn) with weight w.
func (dn *dense) add(d uint32, w uint8) {
	j := int(d >> 6)
	for len(dn.bits) <= j {
		dn.bits = append(dn.bits, 0)
		dn.wmax = append(dn.wmax, 0)
		dn.rank = append(dn.rank, uint32(len(dn.weights)))
	}
	dn.bits[j] |= 1 << (d & 63)
	dn.wmax[j] = max(dn.wmax[j], w)
	dn.weights = append(dn.weights, w)
}

// each calls f with every doc and its weight, in doc order.
func (dn *dense) each(f func(d, w uint32)) {
	r := 0
	for j, x := range dn.bits {
		for ; x != 0; x &= x - 1 {
			f(uint32(j<<6+bits.TrailingZeros64(x)), uint32(dn.weights[r]))
			r++
		}
	}
}

func newDense(words, n int) *dense {
	return &dense{
		bits: make([]uint64, 0, words), rank: make([]uint32, 0, words),
		wmax: make([]uint8, 0, words), weights: make([]uint8, 0, n),
	}
}

// buildAux turns the byte lists of common terms into their dense form, for
// an index of docs doc numbers; it ends lazyAux. In load mode the lists of the terms made dense are dropped; in packed
// mode their bytes stay in the arena, unread, and buildAux reports whether
// there are any, so that the caller can pack again.
func (v *vocab) buildAux(docs int) (converted bool) {
	words := (docs + 63) >> 6
	for id := range uint32(v.size()) {
		n := v.df[id]
		if n < v.denseMin || uint64(n)*uint64(v.denseFrac) < uint64(docs) || v.dense[id] != nil {
			continue
		}
		dn := newDense(words, int(n))
		pl := v.list(id)
		d := uint32(0)
		for _, list := range [2][]byte{pl.a, pl.b} {
			for i := 0; i < len(list); {
				var q uint32
				i, d, q = decode(list, i, d)
				dn.add(d, uint8(q))
			}
		}
		v.dense[id] = dn
		if !v.packed {
			v.lists[id] = nil
		}
		delete(v.tail, id)
		delete(v.skips, id)
		converted = true
	}
	v.lazyAux = false
	return converted
}

// decode decodes the posting at byte i of list, whose previous doc was d; it
// returns the byte after it, the doc and its weight.
func decode(list []byte, i int, d uint32) (int, uint32, uint32) {
	if x := uint32(list[i]); x < 0x80 {
		return i + 2, d + x, uint32(list[i+1])
	}
	return decodeLong(list, i, d)
}

func decodeLong(list []byte, i int, d uint32) (int, uint32, uint32) {
	x := uint32(0)
	for s := uint(0); ; s += 7 {
		b := uint32(list[i])
		i++
		x |= (b & 0x7f) << s
		if b < 0x80 {
			break
		}
	}
	return i + 1, d + x, uint32(list[i])
}

// rewrite renumbers every posting list through remap (math.MaxUint32: the
// doc is gone), keeping them sorted, into a new arena with new skip tables,
// and, unless a bulk load defers them, rebuilds the dense forms for docs doc
// numbers.
func (v *vocab) rewrite(remap []uint32, docs int) {
	total := 0
	for id := range uint32(v.size()) {
		pl := v.list(id)
		total += len(pl.a) + len(pl.b)
	}
	arena := make([]byte, 0, total) // renumbering never lengthens a gap
	pOff := make([]uint32, 1, v.size()+1)
	skips := map[uint32][]skip{}
	for id := range uint32(v.size()) {
		if dn := v.dense[id]; dn != nil { // stays dense
			nd := newDense(len(dn.bits), len(dn.weights))
			dn.each(func(d, w uint32) {
				if r := remap[d]; r != gone {
					nd.add(r, uint8(w))
				}
			})
			if v.df[id] = uint32(len(nd.weights)); v.df[id] == 0 {
				delete(v.dense, id)
			} else {
				v.dense[id] = nd
			}
			pOff = append(pOff, uint32(len(arena)))
			continue
		}
		start, n, last, d := len(arena), uint32(0), uint32(0), uint32(0)
		pl := v.list(id)
		for _, list := range [2][]byte{pl.a, pl.b} {
			for i := 0; i < len(list); {
				var w uint32
				i, d, w = decode(list, i, d)
				nd := remap[d]
				if nd == gone {
					continue
				}
				if n > 0 && n%skipEvery == 0 {
					skips[id] = append(skips[id], skip{prev: last, off: uint32(len(arena) - start)})
				}
				arena = appendPost(arena, nd-last, uint8(w))
				last = nd
				n++
			}
		}
		v.df[id] = n
		pOff = append(pOff, uint32(len(arena)))
	}
	v.arena, v.pOff, v.skips, v.tail, v.lists, v.last, v.packed = slices.Clip(arena), pOff, skips, nil, nil, nil, true
	if !v.lazyAux && v.buildAux(docs) {
		v.pack(true) // drop the lists made dense
	}
}

// trim packs the posting lists into one arena and gives every skip table
// the exact capacity it needs, dropping the slack of growth by append.
func (v *vocab) trim() {
	v.pack(false)
	for id, sk := range v.skips {
		if cap(sk) > len(sk) {
			v.skips[id] = slices.Clip(slices.Clone(sk))
		}
	}
}
