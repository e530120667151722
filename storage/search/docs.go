package search

import "math/bits"

// docTable maps listing ids to internal doc numbers of live docs: open
// addressing with linear probing, 4 bytes a slot holding doc+1 (0 = empty);
// the key is read back from the index's ids (idSource). About a fifth of a
// map[int64]uint32.
type docTable struct {
	slots []uint32
	n     int
	shift uint
}

// idSource gives a doc number's listing id.
type idSource interface{ idOf(d uint32) int64 }

func (t *docTable) home(id int64) int {
	return int(uint64(id) * 0x9E3779B97F4A7C15 >> t.shift)
}

// get returns id's doc number.
func (t *docTable) get(ids idSource, id int64) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.home(id); t.slots[i] != 0; i = (i + 1) & mask {
		if d := t.slots[i] - 1; ids.idOf(d) == id {
			return d, true
		}
	}
	return 0, false
}

// put maps ids[d] to d; ids[d] must not be in the table.
func (t *docTable) put(ids idSource, d uint32) {
	if (t.n+1)*4 > len(t.slots)*3 {
		t.resize(ids, max(len(t.slots)*2, 1024))
	}
	mask := len(t.slots) - 1
	i := t.home(ids.idOf(d))
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = d + 1
	t.n++
}

// del removes id, shifting later entries of its probe run back so that no
// lookup stops early at the hole.
func (t *docTable) del(ids idSource, id int64) {
	if len(t.slots) == 0 {
		return
	}
	mask := len(t.slots) - 1
	i := t.home(id)
	for ; ; i = (i + 1) & mask {
		if t.slots[i] == 0 {
			return
		}
		if ids.idOf(t.slots[i]-1) == id {
			break
		}
	}
	t.n--
	for j := (i + 1) & mask; t.slots[j] != 0; j = (j + 1) & mask {
		h := t.home(ids.idOf(t.slots[j] - 1))
		// Move j's entry into the hole at i unless its home lies in (i, j].
		if (j > i && (h <= i || h > j)) || (j < i && h <= i && h > j) {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = 0
}

// reset empties the table, keeping room for n entries.
func (t *docTable) reset(ids idSource, n int) {
	size := 1024
	for n*4 > size*3 {
		size *= 2
	}
	t.slots, t.n = nil, 0
	t.resize(ids, size)
}

func (t *docTable) resize(ids idSource, size int) {
	old := t.slots
	t.slots, t.n = make([]uint32, size), 0
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for _, e := range old {
		if e != 0 {
			t.put(ids, e-1)
		}
	}
}
