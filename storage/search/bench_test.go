package search

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchIndex is an index built once per process for a corpus size.
type benchIndex struct {
	once  sync.Once
	ix    *Index
	build time.Duration
	// buildCPU is the CPU time of the whole process during the build, corpus
	// generation included: on a shared machine it varies less than build.
	buildCPU time.Duration
	heapMiB  float64
	rare     string
}

var benchIndexes = map[int]*benchIndex{100_000: {}, 1_000_000: {}}

func (bi *benchIndex) get(n int) *benchIndex {
	bi.once.Do(func() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start, startCPU := time.Now(), processCPU()
		c := newCorpus(42)
		ix := New()
		docs := make(chan Doc, 1024)
		go func() { // the corpus is generated beside the load, as the store reads rows
			defer close(docs)
			for id := 1; id <= n; id++ {
				docs <- c.doc(int64(id))
			}
		}()
		ix.UpsertAll(docs, runtime.GOMAXPROCS(0)) // as the store loads the index
		ix.Trim()
		bi.build, bi.buildCPU = time.Since(start), processCPU()-startCPU
		runtime.GC()
		runtime.ReadMemStats(&after)
		bi.ix = ix
		bi.heapMiB = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
		bi.rare = c.vocab[3000]
	})
	return bi
}

// benchQuery is one query of the fixed benchmark mix.
type benchQuery struct {
	name string
	q    Query
}

func benchMix(rare string) []benchQuery {
	return []benchQuery{
		{"common-word", Query{Text: "app"}},
		{"two-common-words", Query{Text: "team data"}},
		{"rare-word", Query{Text: rare}},
		{"typo-word", Query{Text: "productivty"}},
		{"typo-phrase", Query{Text: "notetakng app"}},
		{"prefix", Query{Text: "collab"}},
		{"three-words", Query{Text: "free open source"}},
		{"filters-only", Query{Country: "DE", Stage: "mvp"}},
		{"category-votes", Query{Categories: []int64{7}, Sort: "votes"}},
		{"text-newest", Query{Text: "email marketing", Sort: "newest"}},
		{"deep-page", Query{Text: "data", Offset: 1000}},
	}
}

// BenchmarkSearch reports p50 and p99 latency of a fixed query mix over
// synthetic corpora of 100k and 1M listings, plus the index's build time
// and heap size. Run it with:
//
//	go test ./storage/search -run '^$' -bench Search -benchtime 2200x
func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("docs=%dk", n/1000), func(b *testing.B) {
			bi := benchIndexes[n].get(n)
			mix := benchMix(bi.rare)
			lat := make([][]time.Duration, len(mix))
			cpu := make([][]time.Duration, len(mix))
			totals := make([]int, len(mix))
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for _, m := range mix { // warm up: scratch buffers, caches
				bi.ix.Search(m.q)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				k := i % len(mix)
				start, startCPU := time.Now(), threadCPU()
				_, totals[k] = bi.ix.Search(mix[k].q)
				lat[k] = append(lat[k], time.Since(start))
				cpu[k] = append(cpu[k], threadCPU()-startCPU)
			}
			b.StopTimer()
			var all, allCPU []time.Duration
			var report strings.Builder
			for k, l := range lat {
				all, allCPU = append(all, l...), append(allCPU, cpu[k]...)
				if len(l) > 0 {
					sep := " | "
					if k%2 == 0 { // two queries a line: the testing package keeps 10 lines
						sep = "\n"
					}
					fmt.Fprintf(&report, "%s%-16s n=%-6d p50/p99 wall %5.2f/%5.2f cpu %5.2f/%5.2f ms", sep,
						mix[k].name, totals[k], ms(pct(l, 50)), ms(pct(l, 99)), ms(pct(cpu[k], 50)), ms(pct(cpu[k], 99)))
				}
			}
			b.Log(report.String())
			b.ReportMetric(ms(pct(all, 50)), "p50-ms")
			b.ReportMetric(ms(pct(all, 99)), "p99-ms")
			b.ReportMetric(ms(pct(allCPU, 50)), "p50-cpu-ms")
			b.ReportMetric(ms(pct(allCPU, 99)), "p99-cpu-ms")
			b.ReportMetric(bi.build.Seconds(), "build-s")
			b.ReportMetric(bi.buildCPU.Seconds(), "build-cpu-s")
			b.ReportMetric(bi.heapMiB, "index-MiB")
		})
	}
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
