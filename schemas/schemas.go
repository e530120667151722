// Package schemas generates the JSON Schemas (draft 2020-12) of the operation
// inputs and outputs from their Go types with invopop/jsonschema, and keeps the
// committed snapshots of those schemas and of the OpenAPI document.
//
// It imports no project package: callers hand it reflect.Types. The field
// bounds of the spec live once, as `jsonschema` tags on the Go types; this
// package only decides how those types become schemas:
//
//   - the root is inlined (a transport needs root "type": "object"); named
//     nested types stay in "$defs" and are referenced as "#/$defs/Name";
//   - embedded structs (domain.Pagination) are flattened into their parent;
//   - inputs are closed (additionalProperties: false, at every level), so a
//     misspelt parameter is an error rather than silently ignored;
//   - outputs are open, so a client never rejects a response for a new field;
//   - "default", "enum", bounds and descriptions are kept as tagged.
package schemas

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// Draft is the JSON Schema dialect of every generated schema.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// DefsPrefix is how generated schemas reference their nested types.
const DefsPrefix = "#/$defs/"

// Input returns the JSON Schema of an operation input type: a closed object.
func Input(t reflect.Type) (json.RawMessage, error) {
	return generate(t, false)
}

// Output returns the JSON Schema of an operation output type: an open object.
func Output(t reflect.Type) (json.RawMessage, error) {
	return generate(t, true)
}

func generate(t reflect.Type, open bool) (json.RawMessage, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("schemas: %s is not a struct; operation inputs and outputs are objects", t)
	}
	r := &jsonschema.Reflector{
		ExpandedStruct:            true,
		Anonymous:                 true, // no $id derived from the Go package path
		AllowAdditionalProperties: open,
	}
	s := r.ReflectFromType(t)
	s.Version = Draft
	nullable(s)
	if !open {
		boundIntegers(s)
	}
	if len(s.Definitions) == 0 {
		s.Definitions = nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("schemas: %s: %w", t, err)
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		return nil, err
	}
	if root["type"] != "object" {
		return nil, fmt.Errorf("schemas: %s: root type is %v, want object", t, root["type"])
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "$ref"} {
		if _, ok := root[k]; ok {
			return nil, fmt.Errorf("schemas: %s: root must not use %s", t, k)
		}
	}
	return b, nil
}

// nullable rewrites every schema tagged `jsonschema_extras:"nullable=true"`
// to accept null as well: "type": [T, "null"], or for an object of $defs
// "anyOf": [{"$ref": ...}, {"type": "null"}]. Inputs use it where the spec
// says a value "may be null" (PATCH fields, where null removes the value); the
// Go field is then a pointer (or slice), and the type tells sent-null from
// absent by itself.
func nullable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if v, ok := s.Extras["nullable"]; ok && (v == "true" || v == true) {
		delete(s.Extras, "nullable")
		switch {
		case s.Type != "":
			s.Extras["type"] = []string{s.Type, "null"}
			s.Type = ""
		case s.Ref != "":
			// An object of $defs (an output's nullable object): either it or null.
			s.AnyOf = []*jsonschema.Schema{{Ref: s.Ref}, {Type: "null"}}
			s.Ref = ""
		}
	}
	// invopop/jsonschema reads no minProperties or maxProperties from field
	// tags; a map field (free-form options) or an object field (a PATCH's
	// fields) carries them as extras, which are strings.
	for key, set := range map[string]func(*uint64){
		"minProperties": func(n *uint64) { s.MinProperties = n },
		"maxProperties": func(n *uint64) { s.MaxProperties = n },
	} {
		if v, ok := s.Extras[key].(string); ok {
			if n, err := strconv.ParseUint(v, 10, 64); err == nil {
				delete(s.Extras, key)
				set(&n)
			}
		}
	}
	for _, d := range s.Definitions {
		nullable(d)
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			nullable(p.Value)
		}
	}
	nullable(s.Items)
	nullable(s.AdditionalProperties)
	for _, l := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		for _, x := range l {
			nullable(x)
		}
	}
}

// MaxSafeInteger bounds every integer input that declares no bound of its
// own: 2^53-1, the largest integer every JSON reader holds exactly (a
// JavaScript number) and far inside the Go int64 the service decodes into.
// Without it 1e19 passed the schema and then failed to decode (a 500).
const MaxSafeInteger = 1<<53 - 1

// boundIntegers gives every integer schema of an input without a maximum or
// minimum the bounds ±MaxSafeInteger, so that the schema accepts only
// integers the operation's Go types hold.
func boundIntegers(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	isInt := s.Type == "integer"
	if t, ok := s.Extras["type"].([]string); ok && len(t) > 0 && t[0] == "integer" {
		isInt = true // nullable: ["integer", "null"]
	}
	if isInt {
		if s.Maximum == "" && s.ExclusiveMaximum == "" {
			s.Maximum = json.Number(strconv.FormatInt(MaxSafeInteger, 10))
		}
		if s.Minimum == "" && s.ExclusiveMinimum == "" {
			s.Minimum = json.Number(strconv.FormatInt(-MaxSafeInteger, 10))
		}
	}
	for _, d := range s.Definitions {
		boundIntegers(d)
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			boundIntegers(p.Value)
		}
	}
	boundIntegers(s.Items)
	boundIntegers(s.AdditionalProperties)
	for _, l := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
		for _, x := range l {
			boundIntegers(x)
		}
	}
}

// Property is what a transport needs to know about one top-level input field.
type Property struct {
	Name        string
	Type        string // "string", "integer", "number", "boolean", "array", "object"
	ItemType    string // for arrays: the items' type
	Required    bool
	Description string
	Schema      map[string]any // the property's own schema, as generated
}

// Properties lists the top-level properties of an object schema in the order
// the schema declares them (the Go field order).
func Properties(schema json.RawMessage) ([]Property, error) {
	var root struct {
		Properties orderedProps              `json:"properties"`
		Required   []string                  `json:"required"`
		Defs       map[string]map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, err
	}
	req := map[string]bool{}
	for _, r := range root.Required {
		req[r] = true
	}
	// deref follows a local "#/$defs/Name" reference.
	deref := func(s map[string]any) map[string]any {
		if ref, ok := s["$ref"].(string); ok && strings.HasPrefix(ref, DefsPrefix) {
			if d, ok := root.Defs[strings.TrimPrefix(ref, DefsPrefix)]; ok {
				return d
			}
		}
		return s
	}
	var out []Property
	for _, kv := range root.Properties {
		p := Property{Name: kv.name, Required: req[kv.name], Schema: kv.schema}
		p.Type = typeOf(deref(kv.schema))
		p.Description, _ = kv.schema["description"].(string)
		if p.Type == "array" {
			if items, ok := deref(kv.schema)["items"].(map[string]any); ok {
				p.ItemType = typeOf(deref(items))
			}
		}
		out = append(out, p)
	}
	return out, nil
}

func typeOf(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any: // ["integer","null"]: the first non-null type
		for _, x := range t {
			if x != "null" {
				if str, ok := x.(string); ok {
					return str
				}
			}
		}
	}
	return ""
}

type propKV struct {
	name   string
	schema map[string]any
}

// orderedProps decodes a JSON object keeping its key order.
type orderedProps []propKV

func (o *orderedProps) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var s map[string]any
		if err := dec.Decode(&s); err != nil {
			return err
		}
		*o = append(*o, propKV{name: tok.(string), schema: s})
	}
	return nil
}

// Hoist takes a schema's "$defs" out and points every "#/$defs/Name"
// reference at rename(Name) (for OpenAPI: "#/components/schemas/Name"). It
// returns the root without "$schema" and "$defs", and the definitions keyed by
// the last path segment of rename(Name).
func Hoist(schema json.RawMessage, rename func(name string) string) (root map[string]any, defs map[string]any, err error) {
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, nil, err
	}
	rewrite := func(v any) { rewriteRefs(v, rename) }
	rawDefs, _ := root["$defs"].(map[string]any)
	delete(root, "$defs")
	delete(root, "$schema")
	rewrite(root)
	defs = map[string]any{}
	for name, d := range rawDefs {
		rewrite(d)
		ref := rename(name)
		defs[ref[strings.LastIndex(ref, "/")+1:]] = d
	}
	return root, defs, nil
}

func rewriteRefs(v any, rename func(string) string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if ref, ok := x.(string); ok && k == "$ref" && strings.HasPrefix(ref, DefsPrefix) {
				v[k] = rename(strings.TrimPrefix(ref, DefsPrefix))
				continue
			}
			rewriteRefs(x, rename)
		}
	case []any:
		for _, x := range v {
			rewriteRefs(x, rename)
		}
	}
}

// Indent formats JSON the way the committed snapshots are written: two-space
// indentation and a final newline.
func Indent(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
