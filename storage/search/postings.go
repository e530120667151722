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
	if v.lazyAux {
		return
	}
	if n >= skipEvery {
		bm := v.bmax[id]
		if n == skipEvery { // the first skip entry: block 0's bound too
			bm = []uint8{maxWeight(list[:v.skips[id][0].off])}
		}
		if b := int(n / skipEvery); b == len(bm) {
			bm = append(bm, w)
		} else {
			bm[b] = max(bm[b], w)
		}
		v.bmax[id] = bm
	}
	if dn := v.dense[id]; dn != nil {
		dn.add(d, w)
	}
}

// maxWeight returns the largest weight in a posting list (or a prefix of
// one that ends between postings).
func maxWeight(list []byte) uint8 {
	m := uint32(0)
	for i, d := 0, uint32(0); i < len(list); {
		var q uint32
		i, d, q = decode(list, i, d)
		m = max(m, q)
	}
	return uint8(m)
}

// Which terms get a dense form: at least denseMin postings and at least one
// doc in denseFrac. A variable so that tests can vary it.
var denseMin, denseFrac uint32 = 1024, 16

// dense is a common term's list in a second form, addressed by doc number
// instead of decoded in order: a bitset of its docs, the count of its docs
// before each window of 64 doc numbers, the weights in doc order, and the
// largest weight in each window. A query counts its matches by ORing and
// ANDing bitsets, bounds a window's scores by the window maxima, and reads
// a doc's weight at weights[rank[j]+popcount(bits[j] below the doc)].
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

// weight returns doc d's weight, d being in dn.
func (dn *dense) weight(d uint32) uint8 {
	j := d >> 6
	return dn.weights[dn.rank[j]+uint32(bits.OnesCount64(dn.bits[j]&(1<<(d&63)-1)))]
}

// buildAux rebuilds the block bounds and dense forms of every term for an
// index of docs doc numbers, and ends lazyAux.
func (v *vocab) buildAux(docs int) {
	clear(v.bmax)
	clear(v.dense)
	words := (docs + 63) >> 6
	for id, list := range v.post {
		n := v.df[id]
		if n <= skipEvery {
			continue
		}
		sk := v.skips[uint32(id)]
		bm := make([]uint8, len(sk)+1)
		var dn *dense
		if n >= denseMin && uint64(n)*uint64(denseFrac) >= uint64(docs) {
			dn = &dense{
				bits: make([]uint64, 0, words), rank: make([]uint32, 0, words),
				wmax: make([]uint8, 0, words), weights: make([]uint8, 0, n),
			}
		}
		b := 0
		for i, d := 0, uint32(0); i < len(list); {
			if b < len(sk) && i == int(sk[b].off) {
				b++
			}
			var q uint32
			i, d, q = decode(list, i, d)
			bm[b] = max(bm[b], uint8(q))
			if dn != nil {
				dn.add(d, uint8(q))
			}
		}
		v.bmax[uint32(id)] = bm
		if dn != nil {
			v.dense[uint32(id)] = dn
		}
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

// lookup returns doc d's weight in term id's list, or 0.
func (v *vocab) lookup(id, d uint32) uint32 {
	list := v.post[id]
	if len(list) == 0 || d > v.last[id] {
		return 0
	}
	i, prev := 0, uint32(0) // the first gap counts from 0
	if sk := v.skips[id]; len(sk) > 0 {
		// The last block whose previous doc is below d holds d if any does.
		b, _ := slices.BinarySearchFunc(sk, d, func(s skip, d uint32) int {
			if s.prev < d {
				return -1
			}
			return 1
		})
		if b > 0 {
			i, prev = int(sk[b-1].off), sk[b-1].prev
		}
	}
	for i < len(list) {
		var doc, w uint32
		i, doc, w = decode(list, i, prev)
		if doc >= d {
			if doc == d {
				return w
			}
			return 0
		}
		prev = doc
	}
	return 0
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
	for id, bm := range v.bmax {
		if cap(bm) > len(bm) {
			v.bmax[id] = slices.Clip(slices.Clone(bm))
		}
	}
}
