package tools

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// BenchmarkFront measures what a call costs besides the search itself: a
// search_listings call whose page is in the store's result cache (the same
// query every time, so the store's part is small and the same), served by
// the real handler in-process (a recorder, no sockets, one call at a time),
// beside the SDK's no-op tool served the same way: MCP in both protocol
// versions of BenchmarkThroughput, and REST (GET /v1/listings?q=). It
// reports the process CPU and the allocations a call, which the load of a
// shared machine moves far less than it moves the throughput targets:
//
//	go test ./tools -run '^$' -bench Front -benchtime 4000x
func BenchmarkFront(b *testing.B) {
	env := benchOpen(b, *benchThroughputN)
	ours := New(env.svc, Options{Now: env.svc.Now}).Handler()
	noop := benchNoopHandler(true)
	q := benchQueries(b, env.svc)[0]
	const origin = "http://127.0.0.1"
	for _, proto := range []string{benchProto26, benchProto25} {
		tag := strings.ReplaceAll(proto, "-", "")
		benchFront(b, "mcp_noop_"+tag, noop, benchMCPRequests(b, origin+"/mcp", proto, "noop", []map[string]any{{}}), benchCheckMCP(false))
		benchFront(b, "mcp_search_"+tag, ours, benchMCPRequests(b, origin+"/mcp", proto, "search_listings", []map[string]any{{"q": q}}), benchCheckMCP(true))
	}
	rest := origin + "/v1/listings?" + url.Values{"q": {q}}.Encode()
	benchFront(b, "rest_search", ours, func(int) (*http.Request, error) { return http.NewRequest(http.MethodGet, rest, nil) }, benchCheckREST)
}

// benchFront runs one target of BenchmarkFront: request mk(0), served by h
// into a recorder, b.N times; the first answer is checked.
func benchFront(b *testing.B, name string, h http.Handler, mk func(int) (*http.Request, error), check func(*http.Response, []byte) error) {
	b.Run(name, func(b *testing.B) {
		serve := func() *httptest.ResponseRecorder {
			req, err := mk(0)
			if err != nil {
				b.Fatal(err)
			}
			req.RemoteAddr = "127.0.0.1:40000"
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec
		}
		rec := serve()
		if err := check(rec.Result(), bytes.Clone(rec.Body.Bytes())); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		cpu0 := benchProcessCPU()
		for b.Loop() {
			serve()
		}
		if cpu := benchProcessCPU() - cpu0; cpu > 0 {
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu_us/call")
		}
	})
}
