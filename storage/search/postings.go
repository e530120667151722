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
// Lists longer than skipEvery postings also get a skip table (vocab.skips):
// one entry per block of skipEvery postings, holding the doc number before
// the block and the block's byte offset, so that lookup decodes one block
// instead of the whole list.

// skipEvery is the number of postings per skip block.
const skipEvery = 64

// skip is one skip-table entry: a block of postings starts at byte off, and
// its first gap counts from doc prev.
type skip struct {
	prev, off uint32
}

// appendPosting appends doc d with weight w to term id's list. Docs arrive
// in increasing order.
func (v *vocab) appendPosting(id, d uint32, w uint8) {
	if dn := v.dense[id]; dn != nil {
		dn.add(d, w)
		v.last[id], v.df[id] = d, v.df[id]+1
		return
	}
	list := v.post[id]
	n := v.df[id]
	gap := d - v.last[id]
	if n == 0 {
		gap = d
	}
	if n > 0 && n%skipEvery == 0 {
		v.skips[id] = append(v.skips[id], skip{prev: v.last[id], off: uint32(len(list))})
	}
	for gap >= 0x80 {
		list = append(list, byte(gap)|0x80)
		gap >>= 7
	}
	list = append(list, byte(gap), w)
	v.post[id] = list
	v.last[id] = d
	v.df[id] = n + 1
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
// an index of docs doc numbers; it ends lazyAux.
func (v *vocab) buildAux(docs int) {
	words := (docs + 63) >> 6
	for id, list := range v.post {
		n := v.df[id]
		if n < v.denseMin || uint64(n)*uint64(v.denseFrac) < uint64(docs) || v.dense[uint32(id)] != nil {
			continue
		}
		dn := newDense(words, int(n))
		for i, d := 0, uint32(0); i < len(list); {
			var q uint32
			i, d, q = decode(list, i, d)
			dn.add(d, uint8(q))
		}
		v.dense[uint32(id)] = dn
		v.post[id] = nil
		delete(v.skips, uint32(id))
	}
	v.lazyAux = false
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
// doc is gone), keeping them sorted, and rebuilds the skip tables, and,
// unless a bulk load defers them, the block bounds and bitsets for docs doc
// numbers.
func (v *vocab) rewrite(remap []uint32, docs int) {
	lazy := v.lazyAux
	v.lazyAux = true
	defer func() {
		if !lazy {
			v.buildAux(docs)
		}
	}()
	var buf []byte
	for id, list := range v.post {
		if v.df[id] == 0 {
			continue
		}
		if dn := v.dense[uint32(id)]; dn != nil { // stays dense
			nd := newDense(len(dn.bits), len(dn.weights))
			dn.each(func(d, w uint32) {
				if r := remap[d]; r != gone {
					nd.add(r, uint8(w))
					v.last[id] = r
				}
			})
			if v.df[id] = uint32(len(nd.weights)); v.df[id] == 0 {
				delete(v.dense, uint32(id))
			} else {
				v.dense[uint32(id)] = nd
			}
			continue
		}
		buf = append(buf[:0], list...)
		v.post[id], v.df[id], v.last[id] = list[:0], 0, 0
		delete(v.skips, uint32(id))
		d := uint32(0)
		for i := 0; i < len(buf); {
			var w uint32
			i, d, w = decode(buf, i, d)
			if nd := remap[d]; nd != gone {
				v.appendPosting(uint32(id), nd, uint8(w))
			}
		}
		if v.df[id] == 0 {
			v.post[id] = nil
		}
	}
}

// trim gives every posting list and skip table the exact capacity it needs,
// dropping the slack of growth by append; after a bulk load this is about a
// fifth of the postings' memory.
func (v *vocab) trim() {
	for id, list := range v.post {
		if cap(list)-len(list) > 8 {
			v.post[id] = slices.Clip(slices.Clone(list))
		}
	}
	for id, sk := range v.skips {
		if cap(sk) > len(sk) {
			v.skips[id] = slices.Clip(slices.Clone(sk))
		}
	}
}
