package tools

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// benchFresh is a stream of distinct queries derived from the listings
// (newest first), so that a benchmark of searches asked afresh does not
// repeat a query the index's caches of query words (expansion, stems,
// placing) have seen: the 32 queries the other search benchmarks cycle
// through are in those caches after the first round. Each listing gives one
// query of the kinds benchQueries makes (two neighbouring words of its
// tagline, one word of its name, a name word with one letter deleted), at
// positions drawn from a fixed seed; no query string occurs twice. Words
// are the data's, so the tagline words, drawn from the generator's
// vocabulary by a Zipf law, recur across queries as common words do in real
// traffic; name words (drawn uniformly from 20,000) rarely do.
// The stream is derived once per process and not searched before use
// (searching it would warm the caches); a query may find nothing (a typo
// too far), which the benchmarks count.
var benchFresh struct {
	mu sync.Mutex
	q  []string
}

// benchFreshQueries returns the queries [from, from+n) of the stream.
func benchFreshQueries(b *testing.B, svc *domain.Service, from, n int) []string {
	b.Helper()
	benchFresh.mu.Lock()
	defer benchFresh.mu.Unlock()
	if len(benchFresh.q) >= from+n {
		return benchFresh.q[from : from+n]
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(30, 8))
	seen := map[string]bool{}
	var out []string
	for page, i := 1, 0; len(out) < from+n; page++ {
		if page > 1000 {
			b.Fatalf("fresh queries: only %d of %d from 100,000 listings", len(out), from+n)
		}
		p, err := svc.SearchListings(ctx, domain.SearchListingsInput{Sort: "newest", Pagination: domain.Pagination{Page: page, PerPage: 100}})
		if err != nil || len(p.Items) == 0 {
			b.Fatalf("fresh queries, page %d: %d items, err %v", page, len(p.Items), err)
		}
		for _, it := range p.Items {
			name, tag := benchWords(it.Name), benchWords(it.Tagline)
			q := ""
			switch i % 3 {
			case 0:
				if len(tag) >= 2 {
					j := r.IntN(len(tag) - 1)
					q = tag[j] + " " + tag[j+1]
				}
			case 1:
				if len(name) >= 1 {
					q = name[r.IntN(len(name))]
				}
			case 2:
				if len(name) >= 1 {
					if w := name[r.IntN(len(name))]; len(w) >= 5 {
						k := 1 + r.IntN(len(w)-2) // one deletion, not the first or last letter
						q = w[:k] + w[k+1:]
					}
				}
			}
			i++
			if q != "" && !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	benchFresh.q = out
	return out[from : from+n]
}

// benchWordsSeen returns the share of the queries' words that occur in an
// earlier query of qs (what a cache of query words could have kept).
func benchWordsSeen(qs []string) float64 {
	seen := map[string]bool{}
	words, again := 0, 0
	for _, q := range qs {
		for _, w := range strings.Fields(q) {
			words++
			if seen[w] {
				again++
			}
			seen[w] = true
		}
	}
	if words == 0 {
		return 0
	}
	return float64(again) / float64(words)
}
