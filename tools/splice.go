package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"

	"github.com/launchdir/launchdir/domain"
)

// A tool result is JSON we have already encoded once (execBuf). go-sdk
// v1.8.0 encodes a CallToolResult with encoding/json, which scans and
// compacts the same bytes four times over on their way out (as text content
// and as structured content; docs/sdk-upstream.md): for a 10-20 KB page of
// search results that cost more than the search. So over HTTP the result the
// SDK encodes holds two placeholders, short JSON strings no result can
// contain (a random token per result), and the response writer puts the
// bytes they stand for in their place as the SDK writes its one JSON-RPC
// response: the body as a JSON string (the text content), and the body
// itself (the structured content). The response is byte for byte what the
// SDK would have written (TestSplice_SameBytes); the SDK still does
// everything else (the protocol, the envelope, errors).

// spliceKey carries a request's splicer from mcpSplice to toolHandler.
type spliceKey struct{}

// splicePrefix starts every placeholder; the rest of one is 32 hex digits
// and a kind letter, so a placeholder is a JSON string the SDK writes as is.
const splicePrefix = `"ldsplice-`

// spliceLen is the length of a placeholder with its quotes.
const spliceLen = len(splicePrefix) + 32 + 2 + 1

// splicedParts counts the placeholders replaced since the process started
// (tests read it to know the splice took place).
var splicedParts atomic.Int64

// splicer is the response writer of one /mcp POST: it replaces each
// placeholder a tool result of the request registered (put) by its bytes.
type splicer struct {
	http.ResponseWriter
	mu    sync.Mutex
	parts map[string][]byte // placeholder, quotes included -> its bytes
}

// mcpSplice gives each /mcp POST a splicer, in its context for toolHandler
// and as its response writer.
func mcpSplice(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		sp := &splicer{ResponseWriter: w}
		next.ServeHTTP(sp, r.WithContext(context.WithValue(r.Context(), spliceKey{}, sp)))
	})
}

// splicedResult returns the result of a tool call whose JSON is body: with
// placeholders for the body when ctx has a splicer (then body is copied and
// may be reused), else holding copies of it.
func splicedResult(ctx context.Context, body []byte) *mcp.CallToolResult {
	sp, _ := ctx.Value(spliceKey{}).(*splicer)
	if sp != nil {
		text, structured, err := sp.put(body)
		if err == nil {
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: text}},
				StructuredContent: json.RawMessage(`"` + structured + `"`),
			}
		}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
		StructuredContent: json.RawMessage(bytes.Clone(body)),
	}
}

// put registers body and returns the text of the two placeholders standing
// for it (without quotes): the first for the text content (body as a JSON
// string), the second for the structured content (body).
func (sp *splicer) put(body []byte) (text, structured string, err error) {
	tok := splicePrefix[1:] + domain.RandomHex(16) + "-"
	// As encoding/json writes a string (HTML characters, U+2028 and U+2029
	// escaped, bad UTF-8 as U+FFFD): encodeResult's flags.
	str := segjson.AppendEscape(make([]byte, 0, len(body)+len(body)/8+2), string(body), segjson.EscapeHTML)
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.parts == nil {
		sp.parts = make(map[string][]byte, 2)
	}
	sp.parts[`"`+tok+`t"`] = str
	sp.parts[`"`+tok+`s"`] = bytes.Clone(body)
	return tok + "t", tok + "s", nil
}

// Write writes p with each registered placeholder in it replaced by its bytes.
func (sp *splicer) Write(p []byte) (int, error) {
	sp.mu.Lock()
	parts := sp.parts
	if len(parts) == 0 || !bytes.Contains(p, []byte(splicePrefix)) {
		sp.mu.Unlock()
		return sp.ResponseWriter.Write(p)
	}
	size := len(p)
	for _, b := range parts {
		size += len(b)
	}
	out := make([]byte, 0, size)
	rest := p
	for {
		i := bytes.Index(rest, []byte(splicePrefix))
		if i < 0 || len(rest)-i < spliceLen {
			break
		}
		b, ok := parts[string(rest[i:i+spliceLen])]
		if !ok {
			out = append(out, rest[:i+1]...)
			rest = rest[i+1:]
			continue
		}
		out = append(append(out, rest[:i]...), b...)
		delete(parts, string(rest[i:i+spliceLen]))
		splicedParts.Add(1)
		rest = rest[i+spliceLen:]
	}
	sp.mu.Unlock()
	out = append(out, rest...)
	if _, err := sp.ResponseWriter.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush lets the SDK flush through the splicer.
func (sp *splicer) Flush() {
	if f, ok := sp.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (sp *splicer) Unwrap() http.ResponseWriter { return sp.ResponseWriter }
