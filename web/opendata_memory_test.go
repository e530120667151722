package web

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// TestBuildOpenData_SameBytesAsMarshalIndent: the export written listing by
// listing is, byte for byte, json.MarshalIndent(doc, "", " ") of the whole
// document (what it was before it was streamed), on the demo data (HTML
// characters, nulls, awards, weeks) and on a site with no listing.
func TestBuildOpenData_SameBytesAsMarshalIndent(t *testing.T) {
	t.Parallel()
	for _, seed := range []bool{true, false} {
		ctx := context.Background()
		st, svc := openDataService(t, seed, 0)
		body, _, err := svc.BuildOpenData(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var doc domain.OpenData
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatalf("seed %v: %v\n%.400s", seed, err, body)
		}
		if seed && (len(doc.Listings) < 10 || len(doc.Awards) == 0 || len(doc.Weeks) == 0) {
			t.Fatalf("seeded: %d listings, %d awards, %d weeks", len(doc.Listings), len(doc.Awards), len(doc.Weeks))
		}
		want, err := json.MarshalIndent(doc, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(body, want) {
			i := 0
			for i < min(len(body), len(want)) && body[i] == want[i] {
				i++
			}
			t.Errorf("seed %v: the export differs from MarshalIndent at byte %d of %d/%d:\ngot  %q\nwant %q", seed, i,
				len(body), len(want), body[max(i-80, 0):min(i+80, len(body))], want[max(i-80, 0):min(i+80, len(want))])
		}
		if _, stored, _, err := st.LatestOpenData(ctx); err != nil || !bytes.Equal(stored, body) {
			t.Errorf("seed %v: the stored export is not the one returned (%v)", seed, err)
		}
	}
}

// TestBuildOpenData_PeakHeap: building the export holds little more than the
// document itself. Before it was streamed, every listing's summary, every
// OpenListing, the compact and the indented encodings and a string copy were
// live at once: at 100,000 listings serve's Go heap went from 40 to 290 MB
// for a 59 MB document and its RSS to 550 MiB (docs/benchmarks.md).
// Measured with GOGC=1, so that the heap in use follows what is live.
func TestBuildOpenData_PeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 10,000 listings")
	}
	if raceOn {
		// Under the race detector the same code measured 3.7 times the
		// document: its runtime changes what the heap holds.
		t.Skip("heap figures under -race are not a normal build's")
	}
	ctx := context.Background()
	_, svc := openDataService(t, false, 10_000)
	if _, _, err := svc.BuildOpenData(ctx); err != nil { // warm: prepared statements, pools
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	peak := base
	done := make(chan struct{})
	var body []byte
	go func() {
		defer close(done)
		var err error
		if body, _, err = svc.BuildOpenData(ctx); err != nil {
			t.Error(err)
		}
	}()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			runtime.Gosched()
		}
	}
	if len(body) < 10_000*300 {
		t.Fatalf("an export of %d bytes for 10,000 listings", len(body))
	}
	ratio := float64(peak-base) / float64(len(body))
	t.Logf("document %.1f MB, peak heap %.1f MB above the start: %.2f times the document",
		float64(len(body))/1e6, float64(peak-base)/1e6, ratio)
	if ratio > 3 {
		t.Errorf("building the export took %.2f times the document's size in heap, want at most 3", ratio)
	}
}
