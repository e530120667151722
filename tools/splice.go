package tools

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
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
				StructuredContent: quoted(structured),
			}
		}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(res.body)}},
		StructuredContent: json.RawMessage(bytes.Clone(res.body)),
	}
}

// quoted returns the placeholder s as the JSON string it is (its bytes
// need no escape).
func quoted(s string) json.RawMessage {
	return append(append(append(make(json.RawMessage, 0, len(s)+2), '"'), s...), '"')
}

// put registers body and returns the text of the two placeholders standing
// for it (without quotes): the first for the text content (body as a JSON
// string), the second for the structured content (body). body must not
// change until the response is written; own, if not nil, is the pooled
// buffer body lives in, given back by release.
func (sp *splicer) put(body []byte, own *bytes.Buffer) (text, structured string, err error) {
	keys := placeholders()
	kt, ks := keys[:spliceLen], keys[spliceLen:]
	// Into a pooled buffer's spare room (it grows there unless the escapes
	// outgrow it).
	esc := resultBufs.Get().(*bytes.Buffer)
	esc.Grow(len(body) + len(body)/8 + escMax)
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
	sp.parts[kt] = str
	sp.parts[ks] = body
	return kt[1 : spliceLen-1], ks[1 : spliceLen-1], nil
}

// placeholders returns a new pair of placeholders, quotes included, in one
// string: the text content's (kind t) then the structured content's (s),
// each spliceLen bytes.
func placeholders() string {
	rnd := domain.RandomBytes(16)
	var b [2 * spliceLen]byte
	for k, kind := range [2]byte{'t', 's'} {
		p := b[k*spliceLen : (k+1)*spliceLen]
		n := copy(p, splicePrefix)
		n += hex.Encode(p[n:], rnd)
		p[n], p[n+1], p[n+2] = '-', kind, '"'
	}
	return string(b[:])
}

// appendJSONString appends s as a JSON string, byte for byte as
// encoding/json writes one (HTML characters, control characters, U+2028 and
// U+2029 escaped, bad UTF-8 as U+FFFD; TestSplice_TextEscaping). It writes
// a byte at a time into room reserved ahead, one table look-up a byte: a
// search page has a quote every few bytes, so its runs of plain bytes are
// short, and copying them run by run (as segmentio's AppendEscape does)
// costs a call and a capacity check a run (BenchmarkTextEscape).
func appendJSONString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	j := len(dst)
	d := reserve(dst, len(s)+len(s)/8+escMax)
	d[j] = '"'
	j++
	for i := 0; i < len(s); {
		if len(d)-j < escMax {
			d = reserve(d[:j], len(s)-i+len(s)/8+escMax)
		}
		c := s[i]
		e := jsonEsc[c]
		if e == 0 {
			d[j] = c
			j++
			i++
			continue
		}
		switch e {
		case escHex: // other control characters, <, > and &
			d[j], d[j+1], d[j+2], d[j+3], d[j+4], d[j+5] = '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf]
			j += 6
		case escRune:
			r, size := utf8.DecodeRune(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				j += copy(d[j:], `\ufffd`)
			case r == '\u2028' || r == '\u2029':
				d[j], d[j+1], d[j+2], d[j+3], d[j+4], d[j+5] = '\\', 'u', '2', '0', '2', hex[r&0xf]
				j += 6
			default:
				j += copy(d[j:], s[i:i+size])
			}
			i += size
			continue
		default: // a backslash and e
			d[j], d[j+1] = '\\', e
			j += 2
		}
		i++
	}
	d[j] = '"' // each round starts with escMax bytes free and writes at most 6
	return d[:j+1]
}

// escMax is the most bytes appendJSONString writes for one byte or rune of
// its input (\u00XX, \ufffd, \u202X), its closing quote included.
const escMax = 8

// reserve returns b extended to its capacity, which it grows first when
// that leaves fewer than n bytes after len(b).
func reserve(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		b = slices.Grow(b, n)
	}
	return b[:cap(b)]
}

// jsonEsc says how appendJSONString writes each byte: 0 as it is, escHex
// as \u00XX, escRune as the start of a non-ASCII rune, else a backslash and
// the byte's entry (\" \\ \b \f \n \r \t).
var jsonEsc = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = escRune
		case c == '"' || c == '\\':
			t[c] = byte(c)
		case c == '\b':
			t[c] = 'b'
		case c == '\f':
			t[c] = 'f'
		case c == '\n':
			t[c] = 'n'
		case c == '\r':
			t[c] = 'r'
		case c == '\t':
			t[c] = 't'
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			t[c] = escHex
		}
	}
	return t
}()

const (
	escHex  = 1
	escRune = 2
)

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
