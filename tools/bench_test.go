package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
)

var (
	benchThroughputN = flag.Int("launchdir.throughput-n", 100_000, "synthetic listings behind BenchmarkThroughput")
	benchFreshQ      = flag.String("launchdir.fresh-q", "", "comma-separated queries for BenchmarkSearchFresh instead of the derived ones")
	benchLatencyN    = flag.String("launchdir.latency-n", "100000,1000000", "comma-separated synthetic listing counts for BenchmarkSearchLatency")
)

const (
	// benchWorkers is the number of concurrent clients in BenchmarkThroughput.
	benchWorkers = 16
	// benchProto26 and benchProto25 are the MCP protocol versions the clients speak.
	benchProto26 = "2026-07-28"
	benchProto25 = "2025-11-25"
)

// benchNow is the clock of the synthetic data (a Wednesday).
var benchNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

// benchRates keeps the last calls/s of each throughput sub-benchmark of this run,
// so later sub-benchmarks can report their ratio to a baseline.
var benchRates sync.Map // name -> float64

// benchCPU keeps the process CPU time per call (microseconds, server and
// clients together) of each throughput sub-benchmark of this run.
var benchCPU sync.Map // name -> float64

// BenchmarkThroughput measures calls/s at concurrency 16 over real HTTP
// (httptest on 127.0.0.1, keep-alive clients, every response checked) for:
// a plain net/http JSON handler (plain_json); a go-sdk no-op tool served like
// our /mcp (stateless, same JSON/SSE response mode, same protocol versions;
// mcp_noop_<version>); search_listings over MCP (mcp_search_<version>, plain
// JSON-RPC POSTs, protocol 2026-07-28 with _meta and Mcp-* headers, and
// 2025-11-25 without initialize) and over REST (rest_search, GET
// /v1/listings?q=...) against the real handler over -launchdir.throughput-n
// (100k) synthetic listings, each also with the store's cache of search pages
// off (_nocache: every call searches, asking the distinct queries of a chunk
// of the fresh stream, benchFresh, one chunk per target, so that neither the
// page cache nor the caches of query words have seen them; the cached targets
// cycle through 32 queries, and every call after the first round is a cache
// hit). The search sub-benchmarks also report their ratio
// to the baseline measured before them in the same run (goals of issue 17:
// MCP >= 0.50 of the no-op tool, REST >= 0.30 of the plain handler). Every
// target reports its response bytes a call (resp_B/call): the benchmark's
// client reads them in the same process, so its CPU a call counts them. Run everything with
//
//	go test ./tools -run '^$' -bench 'Throughput|SearchLatency' -benchtime 3s -v -timeout 30m
//
// Seeded databases are cached under <os.UserCacheDir()>/launchdir/bench, keyed
// by the listing count and a hash of the storage migrations and generator
// sources (first 1M seed: a few minutes).
func BenchmarkThroughput(b *testing.B) {
	env := benchOpen(b, *benchThroughputN)
	ours := httptest.NewServer(New(env.svc, Options{Now: env.svc.Now}).Handler())
	b.Cleanup(ours.Close)
	cl := benchHTTPClient()
	queries := benchQueries(b, env.svc)
	jsonMode := benchMCPJSONMode(b, cl, ours.URL)

	plain := httptest.NewServer(http.HandlerFunc(benchPlainHandler))
	b.Cleanup(plain.Close)
	noop := httptest.NewServer(benchNoopHandler(jsonMode))
	b.Cleanup(noop.Close)
	b.Logf("%d listings, %d queries, MCP response mode %s, %d clients", env.n, len(queries), map[bool]string{true: "JSON", false: "SSE"}[jsonMode], benchWorkers)

	plainReq := func(int) (*http.Request, error) { return http.NewRequest(http.MethodGet, plain.URL+"/json", nil) }
	restReqs := make([]string, len(queries))
	for i, q := range queries {
		restReqs[i] = ours.URL + "/v1/listings?" + url.Values{"q": {q}}.Encode()
	}
	restReq := func(i int) (*http.Request, error) {
		return http.NewRequest(http.MethodGet, restReqs[i%len(restReqs)], nil)
	}
	searchArgs := make([]map[string]any, len(queries))
	for i, q := range queries {
		searchArgs[i] = map[string]any{"q": q}
	}

	// The _nocache targets are search calls with the store's cache of
	// search pages off, so that every call searches, over distinct queries
	// (the others cycle through 32 queries: after the first round every page
	// is in the cache, and every word in the index's caches). A store
	// without such a cache (before it was built) runs them as the others.
	cache, _ := env.st.(interface{ SetResultCache(on bool) })
	uncached := func(name, base string, mk func(int) (*http.Request, error), check func(*http.Response, []byte) error) {
		if cache == nil {
			benchThroughput(b, name, base, cl, mk, check)
			return
		}
		cache.SetResultCache(false)
		defer cache.SetResultCache(true)
		benchThroughput(b, name, base, cl, mk, check)
	}

	benchThroughput(b, "plain_json", "", cl, plainReq, benchCheckPlain)
	for c, proto := range []string{benchProto26, benchProto25} {
		tag := strings.ReplaceAll(proto, "-", "")
		noopName, searchName := "mcp_noop_"+tag, "mcp_search_"+tag
		noopReqs := benchMCPRequests(b, noop.URL+"/mcp", proto, "noop", []map[string]any{{}})
		searchReqs := benchMCPRequests(b, ours.URL+"/mcp", proto, "search_listings", searchArgs)
		benchThroughput(b, noopName, "", cl, noopReqs, benchCheckMCP(false))
		benchThroughput(b, searchName, noopName, cl, searchReqs, benchCheckMCP(true))
		freshArgs := make([]map[string]any, 0, benchFreshChunk)
		for _, q := range benchFreshQueries(b, env.svc, (1+c)*benchFreshChunk, benchFreshChunk) {
			freshArgs = append(freshArgs, map[string]any{"q": q})
		}
		freshReqs := benchMCPRequests(b, ours.URL+"/mcp", proto, "search_listings", freshArgs)
		uncached(searchName+"_nocache", noopName, freshReqs, benchCheckMCP(false))
	}
	benchThroughput(b, "rest_search", "plain_json", cl, restReq, benchCheckREST)
	freshREST := benchFreshQueries(b, env.svc, 3*benchFreshChunk, benchFreshChunk)
	for i, q := range freshREST {
		freshREST[i] = ours.URL + "/v1/listings?" + url.Values{"q": {q}}.Encode()
	}
	uncached("rest_search_nocache", "plain_json", func(i int) (*http.Request, error) {
		return http.NewRequest(http.MethodGet, freshREST[i%len(freshREST)], nil)
	}, benchCheckRESTAny)

	var sb strings.Builder
	for _, r := range []struct{ name, base, goal string }{
		{"mcp_search_" + strings.ReplaceAll(benchProto26, "-", ""), "mcp_noop_" + strings.ReplaceAll(benchProto26, "-", ""), ">= 0.50"},
		{"mcp_search_" + strings.ReplaceAll(benchProto26, "-", "") + "_nocache", "mcp_noop_" + strings.ReplaceAll(benchProto26, "-", ""), ">= 0.50"},
		{"mcp_search_" + strings.ReplaceAll(benchProto25, "-", ""), "mcp_noop_" + strings.ReplaceAll(benchProto25, "-", ""), ">= 0.50"},
		{"mcp_search_" + strings.ReplaceAll(benchProto25, "-", "") + "_nocache", "mcp_noop_" + strings.ReplaceAll(benchProto25, "-", ""), ">= 0.50"},
		{"rest_search", "plain_json", ">= 0.30"},
		{"rest_search_nocache", "plain_json", ">= 0.30"},
	} {
		got, ok1 := benchRates.Load(r.name)
		base, ok2 := benchRates.Load(r.base)
		if ok1 && ok2 {
			fmt.Fprintf(&sb, "\n  %-22s %9.0f calls/s  / %-22s %9.0f calls/s = %.2f (goal %s)",
				r.name, got.(float64), r.base, base.(float64), got.(float64)/base.(float64), r.goal)
		}
		gotCPU, ok1 := benchCPU.Load(r.name)
		baseCPU, ok2 := benchCPU.Load(r.base)
		if ok1 && ok2 {
			fmt.Fprintf(&sb, "\n  %-22s %9.0f us CPU/call / %-18s %9.0f us CPU/call: ratio %.2f",
				r.name, gotCPU.(float64), r.base, baseCPU.(float64), baseCPU.(float64)/gotCPU.(float64))
		}
	}
	if sb.Len() > 0 {
		b.Logf("throughput at concurrency %d over %d listings:%s", benchWorkers, env.n, sb.String())
	}
}

// benchThroughput runs one sub-benchmark: b.N requests made by benchWorkers
// goroutines over one keep-alive client, each response checked. It reports
// calls/s and, when base names an earlier sub-benchmark, the ratio to it.
func benchThroughput(b *testing.B, name, base string, cl *http.Client, mk func(i int) (*http.Request, error), check func(*http.Response, []byte) error) {
	b.Run(name, func(b *testing.B) {
		// One checked call outside the timer, so a broken target fails fast.
		if err := benchDo(cl, mk, 0, check); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		var next atomic.Int64
		var firstErr error
		var errOnce sync.Once
		var wg sync.WaitGroup
		// The response bytes a call: what the server writes and the
		// benchmark's client (in the same process, its CPU counted) reads.
		var got atomic.Int64
		measured := func(res *http.Response, body []byte) error {
			got.Add(int64(len(body)))
			return check(res, body)
		}
		b.ResetTimer()
		start, cpu0 := time.Now(), benchProcessCPU()
		for range benchWorkers {
			wg.Go(func() {
				for {
					i := next.Add(1) - 1
					if i >= int64(b.N) {
						return
					}
					if err := benchDo(cl, mk, int(i), measured); err != nil {
						errOnce.Do(func() { firstErr = fmt.Errorf("call %d: %w", i, err) })
						next.Store(int64(b.N))
						return
					}
				}
			})
		}
		wg.Wait()
		elapsed, cpu := time.Since(start), benchProcessCPU()-cpu0
		b.StopTimer()
		if firstErr != nil {
			b.Fatalf("%s: %v", name, firstErr)
		}
		rate := float64(b.N) / elapsed.Seconds()
		benchRates.Store(name, rate)
		b.ReportMetric(rate, "calls/s")
		b.ReportMetric(float64(got.Load())/float64(b.N), "resp_B/call")
		// CPU time per call is what the calls cost on this machine whatever
		// else runs on it; calls/s also depends on the CPU left to us.
		cpuPerCall := float64(cpu.Microseconds()) / float64(b.N)
		if cpu > 0 {
			benchCPU.Store(name, cpuPerCall)
			b.ReportMetric(cpuPerCall, "cpu_us/call")
		}
		if base != "" {
			if br, ok := benchRates.Load(base); ok {
				b.ReportMetric(rate/br.(float64), "ratio_to_"+base)
			}
			if bc, ok := benchCPU.Load(base); ok && cpu > 0 {
				b.ReportMetric(bc.(float64)/cpuPerCall, "cpu_ratio_to_"+base)
			}
		}
	})
}

// benchDo makes request i, reads the whole body (keeping the connection alive)
// and checks the response.
func benchDo(cl *http.Client, mk func(i int) (*http.Request, error), i int, check func(*http.Response, []byte) error) error {
	req, err := mk(i)
	if err != nil {
		return err
	}
	res, err := cl.Do(req)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return err
	}
	return check(res, body)
}

// benchHTTPClient is a keep-alive client able to hold one idle connection per worker.
func benchHTTPClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 4 * benchWorkers
	tr.MaxIdleConnsPerHost = 2 * benchWorkers
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}
}

// benchPlainHandler is baseline A: a plain net/http handler writing a small JSON object.
func benchPlainHandler(w http.ResponseWriter, r *http.Request) {
	body, err := json.Marshal(struct {
		Name    string    `json:"name"`
		Version string    `json:"version"`
		OK      bool      `json:"ok"`
		Time    time.Time `json:"time"`
	}{"launchdir", Version, true, benchNow})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func benchCheckPlain(res *http.Response, body []byte) error {
	if res.StatusCode != http.StatusOK || !bytes.HasPrefix(body, []byte(`{"name":"launchdir"`)) {
		return fmt.Errorf("plain handler: status %d body %.200s", res.StatusCode, body)
	}
	return nil
}

// benchCheckRESTAny accepts a 200 JSON page, empty or not (a query of the
// fresh stream may find nothing).
func benchCheckRESTAny(res *http.Response, body []byte) error {
	if res.StatusCode != http.StatusOK || !bytes.HasPrefix(body, []byte(`{"items":[`)) {
		return fmt.Errorf("REST search: status %d body %.300s", res.StatusCode, body)
	}
	return nil
}

// benchCheckREST accepts a 200 JSON page with at least one listing.
func benchCheckREST(res *http.Response, body []byte) error {
	if res.StatusCode != http.StatusOK || !bytes.HasPrefix(body, []byte(`{"items":[{`)) {
		return fmt.Errorf("REST search: status %d body %.300s", res.StatusCode, body)
	}
	return nil
}

// benchNoopHandler is baseline B: a go-sdk server with one no-op tool, served
// like ours (stateless, the same JSON or SSE response mode, the same versions).
func benchNoopHandler(jsonMode bool) http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "noop", Version: "0.0.1"}, &mcp.ServerOptions{
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
		SupportedProtocolVersions: MCPProtocolVersions,
	})
	srv.AddTool(&mcp.Tool{Name: "noop", Description: "Does nothing.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}}}, nil
		})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: jsonMode})
}

// benchMCPRequests returns a request maker for tools/call of tool with each
// argument set in turn, speaking proto with plain HTTP POSTs: for 2026-07-28 the
// _meta protocol version and client capabilities and the Mcp-Protocol-Version,
// Mcp-Method and Mcp-Name headers; for older versions the version header only
// (a stateless server needs no initialize).
func benchMCPRequests(b *testing.B, endpoint, proto, tool string, args []map[string]any) func(i int) (*http.Request, error) {
	bodies := make([][]byte, len(args))
	for i, a := range args {
		params := map[string]any{"name": tool, "arguments": a}
		if proto >= benchProto26 {
			params["_meta"] = map[string]any{
				mcp.MetaKeyProtocolVersion:    proto,
				mcp.MetaKeyClientCapabilities: map[string]any{},
				mcp.MetaKeyClientInfo:         map[string]any{"name": "launchdir-bench", "version": "0"},
			}
		}
		body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": params})
		if err != nil {
			b.Fatal(err)
		}
		bodies[i] = body
	}
	return func(i int) (*http.Request, error) {
		req, err := http.NewRequest(http.MethodPost, endpoint, bytes.NewReader(bodies[i%len(bodies)]))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", proto)
		if proto >= benchProto26 {
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", tool)
		}
		return req, nil
	}
}

// benchMCPPayload returns the JSON-RPC message of an MCP response, which is the
// body in JSON mode or the data of the first "message" event in SSE mode.
func benchMCPPayload(res *http.Response, body []byte) ([]byte, error) {
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("MCP: status %d body %.300s", res.StatusCode, body)
	}
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		return body, nil
	}
	for line := range bytes.Lines(body) {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok && len(bytes.TrimSpace(data)) > 0 {
			return bytes.TrimSpace(data), nil
		}
	}
	return nil, fmt.Errorf("MCP: SSE response without data: %.300s", body)
}

// benchCheckMCP accepts a tools/call result that is not an error; with
// structured it must carry structuredContent with at least one item.
func benchCheckMCP(structured bool) func(*http.Response, []byte) error {
	return func(res *http.Response, body []byte) error {
		msg, err := benchMCPPayload(res, body)
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(msg, []byte(`{"jsonrpc":"2.0","id":`)) || !bytes.Contains(msg, []byte(`"result":{`)) ||
			bytes.Contains(msg, []byte(`"isError":true`)) || (structured && !bytes.Contains(msg, []byte(`"structuredContent":{"items":[{`))) {
			return fmt.Errorf("MCP: not a successful tools/call result: %.400s", msg)
		}
		return nil
	}
}

// benchMCPJSONMode asks our /mcp once and reports whether it answers tools/call
// with application/json (true) or an SSE stream (false); it also checks the
// answer in full.
func benchMCPJSONMode(b *testing.B, cl *http.Client, base string) bool {
	mk := benchMCPRequests(b, base+"/mcp", benchProto26, "get_site_info", []map[string]any{{}})
	req, err := mk(0)
	if err != nil {
		b.Fatal(err)
	}
	res, err := cl.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	msg, err := benchMCPPayload(res, body)
	if err != nil {
		b.Fatal(err)
	}
	var rpc struct {
		Result *struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(msg, &rpc); err != nil || rpc.Result == nil || rpc.Result.IsError || len(rpc.Result.StructuredContent) == 0 {
		b.Fatalf("get_site_info over MCP %s: err=%v, response %.500s", benchProto26, err, msg)
	}
	return strings.HasPrefix(res.Header.Get("Content-Type"), "application/json")
}

// benchQueries derives search queries from the data itself, so they fit any
// generator: two words of a tagline, one word of a name, and a name word with
// one typo; each must find at least one listing through the service.
func benchQueries(b *testing.B, svc *domain.Service) []string {
	ctx := context.Background()
	page, err := svc.SearchListings(ctx, domain.SearchListingsInput{Sort: "newest", Pagination: domain.Pagination{PerPage: 100}})
	if err != nil || len(page.Items) == 0 {
		b.Fatalf("list listings for queries: %d items, err %v", len(page.Items), err)
	}
	var candidates []string
	for i, it := range page.Items {
		name := benchWords(it.Name)
		tag := benchWords(it.Tagline)
		switch i % 3 {
		case 0:
			if len(tag) >= 2 {
				candidates = append(candidates, tag[0]+" "+tag[1])
			}
		case 1:
			if len(name) >= 1 {
				candidates = append(candidates, name[0])
			}
		case 2:
			if len(name) >= 1 && len(name[0]) >= 5 {
				w := name[0]
				candidates = append(candidates, w[:2]+w[3:]) // one deletion
			}
		}
	}
	var queries []string
	for _, q := range slices.Compact(candidates) {
		out, err := svc.SearchListings(ctx, domain.SearchListingsInput{Q: q})
		if err == nil && len(out.Items) > 0 {
			queries = append(queries, q)
		}
		if len(queries) == 32 {
			break
		}
	}
	if len(queries) < 8 {
		b.Fatalf("only %d of %d derived queries find a listing: %q", len(queries), len(candidates), queries)
	}
	return queries
}

// benchWords splits s into lower-case words of at least 4 letters.
func benchWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) >= 4 {
			out = append(out, w)
		}
	}
	return out
}

// BenchmarkSearchLatency reports search_listings latency p50/p99/max through
// the service (domain.Service over the real store and its index, no HTTP) at
// each count of -launchdir.latency-n (100k and 1M synthetic listings), one
// query at a time, cycling through queries derived from the data (tagline
// word pairs, name words, name words with a typo). Goals: p99 <= 10 ms at
// 100k and <= 50 ms at 1M.
func BenchmarkSearchLatency(b *testing.B) {
	for _, f := range strings.Split(*benchLatencyN, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("-launchdir.latency-n: bad count %q", f)
		}
		b.Run(benchLabel(n), func(b *testing.B) {
			env := benchOpen(b, n)
			queries := benchQueries(b, env.svc)
			ctx := context.Background()
			var lat []time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				out, err := env.svc.SearchListings(ctx, domain.SearchListingsInput{Q: queries[i%len(queries)]})
				lat = append(lat, time.Since(t0))
				if err != nil || len(out.Items) == 0 {
					b.Fatalf("search %q: %d items, err %v", queries[i%len(queries)], len(out.Items), err)
				}
				i++
			}
			slices.Sort(lat)
			pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))]) / 1e6 }
			b.ReportMetric(pct(0.50), "p50_ms")
			b.ReportMetric(pct(0.99), "p99_ms")
			b.ReportMetric(float64(lat[len(lat)-1])/1e6, "max_ms")
			b.Logf("search_listings at %d listings: %d calls over %d queries: p50 %.3f ms, p99 %.3f ms, max %.3f ms",
				env.n, len(lat), len(queries), pct(0.50), pct(0.99), float64(lat[len(lat)-1])/1e6)
		})
	}
}

// benchLabel names a listing count: 100k, 1M.
func benchLabel(n int) string {
	switch {
	case n%1_000_000 == 0:
		return fmt.Sprintf("n=%dM", n/1_000_000)
	case n%1_000 == 0:
		return fmt.Sprintf("n=%dk", n/1_000)
	}
	return fmt.Sprintf("n=%d", n)
}

// benchEnv is a store over n synthetic listings and its service.
type benchEnv struct {
	n   int
	svc *domain.Service
	st  any // the *storage.Store behind svc
}

// benchSite is the site the synthetic databases are seeded for.
var benchSite = domain.Site{Key: "main", Name: "Launchdir", Purpose: "Benchmark directory.", BaseURL: "http://127.0.0.1"}

// benchEnvs shares one store per listing count across the benchmarks of a
// process (building the index of 1M listings takes a while); they are read-only.
var (
	benchEnvsMu sync.Mutex
	benchEnvs   = map[int]*benchEnv{}
)

// benchOpen opens (seeding it on first use) the cached database with n synthetic
// listings and builds the store and service over it, once per process.
func benchOpen(b *testing.B, n int) *benchEnv {
	b.Helper()
	benchEnvsMu.Lock()
	defer benchEnvsMu.Unlock()
	if env, ok := benchEnvs[n]; ok {
		return env
	}
	path := benchSyntheticDB(b, n)
	db, err := storage.Open(path, storage.WithClock(time.Now))
	if err != nil {
		b.Fatalf("storage.Open %s: %v", path, err)
	}
	// The first store builds the index (or loads the snapshot beside the
	// cached database) and its Close writes the snapshot if it had none that
	// held; the store the benchmarks use then loads it. So only the first run
	// over a database pays the index build, and profiles of later runs are the
	// calls' alone.
	start := time.Now()
	first, err := storage.NewStore(context.Background(), db, benchSite)
	if err == nil {
		err = first.Close()
	}
	if err != nil {
		db.Close()
		b.Fatalf("storage.NewStore (index or snapshot): %v", err)
	}
	built := time.Since(start)
	start = time.Now()
	st, err := storage.NewStore(context.Background(), db, benchSite)
	if err != nil {
		db.Close()
		b.Fatalf("storage.NewStore: %v", err)
	}
	b.Logf("NewStore over %d synthetic listings: %v (the first store, building or loading the index: %v)",
		n, time.Since(start).Round(time.Millisecond), built.Round(time.Millisecond))
	// As serve does at start-up, in the background there, before any search.
	start = time.Now()
	held, err := st.FillSummaryCache(context.Background())
	if err != nil {
		db.Close()
		b.Fatalf("FillSummaryCache: %v", err)
	}
	b.Logf("summary cache filled: %d of %d listings' summaries in %v", held, n, time.Since(start).Round(time.Millisecond))
	svc := domain.NewService(st, benchSite, func() time.Time { return benchNow })
	env := &benchEnv{n: n, svc: svc, st: st}
	benchEnvs[n] = env // the database stays open until the process exits
	return env
}

// benchSyntheticDB returns the path of a database seeded by storage.SeedSynthetic
// with n listings, cached in the user cache dir under a key made of n and a hash
// of the storage migrations and generator sources (so a new generator reseeds).
func benchSyntheticDB(b *testing.B, n int) string {
	b.Helper()
	cacheDir, err := os.UserCacheDir()
	if err != nil {
		b.Fatalf("no user cache directory: %v", err)
	}
	root := filepath.Join(cacheDir, "launchdir", "bench")
	if err := os.MkdirAll(root, 0o755); err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(root, fmt.Sprintf("synthetic-%d-%s", n, benchGeneratorHash(b)))
	path := filepath.Join(dir, "launchdir.db")
	if _, err := os.Stat(filepath.Join(dir, ".seeded")); err == nil {
		return path
	}
	tmp, err := os.MkdirTemp(root, "seeding-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	db, err := storage.Open(filepath.Join(tmp, "launchdir.db"), storage.WithClock(time.Now))
	if err != nil {
		b.Fatalf("storage.Open: %v", err)
	}
	if err := storage.SeedSynthetic(context.Background(), db, benchSite, n, benchNow); err != nil {
		db.Close()
		b.Fatalf("storage.SeedSynthetic(%d): %v", n, err)
	}
	if err := db.Close(); err != nil {
		b.Fatalf("close seeded db: %v", err)
	}
	if err := os.WriteFile(filepath.Join(tmp, ".seeded"), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".seeded")); err == nil {
		return path // another process seeded the same database meanwhile
	}
	_ = os.RemoveAll(dir) // a leftover without the marker
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, ".seeded")); statErr != nil {
			b.Fatalf("cache seeded db: %v", err)
		}
	}
	b.Logf("seeded %d synthetic listings into %s in %v", n, dir, time.Since(start).Round(time.Millisecond))
	// Drop databases of the same size seeded by older generators.
	if old, err := filepath.Glob(filepath.Join(root, fmt.Sprintf("synthetic-%d-*", n))); err == nil {
		for _, o := range old {
			if o != dir {
				os.RemoveAll(o)
			}
		}
	}
	return path
}

// benchGeneratorHash hashes the storage migrations and the synthetic generator
// and writer sources (domain/demo/*synth*.go, storage/*synth*.go; all of
// storage/*.go if there is none such).
func benchGeneratorHash(b *testing.B) string {
	b.Helper()
	files, _ := filepath.Glob("../storage/migrations/*.sql") // the SQLite set the bench seeds
	gen, _ := filepath.Glob("../storage/*[sS]ynth*.go")
	demoGen, _ := filepath.Glob("../domain/demo/*[sS]ynth*.go")
	gen = append(gen, demoGen...)
	if len(gen) == 0 {
		gen, _ = filepath.Glob("../storage/*.go")
	}
	files = append(files, gen...)
	if len(files) == 0 {
		b.Fatal(errors.New("benchGeneratorHash: no storage sources found from the tools directory"))
	}
	slices.Sort(files)
	h := sha256.New()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", filepath.Base(f), len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// BenchmarkSearchFresh is the store's part of a search asked afresh: the
// service's search_listings (index search, the page's summaries, the
// placing of the matched words) with the cache of search pages off, one
// call at a time, no HTTP. It reports the process CPU per call, so that a
// profile of it (-cpuprofile) shows the search path without the transports.
// queries=32 cycles through BenchmarkThroughput's 32 queries, whose words
// the index's caches (expansion, stems, placing) hold after the first round;
// distinct asks the stream of distinct queries (benchFresh) instead, which
// those caches have not seen as queries:
//
//	go test ./tools -run '^$' -bench 'SearchFresh' -benchtime 3000x -cpuprofile cpu.out
func BenchmarkSearchFresh(b *testing.B) {
	env := benchOpen(b, *benchThroughputN)
	if cache, ok := env.st.(interface{ SetResultCache(on bool) }); ok {
		cache.SetResultCache(false)
		defer cache.SetResultCache(true)
	}
	b.Run("queries=32", func(b *testing.B) {
		queries := benchQueries(b, env.svc)
		if *benchFreshQ != "" {
			queries = strings.Split(*benchFreshQ, ",")
		}
		ctx := context.Background()
		for _, q := range queries { // warm up: scratch buffers, the summary cache
			if _, err := env.svc.SearchListings(ctx, domain.SearchListingsInput{Q: q}); err != nil {
				b.Fatal(err)
			}
		}
		benchSearchFresh(b, env, queries, true)
	})
	b.Run("distinct", func(b *testing.B) {
		queries := benchFreshQueries(b, env.svc, 0, benchFreshChunk)
		b.Logf("%d distinct queries (%.0f%% of their words in an earlier one)", len(queries), 100*benchWordsSeen(queries))
		benchSearchFresh(b, env, queries, false)
	})
}

// benchFreshChunk is how many queries of the fresh stream each benchmark
// target asks (BenchmarkSearchFresh/distinct the first chunk, the
// throughput targets' _nocache the next ones); a target asking more wraps.
const benchFreshChunk = 6000

// benchSearchFresh asks queries in turn through the service, reporting CPU
// per call; with perQuery it also prints each query's CPU per call. Every
// answer must have an item when strict, else the empty ones are counted.
func benchSearchFresh(b *testing.B, env *benchEnv, queries []string, strict bool) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	per := make([]time.Duration, len(queries)) // process CPU per query
	cpu0, i, empty := benchProcessCPU(), 0, 0
	for b.Loop() {
		k, c0 := i%len(queries), benchProcessCPU()
		out, err := env.svc.SearchListings(ctx, domain.SearchListingsInput{Q: queries[k]})
		if err != nil || (strict && len(out.Items) == 0) {
			b.Fatalf("search %q: %d items, err %v", queries[k], len(out.Items), err)
		}
		if len(out.Items) == 0 {
			empty++
		}
		per[k] += benchProcessCPU() - c0
		i++
	}
	cpu := benchProcessCPU() - cpu0
	b.StopTimer()
	if cpu <= 0 {
		return
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(i), "cpu_us/call")
	if !strict {
		b.ReportMetric(float64(empty)/float64(i), "empty/call")
		if i > len(queries) {
			b.Logf("%d calls over %d queries: the stream wrapped", i, len(queries))
		}
		return
	}
	var sb strings.Builder
	for k, q := range queries {
		if n := (i - k + len(queries) - 1) / len(queries); n > 0 {
			fmt.Fprintf(&sb, "\n  %-28q %7.0f us", q, float64(per[k].Microseconds())/float64(n))
		}
	}
	fmt.Fprintf(os.Stderr, "%s: CPU per call by query:%s\n", b.Name(), sb.String()) // more lines than b.Log keeps
}
