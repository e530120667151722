package storage

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkListingsAtDomain is the site-already-listed lookup that
// submit_listing, each draft build and the first submit_draft make, over
// 100,000 synthetic listings: the domain column is compared whole and by its
// tail (a subdomain), so SQLite reads every listing of the site.
func BenchmarkListingsAtDomain(b *testing.B) {
	ctx := context.Background()
	db, err := Open(filepath.Join(b.TempDir(), "bench.db"), WithClock(time.Now))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := SeedSynthetic(ctx, db, fxSite, 100_000, fxNow); err != nil {
		b.Fatal(err)
	}
	st, err := NewStore(ctx, db, fxSite)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := st.ListingsAtDomain(ctx, 1, "example.co.uk"); err != nil {
			b.Fatal(err)
		}
	}
}
