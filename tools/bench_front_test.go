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
// versions of BenchmarkThroughput, and REST (GET /v1/listings?q=); then the
// same search calls afresh (_nocache: result cache off, distinct queries).
// It
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

	// The same calls with the store's result cache off, each asking a query
	// of the fresh stream no call has asked (as BenchmarkThroughput's
	// _nocache targets): the whole path of a never-asked search, the index's
	// part included, one call at a time.
	cache, ok := env.st.(interface{ SetResultCache(on bool) })
	if !ok {
		return
	}
	cache.SetResultCache(false)
	defer cache.SetResultCache(true)
	for c, proto := range []string{benchProto26, benchProto25} {
		var args []map[string]any
		for _, q := range benchFreshQueries(b, env.svc, (4+c)*benchFreshChunk, benchFreshChunk) {
			args = append(args, map[string]any{"q": q})
		}
		benchFront(b, "mcp_search_"+strings.ReplaceAll(proto, "-", "")+"_nocache", ours,
			benchMCPRequests(b, origin+"/mcp", proto, "search_listings", args), benchCheckMCP(false))
	}
	fresh := benchFreshQueries(b, env.svc, 6*benchFreshChunk, benchFreshChunk)
	benchFront(b, "rest_search_nocache", ours, func(i int) (*http.Request, error) {
		return http.NewRequest(http.MethodGet, origin+"/v1/listings?"+url.Values{"q": {fresh[i%len(fresh)]}}.Encode(), nil)
	}, benchCheckRESTAny)
}

// benchFront runs one target of BenchmarkFront: requests mk(0), mk(1), ...,
// served by h into a recorder, b.N of them after the first, which is
// checked.
func benchFront(b *testing.B, name string, h http.Handler, mk func(int) (*http.Request, error), check func(*http.Response, []byte) error) {
	b.Run(name, func(b *testing.B) {
		i := 0
		serve := func() *httptest.ResponseRecorder {
			req, err := mk(i)
			i++
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
