package search

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchPages holds the name and tagline of every doc of the 100k benchmark
// corpus (the generator is deterministic, so regenerating it gives the
// docs the index holds), for placing the matched words of a page.
var benchPages struct {
	once          sync.Once
	name, tagline []string
}

func benchPageTexts(n int) ([]string, []string) {
	benchPages.once.Do(func() {
		c := newCorpus(42)
		benchPages.name, benchPages.tagline = make([]string, n+1), make([]string, n+1)
		for id := 1; id <= n; id++ {
			d := c.doc(int64(id))
			benchPages.name[id], benchPages.tagline[id] = d.Name, d.Tagline
		}
	})
	return benchPages.name, benchPages.tagline
}

// benchDistinctQueries returns n distinct queries made from the corpus's
// listings in a shuffled order (fixed seed), of the kinds an assistant or a
// person writes: two neighbouring tagline words, a name, a name with a
// letter deleted, changed or two letters swapped, a tagline word with a
// letter deleted, three tagline words. Words recur across queries as the
// corpus's Zipf vocabulary makes them (tagline words) or rarely (names), so
// the index's caches of query words and texts see mostly words and listings
// they have not seen.
func benchDistinctQueries(n, docs int, names, tags []string) ([]string, []int) {
	r := rand.New(rand.NewPCG(11, 30))
	seen := map[string]bool{}
	var out []string
	var kinds []int
	var t tokenizer
	words := func(s string) []string {
		var ws []string
		for _, tok := range t.tokens(s, true) {
			ws = append(ws, tok.text)
		}
		return ws
	}
	typo := func(w string) string {
		if len(w) < 5 {
			return w
		}
		k := 1 + r.IntN(len(w)-2) // not the first or last letter
		switch r.IntN(3) {
		case 0:
			return w[:k] + w[k+1:]
		case 1:
			return w[:k] + string(rune('a'+r.IntN(26))) + w[k+1:]
		}
		return w[:k-1] + w[k:k+1] + w[k-1:k] + w[k+1:]
	}
	for i := 0; len(out) < n; i++ {
		id := 1 + r.IntN(docs)
		name, tag := words(names[id]), words(tags[id])
		if len(name) == 0 || len(tag) < 3 {
			continue
		}
		q, kind := "", i%len(benchDistinctKinds)
		switch j := r.IntN(len(tag) - 2); kind {
		case 0:
			q = tag[j] + " " + tag[j+1]
		case 1:
			q = name[r.IntN(len(name))]
		case 2:
			q = typo(name[r.IntN(len(name))])
		case 3:
			q = typo(tag[j]) + " " + tag[j+1]
		case 4:
			q = tag[j] + " " + tag[j+1] + " " + tag[j+2]
		}
		if !seen[q] {
			seen[q] = true
			out, kinds = append(out, q), append(kinds, kind)
		}
	}
	return out, kinds
}

// benchDistinctKinds names the kinds of benchDistinctQueries.
var benchDistinctKinds = []string{"two tagline words", "name", "name typo", "typo + word", "three words"}

// BenchmarkSearchDistinct is the index's part of a search never asked
// before: SearchHits over the 100k synthetic corpus for a stream of
// distinct queries (benchDistinctQueries; the stream wraps after 20,000),
// then the placing of every hit's matched words in its name and tagline
// (Placer), as the store does for a page. It reports the thread CPU per
// query of each part; profile it with
//
//	go test ./storage/search -run '^$' -bench SearchDistinct -benchtime 8000x -cpuprofile cpu.out
func BenchmarkSearchDistinct(b *testing.B) {
	const n = 100_000
	bi := benchIndexes[n].get(n)
	names, tags := benchPageTexts(n)
	queries, kinds := benchDistinctQueries(20_000, n, names, tags)
	var perKind [8]struct {
		n   int
		cpu time.Duration
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	bi.ix.Search(Query{Text: "warm up"}) // scratch buffers
	var searchCPU, placeCPU time.Duration
	hits, empty := 0, 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := queries[i%len(queries)]
		c0 := threadCPU()
		page, _ := bi.ix.SearchHits(Query{Text: q, Limit: 20})
		c1 := threadCPU()
		var p Placer
		last := LastWord(q)
		for _, h := range page {
			d := int(h.ID)
			for _, w := range h.Matched {
				p.Where(w, w == last, names[d], tags[d], "")
			}
		}
		c2 := threadCPU()
		searchCPU += c1 - c0
		perKind[kinds[i%len(queries)]].n++
		perKind[kinds[i%len(queries)]].cpu += c1 - c0
		placeCPU += c2 - c1
		hits += len(page)
		if len(page) == 0 {
			empty++
		}
	}
	b.StopTimer()
	k := float64(b.N)
	b.ReportMetric(float64(searchCPU.Microseconds())/k, "search-cpu-us")
	b.ReportMetric(float64(placeCPU.Microseconds())/k, "place-cpu-us")
	b.ReportMetric(float64(hits)/k, "hits/query")
	b.ReportMetric(float64(empty)/k, "empty/query")
	if b.N > len(queries) {
		b.Logf("%d queries over a stream of %d: it wrapped", b.N, len(queries))
	}
	var sb strings.Builder
	for k, name := range benchDistinctKinds {
		if pk := perKind[k]; pk.n > 0 {
			fmt.Fprintf(&sb, " %s %.0f us;", name, float64(pk.cpu.Microseconds())/float64(pk.n))
		}
	}
	b.Logf("index search CPU per kind:%s e.g. %s", sb.String(), strings.Join(queries[:10], " | "))
}
