package tools

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// schemaExample is an example value a published schema gives for an input.
type schemaExample struct {
	where string // where it is published
	op    string // the operation (tool name)
	args  map[string]any
	field string // the field the example is for ("" for a whole request)
}

// egRE finds "e.g. VALUE" in a description: the first value after it.
var egRE = regexp.MustCompile(`e\.g\. "?([A-Za-z0-9@][A-Za-z0-9@._-]*[A-Za-z0-9])"?`)

// inputExamples walks an input schema (top-level properties and the $defs
// they reference, one level down) for example, examples and "e.g." values,
// each as arguments with the value at its place.
func inputExamples(where, op string, schema map[string]any) []schemaExample {
	defs, _ := schema["$defs"].(map[string]any)
	var out []schemaExample
	var visit func(prop map[string]any, field string, place func(v any) map[string]any, depth int)
	visit = func(prop map[string]any, field string, place func(v any) map[string]any, depth int) {
		add := func(v any) {
			out = append(out, schemaExample{where: where + " " + field, op: op, args: place(v), field: field})
		}
		if v, ok := prop["example"]; ok {
			add(v)
		}
		if vs, ok := prop["examples"].([]any); ok {
			for _, v := range vs {
				add(v)
			}
		}
		if d, _ := prop["description"].(string); d != "" {
			for _, m := range egRE.FindAllStringSubmatch(d, -1) {
				add(m[1])
			}
		}
		if depth > 0 {
			return
		}
		target := prop
		isList := false
		if items, ok := prop["items"].(map[string]any); ok {
			target, isList = items, true
		}
		ref, _ := target["$ref"].(string)
		def, _ := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if def == nil {
			def = target
		}
		props, _ := def["properties"].(map[string]any)
		for name, p := range props {
			sub, _ := p.(map[string]any)
			if sub == nil {
				continue
			}
			name := name
			inner := func(v any) map[string]any {
				var obj any = map[string]any{name: v}
				if isList {
					obj = []any{obj}
				}
				return place(obj)
			}
			sep := "."
			if isList {
				sep = "[0]."
			}
			visit(sub, field+sep+name, inner, depth+1)
		}
	}
	props, _ := schema["properties"].(map[string]any)
	for name, p := range props {
		prop, _ := p.(map[string]any)
		name := name
		visit(prop, name, func(v any) map[string]any { return map[string]any{name: v} }, 0)
	}
	return out
}

// TestSchemas_ExamplesPassValidation: every example the
// published schemas give for an input passes the service's own validation:
// the parameter and request-body examples of /v1/openapi.json, and the
// example, examples and "e.g." values of the input schemas published in
// schemas/tools and answered by tools/list over MCP. Each is checked by
// the operation's own input validator (the one REST and MCP run), and the
// ones with rules beyond the schema through a real call: the VAT number
// example by quote_order (the offline check digits; on main the schema's
// DE123456789 was refused), search_listings' filters by a search.
func TestSchemas_ExamplesPassValidation(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	var examples []schemaExample

	// /v1/openapi.json: each operation's parameter examples and body example, as one request.
	r := catDo(t, env, "GET", "/v1/openapi.json", nil, nil)
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct {
				Name    string `json:"name"`
				In      string `json:"in"`
				Example any    `json:"example"`
			} `json:"parameters"`
			RequestBody struct {
				Content map[string]struct {
					Example map[string]any `json:"example"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &doc) != nil {
		t.Fatalf("openapi.json: %d", r.status)
	}
	for path, methods := range doc.Paths {
		for method, op := range methods {
			args := map[string]any{}
			for k, v := range op.RequestBody.Content["application/json"].Example {
				args[k] = v
			}
			for _, p := range op.Parameters {
				if p.Example != nil && p.In != "header" {
					args[p.Name] = p.Example
				}
			}
			examples = append(examples, schemaExample{where: "openapi.json " + method + " " + path, op: op.OperationID, args: args})
		}
	}

	// schemas/tools/*.json, as published.
	files, _ := filepath.Glob("../schemas/tools/*.json")
	for _, f := range files {
		var s struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"inputSchema"`
		}
		b, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(b, &s) != nil {
			t.Fatalf("%s: %v", f, err)
		}
		examples = append(examples, inputExamples(filepath.Base(f), s.Name, s.InputSchema)...)
	}
	// The MCP inputSchemas as tools/list answers them.
	res, err := catConnect(t, env.URL, "2025-11-25", nil).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		var s map[string]any
		b, _ := json.Marshal(tl.InputSchema)
		_ = json.Unmarshal(b, &s)
		examples = append(examples, inputExamples("tools/list "+tl.Name, tl.Name, s)...)
	}
	fields := map[string]bool{}
	for _, ex := range examples {
		fields[ex.op+" "+ex.field] = true
	}
	for _, want := range []string{"quote_order vat_number", "update_draft fields.country", "update_draft founders[0].title", "search_listings domain"} {
		if !fields[want] {
			t.Errorf("the walk missed the example of %s (found %d examples)", want, len(examples))
		}
	}

	vat := map[string]bool{}
	search := map[string]map[string]any{}
	for _, ex := range examples {
		b := env.tools.byName[ex.op]
		if b == nil {
			t.Errorf("%s: no operation %q", ex.where, ex.op)
			continue
		}
		var args any
		raw, _ := json.Marshal(ex.args)
		_ = json.Unmarshal(raw, &args)
		for _, fe := range b.v.validate(args) {
			// A lone field's example is judged on its own field only (the
			// others of the request are not in it).
			if ex.field == "" || fe.Field == ex.field || strings.HasPrefix(fe.Field, ex.field+".") {
				t.Errorf("%s: the example %s is refused: %s %s: %s", ex.where, raw, fe.Field, fe.Rule, fe.Message)
			}
		}
		if ex.field == "vat_number" {
			vat[ex.args["vat_number"].(string)] = true
		}
		if ex.op == "search_listings" && ex.field != "" {
			search[string(raw)] = ex.args
		}
	}

	// Rules beyond the schema, through the real path.
	key := env.apiKey(t, "examples@example.com")
	call := restCaller(env, key)
	listing := env.ownedListing(t, "examples@example.com")
	if len(vat) == 0 {
		t.Fatal("no VAT number example found")
	}
	for n := range vat {
		st, q := call(t, "quote_order", map[string]any{"billing_country": n[:2], "vat_number": n,
			"items": []any{map[string]any{"product": "featured", "listing_id": listing}}})
		if st != 200 {
			t.Errorf("quote_order with the VAT number example %s: %d %v", n, st, q)
		}
	}
	keys := make([]string, 0, len(search))
	for k := range search {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		q := url.Values{}
		for name, v := range search[k] {
			q.Set(name, v.(string))
		}
		if r := catDo(t, env, "GET", "/v1/listings?"+q.Encode(), nil, nil); r.status != 200 {
			t.Errorf("search_listings with the example %s: %d %s", k, r.status, r.body)
		}
	}
}
