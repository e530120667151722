package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"

	"github.com/launchdir/launchdir/domain"
)

// TestSplice_SameBytes: a tool result spliced in by the response writer is
// byte for byte the response the SDK writes when it encodes the result
// itself, for bodies of every operation's result type filled with random
// tricky values (HTML characters, quotes, control characters, U+2028, bad
// UTF-8, emoji), as the SDK's JSON-RPC envelope holds it.
func TestSplice_SameBytes(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(29, 2026))
	for _, op := range Catalog() {
		for i := range 3 {
			v := reflect.New(op.Output)
			fillRandom(r, v.Elem(), 0)
			body, err := encodeResult(nil, v.Interface())
			if err != nil {
				continue // a value encoding/json refuses too (TestEncodeResult_SameAsStd)
			}
			want := sdkResponse(t, &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
				StructuredContent: json.RawMessage(body),
			})
			sp := &splicer{ResponseWriter: httptest.NewRecorder()}
			ctx := context.WithValue(t.Context(), spliceKey{}, sp)
			res := splicedResult(ctx, &result{body: body})
			if bytes.Contains([]byte(res.Content[0].(*mcp.TextContent).Text), body) {
				t.Fatalf("%s: the result holds its body, not placeholders", op.Name)
			}
			if _, err := sp.Write(sdkResponse(t, res)); err != nil {
				t.Fatal(err)
			}
			got := sp.ResponseWriter.(*httptest.ResponseRecorder).Body.Bytes()
			if !bytes.Equal(got, want) {
				t.Errorf("%s #%d: spliced response differs from the SDK's:\n got %.400s\nwant %.400s", op.Name, i, got, want)
			}
		}
	}
}

// TestSplice_TextEscaping: the text content's bytes are encoding/json's
// for any string, a body's JSON or not.
func TestSplice_TextEscaping(t *testing.T) {
	t.Parallel()
	for _, s := range append(trickyStrings, `{"a":"<b> & \u2028"}`, "\u003c", "\\\"") {
		sp := &splicer{ResponseWriter: httptest.NewRecorder()}
		text, _, err := sp.put([]byte(s), nil)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(s)
		if got := sp.parts[`"`+text+`"`]; !bytes.Equal(got, want) {
			t.Errorf("text of %q: %s, encoding/json %s", s, got, want)
		}
	}
	// Random strings of the bytes that matter, valid UTF-8 or not.
	r := rand.New(rand.NewPCG(3, 2026))
	alphabet := []string{"a", "\"", "\\", "<", ">", "&", "\n", "\x00", "\x7f", "é", "\u2028", "\u2029", "\xe2\x80", "\xff", "🚀", "\ufffd", "u003c"}
	for range 2000 {
		var sb bytes.Buffer
		for range r.IntN(12) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		want, _ := json.Marshal(sb.String())
		sp := &splicer{ResponseWriter: httptest.NewRecorder()}
		text, _, err := sp.put(sb.Bytes(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := sp.parts[`"`+text+`"`]; !bytes.Equal(got, want) {
			t.Fatalf("text of %q: %s, encoding/json %s", sb.String(), got, want)
		}
	}
}

// sdkResponse is the JSON-RPC response go-sdk writes for res: a response
// envelope holding res encoded with encoding/json (as jsonrpc2 does it).
func sdkResponse(t *testing.T, res *mcp.CallToolResult) []byte {
	t.Helper()
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "result": json.RawMessage(raw)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSplice_Wire: over /mcp, every public read tool answers the same bytes
// through the splicing writer as through the SDK's own encoding (the same
// server's handler without mcpSplice), in each protocol version, and a
// JSON-RPC batch (2025-03-26) gets each of its results.
//
// Not parallel: it counts placeholders on the process-wide splicedParts, which
// any other test's MCP call moves.
func TestSplice_Wire(t *testing.T) {
	env := catTestServer(t, Options{}, true)
	unspliced := httptest.NewServer(env.tools.mcpToolsets(env.tools.mcpAuth(env.tools.mcpHandler())))
	t.Cleanup(unspliced.Close)
	calls := []struct {
		name string
		args map[string]any
	}{
		{"search_listings", map[string]any{"q": "app", "per_page": 20}},
		{"search_listings", map[string]any{"category": "no-such-category"}}, // an error result
		{"search_listings", map[string]any{"sort": "newest", "per_page": 100}},
		{"get_site_info", nil},
		{"list_categories", nil},
		{"get_launch_week", map[string]any{"week": "this"}},
		{"get_leaderboard", map[string]any{"board": "community-all-time"}},
		{"list_founders", nil},
		{"list_blog_posts", nil},
		{"get_listing", map[string]any{"slug": "no-such-listing"}},
	}
	var listings struct {
		Items []domain.ListingSummary `json:"items"`
	}
	if err := json.Unmarshal(wireREST(t, env, "/v1/listings?per_page=2"), &listings); err != nil || len(listings.Items) < 2 {
		t.Fatalf("two listings: %v", err)
	}
	a, b := listings.Items[0].Slug, listings.Items[1].Slug
	calls = append(calls,
		struct {
			name string
			args map[string]any
		}{"get_listing", map[string]any{"slug": a}},
		struct {
			name string
			args map[string]any
		}{"compare_listings", map[string]any{"a": a, "b": b}},
		struct {
			name string
			args map[string]any
		}{"get_alternatives", map[string]any{"slug": b}})
	id := 0
	for _, proto := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"} {
		for _, c := range calls {
			id++
			params := map[string]any{"name": c.name, "arguments": c.args}
			body := wireMCPBody(t, proto, "tools/call", id, params)
			hdr := wireMCPHeaders(proto, "tools/call", c.name)
			before := splicedParts.Load()
			got := catDo(t, env, "POST", "/mcp", body, hdr)
			if n := splicedParts.Load() - before; n != 2 && !bytes.Contains(got.body, []byte(`"isError":true`)) {
				t.Errorf("%s %s: %d placeholders replaced, want 2 (text and structured content)", proto, c.name, n)
			}
			want := postTo(t, unspliced.URL+"/mcp", body, hdr)
			if got.status != 200 || !bytes.Equal(got.body, want) {
				t.Errorf("%s %s %v: status %d; spliced and SDK-encoded responses differ:\n got %.300s\nwant %.300s", proto, c.name, c.args, got.status, got.body, want)
			}
			if bytes.Contains(got.body, []byte(splicePrefix[1:])) {
				t.Errorf("%s %s: a placeholder reached the client: %.300s", proto, c.name, got.body)
			}
		}
	}
	// A batch of two searches (2025-03-26 allows batches): each result in place.
	var batch []json.RawMessage
	for i, q := range []string{"app", "note"} {
		batch = append(batch, wireMCPBody(t, "2025-03-26", "tools/call", 900+i,
			map[string]any{"name": "search_listings", "arguments": map[string]any{"q": q}}))
	}
	body, _ := json.Marshal(batch)
	hdr := wireMCPHeaders("2025-03-26", "tools/call", "")
	got := catDo(t, env, "POST", "/mcp", body, hdr)
	want := postTo(t, unspliced.URL+"/mcp", body, hdr)
	// The SDK answers a batch's calls in the order they finish.
	byID := func(b []byte) map[int]string {
		var msgs []json.RawMessage
		if err := json.Unmarshal(b, &msgs); err != nil || len(msgs) != 2 {
			t.Fatalf("batch answer: %v, %d messages: %.300s", err, len(msgs), b)
		}
		out := map[int]string{}
		for _, m := range msgs {
			var head struct {
				ID int `json:"id"`
			}
			if err := json.Unmarshal(m, &head); err != nil {
				t.Fatal(err)
			}
			out[head.ID] = string(m)
		}
		return out
	}
	if g, w := byID(got.body), byID(want); got.status != 200 || !maps.Equal(g, w) || len(g) != 2 {
		t.Errorf("batch: status %d; spliced and SDK-encoded responses differ:\n got %.300s\nwant %.300s", got.status, got.body, want)
	}
}

func postTo(t *testing.T, url string, body []byte, hdr map[string]string) []byte {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(res.Body); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("POST %s: status %d: %s", url, res.StatusCode, buf.Bytes())
	}
	return buf.Bytes()
}

// TestSplice_UnknownPlaceholderKept: text that only looks like a placeholder
// (no result registered it) goes out as it came.
func TestSplice_UnknownPlaceholderKept(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	sp := &splicer{ResponseWriter: rec}
	ctx := context.WithValue(t.Context(), spliceKey{}, sp)
	res := splicedResult(ctx, &result{body: []byte(`{"a":1}`)})
	fake := fmt.Sprintf(`"ldsplice-%032x-t"`, 12345)
	resp := sdkResponse(t, res)
	in := append([]byte(fake+" "), resp...)
	if n, err := sp.Write(in); err != nil || n != len(in) {
		t.Fatalf("Write: %d, %v (want %d)", n, err, len(in))
	}
	want := append([]byte(fake+" "), sdkResponse(t, &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: `{"a":1}`}}, StructuredContent: json.RawMessage(`{"a":1}`)})...)
	if got := rec.Body.Bytes(); !bytes.Equal(got, want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSplice_OnePieceWithLength: a spliced tool result of more than net/http
// buffers (a page of 100 listings) goes out with its Content-Length, not
// chunked, as REST's answers do, and the length is the body's; answers that
// were not spliced are left to net/http.
func TestSplice_OnePieceWithLength(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	for _, proto := range []string{"2026-07-28", "2025-11-25"} {
		body := wireMCPBody(t, proto, "tools/call", 1, map[string]any{"name": "search_listings",
			"arguments": map[string]any{"sort": "newest", "per_page": 100}})
		req, err := http.NewRequest(http.MethodPost, env.URL+"/mcp", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range wireMCPHeaders(proto, "tools/call", "search_listings") {
			req.Header.Set(k, v)
		}
		res, err := env.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != 200 || !bytes.Contains(got, []byte(`"structuredContent":{"items":[{`)) || len(got) < 8<<10 {
			t.Fatalf("%s: status %d, %d bytes: %.300s", proto, res.StatusCode, len(got), got)
		}
		if len(res.TransferEncoding) > 0 || res.ContentLength != int64(len(got)) {
			t.Errorf("%s: Transfer-Encoding %v, Content-Length %d for a body of %d bytes; want the length, not chunked",
				proto, res.TransferEncoding, res.ContentLength, len(got))
		}
	}
}

// TestSplice_ConcurrentCallsKeepTheirBytes: many /mcp searches at once, each
// answered with its own bytes (the same as the SDK's own encoding of the
// same call), while the buffers of finished calls are reused by others.
func TestSplice_ConcurrentCallsKeepTheirBytes(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	unspliced := httptest.NewServer(env.tools.mcpToolsets(env.tools.mcpAuth(env.tools.mcpHandler())))
	t.Cleanup(unspliced.Close)
	hdr := wireMCPHeaders("2025-11-25", "tools/call", "search_listings")
	var calls, want [][]byte
	for i, args := range []map[string]any{{"q": "app"}, {"q": "note"}, {"sort": "newest", "per_page": 100},
		{"sort": "votes", "per_page": 7}, {"q": "design tool"}, {"status": "upcoming"}} {
		body := wireMCPBody(t, "2025-11-25", "tools/call", 100+i, map[string]any{"name": "search_listings", "arguments": args})
		calls = append(calls, body)
		want = append(want, postTo(t, unspliced.URL+"/mcp", body, hdr))
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 30 {
				k := (w + i) % len(calls)
				got := catDo(t, env, "POST", "/mcp", calls[k], hdr)
				if got.status != 200 || !bytes.Equal(got.body, want[k]) {
					t.Errorf("call %d: status %d; not its own answer:\n got %.300s\nwant %.300s", k, got.status, got.body, want[k])
					return
				}
			}
		})
	}
	wg.Wait()
}

// BenchmarkTextEscape: the text content of a search page of 20 listings,
// escaped by segmentio's AppendEscape (what splicer.put used) and by
// appendJSONString, side by side:
//
//	go test ./tools -run '^$' -bench TextEscape
func BenchmarkTextEscape(b *testing.B) {
	var out domain.SearchListingsOutput
	for i := range 20 {
		out.Items = append(out.Items, domain.SearchListingItem{
			ListingSummary: domain.ListingSummary{Slug: fmt.Sprintf("tracker-%d", i), Name: fmt.Sprintf("Tracker %d", i),
				Tagline: "Time tracking & invoices for freelancers – “simple”", URL: "https://tracker.example/" + fmt.Sprint(i),
				PageURL: "https://launchdir.example/listings/tracker-" + fmt.Sprint(i), LogoURL: "https://cdn.example/logo.png",
				PrimaryCategory: &domain.CategoryRef{Slug: "time-tracking", Name: "Time tracking"}, Stage: "growing",
				Country: "DE", PricingModel: "freemium", Status: "live", Plan: "free", LaunchWeek: "2026-11-16", Votes: 12, Views: 3400},
			Matched: map[string][]string{"time": {"name", "tagline"}, "tracking": {"tagline"}},
		})
	}
	body, err := encodeResult(nil, out)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]byte, 0, 2*len(body))
	b.Run("segjson", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			dst = segjson.AppendEscape(dst[:0], string(body), segjson.EscapeHTML)
		}
	})
	b.Run("appendJSONString", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			dst = appendJSONString(dst[:0], body)
		}
	})
}
