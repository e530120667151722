package tools

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/launchdir/launchdir/internal/testtier"
)

// The OpenAPI document covers every served operation, declares the shared
// errors, and its schemas compile with every $ref resolving inside it.
func TestOpenAPI_Document(t *testing.T) {
	t.Parallel()
	raw, err := OpenAPI(Catalog(), catSnapshotServer)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string            `json:"version"`
			License map[string]string `json:"license"`
			Contact map[string]string `json:"contact"`
		} `json:"info"`
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
		Tags  []map[string]string                   `json:"tags"`
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Info.Version != "1.0.0" || len(doc.Servers) != 1 || doc.Servers[0].URL != catSnapshotServer {
		t.Errorf("header: openapi %q, version %q, servers %+v", doc.OpenAPI, doc.Info.Version, doc.Servers)
	}
	origin := strings.TrimSuffix(catSnapshotServer, "/v1")
	if doc.Info.License["name"] == "" || doc.Info.License["url"] != origin+"/docs" || doc.Info.Contact["url"] != origin+"/docs" {
		t.Errorf("info: license %v contact %v", doc.Info.License, doc.Info.Contact)
	}
	count := 0
	for _, item := range doc.Paths {
		count += len(item)
	}
	if count != len(Catalog()) {
		t.Errorf("%d operations in the document, catalog has %d", count, len(Catalog()))
	}
	for _, op := range Catalog() {
		var o struct {
			OperationID string   `json:"operationId"`
			Tags        []string `json:"tags"`
			Parameters  []struct {
				Name     string         `json:"name"`
				In       string         `json:"in"`
				Required bool           `json:"required"`
				Schema   map[string]any `json:"schema"`
				Example  any            `json:"example"`
			} `json:"parameters"`
			Responses map[string]json.RawMessage `json:"responses"`
			Security  []map[string][]string      `json:"security"`
			Body      *struct {
				Content map[string]struct {
					Example map[string]any `json:"example"`
				} `json:"content"`
			} `json:"requestBody"`
		}
		if err := json.Unmarshal(doc.Paths[op.Path][strings.ToLower(op.Method)], &o); err != nil {
			t.Fatalf("%s: %v", op.Name, err)
		}
		if o.OperationID != op.Name || len(o.Tags) != 1 {
			t.Errorf("%s: operationId %q tags %v", op.Name, o.OperationID, o.Tags)
		}
		// Security: a protected operation takes an OAuth token with its scope
		// or an API key; a public one nothing ({}), a key or any token.
		wantSec := `[{},{"apiKey":[]},{"oauth2":[]}]`
		if op.Scope != "" {
			wantSec = `[{"oauth2":["` + op.Scope + `"]},{"apiKey":[]}]`
		}
		if got, _ := json.Marshal(o.Security); string(got) != wantSec {
			t.Errorf("%s: security %s, want %s", op.Name, got, wantSec)
		}
		// Examples: the recorded one, in the success response, the body and
		// every path parameter.
		var okResp struct {
			Content map[string]struct {
				Example json.RawMessage `json:"example"`
			} `json:"content"`
		}
		json.Unmarshal(o.Responses[strconv.Itoa(op.SuccessStatus())], &okResp)
		if len(okResp.Content["application/json"].Example) == 0 {
			t.Errorf("%s: no response example", op.Name)
		}
		if hasBody(op.Method) && (o.Body == nil || o.Body.Content["application/json"].Example == nil) {
			t.Errorf("%s: no request body example", op.Name)
		}
		for _, code := range []string{strconv.Itoa(op.SuccessStatus()), "400", "401", "429"} {
			if o.Responses[code] == nil {
				t.Errorf("%s: no %s response", op.Name, code)
			}
		}
		if (len(op.PathParams) > 0) != (o.Responses["404"] != nil) && !op.NotFound {
			t.Errorf("%s: 404 declared = %v", op.Name, o.Responses["404"] != nil)
		}
		// Parameters: every input of a GET (path and query), only the path of
		// the others (their other inputs are the body), and Idempotency-Key on Idem ones.
		props, _ := schemasProps(t, op.ArgsSchema())
		want := len(props)
		if op.Method != "GET" {
			want = len(op.PathParams)
		}
		if op.Idem {
			want++
		}
		if len(o.Parameters) != want {
			t.Errorf("%s: %d parameters, want %d", op.Name, len(o.Parameters), want)
		}
		for _, p := range o.Parameters {
			wantIn := "query"
			if slices.Contains(op.PathParams, p.Name) {
				wantIn = "path"
			}
			if op.Idem && p.Name == "Idempotency-Key" {
				wantIn = "header"
			}
			if p.In != wantIn || p.Schema["type"] == nil || (wantIn == "path" && !p.Required) {
				t.Errorf("%s: parameter %+v", op.Name, p)
			}
			if wantIn != "query" && p.Example == nil {
				t.Errorf("%s: %s parameter %s has no example", op.Name, p.In, p.Name)
			}
		}
	}

	// Compile every component schema from the document itself: a dangling
	// $ref or an invalid keyword fails here.
	parsed, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("urn:launchdir:openapi", parsed); err != nil {
		t.Fatal(err)
	}
	var comps struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	json.Unmarshal(raw, &comps)
	for name := range comps.Components.Schemas {
		if _, err := c.Compile("urn:launchdir:openapi#/components/schemas/" + name); err != nil {
			t.Errorf("component %s: %v", name, err)
		}
	}
	if bytes.Contains(raw, []byte(`"#/$defs/`)) {
		t.Error("a #/$defs/ reference was left in the document")
	}
}

func schemasProps(t *testing.T, schema json.RawMessage) (map[string]any, []any) {
	t.Helper()
	var s struct {
		Properties map[string]any `json:"properties"`
		Required   []any          `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	return s.Properties, s.Required
}

// The catalog's document a server serves (built once per process for
// openapiOrigin, the origin written in its place) is the document OpenAPI
// builds for that address, byte for byte: for a test server's address, an
// origin with a path that starts with the examples' own origin, an IPv6
// literal, and addresses that are built for themselves (no /v1 suffix, an
// origin JSON escapes). Deterministic and single-goroutine, and each
// document costs seconds under the race detector: it skips there.
func TestCatalogOpenAPI_SameAsBuilt(t *testing.T) {
	t.Parallel()
	testtier.SkipRace(t, "the OpenAPI document built for five addresses")
	for _, apiBase := range []string{"http://127.0.0.1:38211/v1", exampleOrigin + "/directory/v1", "http://[::1]:8080/v1",
		"http://127.0.0.1:38212/api", "http://a.example/?a&b/v1"} {
		got, err := catalogOpenAPI(Catalog(), apiBase)
		if err != nil {
			t.Fatal(err)
		}
		want, err := OpenAPI(Catalog(), apiBase)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: the served document differs from OpenAPI's at byte %d:\n%q\nwant\n%q", apiBase, i,
				got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
		}
		if bytes.Contains(got, []byte(openapiOrigin)) {
			t.Errorf("%s: the document still names %s", apiBase, openapiOrigin)
		}
	}
}
