package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// discardWriter is a ResponseWriter that counts the body and keeps nothing,
// so that what a request allocates is the handler's, not a recorder's.
type discardWriter struct {
	h      http.Header
	status int
	n      int64
}

func (d *discardWriter) Header() http.Header { return d.h }
func (d *discardWriter) WriteHeader(s int)   { d.status = s }
func (d *discardWriter) Write(b []byte) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	d.n += int64(len(b))
	return len(b), nil
}

// openDataService is a Service over a database of its own: with n > 0, n
// synthetic listings (a copy of the fixtures' template of
// storage.SeedSynthetic on a migrated database); otherwise the demo data
// (seed) or none.
func openDataService(tb testing.TB, seed bool, n int) (*storage.Store, *domain.Service) {
	tb.Helper()
	ctx := context.Background()
	var db *storage.DB
	if n > 0 {
		db = fixtures.OpenAt(tb, fixtures.SeededFile(tb, fixtures.Synthetic(n)), false)
	} else {
		db = fixtures.Open(tb, seed)
	}
	st, err := storage.NewStore(ctx, db, fixtures.Site)
	if err != nil {
		tb.Fatal(err)
	}
	return st, domain.NewService(st, fixtures.Site, func() time.Time { return fixtures.Now })
}

// syntheticOpenData is the pages over a synthetic site of n listings whose
// export is built and stored, and the export's size.
func syntheticOpenData(tb testing.TB, n int) (http.Handler, int) {
	tb.Helper()
	_, svc := openDataService(tb, false, n)
	body, _, err := svc.BuildOpenData(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return New(svc), len(body)
}

// serveOpenData requests /open-data/file from h and returns the body's size.
func serveOpenData(tb testing.TB, h http.Handler, file string, hdr ...string) *discardWriter {
	tb.Helper()
	r := httptest.NewRequest(http.MethodGet, "/open-data/"+file, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := &discardWriter{h: http.Header{}}
	h.ServeHTTP(w, r)
	if w.status != http.StatusOK && w.status != http.StatusPartialContent && w.status != http.StatusNotModified {
		tb.Fatalf("%s: status %d", file, w.status)
	}
	return w
}

// TestOpenData_RequestHeap: a request for a file of the export allocates
// little next to the file: the files are written once per build and each
// request reads one from its start (or the Range asked for). Before, every
// request copied the stored document out of the database twice, hashed it
// for the ETag and, for a CSV file, decoded the whole document and wrote the
// table in memory: two to five times the document's size a request.
func TestOpenData_RequestHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 2,000 listings")
	}
	if raceOn {
		t.Skip("heap figures under -race are not a normal build's")
	}
	h, size := syntheticOpenData(t, 2_000)
	for _, file := range openDataFiles {
		first := serveOpenData(t, h, file) // the build's files are written here
		if first.n == 0 {
			t.Fatalf("%s: empty", file)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const requests = 5
		for range requests {
			if w := serveOpenData(t, h, file); w.n != first.n {
				t.Fatalf("%s: %d bytes, then %d", file, first.n, w.n)
			}
		}
		runtime.ReadMemStats(&after)
		per := (after.TotalAlloc - before.TotalAlloc) / requests
		t.Logf("%s: %d bytes served, %d bytes allocated a request (document %d bytes)", file, first.n, per, size)
		if limit := uint64(size / 20); per > limit {
			t.Errorf("%s: %d bytes allocated a request, want at most %d (a twentieth of the %d-byte document)", file, per, limit, size)
		}
	}
}

// TestOpenData_RangeAndConditional: a file of the export answers a Range with
// 206 and those bytes of the file, If-None-Match with its ETag with 304, and
// If-Modified-Since its build time with 304.
func TestOpenData_RangeAndConditional(t *testing.T) {
	t.Parallel()
	e := newOpenDataEnv(t, "sqlite")
	for _, file := range openDataFiles {
		full := e.get(t, "/open-data/"+file)
		if full.status != http.StatusOK || len(full.body) < 200 {
			t.Fatalf("%s: %d, %d bytes", file, full.status, len(full.body))
		}
		part := e.get(t, "/open-data/"+file, "Range", "bytes=100-149")
		if part.status != http.StatusPartialContent || part.body != full.body[100:150] {
			t.Errorf("%s: Range bytes=100-149: %d %q, want 206 %q", file, part.status, part.body, full.body[100:150])
		}
		if got := part.header.Get("Content-Range"); !strings.HasPrefix(got, "bytes 100-149/") {
			t.Errorf("%s: Content-Range %q", file, got)
		}
		if r := e.get(t, "/open-data/"+file, "If-Modified-Since", full.header.Get("Last-Modified")); r.status != http.StatusNotModified {
			t.Errorf("%s: If-Modified-Since its Last-Modified: %d, want 304", file, r.status)
		}
		if r := e.get(t, "/open-data/"+file, "If-None-Match", `"other"`); r.status != http.StatusOK || r.body != full.body {
			t.Errorf("%s: If-None-Match another ETag: %d, want 200 and the file", file, r.status)
		}
	}
}

// BenchmarkOpenData_Request: one request for each file of the export of a
// 10,000-listing site, its body discarded (go test ./web -run '^$' -bench
// OpenData_Request -benchmem).
func BenchmarkOpenData_Request(b *testing.B) {
	h, size := syntheticOpenData(b, 10_000)
	b.Logf("document %d bytes", size)
	for _, file := range openDataFiles {
		b.Run(file, func(b *testing.B) {
			serveOpenData(b, h, file)
			b.ReportAllocs()
			var n int64
			for b.Loop() {
				n = serveOpenData(b, h, file).n
			}
			b.SetBytes(n)
		})
	}
}
