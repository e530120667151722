package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/launchdir/launchdir/internal/testtier"
)

// TestDense_SameResults compares an index where no term gets a dense form
// with one where most common terms do, after a bulk load, after churn
// (appends to dense terms, tombstones) and after a compaction (dense terms
// renumbered): pages and totals must be the same.
func TestDense_SameResults(t *testing.T) {
	testtier.SkipRace(t, "two 6,000-listing indexes compared query by query, after churn and a compaction "+
		"(their loads' UpsertAll workers run under -race in TestUpsertAll_SameResults, searches beside writes in TestIndex_Concurrent)")
	t.Parallel()
	c := newCorpus(9)
	const n = 6_000
	all := make([]Doc, n+300) // c.doc draws from one generator: make each doc once
	for i := range all {
		all[i] = c.doc(int64(i + 1))
	}
	load := func(denseMin, denseFrac uint32) *Index {
		ix := New()
		ix.voc.denseMin, ix.voc.denseFrac = denseMin, denseFrac
		docs := make(chan Doc, 64)
		go func() {
			defer close(docs)
			for id := int64(1); id <= n; id++ {
				docs <- all[id-1]
			}
		}()
		ix.UpsertAll(docs, 2)
		return ix
	}
	lists, dense := load(math.MaxUint32, 1), load(skipEvery+1, 1000)
	if len(dense.voc.dense) < 50 || len(lists.voc.dense) != 0 {
		t.Fatalf("dense forms: %d and %d terms, want none and 50 or more", len(lists.voc.dense), len(dense.voc.dense))
	}
	compare := func(stage string) {
		t.Helper()
		for _, q := range goldenQueries(c) {
			wantIDs, want := lists.Search(q)
			gotIDs, got := dense.Search(q)
			if diff := cmp.Diff(wantIDs, gotIDs); diff != "" || got != want {
				t.Errorf("%s: Search(%+v): total %d, want %d (-lists +dense):\n%s", stage, q, got, want, diff)
			}
		}
	}
	compare("after the load")
	churn := func(from, step int64) {
		for id := from; id <= n+200; id += step {
			for _, ix := range []*Index{lists, dense} {
				if id%4 == 0 {
					ix.Delete(id)
				} else {
					d := all[id+7-1] // new text under the same id, or a new listing
					d.ID = id
					ix.Upsert(d)
				}
			}
		}
	}
	churn(1, 29)
	if dense.dead == 0 || len(dense.voc.dense) < 50 {
		t.Fatalf("churn: %d tombstones, %d dense terms", dense.dead, len(dense.voc.dense))
	}
	compare("after churn")
	churn(2, 3) // past the compaction threshold
	compare("after a compaction")
}

// TestByBound checks the groups byBound sorts windows into: every window
// with matches once, in doc order within a group, every bound of a group
// at least every bound of the groups after it, and each group's highest
// bound; with few and many windows, ties, windows without matches and
// bounds from equal to far apart (levels are powers of two apart).
func TestByBound(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 17))
	var s scratch // reused, as a pooled one is: no group may keep an earlier trial's windows
	for trial := range 2000 {
		nwin := r.IntN(300)
		s.full = make([]float64, nwin)
		s.cbits = make([]uint64, nwin)
		var want []uint32
		for j := range nwin {
			switch r.IntN(3) {
			case 0:
				s.full[j] = float64(r.IntN(40)) / 4 // ties are common
			case 1:
				s.full[j] = float64(r.IntN(1 << 20))
			default:
				s.full[j] = float64(int64(1)<<(30+r.IntN(20))) + r.Float64()*1e5
			}
			if r.IntN(4) != 0 {
				s.cbits[j] = 1 << r.IntN(64)
				want = append(want, uint32(j))
			}
		}
		top := math.Inf(-1)
		for _, j := range want {
			top = max(top, s.full[j])
		}
		s.byBound(top, false)
		var groups [][]uint32
		for g := range s.ghead {
			var ws []uint32
			for j := s.ghead[g]; j >= 0; j = s.wnext[j] {
				ws = append(ws, uint32(j))
			}
			if g >= len(s.gtop) && len(ws) > 0 {
				t.Fatalf("trial %d: group %d holds %v, after the last group %d", trial, g, ws, len(s.gtop)-1)
			}
			groups = append(groups, ws)
		}
		got := slices.Sorted(slices.Values(slices.Concat(groups...)))
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: windows %v, want %v", trial, groups, want)
		}
		if len(want) == 0 {
			continue
		}
		lowest := math.Inf(1) // of the groups before
		for g, top := range s.gtop {
			ws := groups[g]
			high, low := math.Inf(-1), math.Inf(1)
			for i, j := range ws {
				if i > 0 && ws[i-1] >= j {
					t.Fatalf("trial %d: group %d not in doc order: %v", trial, g, ws)
				}
				high, low = max(high, s.full[j]), min(low, s.full[j])
			}
			if len(ws) > 0 && (high != top || high > lowest) {
				t.Fatalf("trial %d: group %d's bounds %v..%v (top %v), the groups before go down to %v", trial, g, low, high, top, lowest)
			}
			lowest = min(lowest, low)
		}
	}
}

// TestTop_SameAsSortingEverything offers entries with many equal keys and
// votes (ties broken by id) to the candidate buffer, for pages from 1 to
// more than the entries, in random order, and compares what it keeps with
// the first k of all entries sorted; entries below the running threshold
// must be refused by below as push refuses them.
func TestTop_SameAsSortingEverything(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 30))
	for round := range 300 {
		n := 1 + r.IntN(3000)
		all := make([]hent, n)
		for i := range all {
			all[i] = hent{key: float64(r.IntN(1 + n/(1+round%7))), votes: int32(r.IntN(3)), doc: uint32(i), id: int64(i)}
		}
		r.Shuffle(n, func(i, j int) { all[i], all[j] = all[j], all[i] })
		k := 1 + r.IntN(n+n/4)
		if round%5 == 0 {
			k = 1 + r.IntN(40)
		}
		var s scratch
		s.k = k
		s.resetTop()
		for _, e := range all {
			if s.below(e.key) {
				continue
			}
			s.offer(e)
		}
		s.finishTop()
		want := slices.Clone(all)
		slices.SortFunc(want, cmpHent)
		want = want[:min(k, n)]
		if !slices.Equal(want, s.heap) {
			t.Fatalf("round %d: n=%d k=%d: kept %d entries, first %v, want %d, first %v", round, n, k, len(s.heap), s.heap[:min(3, len(s.heap))], len(want), want[:min(3, len(want))])
		}
	}
}
