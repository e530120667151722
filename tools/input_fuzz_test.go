package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// The fuzz targets of what the transports read from callers: REST path,
// query and body, and MCP tools/call arguments, decoded and validated
// against the real catalog's schemas. docs/fuzzing.md has the long run.

// fuzzServer is the real catalog's transports; no operation is run, so no
// store is needed.
func fuzzServer() *Server {
	svc := domain.NewService(nil, domain.Site{Key: "main", Name: "Fuzz", BaseURL: "http://127.0.0.1"}, time.Now)
	return New(svc, Options{Now: svc.Now})
}

// fuzzSeeds are realistic inputs: for each operation, arguments that pass,
// and a few that break a rule, a bound or the JSON itself.
func fuzzSeeds(f *testing.F, add func(op uint8, path, query string, body []byte)) {
	bodies := []string{
		`{"url":"https://notewise.app","notes":"Launching in spring"}`,
		`{"fields":{"tagline":"Notes that write themselves","features":["Sync","Search"],"founded_year":2019.0},"faqs":[{"question":"Free?","answer":"Yes."}]}`,
		`{"items":[{"product":"launch","listing_id":7,"week":"2026-11-23"},{"product":"billboard_min","amount_cents":2500}]}`,
		`{"slug":"jotstack","method":"dns"}`,
		`{"fields":{"tagline":"A","tagline":"B"}}`,
		`{"items":[{"product":"launch","options":{"a":{"b":[1,2,{"c":null}]}}}]}`,
		`{"idempotency_key":"k-1","url":"https://x.test"}`,
		`{"per_page":1e400}`, `{"page":"2"}`, `[1,2]`, `null`, `{"a":1} {"b":2}`, `{"a":`, "\xff\xfe{}", ``,
	}
	queries := []string{"", "q=note%20app&per_page=5&page=2", "week=this", "per_page=20.0&sort=votes", "page=+5",
		"category=ai-tools&category=dev-tools", "per_page=1e2", "q=%ff", "a=b&a=c", "week=2026-09-09&board=community-weekly"}
	paths := []string{"jotstack", "7", "0f8fad5b-d9cb-469f-a165-70867728950e", "Bad_Slug", "-1", "99999999999999999999"}
	for i := range 64 {
		add(uint8(i), paths[i%len(paths)], queries[i%len(queries)], []byte(bodies[i%len(bodies)]))
	}
}

// FuzzRESTInput sends path, query and body to an operation's REST decoding
// and validation. Properties: it never panics; it answers either a
// validation error naming field, rule and message for each problem, or
// arguments that validate again and decode into the operation's Go input
// type (else the operation would fail with an internal error); and for an
// operation whose whole input is the body, REST and MCP agree.
func FuzzRESTInput(f *testing.F) {
	s := fuzzServer()
	fuzzSeeds(f, func(op uint8, path, query string, body []byte) { f.Add(op, path, query, body) })
	f.Fuzz(func(t *testing.T, op uint8, pathVal, query string, body []byte) {
		b := s.ops[int(op)%len(s.ops)]
		path := map[string]string{}
		for _, p := range b.PathParams {
			path[p] = pathVal
		}
		var (
			doc  map[string]any
			errs []domain.FieldError
		)
		if hasBody(b.Method) {
			r := httptest.NewRequest(b.Method, "/v1/fuzz", bytes.NewReader(body))
			r.URL.RawQuery = query
			r.Header.Set("Content-Type", "application/json")
			var tooLarge *Problem
			doc, errs, tooLarge = b.v.decodeBody(httptest.NewRecorder(), r, path)
			if tooLarge != nil {
				if len(body) <= maxBodyBytes {
					t.Fatalf("%s: %d bytes answered 413", b.Name, len(body))
				}
				return
			}
		} else {
			q, _ := url.ParseQuery(query) // net/http keeps what parses, too
			doc, errs = b.v.coerceQuery(q, path)
		}
		c := &call{op: b, pre: errs}
		if doc != nil {
			c.args = doc
		}
		args, err := c.arguments()
		fuzzCheck(t, b, "REST", args, err)

		if hasBody(b.Method) && len(b.PathParams) == 0 && !b.Idem && query == "" {
			trimmed := bytes.TrimSpace(body)
			if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
				return // REST: an empty body is {}, null is not an object; MCP: both are {}
			}
			margs, merr := mcpCall(context.Background(), b, nil, body).arguments()
			fuzzCheck(t, b, "MCP", margs, merr)
			if (err == nil) != (merr == nil) {
				t.Fatalf("%s: REST says %v, MCP says %v for %q", b.Name, err, merr, body)
			}
			v, derr := decodeJSON(body)
			if _, isObject := v.(map[string]any); derr == nil && isObject && err != nil {
				if re, me := fieldsOf(err), fieldsOf(merr); !slices.Equal(re, me) {
					t.Fatalf("%s: REST errors %v, MCP errors %v for %q", b.Name, re, me, body)
				}
			}
		}
	})
}

// FuzzMCPArguments sends tools/call arguments to an operation's MCP decoding
// and validation (the path REST bodies share): the same properties as
// FuzzRESTInput.
func FuzzMCPArguments(f *testing.F) {
	s := fuzzServer()
	fuzzSeeds(f, func(op uint8, _, _ string, body []byte) { f.Add(op, body) })
	f.Fuzz(func(t *testing.T, op uint8, raw []byte) {
		b := s.ops[int(op)%len(s.ops)]
		args, err := mcpCall(context.Background(), b, nil, raw).arguments()
		fuzzCheck(t, b, "MCP", args, err)
	})
}

// fuzzCheck holds the properties of one decoded and validated input.
func fuzzCheck(t *testing.T, b *bound, via string, args json.RawMessage, err error) {
	t.Helper()
	if err != nil {
		var de *domain.Error
		if !errors.As(err, &de) || de.Code != domain.EInvalid || len(de.Fields) == 0 || StatusOf(de.Code) != http.StatusBadRequest {
			t.Fatalf("%s %s: error %v is not a 400 naming fields", via, b.Name, err)
		}
		for _, fe := range de.Fields {
			if fe.Field == "" || fe.Rule == "" || strings.TrimSpace(fe.Message) == "" {
				t.Fatalf("%s %s: field error %+v lacks field, rule or message", via, b.Name, fe)
			}
		}
		return
	}
	in := reflect.New(b.Input)
	if len(args) > 0 {
		if err := json.Unmarshal(args, in.Interface()); err != nil {
			t.Fatalf("%s %s: arguments %s passed the schema but do not decode into %s: %v", via, b.Name, args, b.Input, err)
		}
	}
	doc, err := decodeJSON(args)
	if err != nil {
		t.Fatalf("%s %s: arguments %s are not JSON: %v", via, b.Name, args, err)
	}
	if fe := b.v.validate(doc); fe != nil {
		t.Fatalf("%s %s: arguments %s passed and then failed the schema: %v", via, b.Name, args, fe)
	}
}

func fieldsOf(err error) []string {
	var de *domain.Error
	if !errors.As(err, &de) {
		return nil
	}
	var out []string
	for _, f := range de.Fields {
		out = append(out, f.Field+" "+f.Rule)
	}
	return out
}
