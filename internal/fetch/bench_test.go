package fetch_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/launchdir/launchdir/internal/fetch"
)

// BenchmarkCrawl reads the 10-page Northwind site on loopback, robots.txt
// included, reporting the time of one whole crawl (ns/op) and per page, at
// one page at a time and at the default concurrency. A fresh Fetcher per
// crawl would also measure connecting; this one keeps its pool, as the
// service's single Fetcher does.
func BenchmarkCrawl(b *testing.B) {
	s := northwind(b)
	for _, conc := range []int{1, fetch.DefaultConcurrency} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			f := newFetcher(b, fetch.Options{Concurrency: conc})
			pages := 0
			start := time.Now()
			for b.Loop() {
				c, err := f.Crawl(context.Background(), s.URL, 10, nil)
				if err != nil {
					b.Fatal(err)
				}
				if len(c.Pages) != 10 {
					b.Fatalf("%d pages, want 10", len(c.Pages))
				}
				pages += len(c.Pages)
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/float64(pages), "µs/page")
		})
	}
}
