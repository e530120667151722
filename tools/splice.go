package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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
//
// The bytes live in pooled buffers (resultBufs) until the request ends: the
// result's own (execBuf's, handed over by the tool handler instead of being
// copied) and the text content's; the response is put together in another
// one, given back as soon as it is written. Nothing of a page is allocated
// per call.
type splicer struct {
	http.ResponseWriter
	mu    sync.Mutex
	parts map[string][]byte // placeholder, quotes included -> its bytes
	bufs  []*bytes.Buffer   // pooled buffers holding parts, given back by release
	wrote bool              // the header went out (WriteHeader, Write or Flush)
	done  bool              // release ran: buffers put later are not pooled
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
		defer sp.release()
		next.ServeHTTP(sp, r.WithContext(context.WithValue(r.Context(), spliceKey{}, sp)))
	})
}

// release gives the splicer's buffers back once the response is written
// (the handler returned, so nothing writes through it any more).
func (sp *splicer) release() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.done = true
	for _, b := range sp.bufs {
		putResultBuf(b)
	}
	sp.bufs, sp.parts = nil, nil
}

// splicedResult returns the result of a tool call whose JSON is res.body:
// with placeholders for the body when ctx has a splicer, which then takes
// res's pooled buffer (res.release no longer gives it back) and holds body
// until the response is written; else holding copies of it.
func splicedResult(ctx context.Context, res *result) *mcp.CallToolResult {
	sp, _ := ctx.Value(spliceKey{}).(*splicer)
	if sp != nil {
		text, structured, err := sp.put(res.body, res.buf)
		if err == nil {
			res.buf = nil // the splicer's now
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: text}},
				StructuredContent: json.RawMessage(`"` + structured + `"`),
			}
		}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(res.body)}},
		StructuredContent: json.RawMessage(bytes.Clone(res.body)),
	}
}

// put registers body and returns the text of the two placeholders standing
// for it (without quotes): the first for the text content (body as a JSON
// string), the second for the structured content (body). body must not
// change until the response is written; own, if not nil, is the pooled
// buffer body lives in, given back by release.
func (sp *splicer) put(body []byte, own *bytes.Buffer) (text, structured string, err error) {
	tok := splicePrefix[1:] + domain.RandomHex(16) + "-"
	// Into a pooled buffer's spare room (it grows there unless the escapes
	// outgrow it).
	esc := resultBufs.Get().(*bytes.Buffer)
	esc.Grow(len(body) + len(body)/8 + 2)
	str := appendJSONString(esc.AvailableBuffer(), body)
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if !sp.done {
		sp.bufs = append(sp.bufs, esc)
		if own != nil {
			sp.bufs = append(sp.bufs, own)
		}
	}
	if sp.parts == nil {
		sp.parts = make(map[string][]byte, 2)
	}
	sp.parts[`"`+tok+`t"`] = str
	sp.parts[`"`+tok+`s"`] = body
	return tok + "t", tok + "s", nil
}

// appendJSONString appends s as a JSON string, byte for byte as
// encoding/json writes one (HTML characters, control characters, U+2028 and
// U+2029 escaped, bad UTF-8 as U+FFFD; TestSplice_TextEscaping). It is
// segmentio's AppendEscape with encodeResult's flags, about 1.7 times as fast
// on a search page (BenchmarkTextEscape): runs of plain ASCII are copied
// whole, found with a table.
func appendJSONString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default: // other control characters, <, > and &
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(append(dst, s[start:]...), '"')
}

// jsonPlain marks the ASCII bytes a JSON string holds as they are.
var jsonPlain = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// WriteHeader notes that the header went out.
func (sp *splicer) WriteHeader(code int) {
	sp.mu.Lock()
	sp.wrote = true
	sp.mu.Unlock()
	sp.ResponseWriter.WriteHeader(code)
}

// Write writes p with each registered placeholder in it replaced by its
// bytes. When p is the whole response (the first write of a JSON answer:
// go-sdk writes a JSON response, one message or a batch, in one Write), it
// goes out with its Content-Length: in one piece, not chunked.
func (sp *splicer) Write(p []byte) (int, error) {
	sp.mu.Lock()
	parts := sp.parts
	first := !sp.wrote
	sp.wrote = true
	if len(parts) == 0 || !bytes.Contains(p, []byte(splicePrefix)) {
		sp.mu.Unlock()
		return sp.ResponseWriter.Write(p)
	}
	size := len(p)
	for _, b := range parts {
		size += len(b)
	}
	ob := resultBufs.Get().(*bytes.Buffer)
	defer putResultBuf(ob)
	ob.Grow(size)
	out := ob.AvailableBuffer()
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
	if h := sp.Header(); first && h.Get("Content-Length") == "" && h.Get("Transfer-Encoding") == "" &&
		strings.HasPrefix(h.Get("Content-Type"), "application/json") {
		h.Set("Content-Length", strconv.Itoa(len(out)))
	}
	if _, err := sp.ResponseWriter.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush lets the SDK flush through the splicer.
func (sp *splicer) Flush() {
	sp.mu.Lock()
	sp.wrote = true
	sp.mu.Unlock()
	if f, ok := sp.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (sp *splicer) Unwrap() http.ResponseWriter { return sp.ResponseWriter }
