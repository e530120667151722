package search

import (
	"hash/maphash"
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
	// 4 bytes a slot holding id+1, 0 when empty). Together about a third of
	// a map[string]uint32 and a []string with a million terms.
	text []byte
	off  []uint32
	ids  []uint32
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
	// dels holds, for each term and each rune of it, the hash of the term
	// with that rune deleted, mapped to the term id.
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
		off:      []uint32{0},
		skips:    map[uint32][]skip{},
		dense:    map[uint32]*dense{},
		denseMin: denseMinDefault, denseFrac: denseFracDefault,
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

// find returns the id of term s and whether it is known; when unknown, the
// slot is where s would go in v.ids.
func (v *vocab) find(s string) (id uint32, ok bool, slot int) {
	if len(v.ids) == 0 {
		return 0, false, -1
	}
	mask := len(v.ids) - 1
	for i := int(maphash.String(v.seed, s)) & mask; ; i = (i + 1) & mask {
		e := v.ids[i]
		if e == 0 {
			return 0, false, i
		}
		if v.term(e-1) == s {
			return e - 1, true, i
		}
	}
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
		v.growIDs()
		_, _, slot = v.find(s)
	}
	v.ids[slot] = id + 1
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
		for v.dels.full(len(s)) {
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

func (v *vocab) growIDs() {
	old := v.ids
	v.ids = make([]uint32, max(len(old)*2, 1024))
	mask := len(v.ids) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := int(maphash.String(v.seed, v.term(e-1))) & mask
		for v.ids[i] != 0 {
			i = (i + 1) & mask
		}
		v.ids[i] = e
	}
}

// buildDels refills dels from every term, sized once, and ends lazyDels.
func (v *vocab) buildDels() {
	n := 0
	for id := range v.size() {
		if r := utf8.RuneCountInString(v.term(uint32(id))); r >= 3 {
			n += r
		}
	}
	v.dels = delTable{slots: make([]uint32, delSize(n))}
	for id := range v.size() {
		v.addDels(uint32(id))
	}
	v.lazyDels = false
}

// addDels adds term id's deletion neighbourhood to the table.
func (v *vocab) addDels(id uint32) {
	s := v.term(id)
	if utf8.RuneCountInString(s) < 3 {
		return
	}
	var arr [64]byte
	buf := arr[:0]
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		buf = append(append(buf[:0], s[:i]...), s[i+size:]...)
		v.dels.add(v.hash(buf), id)
		i += size
	}
}

func (v *vocab) hash(b []byte) uint32 { return uint32(maphash.Bytes(v.seed, b) >> 32) }

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

// delsOf calls f with each term id whose deletion neighbourhood holds b;
// hash collisions may add others, so callers verify the edit distance.
func (v *vocab) delsOf(b []byte, f func(uint32)) {
	v.dels.find(v.hash(b), f)
}

// delTable is an open-addressing multimap from a 32-bit hash tag to term
// ids, 4 bytes a slot: the tag's top 8 bits, then id+1 in 24 bits; 0 is an
// empty slot. The slot is found from the whole tag and compared on its top
// 8 bits, so a lookup meets a foreign term once in 256 probes (callers check
// the edit distance anyway). It is several times smaller than a Go map of
// slices, which matters with one entry per rune of every term (over 10M
// entries at a million listings). Growing rehashes every term's
// neighbourhood, since the slots do not keep whole tags. Terms after the
// first 16,777,214 get no neighbourhood: they are still found exactly and by
// prefix, not by a typo.
type delTable struct {
	slots []uint32
	n     int
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

func (t *delTable) add(tag, id uint32) {
	if id > maxDelID {
		return
	}
	e := tag&0xff000000 | (id + 1)
	for i := t.home(tag); ; i = t.next(i) {
		switch t.slots[i] {
		case 0:
			t.slots[i] = e
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
// re-adds the neighbourhood of every term but the newest (its caller adds
// that one).
func (t *delTable) grow(v *vocab) {
	size := max(delSize(t.n), len(t.slots)*3/2)
	t.slots, t.n = make([]uint32, size), 0
	for id := range v.size() - 1 {
		v.addDels(uint32(id))
	}
}

func (t *delTable) find(tag uint32, f func(uint32)) {
	if len(t.slots) == 0 {
		return
	}
	top := tag & 0xff000000
	for i := t.home(tag); t.slots[i] != 0; i = t.next(i) {
		if t.slots[i]&0xff000000 == top {
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
