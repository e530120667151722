package search

import (
	"hash/maphash"
	"math"
	"math/bits"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// vocab is the term dictionary: ids, posting lists (postings.go), the
// deletion neighbourhood used to find typo candidates (SymSpell), and
// per-prefix sorted term lists used for prefix matches.
type vocab struct {
	// text holds every term's bytes back to back, term id's at
	// text[off[id]:off[id+1]]; ids maps a term to its id (open addressing,
	// 4 bytes a slot, 0 when empty: see idSlot). Together about a third of
	// a map[string]uint32 and a []string with a million terms.
	text []byte
	off  []uint32
	ids  []uint32
	// wideIDs: the term table's slots hold id+1 alone, without a tag
	// (idSlot), once an id is above maxTagged (maxTaggedID; lower in tests).
	wideIDs   bool
	maxTagged uint32
	// Posting lists (postings.go): in load mode (packed false) per term in
	// lists, with the doc number of its last posting in last; packed, in
	// arena at pOff, plus the tails of lists appended to since.
	packed bool
	lists  [][]byte
	last   []uint32
	arena  []byte
	pOff   []uint32
	tail   map[uint32][]byte
	df     []uint32 // per term: its number of postings (tombstoned docs included)
	skips  map[uint32][]skip
	// dense holds a second form of each common term's list (denseMin,
	// denseFrac): see dense.
	dense map[uint32]*dense
	// denseMin and denseFrac choose the terms that get a dense form: at
	// least denseMin postings and at least one doc in denseFrac.
	denseMin, denseFrac uint32
	// lazyAux defers dense forms during a bulk load or a compaction;
	// buildAux then fills them in one pass.
	lazyAux bool

	seed maphash.Seed
	// dels finds typo candidates: each term of 3 or more runes is in it
	// under two keys, its first half and its second half (with its length
	// in runes); a term one edit from a query word shares one of them with
	// the word (typoCandidates). It is named after the deletion
	// neighbourhood (SymSpell) it replaced, which held one key per rune of
	// every term: five times the entries.
	dels delTable
	// lazyDels defers dels during a bulk load: buildDels then fills it in
	// one pass at its final size instead of rehashing on every doubling.
	lazyDels bool

	// prefix maps the first two bytes of a term to the ids of all terms with
	// those bytes, sorted by term.
	prefix map[uint16][]uint32
}

func newVocab() vocab {
	return vocab{
		off:       []uint32{0},
		maxTagged: maxTaggedID,
		skips:     map[uint32][]skip{},
		dense:     map[uint32]*dense{},
		denseMin:  denseMinDefault, denseFrac: denseFracDefault,
		seed:   maphash.MakeSeed(),
		prefix: map[uint16][]uint32{},
	}
}

// size returns the number of terms.
func (v *vocab) size() int { return len(v.off) - 1 }

// term returns term id's text. It points into v.text, which is only ever
// appended to: a string given out stays valid.
func (v *vocab) term(id uint32) string {
	lo, hi := v.off[id], v.off[id+1]
	if lo == hi {
		return ""
	}
	return unsafe.String(&v.text[lo], hi-lo)
}

// touchTerms reads the offsets of terms ids, then the first byte of each
// one's text, and returns a sum of them (for the caller to keep, so that
// the loads stay): each pass's loads are independent of one another, so
// the processor overlaps their cache misses.
func (v *vocab) touchTerms(ids []uint32) uint32 {
	var x uint32
	for _, id := range ids {
		x += v.off[id]
	}
	for _, id := range ids {
		if lo := v.off[id]; int(lo) < len(v.text) {
			x += uint32(v.text[lo])
		}
	}
	return x
}

// idLowBits is how many low bits of a term table slot hold id+1; the bits
// above them hold a tag, the top bits of the term's hash, so that a probe
// compares a term's text only when the tags agree (one foreign term in 256).
// An unsuccessful look-up (a query word's stems, most of which are no
// term) probes several slots at a table 3/8-3/4 full, and reading each
// one's text missed the processor's caches twice (its offset, its bytes):
// the tag costs no memory and saves those reads.
const idLowBits = 24

// maxTaggedID bounds the term ids a tagged slot holds; past it the table
// is rebuilt without tags (wideIDs).
const maxTaggedID = 1<<idLowBits - 2

// idSlot is the term table's slot value for term id, whose hash is h.
func (v *vocab) idSlot(id uint32, h uint64) uint32 {
	if v.wideIDs {
		return id + 1
	}
	return uint32(h>>(64-(32-idLowBits)))<<idLowBits | (id + 1)
}

// find returns the id of term s and whether it is known; when unknown, the
// slot is where s would go in v.ids.
func (v *vocab) find(s string) (id uint32, ok bool, slot int) {
	if len(v.ids) == 0 {
		return 0, false, -1
	}
	mask := len(v.ids) - 1
	h := maphash.String(v.seed, s)
	tag := v.idSlot(0, h) &^ (1<<idLowBits - 1) // 0 when wide
	low := uint32(1<<idLowBits - 1)
	if v.wideIDs {
		low = math.MaxUint32
	}
	for i := int(h) & mask; ; i = (i + 1) & mask {
		e := v.ids[i]
		if e == 0 {
			return 0, false, i
		}
		if e&^low != tag {
			continue
		}
		if id := e&low - 1; v.term(id) == s {
			return id, true, i
		}
	}
}

// touchSlot reads the term table's slot where a look-up of s starts, and
// returns it for the caller to keep (so that the load stays): touched
// first, the slots of several terms are read with their cache misses
// overlapping, and then found there by lookupTerm.
func (v *vocab) touchSlot(s string) uint32 {
	if len(v.ids) == 0 {
		return 0
	}
	return v.ids[int(maphash.String(v.seed, s))&(len(v.ids)-1)]
}

// lookupTerm returns the id of term s, if known.
func (v *vocab) lookupTerm(s string) (uint32, bool) {
	id, ok, _ := v.find(s)
	return id, ok
}

// id returns the id of term s, adding it when new.
func (v *vocab) id(s string) uint32 {
	id, ok, slot := v.find(s)
	if ok {
		return id
	}
	id = uint32(v.size())
	if (id+1)*4 > uint32(len(v.ids))*3 { // keep the table at most 3/4 full
		v.rebuildIDs(max(len(v.ids)*2, 1024))
		_, _, slot = v.find(s)
	}
	if id > v.maxTagged && !v.wideIDs {
		v.wideIDs = true
		v.rebuildIDs(len(v.ids))
		_, _, slot = v.find(s)
	}
	v.ids[slot] = v.idSlot(id, maphash.String(v.seed, s))
	v.text = append(v.text, s...)
	v.off = append(v.off, uint32(len(v.text)))
	if v.packed {
		v.pOff = append(v.pOff, v.pOff[len(v.pOff)-1])
	} else {
		v.lists = append(v.lists, nil)
		v.last = append(v.last, 0)
	}
	v.df = append(v.df, 0)
	if !v.lazyDels {
		for v.dels.full(2) {
			v.dels.grow(v)
		}
		v.addDels(id)
	}
	if len(s) >= 2 {
		key := prefixKey(s)
		list := v.prefix[key]
		at := v.lowerBound(list, s)
		list = append(list, 0)
		copy(list[at+1:], list[at:])
		list[at] = id
		v.prefix[key] = list
	}
	return id
}

// buildDels refills dels from every term, sized once, and ends lazyDels.
func (v *vocab) buildDels() {
	n := 0
	for id := range v.size() {
		if utf8.RuneCountInString(v.term(uint32(id))) >= 3 {
			n += 2
		}
	}
	v.dels = newDelTable(delSize(n))
	for id := range v.size() {
		v.addDels(uint32(id))
	}
	v.lazyDels = false
}

// epoch names the dictionary's state as a query word's candidates see it
// (expCache): it changes when a term is added (the terms only grow, and
// keep their ids) and when the typo table gains entries (buildDels after a
// bulk load); it never goes back.
func (v *vocab) epoch() uint64 { return uint64(v.size())<<32 | uint64(v.dels.n) }

// addDels adds term id to the typo table under its two halves.
func (v *vocab) addDels(id uint32) {
	s := v.term(id)
	r := utf8.RuneCountInString(s)
	if r < 3 {
		return
	}
	h, fp := runeOffset(s, r/2), runeFP(s)
	v.dels.add(v.halfHash(s[:h], r, 0), id, fp)
	v.dels.add(v.halfHash(s[h:], r, 1), id, fp)
}

// runeFP is a term's fingerprint in the typo table: bit k is the parity of
// the number of its runes that hash to k (runeBit). Two strings one edit
// apart as within1 defines it have fingerprints at most two bits apart
// (fpCheck.near), so a candidate whose fingerprint is further from the query
// word's is rejected without reading its text.
//
// Why no candidate within one edit is lost, when a is valid UTF-8 (b may
// be anything): within1(a, b) strips the common prefix and suffix (whole
// runes of a: it backs up to a rune start of a, and the bytes it stripped
// are the same in a and b, so they are whole runes of b too) and accepts
// when what is left is one rune against none (an insertion), one against one (a
// substitution), or two runes against the same two swapped. Decoding a
// string rune by rune gives the runes of its prefix, middle and suffix in
// turn (each part starts at a rune start, so no rune of one part runs into
// the next), so the runes of a and b, as multisets, differ by at most one
// rune taken out and one put in. Each rune flips one bit of the
// fingerprint, so a rune taken out and one put in flip at most two bits,
// one put in flips one, and the same runes in another order flip none:
// popcount(fp(a) ^ fp(b)) <= 2. The two halves a candidate shares with the
// word cancel out in the XOR, so what is compared is the other half.
// TestRuneFP_NeverRejectsWithin1 checks this on random and chosen pairs.
func runeFP(s string) uint8 {
	var fp uint8
	for _, r := range s {
		fp ^= runeBit(r)
	}
	return fp
}

// runeBit is the fingerprint bit of rune r: a multiplicative hash's top
// three bits, which spread the latin letters over the eight bits.
func runeBit(r rune) uint8 { return 1 << (uint32(r) * 0x9E3779B1 >> 29) }

// fpCheck is a query word's fingerprint and the bits of it compared.
type fpCheck struct{ fp, mask uint8 }

// wordFP is the check of query word w's candidates: w's fingerprint, all
// of it compared; none of it when w is not valid UTF-8 (runeFP's proof
// needs within1's first string valid; tokens and their stems are).
func wordFP(w string) fpCheck {
	if !utf8.ValidString(w) {
		return fpCheck{}
	}
	return fpCheck{runeFP(w), 0xff}
}

// near reports whether a term of fingerprint fp may be one edit from the
// word (see runeFP).
func (c fpCheck) near(fp uint8) bool { return bits.OnesCount8((fp^c.fp)&c.mask) <= 2 }

// halfHash is the typo table's key for the first (part 0) or second (part
// 1) half s of a term of runes runes.
func (v *vocab) halfHash(s string, runes int, part uint64) uint32 {
	return uint32((maphash.String(v.seed, s) ^ (uint64(runes)<<1|part)*0x9E3779B97F4A7C15) >> 32)
}

// runeOffset returns the byte offset of rune k of s (len(s) past the end).
func runeOffset(s string, k int) int {
	for i := range s {
		if k == 0 {
			return i
		}
		k--
	}
	return len(s)
}

// typoCandidates calls f with the ids of terms that may be one substitution,
// adjacent swap or insertion from w (of runes runes): same length, or
// (when more is set) one rune longer; and, when more is set, one deletion
// from it (one rune shorter). Hash collisions and the other terms that
// share a half with w are among them, so callers check the edit distance;
// those whose fingerprint (runeFP) fails fp (w's: wordFP) are left out,
// their texts unread.
//
// A term t of L runes is under its halves t[:L/2] and t[L/2:]. An edit of w
// leaves one half of t whole: a substitution, an insertion into w or a
// deletion from it to make t, at rune L/2 or after leaves t[:L/2] = w[:L/2];
// one before it leaves t's second half equal to w's last L-L/2 runes. A
// swap of runes p, p+1 is like a substitution on either side of L/2, except
// for the swap of runes L/2-1 and L/2 themselves: that one is looked up with
// those two runes of w swapped back. (Deletions were looked up as terms, w
// with each rune deleted: one probe of the term table per rune, each
// missing the processor's caches, where the two halves take two.) It
// returns buf and a sum of the table slots it touched first (see touch),
// for the caller to keep.
func (v *vocab) typoCandidates(w string, runes int, more bool, fp fpCheck, buf []byte, f func(uint32)) ([]byte, uint32) {
	// The keys first, then their slots touched (independent loads, whose
	// cache misses overlap), then each key's run of slots read in turn.
	var tags [7]uint32
	n := 0
	for _, L := range [3]int{runes, runes + 1, runes - 1} {
		if L != runes && !more {
			break
		}
		h := L / 2
		tags[n], tags[n+1] = v.halfHash(w[:runeOffset(w, h)], L, 0), v.halfHash(w[runeOffset(w, runes-(L-h)):], L, 1)
		n += 2
		if L == runes && h >= 1 && h < runes {
			a, b, c := runeOffset(w, h-1), runeOffset(w, h), runeOffset(w, h+1)
			buf = append(append(buf[:0], w[:a]...), w[b:c]...)
			tags[n] = v.halfHash(unsafe.String(unsafe.SliceData(buf), len(buf)), L, 0)
			n++
		}
	}
	var x uint32 // for the caller to keep, so that the loads stay
	for _, tag := range tags[:n] {
		x += v.dels.touch(tag)
	}
	for _, tag := range tags[:n] {
		v.dels.find(tag, fp, f)
	}
	return buf, x
}

func prefixKey(s string) uint16 { return uint16(s[0])<<8 | uint16(s[1]) }

// lowerBound returns the first position in list whose term is >= s.
func (v *vocab) lowerBound(list []uint32, s string) int {
	lo, hi := 0, len(list)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if v.term(list[m]) < s {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// delTable is an open-addressing multimap from a 32-bit hash tag to term
// ids, 4 bytes a slot: the tag's top 8 bits, then id+1 in 24 bits; 0 is an
// empty slot. fps holds each slot's term's fingerprint (runeFP), a byte
// beside the slot that find reads instead of the term's text. The slot is
// found from the whole tag and compared on its top 8 bits, so a lookup
// meets a foreign term once in 256 probes (callers check the edit distance
// anyway). It is several times smaller than a Go map of
// slices. Growing rehashes every term's keys, since the slots do not keep
// whole tags. Terms after the first 16,777,214 are not in it: they are
// still found exactly and by prefix, not by a typo.
type delTable struct {
	slots []uint32
	fps   []uint8
	n     int
}

// newDelTable returns an empty table of size slots.
func newDelTable(size int) delTable {
	return delTable{slots: make([]uint32, size), fps: make([]uint8, size)}
}

// delSize is the table size for n entries: 4/5 full, any size (home maps a
// tag onto it by multiplying, not masking), so that the table is not up to
// twice what it needs as with power-of-two sizes.
func delSize(n int) int { return max(n+n/4, 1024) }

// maxDelID bounds the term ids a slot can hold.
const maxDelID = 1<<24 - 2

func (t *delTable) home(tag uint32) int {
	h := uint64(tag) * 0x9E3779B97F4A7C15 >> 32
	return int(h * uint64(len(t.slots)) >> 32)
}

// full reports whether adding k entries would load the table above 7/8.
func (t *delTable) full(k int) bool { return (t.n+k)*8 > len(t.slots)*7 }

func (t *delTable) add(tag, id uint32, fp uint8) {
	if id > maxDelID {
		return
	}
	e := tag&0xff000000 | (id + 1)
	for i := t.home(tag); ; i = t.next(i) {
		switch t.slots[i] {
		case 0:
			t.slots[i], t.fps[i] = e, fp
			t.n++
			return
		case e: // a term may produce the same deletion twice ("book")
			return
		}
	}
}

// next is the slot after i, wrapping around.
func (t *delTable) next(i int) int {
	if i++; i == len(t.slots) {
		return 0
	}
	return i
}

// grow makes the table 4/5 full again (at least 1.5 times larger) and
// re-adds every term but the newest (its caller adds that one).
func (t *delTable) grow(v *vocab) {
	size := max(delSize(t.n), len(t.slots)*3/2)
	*t = newDelTable(size)
	for id := range v.size() - 1 {
		v.addDels(uint32(id))
	}
}

// touch reads tag's home slot and its fingerprint (see typoCandidates).
func (t *delTable) touch(tag uint32) uint32 {
	if len(t.slots) == 0 {
		return 0
	}
	i := t.home(tag)
	return t.slots[i] + uint32(t.fps[i])
}

// find calls f with the ids under tag whose fingerprint passes fp.
func (t *delTable) find(tag uint32, fp fpCheck, f func(uint32)) {
	if len(t.slots) == 0 {
		return
	}
	top := tag & 0xff000000
	for i := t.home(tag); t.slots[i] != 0; i = t.next(i) {
		if t.slots[i]&0xff000000 == top && fp.near(t.fps[i]) {
			f(t.slots[i]&0xffffff - 1)
		}
	}
}

// withPrefix calls f with each term id that starts with p (len(p) >= 2).
func (v *vocab) withPrefix(p string, f func(uint32)) {
	list := v.prefix[prefixKey(p)]
	for i := v.lowerBound(list, p); i < len(list); i++ {
		id := list[i]
		if !strings.HasPrefix(v.term(id), p) {
			return
		}
		f(id)
	}
}

// within1 reports whether a and b are at most one Damerau edit apart
// (insert, delete, substitute, or swap two adjacent runes).
func within1(a, b string) bool {
	if a == b {
		return true
	}
	// Strip the common prefix and suffix; what is left must be one edit.
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for i > 0 && i < len(a) && !utf8.RuneStart(a[i]) { // back to a rune boundary
		i--
	}
	a, b = a[i:], b[i:]
	j := 0
	for j < len(a) && j < len(b) && a[len(a)-1-j] == b[len(b)-1-j] {
		j++
	}
	for j > 0 && !utf8.RuneStart(a[len(a)-j]) {
		j--
	}
	a, b = a[:len(a)-j], b[:len(b)-j]
	ra, rb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
	switch {
	case ra+rb == 1: // one insertion or deletion
		return true
	case ra == 1 && rb == 1: // one substitution
		return true
	case ra == 2 && rb == 2: // adjacent transposition
		a0, s0 := utf8.DecodeRuneInString(a)
		a1, _ := utf8.DecodeRuneInString(a[s0:])
		b0, t0 := utf8.DecodeRuneInString(b)
		b1, _ := utf8.DecodeRuneInString(b[t0:])
		return a0 == b1 && a1 == b0
	}
	return false
}
