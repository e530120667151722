package search

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSearch_Relevance(t *testing.T) {
	t.Parallel()
	ix := New()
	// Votes favour the weaker matches, so only the score can put them first.
	d := mk(1, "Orbit", "Plain tagline", "Nothing to see here.")
	d.Votes = 1
	ix.Upsert(d)
	d = mk(2, "Plain", "Orbit tracking for satellites", "Nothing to see here.")
	d.Votes = 50
	ix.Upsert(d)
	d = mk(3, "Plain", "Plain tagline", "Orbit orbit orbit orbit orbit orbit: a long description about orbit.")
	d.Votes = 100
	ix.Upsert(d)
	d = mk(4, "Plain", "Plain tagline", "Nothing.", "orbit")
	d.Votes = 75
	ix.Upsert(d)
	d = mk(5, "Orbin", "Plain tagline", "A typo away.")
	d.Votes = 1000
	ix.Upsert(d)

	// Name beats tagline and keywords, which beat description; an exact
	// match beats a typo one. Tagline and keywords weigh the same, so votes
	// order them.
	got, total := search(ix, Query{Text: "orbit"})
	want := []string{"s1", "s4", "s2", "s3", "s5"}
	if diff := cmp.Diff(want, got); diff != "" || total != 5 {
		t.Errorf("total %d (-want +got):\n%s", total, diff)
	}
	// Sorting by votes ignores the score.
	got, _ = search(ix, Query{Text: "orbit", Sort: "votes"})
	if diff := cmp.Diff([]string{"s5", "s3", "s4", "s2", "s1"}, got); diff != "" {
		t.Errorf("sort=votes (-want +got):\n%s", diff)
	}
}

func TestIndex_UpsertDelete(t *testing.T) {
	t.Parallel()
	ix := fixture()
	if ix.Len() != 6 {
		t.Fatalf("Len = %d, want 6", ix.Len())
	}
	// Replace: old words go, new words come, the count stays.
	d := mk(2, "Ledgerly", "Bookkeeping for freelancers", "Reconcile bank statements.")
	ix.Upsert(d)
	if got, total := search(ix, Query{Text: "invoicing"}); total != 0 {
		t.Errorf("old text still matches: %v", got)
	}
	if got, _ := search(ix, Query{Text: "bookkeeping"}); !cmp.Equal(got, []string{"s2"}) {
		t.Errorf("new text: got %v, want [s2]", got)
	}
	if ix.Len() != 6 {
		t.Errorf("Len after replace = %d, want 6", ix.Len())
	}
	// A status that is neither live nor scheduled removes the listing.
	d.Status = "draft"
	ix.Upsert(d)
	if got, total := search(ix, Query{Text: "bookkeeping"}); total != 0 {
		t.Errorf("draft still matches: %v", got)
	}
	ix.Delete(1)
	ix.Delete(1)
	ix.Delete(999)
	if got, _ := search(ix, Query{Text: "noteflow"}); len(got) != 0 {
		t.Errorf("deleted listing still matches: %v", got)
	}
	if ix.Len() != 4 {
		t.Errorf("Len = %d, want 4", ix.Len())
	}
	if got, total := search(ix, Query{}); total != 4 || len(got) != 4 {
		t.Errorf("Search() = %v, %d, want 4 listings", got, total)
	}
}

// TestIndex_Compaction churns far past the compaction threshold and checks
// that every listing is found by its current text only, with the right data.
func TestIndex_Compaction(t *testing.T) {
	t.Parallel()
	ix := New()
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 300
	version := make([]int, n)
	for round := 0; round < 8; round++ {
		for i := range n {
			if rng.IntN(3) == 0 && round > 0 {
				continue
			}
			version[i] = round
			d := mk(int64(i), fmt.Sprintf("item%d", i), fmt.Sprintf("r%dxx%d", round, round), "shared words here")
			d.Votes = i
			ix.Upsert(d)
		}
	}
	for i := 0; i < n; i += 3 {
		ix.Delete(int64(i))
	}
	ix.mu.RLock()
	docs, live := len(ix.ids), ix.live
	ix.mu.RUnlock()
	if docs > live*2 {
		t.Errorf("%d doc numbers for %d listings: compaction did not run", docs, live)
	}
	for i := range n {
		got, _ := search(ix, Query{Text: fmt.Sprintf("item%d", i)})
		deleted, slug := i%3 == 0, fmt.Sprintf("s%d", i)
		if deleted && slices.Contains(got, slug) || !deleted && (len(got) == 0 || got[0] != slug) {
			t.Fatalf("item%d (deleted %v): got %v", i, deleted, got)
		}
	}
	for round := 0; round < 8; round++ {
		_, total := search(ix, Query{Text: fmt.Sprintf("r%dxx%d", round, round), Limit: 1})
		want := 0
		for i, v := range version {
			if v == round && i%3 != 0 {
				want++
			}
		}
		if total != want {
			t.Errorf("round%d: total %d, want %d", round, total, want)
		}
	}
	got, total := search(ix, Query{Text: "shared words", Sort: "votes", Limit: 3})
	if total != n-(n+2)/3 || !cmp.Equal(got, []string{"s299", "s298", "s296"}) {
		t.Errorf("shared words: %v total %d", got, total)
	}
}

// TestIndex_WideIDs checks listing ids that do not fit the index's 32-bit
// id array (negative, 2^32-1 and above) through upserts, deletes, ties
// broken by id and a compaction.
func TestIndex_WideIDs(t *testing.T) {
	t.Parallel()
	ix := New()
	ids := []int64{1 << 40, -7, 1<<32 - 1, 1<<32 - 2, 3, math.MaxInt64, math.MinInt64}
	for round := range 3 {
		for _, id := range ids {
			ix.Upsert(mk(id, fmt.Sprintf("name%d", uint64(id)%1000), "same words", "round"+strconv.Itoa(round)))
		}
		for i := range 100 { // filler, deleted below to trigger a compaction
			ix.Upsert(mk(int64(1000+i), "filler", "other", "text"))
		}
		for i := range 100 {
			ix.Delete(int64(1000 + i))
		}
	}
	got, total := ix.Search(Query{Text: "same words"})
	want := slices.Sorted(slices.Values(ids)) // equal scores and votes: ascending id
	if total != len(ids) || !cmp.Equal(got, want) {
		t.Errorf("same words: %v total %d, want %v", got, total, want)
	}
	ix.Delete(1 << 40)
	ix.Delete(math.MinInt64)
	got, _ = ix.Search(Query{Text: "round2"})
	if want := []int64{-7, 3, 1<<32 - 2, 1<<32 - 1, math.MaxInt64}; !cmp.Equal(got, want) {
		t.Errorf("after deletes: %v, want %v", got, want)
	}
	if ix.Len() != len(ids)-2 {
		t.Errorf("Len %d, want %d", ix.Len(), len(ids)-2)
	}
}

// TestIndex_Concurrent runs searches while other goroutines upsert and
// delete; run with -race. Listings 0..99 are never touched, so searches for
// them must always succeed.
func TestIndex_Concurrent(t *testing.T) {
	t.Parallel()
	ix := New()
	for i := range 100 {
		ix.Upsert(mk(int64(i), fmt.Sprintf("stable%d", i), "steady listing", "always here"))
	}
	var writers, readers sync.WaitGroup
	stop := make(chan struct{})
	for w := range 2 {
		writers.Add(1)
		go func() {
			defer writers.Done()
			for j := 0; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				id := int64(1000 + w*1000 + j%200)
				if j%5 == 4 {
					ix.Delete(id)
				} else {
					ix.Upsert(mk(id, fmt.Sprintf("churn%d", j), "churning listing", "comes and goes"))
				}
			}
		}()
	}
	var errs sync.Map
	for r := range 4 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for i := range 300 {
				k := (i*7 + r) % 100
				got, _ := search(ix, Query{Text: fmt.Sprintf("stabel%d steady", k)})
				if len(got) == 0 || got[0] != fmt.Sprintf("s%d", k) {
					errs.Store(k, got)
				}
				search(ix, Query{Text: "churning listing", Limit: 5})
				_ = ix.Len()
			}
		}()
	}
	readers.Wait()
	close(stop)
	writers.Wait()
	errs.Range(func(k, v any) bool {
		t.Errorf("stable%d: got %v", k, v)
		return true
	})
	if n := ix.Len(); n < 100 || n > 500 {
		t.Errorf("Len = %d, want 100..500", n)
	}
}

// TestDocTable checks the id table against a map through random puts and
// deletes, including deletes that shift entries back across the wrap.
func TestDocTable(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var tab docTable
	var ids int64s
	want := map[int64]uint32{}
	for step := range 200_000 {
		id := int64(rng.IntN(5000))
		if _, ok := want[id]; ok && rng.IntN(2) == 0 {
			tab.del(ids, id)
			delete(want, id)
		} else if !ok {
			ids = append(ids, id)
			tab.put(ids, uint32(len(ids)-1))
			want[id] = uint32(len(ids) - 1)
		}
		if step%1000 == 0 || step > 199_000 {
			for probe := int64(0); probe < 5000; probe += 7 {
				d, ok := tab.get(ids, probe)
				wd, wok := want[probe]
				if ok != wok || d != wd {
					t.Fatalf("step %d: get(%d) = %d, %v; want %d, %v", step, probe, d, ok, wd, wok)
				}
			}
		}
	}
	if tab.n != len(want) {
		t.Fatalf("n = %d, want %d", tab.n, len(want))
	}
}

// int64s is an idSource over a slice.
type int64s []int64

func (s int64s) idOf(d uint32) int64 { return s[d] }
