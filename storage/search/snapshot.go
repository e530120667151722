package search

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"maps"
	"math/bits"
	"slices"
	"sync"
	"unsafe"
)

// SnapshotVersion is the version of the layout WriteSnapshot writes. Any
// change to the Index's fields, to what they hold (posting encoding, skip
// blocks, dense forms) or to the terms and weights a doc gets (tokenizer,
// BM25 weights) must change it: a snapshot of another version is not read.
// TestSnapshot_VersionPinned pins a hash of the layout and of a snapshot
// of a fixed corpus to this number, so that such a change fails it until
// the version is bumped.
const SnapshotVersion = 2

// WriteSnapshot writes the index to w: every field but the hash tables
// seeded with this process's maphash seed (the term table and the typo
// table), which ReadSnapshot rebuilds. Slices of numbers are written as
// their bytes in this machine's byte order; the caller records the byte
// order, a version (SnapshotVersion) and a checksum. It holds the read
// lock: searches go on, writes wait.
func (ix *Index) WriteSnapshot(w io.Writer) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	e := &enc{w: bufio.NewWriterSize(w, 1<<20)}
	putSlice(e, ix.ids)
	putMap(e, ix.wide)
	putSlice(e, ix.status)
	putSlice(e, ix.domText)
	putSlice(e, ix.domOff)
	putSlice(e, ix.newest)
	putSlice(e, ix.votes)
	putSlice(e, ix.views)
	putSlice(e, ix.follows)
	putSlice(e, ix.trending)
	for _, b := range ix.stBits {
		putSlice(e, b)
	}
	for _, m := range ix.valBits {
		putMapSlices(e, m)
	}
	putMapSlices(e, ix.catDocs)
	putSlice(e, ix.byID.slots)
	e.int(ix.byID.n)
	e.int(int(ix.byID.shift))
	e.int(ix.live)
	e.int(ix.dead)
	keys := slices.Sorted(maps.Keys(ix.strs))
	e.int(len(keys))
	for _, k := range keys {
		e.int(len(k))
		e.bytes([]byte(k))
		e.int(int(ix.strs[k]))
	}

	v := &ix.voc
	putSlice(e, v.text)
	putSlice(e, v.off)
	e.int(len(v.ids)) // rebuilt on load
	e.bool(v.packed)
	putLists(e, v.lists)
	putSlice(e, v.last)
	putSlice(e, v.arena)
	putSlice(e, v.pOff)
	putMapSlices(e, v.tail)
	putSlice(e, v.df)
	putMapSlices(e, v.skips)
	dk := slices.Sorted(maps.Keys(v.dense))
	if v.dense == nil {
		e.int(-1)
	} else {
		e.int(len(dk))
	}
	for _, id := range dk {
		dn := v.dense[id]
		e.int(int(id))
		putSlice(e, dn.bits)
		putSlice(e, dn.rank)
		putSlice(e, dn.weights)
		putSlice(e, dn.wmax)
	}
	e.int(int(v.denseMin))
	e.int(int(v.denseFrac))
	e.bool(v.lazyAux)
	e.int(len(v.dels.slots)) // rebuilt on load
	e.bool(v.lazyDels)
	putMapSlices(e, v.prefix)
	e.int(snapshotEnd)
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// snapshotEnd closes a snapshot, so that a reader out of step with the
// writer notices.
const snapshotEnd = 0x5EA2C4E9D

// ReadSnapshot reads an index written by WriteSnapshot (of SnapshotVersion,
// on a machine of the same byte order) from r, which holds size bytes.
// Lengths are checked against size before anything is allocated, so a
// damaged snapshot gives an error, not a panic or a huge allocation. Once
// every byte is read, verify (when not nil) is called, before the hash
// tables are built: the caller checks its checksum there.
func ReadSnapshot(r io.Reader, size int64, verify func() error) (ix *Index, err error) {
	defer func() {
		if p := recover(); p != nil {
			ix, err = nil, fmt.Errorf("search: damaged snapshot: %v", p)
		}
	}()
	d := &dec{r: bufio.NewReaderSize(r, 1<<20), left: size}
	ix = New()
	ix.ids = getSlice[uint32](d)
	ix.wide = getMap[uint32, int64](d)
	ix.status = getSlice[uint8](d)
	ix.domText = getSlice[byte](d)
	ix.domOff = getSlice[uint32](d)
	ix.newest = getSlice[int64](d)
	ix.votes = getSlice[int32](d)
	ix.views = getSlice[int32](d)
	ix.follows = getSlice[int32](d)
	ix.trending = getSlice[float64](d)
	for i := range ix.stBits {
		ix.stBits[i] = getSlice[uint64](d)
	}
	for i := range ix.valBits {
		ix.valBits[i] = getMapSlices[uint32, uint64](d)
	}
	ix.catDocs = getMapSlices[int64, uint32](d)
	ix.byID.slots = getSlice[uint32](d)
	ix.byID.n = d.int()
	ix.byID.shift = uint(d.int())
	ix.live = d.int()
	ix.dead = d.int()
	n := d.count(9)
	ix.strs = make(map[string]uint32, n)
	for i := 0; i < n && d.err == nil; i++ {
		k := string(d.bytes(d.count(1)))
		ix.strs[k] = uint32(d.int())
	}

	v := &ix.voc
	v.text = getSlice[byte](d)
	v.off = getSlice[uint32](d)
	idsLen := d.count(0)
	v.packed = d.bool()
	v.lists = getLists(d)
	v.last = getSlice[uint32](d)
	v.arena = getSlice[byte](d)
	v.pOff = getSlice[uint32](d)
	v.tail = getMapSlices[uint32, byte](d)
	v.df = getSlice[uint32](d)
	v.skips = getMapSlices[uint32, skip](d)
	if n, ok := d.length(5 * 8); !ok {
		v.dense = nil
	} else {
		v.dense = make(map[uint32]*dense, n)
		for i := 0; i < n && d.err == nil; i++ {
			id := uint32(d.int())
			dn := &dense{}
			dn.bits = getSlice[uint64](d)
			dn.rank = getSlice[uint32](d)
			dn.weights = getSlice[uint8](d)
			dn.wmax = getSlice[uint8](d)
			v.dense[id] = dn
		}
	}
	v.denseMin = uint32(d.int())
	v.denseFrac = uint32(d.int())
	v.lazyAux = d.bool()
	delsLen := d.count(0)
	v.lazyDels = d.bool()
	v.prefix = getMapSlices[uint16, uint32](d)
	if end := d.int(); d.err == nil && end != snapshotEnd {
		d.err = errors.New("search: snapshot does not end where it should")
	}
	if d.err != nil {
		return nil, d.err
	}
	if d.left != 0 {
		return nil, fmt.Errorf("search: %d bytes after the snapshot", d.left)
	}
	if verify != nil {
		if err := verify(); err != nil {
			return nil, err
		}
	}
	if len(v.off) == 0 || v.off[0] != 0 || int(v.off[len(v.off)-1]) != len(v.text) || idsLen&(idsLen-1) != 0 ||
		idsLen < v.size() || idsLen > 8*v.size()+1024 || delsLen > 8*v.size()+1024 {
		return nil, errors.New("search: damaged snapshot: term table")
	}
	for i := 1; i < len(v.off); i++ { // term reads text through unsafe.String
		if v.off[i] < v.off[i-1] {
			return nil, errors.New("search: damaged snapshot: term offsets")
		}
	}
	// The seeded tables, with this process's seed (v.seed, from New), on
	// two cores.
	var wg sync.WaitGroup
	var idsErr any
	wg.Go(func() {
		defer func() { idsErr = recover() }() // the checksum is checked after: damaged offsets may panic
		v.rebuildIDs(idsLen)
	})
	if delsLen > 0 {
		v.dels = newDelTable(delsLen)
		for id := range v.size() {
			v.addDels(uint32(id))
		}
	}
	wg.Wait()
	if idsErr != nil {
		return nil, fmt.Errorf("search: damaged snapshot: %v", idsErr)
	}
	return ix, nil
}

// rebuildIDs fills a term table of size slots with every term (tagged
// while every id fits, idSlot).
func (v *vocab) rebuildIDs(size int) {
	if size == 0 {
		v.ids = nil
		return
	}
	v.ids = make([]uint32, size)
	mask := size - 1
	v.wideIDs = v.wideIDs || v.size() > int(v.maxTagged)+1 // ids 0..size-1
	for id := range uint32(v.size()) {
		h := maphash.String(v.seed, v.term(id))
		i := int(h) & mask
		for v.ids[i] != 0 {
			i = (i + 1) & mask
		}
		v.ids[i] = v.idSlot(id, h)
	}
}

// fixed are the element types written as raw bytes.
type fixed interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64 | ~int32 | ~int64 | ~float64 | skip
}

// asBytes is s's memory.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

type enc struct {
	w   *bufio.Writer
	err error
	buf [8]byte
}

func (e *enc) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

func (e *enc) int(x int) {
	*(*int64)(unsafe.Pointer(&e.buf)) = int64(x)
	e.bytes(e.buf[:])
}

func (e *enc) bool(b bool) {
	x := 0
	if b {
		x = 1
	}
	e.int(x)
}

// putSlice writes s's length (-1 for nil) and its bytes.
func putSlice[T fixed](e *enc, s []T) {
	if s == nil {
		e.int(-1)
		return
	}
	e.int(len(s))
	e.bytes(asBytes(s))
}

// putMap writes m (nil kept) as its sorted keys and their values.
func putMap[K cmp.Ordered, V fixed](e *enc, m map[K]V) {
	if m == nil {
		e.int(-1)
		return
	}
	keys := slices.Sorted(maps.Keys(m))
	vals := make([]V, len(keys))
	for i, k := range keys {
		vals[i] = m[k]
	}
	e.int(len(keys))
	e.bytes(asBytes(keys))
	e.bytes(asBytes(vals))
}

// putMapSlices writes m (nil kept) as its sorted keys, the length of each
// value (-1 for nil) and the values back to back.
func putMapSlices[K interface {
	cmp.Ordered
	fixed
}, V fixed](e *enc, m map[K][]V) {
	if m == nil {
		e.int(-1)
		return
	}
	keys := slices.Sorted(maps.Keys(m))
	lens := make([]int64, len(keys))
	for i, k := range keys {
		if m[k] == nil {
			lens[i] = -1
		} else {
			lens[i] = int64(len(m[k]))
		}
	}
	e.int(len(keys))
	e.bytes(asBytes(keys))
	e.bytes(asBytes(lens))
	for _, k := range keys {
		e.bytes(asBytes(m[k]))
	}
}

// putLists writes the load mode's per-term lists (an empty list is nil:
// appendPost never leaves one empty).
func putLists(e *enc, lists [][]byte) {
	if lists == nil {
		e.int(-1)
		return
	}
	lens := make([]uint32, len(lists))
	for i, l := range lists {
		lens[i] = uint32(len(l))
	}
	putSlice(e, lens)
	for _, l := range lists {
		e.bytes(l)
	}
}

type dec struct {
	r    *bufio.Reader
	left int64 // bytes not read yet
	err  error
	buf  [8]byte
}

func (d *dec) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// bytes reads n bytes into a new slice.
func (d *dec) bytes(n int) []byte {
	b := make([]byte, n)
	d.read(b)
	return b
}

func (d *dec) read(b []byte) {
	if d.err != nil {
		return
	}
	if int64(len(b)) > d.left {
		d.fail(errors.New("search: snapshot shorter than its contents"))
		return
	}
	if _, err := io.ReadFull(d.r, b); err != nil {
		d.fail(fmt.Errorf("search: reading the snapshot: %w", err))
		return
	}
	d.left -= int64(len(b))
}

func (d *dec) int() int {
	d.read(d.buf[:])
	if d.err != nil {
		return 0
	}
	return int(*(*int64)(unsafe.Pointer(&d.buf)))
}

func (d *dec) bool() bool { return d.int() != 0 }

// count reads a length of items of at least size bytes each, checked
// against the bytes left.
func (d *dec) count(size int64) int {
	n := d.int()
	if n < 0 || int64(n)*size > d.left {
		d.fail(fmt.Errorf("search: damaged snapshot: length %d", n))
		return 0
	}
	return n
}

// length reads a slice's length (-1: nil) of items of size bytes.
func (d *dec) length(size int64) (int, bool) {
	n := d.int()
	if n == -1 {
		return 0, false
	}
	if n < 0 || int64(n)*size > d.left {
		d.fail(fmt.Errorf("search: damaged snapshot: length %d", n))
		return 0, false
	}
	return n, true
}

func getSlice[T fixed](d *dec) []T {
	var z T
	n, ok := d.length(int64(unsafe.Sizeof(z)))
	if !ok || d.err != nil {
		return nil
	}
	s := make([]T, n)
	d.read(asBytes(s))
	return s
}

func getMap[K comparable, V fixed](d *dec) map[K]V {
	var k K
	var v V
	n, ok := d.length(int64(unsafe.Sizeof(k) + unsafe.Sizeof(v)))
	if !ok || d.err != nil {
		return nil
	}
	keys, vals := make([]K, n), make([]V, n)
	d.read(asBytes(keys))
	d.read(asBytes(vals))
	m := make(map[K]V, n)
	for i := range keys {
		m[keys[i]] = vals[i]
	}
	return m
}

// getMapSlices reads what putMapSlices wrote. The values share one
// allocation, each capped at its length, so that an append to one of them
// moves it out instead of overwriting the next.
func getMapSlices[K fixed, V fixed](d *dec) map[K][]V {
	var k K
	n, ok := d.length(int64(unsafe.Sizeof(k)) + 8)
	if !ok || d.err != nil {
		return nil
	}
	keys, lens := make([]K, n), make([]int64, n)
	d.read(asBytes(keys))
	d.read(asBytes(lens))
	total := int64(0)
	for _, l := range lens {
		if l < -1 || l > d.left {
			d.fail(errors.New("search: damaged snapshot: map value length"))
			return nil
		}
		total += max(l, 0)
	}
	var v V
	if total*int64(unsafe.Sizeof(v)) > d.left {
		d.fail(errors.New("search: damaged snapshot: map values"))
		return nil
	}
	all := make([]V, total)
	d.read(asBytes(all))
	m := make(map[K][]V, n)
	at := int64(0)
	for i, key := range keys {
		if lens[i] < 0 {
			m[key] = nil
			continue
		}
		m[key] = all[at : at+lens[i] : at+lens[i]]
		at += lens[i]
	}
	return m
}

// getLists reads what putLists wrote, the lists sharing one allocation as
// in getMapSlices.
func getLists(d *dec) [][]byte {
	lens := getSlice[uint32](d)
	if lens == nil || d.err != nil {
		return nil
	}
	total := int64(0)
	for _, l := range lens {
		total += int64(l)
	}
	if total > d.left {
		d.fail(errors.New("search: damaged snapshot: lists"))
		return nil
	}
	all := make([]byte, total)
	d.read(all)
	lists := make([][]byte, len(lens))
	at := int64(0)
	for i, l := range lens {
		if l > 0 {
			lists[i] = all[at : at+int64(l) : at+int64(l)]
		}
		at += int64(l)
	}
	return lists
}

// LiveIn returns the number of live listings in any of the categories
// cats, as the storage layer counts them for its category tree.
func (ix *Index) LiveIn(cats []int64) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	live := ix.stBits[stLive]
	if len(cats) == 1 {
		n := 0
		for _, d := range ix.catDocs[cats[0]] {
			if live[d>>6]&(1<<(d&63)) != 0 {
				n++
			}
		}
		return n
	}
	seen := make([]uint64, len(live))
	for _, c := range cats {
		for _, d := range ix.catDocs[c] {
			seen[d>>6] |= 1 << (d & 63)
		}
	}
	n := 0
	for j, x := range seen {
		n += bits.OnesCount64(x & live[j])
	}
	return n
}
