package search

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpCache_FreshAfterNewTerms: a query word's candidates are kept
// between searches (expCache), and a term added since, as written, as a
// stem or one typo away, is found by the next search like any other.
func TestExpCache_FreshAfterNewTerms(t *testing.T) {
	t.Parallel()
	ix := New()
	ix.Upsert(Doc{ID: 1, Name: "Punchcard", Tagline: "Time tracker for teams", Status: "live"})
	ix.Upsert(Doc{ID: 2, Name: "Billfold", Tagline: "Send quotes to clients", Status: "live"})
	steps := []struct {
		add   Doc
		q     string
		want  []int64
		total int
	}{
		{q: "trackr", want: []int64{1}, total: 1}, // a typo of "tracker"
		// "trackr" as written: first, by its exactness.
		{add: Doc{ID: 3, Name: "Trackr", Tagline: "Sync your calendars", Status: "live"}, q: "trackr", want: []int64{3, 1}, total: 2},
		{q: "invoices", want: nil, total: 0},
		// Its stem "invoic" from "invoicing".
		{add: Doc{ID: 4, Name: "Ledgerly", Tagline: "Invoicing for freelancers", Status: "live"}, q: "invoices", want: []int64{4}, total: 1},
		{q: "calendr", want: []int64{3}, total: 1},
		// A new term one edit away ("calendar", "calender"): found too.
		{add: Doc{ID: 5, Name: "Datebook", Tagline: "A calender for families", Status: "live"}, q: "calendr", want: []int64{3, 5}, total: 2},
	}
	for i, st := range steps {
		if st.add.ID != 0 {
			ix.Upsert(st.add)
		}
		for range 2 { // the second search answers from the cache
			got, total := ix.Search(Query{Text: st.q})
			if st.q == "calendr" { // both typos: which ranks first is BM25's
				slices.Sort(got)
			}
			if !slices.Equal(got, st.want) || total != st.total {
				t.Fatalf("step %d: Search(%q) = %v, %d; want %v, %d", i, st.q, got, total, st.want, st.total)
			}
		}
	}
}

// TestExpCache_SameAsWithout: an index whose query words' candidates are
// kept answers the golden queries and queries of typos, stems and prefixes
// as one expanding every word afresh, while docs are added, replaced and
// deleted between the rounds (new terms every round), a compaction
// included.
func TestExpCache_SameAsWithout(t *testing.T) {
	t.Parallel()
	cached, fresh := New(), New()
	fresh.exp.off = true
	c := newCorpus(23)
	qs := goldenQueries(newCorpus(23))
	for i, w := range c.vocab[:60] {
		if len(w) < 4 {
			continue
		}
		qs = append(qs, Query{Text: w}, Query{Text: w[:len(w)-1]}, Query{Text: w + "s"},
			Query{Text: w[:1] + w[2:] + " " + c.vocab[100+i]})
	}
	var id int64
	for round := range 8 {
		for range 150 {
			id++
			d := c.doc(id)
			cached.Upsert(d)
			fresh.Upsert(d)
			if id%5 == 0 { // a replacement: the same listing's new words
				d = c.doc(id)
				d.ID = id - 3
				cached.Upsert(d)
				fresh.Upsert(d)
			}
			if id%7 == 0 {
				cached.Delete(id - 6)
				fresh.Delete(id - 6)
			}
		}
		for _, q := range qs {
			wantIDs, want := fresh.Search(q)
			gotIDs, got := cached.Search(q)
			if diff := cmp.Diff(wantIDs, gotIDs); diff != "" || got != want {
				t.Fatalf("round %d: Search(%+v): total %d, want %d (-fresh +cached):\n%s", round, q, got, want, diff)
			}
		}
	}
	if n := len(cached.exp.words); n == 0 {
		t.Fatal("nothing cached")
	}
}

// TestExpCache_KeepsWordsInUse checks the cache's generations: a word
// asked again and again stays however many other words pass through, and a
// word asked once leaves after two generations of them; an epoch change
// drops both generations.
func TestExpCache_KeepsWordsInUse(t *testing.T) {
	t.Parallel()
	var c expCache
	want := []cand{{id: 7, quality: qualityExact}}
	c.put("for", 1, want)
	c.put("once", 1, []cand{{id: 8, quality: qualityExact}})
	for i := range 5 * expCacheMax {
		c.put(fmt.Sprintf("name%d", i), 1, nil)
		if i%(expCacheMax/2) == 0 {
			if got, ok := c.get("for", 1); !ok || len(got) != 1 || got[0] != want[0] {
				t.Fatalf("after %d other words: the word in use is gone (%v, %v)", i+1, got, ok)
			}
		}
	}
	if _, ok := c.get("once", 1); ok {
		t.Fatalf("a word asked once is still kept after %d other words", 5*expCacheMax)
	}
	c.put("new", 2, nil)
	if _, ok := c.get("for", 2); ok {
		t.Fatal("a word of the previous epoch is kept")
	}
}
