package tools

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
)

// openapiExamplesJSON holds one request and one response example per
// operation, recorded from the demo data by TestSnapshot_OpenAPIExamples
// (go test ./tools -run Snapshot -update; docs/openapi.md).
//
//go:embed openapi_examples.json
var openapiExamplesJSON []byte

// exampleOrigin is the site origin the recorded examples are written with;
// OpenAPI puts the served origin in its place.
const exampleOrigin = "https://launchdir.example"

// exampleIdempotencyKey is the Idempotency-Key header's example.
const exampleIdempotencyKey = "5b0e9a52-7c1d-4f0e-9d8b-2f6a1c3e4d57"

// opExample is one operation's example: its arguments as one object (path,
// query and body together, as an MCP tool takes them) and its success body.
type opExample struct {
	Request  map[string]any `json:"request"`
	Response any            `json:"response"`
}

// openapiExamples returns the recorded examples by operation name, with
// origin (the served site's) in place of exampleOrigin.
func openapiExamples(origin string) (map[string]opExample, error) {
	raw := openapiExamplesJSON
	if origin != "" {
		raw = bytes.ReplaceAll(raw, []byte(exampleOrigin), []byte(origin))
	}
	var ex map[string]opExample
	if err := json.Unmarshal(raw, &ex); err != nil {
		return nil, fmt.Errorf("openapi_examples.json: %w", err)
	}
	return ex, nil
}
