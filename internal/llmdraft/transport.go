package llmdraft

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// jsonModeSchemaKey is the context key under which completeIn hands the
// reply's schema to jsonModeDoer for a request in JSON mode.
type jsonModeSchemaKey struct{}

// jsonModeDoer sends the client's requests through hc. A request whose
// context carries a schema (jsonModeSchemaKey) gets it beside its
// response_format's type, {"type": "json_object", "schema": ...}: llama.cpp's
// server takes a schema in JSON mode that way, and go-openai's request type
// has no field for it. Every other request goes out as the client built it.
type jsonModeDoer struct{ hc *http.Client }

func (d jsonModeDoer) Do(r *http.Request) (*http.Response, error) {
	schema, _ := r.Context().Value(jsonModeSchemaKey{}).(json.RawMessage)
	if schema == nil || r.Body == nil {
		return d.hc.Do(r)
	}
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, fmt.Errorf("llmdraft: adding the schema to the request: %w", err)
	}
	var format map[string]json.RawMessage
	if err := json.Unmarshal(fields["response_format"], &format); err != nil || format == nil {
		return nil, fmt.Errorf("llmdraft: adding the schema to the request: no response_format object (%v)", err)
	}
	format["schema"] = schema
	fields["response_format"] = mustJSON(format)
	body = mustJSON(fields)
	r = r.Clone(r.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r.ContentLength = int64(len(body))
	return d.hc.Do(r)
}

// mustJSON is v as JSON; v is built here from maps, slices and strings (or
// raw JSON already checked), so encoding it cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("llmdraft: " + err.Error())
	}
	return b
}
