package tools

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"unicode"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/schemas"
)

// TokenEncoding is the tokenizer the tool budgets are measured with: OpenAI's
// o200k_base (GPT-4o and later). The tokenizer itself is linked into the
// tests only (tools/tokens_test.go, through tiktoken-go and the BPE files of
// tiktoken-go-loader, ~6.9 MB): the server shows the counts recorded in
// tool_tokens.go, which TestSnapshot_ToolTokens keeps equal to what the
// tokenizer counts (regenerate: go test ./tools -run TestSnapshot_ToolTokens -update).
const TokenEncoding = "o200k_base"

// RecordedToolTokens is the o200k_base token cost of op's model-visible
// definition (ModelView) as recorded in tool_tokens.go; 0 for an operation
// the catalog does not have.
func RecordedToolTokens(op Operation) int { return recordedToolTokens[op.Name] }

// ModelView is the part of an operation's MCP tool that clients put in the
// model's context: name, title, description and input schema, as the JSON
// of tools/list has them.
func ModelView(op Operation) []byte {
	t := mcpTool(op)
	b, err := json.Marshal(struct {
		Name        string `json:"name"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description,omitempty"`
		InputSchema any    `json:"inputSchema"`
	}{t.Name, t.Title, t.Description, t.InputSchema})
	if err != nil {
		panic("tools: " + op.Name + ": " + err.Error())
	}
	return b
}

// The MCP tools carry lean copies of the generated schemas (Operation.mcpIn
// and mcpOut, made once in Op): every client loads every tool definition into
// the model's context, so the MCP schemas keep what validates (types, enums,
// bounds, patterns, required, additionalProperties, $defs/$ref) and drop
// repeated prose. REST validation and the OpenAPI document use the full
// schemas (InputSchema, ArgsSchema, OutputSchema), descriptions included.
// See docs/tool-budgets.md.

// leanInput is the MCP input schema of an operation: descriptions are kept,
// cut to their first sentence, only on the root properties (one description
// per argument); nested shapes ($defs) keep no prose; $schema is dropped
// (MCP's default dialect is 2020-12).
//
// An argument the tool's description (summary) already names keeps no
// description of its own either: one description per concept. A shape
// ($defs) that one $ref uses is written in place (inlineSingleDefs), and a
// length the pattern beside it enforces is left to the pattern
// (dropImpliedLengths): no constraint of the full schema is lost
// (TestLeanInput_KeepsEveryConstraint).
func leanInput(full json.RawMessage, summary string) (json.RawMessage, error) {
	b, err := leanNode(full, leanInputRoot)
	if err != nil {
		return nil, err
	}
	root, err := orderedObject(b)
	if err != nil {
		return nil, err
	}
	for i, kv := range root {
		if kv.key != "properties" {
			continue
		}
		props, err := orderedObject(kv.val)
		if err != nil {
			return nil, err
		}
		for j, p := range props {
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(p.key) + `\b`).MatchString(summary) {
				continue
			}
			obj, err := orderedObject(p.val)
			if err != nil {
				return nil, err
			}
			kept := obj[:0]
			for _, m := range obj {
				if m.key != "description" {
					kept = append(kept, m)
				}
			}
			props[j].val = kept.marshal()
		}
		root[i].val = props.marshal()
	}
	return inlineSingleDefs(root)
}

var leanRefRE = regexp.MustCompile(`"\$ref":"` + regexp.QuoteMeta(schemas.DefsPrefix) + `([^"]+)"`)

// inlineSingleDefs puts a definition that one $ref uses in place of that
// $ref (merged with the $ref's sibling keywords; a $ref and its siblings
// both apply, so the merged object validates the same) and drops it from
// $defs: a shape used once costs its name twice and a $ref in $defs, once
// inline. Shapes used twice or more stay defined once.
func inlineSingleDefs(root orderedObj) (json.RawMessage, error) {
	b := root.marshal()
	uses := map[string]int{}
	for _, m := range leanRefRE.FindAllSubmatch(b, -1) {
		uses[string(m[1])]++
	}
	defs := map[string]json.RawMessage{}
	di := -1
	for i, kv := range root {
		if kv.key != "$defs" {
			continue
		}
		di = i
		members, err := orderedObject(kv.val)
		if err != nil {
			return nil, err
		}
		for _, m := range members {
			if uses[m.key] == 1 && !bytes.Contains(m.val, []byte(`"`+schemas.DefsPrefix+m.key+`"`)) {
				defs[m.key] = m.val
			}
		}
	}
	if len(defs) == 0 {
		return b, nil
	}
	out := root[:0]
	for i, kv := range root {
		if i == di {
			members, _ := orderedObject(kv.val)
			kept := members[:0]
			for _, m := range members {
				if _, gone := defs[m.key]; !gone {
					kept = append(kept, m)
				}
			}
			if len(kept) == 0 {
				continue
			}
			kv.val = kept.marshal()
		} else {
			v, err := inlineIn(kv.val, defs)
			if err != nil {
				return nil, err
			}
			kv.val = v
		}
		out = append(out, kv)
	}
	// A definition kept in $defs may use one that was inlined.
	for i, kv := range out {
		if kv.key == "$defs" {
			v, err := inlineIn(kv.val, defs)
			if err != nil {
				return nil, err
			}
			out[i].val = v
		}
	}
	return out.marshal(), nil
}

// inlineIn replaces, anywhere in b, a $ref to one of defs by the definition.
func inlineIn(b json.RawMessage, defs map[string]json.RawMessage) (json.RawMessage, error) {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '[':
		var list []json.RawMessage
		if err := json.Unmarshal(b, &list); err != nil {
			return nil, err
		}
		for i := range list {
			var err error
			if list[i], err = inlineIn(list[i], defs); err != nil {
				return nil, err
			}
		}
		return json.Marshal(list)
	case len(b) == 0 || b[0] != '{':
		return b, nil
	}
	obj, err := orderedObject(b)
	if err != nil {
		return nil, err
	}
	for i, kv := range obj {
		if kv.key != "$ref" {
			continue
		}
		var ref string
		if err := json.Unmarshal(kv.val, &ref); err != nil {
			return nil, err
		}
		def, ok := defs[strings.TrimPrefix(ref, schemas.DefsPrefix)]
		if !ok || !strings.HasPrefix(ref, schemas.DefsPrefix) {
			break
		}
		merged, err := orderedObject(def)
		if err != nil {
			return nil, err
		}
		clash := false
		for j, sib := range obj {
			if j == i {
				continue
			}
			for _, m := range merged {
				if m.key == sib.key {
					clash = true
				}
			}
			merged = append(merged, sib)
		}
		if clash {
			break // keep the $ref: two values of one keyword cannot share an object
		}
		obj = merged
		break
	}
	for i := range obj {
		if obj[i].key == "enum" || obj[i].key == "const" || obj[i].key == "default" {
			continue
		}
		if obj[i].val, err = inlineIn(obj[i].val, defs); err != nil {
			return nil, err
		}
	}
	return obj.marshal(), nil
}

// leanOutput is the MCP output schema: the top level of the result (each
// member's type, enum, and for arrays the item type; required), without
// nested members, $defs, formats, descriptions or $schema; what a result
// means is the tool description's job, its full shape the OpenAPI document's.
func leanOutput(full json.RawMessage) (json.RawMessage, error) {
	root, err := orderedObject(full)
	if err != nil {
		return nil, err
	}
	var defs map[string]map[string]any
	for _, kv := range root {
		if kv.key == "$defs" {
			if err := json.Unmarshal(kv.val, &defs); err != nil {
				return nil, err
			}
		}
	}
	out := root[:0]
	for _, kv := range root {
		switch kv.key {
		case "$defs":
			continue
		case "properties":
			props, err := orderedObject(kv.val)
			if err != nil {
				return nil, err
			}
			for i := range props {
				var p map[string]any
				if err := json.Unmarshal(props[i].val, &p); err != nil {
					return nil, err
				}
				if props[i].val, err = json.Marshal(shallow(p, defs, 0)); err != nil {
					return nil, err
				}
			}
			kv.val = props.marshal()
		}
		out = append(out, kv)
	}
	return leanNode(out.marshal(), leanOutputAny)
}

// shallow is the first level of an output property's schema: its type (a
// $ref resolved to its definition's type), enum or const, and for an array
// the same of its items; the members of a nested object are left out (the
// output schema checks the result's top-level shape, the nested shapes are
// in the OpenAPI document and the full snapshot).
func shallow(s map[string]any, defs map[string]map[string]any, depth int) map[string]any {
	if ref, ok := s["$ref"].(string); ok && depth < 4 {
		if d, ok := defs[strings.TrimPrefix(ref, schemas.DefsPrefix)]; ok {
			return shallow(d, defs, depth+1)
		}
	}
	out := map[string]any{}
	for _, k := range []string{"type", "enum", "const"} {
		if v, ok := s[k]; ok {
			out[k] = v
		}
	}
	if it, ok := s["items"].(map[string]any); ok && depth < 4 {
		if si := shallow(it, defs, depth+1); len(si) > 0 {
			out["items"] = si
		}
	}
	if alts, ok := s["anyOf"].([]any); ok && depth < 4 {
		var types []any
		for _, a := range alts {
			m, _ := a.(map[string]any)
			t, ok := shallow(m, defs, depth+1)["type"].(string)
			if !ok {
				return out // not a union of plain types: leave it open
			}
			types = append(types, t)
		}
		out["type"] = types
	}
	return out
}

type leanPlace int

const (
	leanInputRoot leanPlace = iota // the root of an input schema
	leanInputProp                  // a root property of an input schema
	leanInputAny                   // anything deeper in an input schema
	leanInputAlt                   // an anyOf/oneOf/allOf branch of a root property (its bounds are the argument's)
	leanOutputAny                  // anywhere in an output schema
)

// leanSelfEvident are the arguments whose lean schema carries no
// description: their name and bounds say it all (page, per_page, slug), or
// the server instructions say it once for every tool (idempotency_key).
var leanSelfEvident = map[string]bool{"page": true, "per_page": true, "slug": true, idemArgument: true}

// leanNestedBounds are the keywords the MCP copy leaves out below the root
// arguments (the members, items and $defs of a tool's arguments): the bounds
// of nested shapes (option A of docs/tool-budgets.md).
// Types, enums, const, required and additionalProperties stay, so a model
// still sees every shape and name; the server validates every call against
// the full input schema (ArgsSchema) and answers invalid naming the field
// and the rule, e.g. fields.tagline maxLength.
var leanNestedBounds = map[string]bool{
	"maxLength": true, "minLength": true, "maxItems": true, "minItems": true, "pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
}

// leanNode rewrites one schema object, keeping its key order.
func leanNode(b json.RawMessage, at leanPlace) (json.RawMessage, error) {
	return leanNamed(b, at, "")
}

// leanNamed is leanNode for the schema of the property called name.
func leanNamed(b json.RawMessage, at leanPlace, name string) (json.RawMessage, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return b, nil // true/false schemas
	}
	obj, err := orderedObject(b)
	if err != nil {
		return nil, err
	}
	deeper := at
	if at == leanInputRoot || at == leanInputProp || at == leanInputAlt {
		deeper = leanInputAny
	}
	out := obj[:0]
	for _, kv := range obj {
		if at == leanInputAny && leanNestedBounds[kv.key] {
			continue // option A: the server checks it (the full schema) and names field and rule
		}
		switch kv.key {
		case "$schema", "title", "examples", "$comment":
			continue
		case "default":
			if at == leanInputProp && name == "page" {
				continue // the first page: minimum 1 says it
			}
		case "format":
			if at == leanOutputAny {
				continue // an annotation only (2020-12); the type stays
			}
		case "description":
			if at != leanInputProp || leanSelfEvident[name] {
				continue
			}
			var s string
			if err := json.Unmarshal(kv.val, &s); err != nil {
				return nil, err
			}
			d := shortDescription(s)
			if d == "" {
				continue
			}
			kv.val, _ = json.Marshal(d)
		case "properties", "$defs", "patternProperties", "dependentSchemas":
			members, err := orderedObject(kv.val)
			if err != nil {
				return nil, err
			}
			place := deeper
			if kv.key == "properties" && at == leanInputRoot {
				place = leanInputProp
			}
			for i := range members {
				if members[i].val, err = leanNamed(members[i].val, place, members[i].key); err != nil {
					return nil, err
				}
			}
			kv.val = members.marshal()
		case "items", "additionalProperties", "unevaluatedProperties", "not", "contains", "propertyNames", "if", "then", "else":
			if kv.val, err = leanNode(kv.val, deeper); err != nil {
				return nil, err
			}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			var list []json.RawMessage
			if err := json.Unmarshal(kv.val, &list); err != nil {
				return nil, err
			}
			place := deeper
			if kv.key != "prefixItems" && (at == leanInputProp || at == leanInputAlt) {
				place = leanInputAlt
			}
			for i := range list {
				if list[i], err = leanNode(list[i], place); err != nil {
					return nil, err
				}
			}
			kv.val, _ = json.Marshal(list)
		}
		out = append(out, kv)
	}
	if at != leanOutputAny {
		out = dropImpliedLengths(out)
	}
	if at != leanInputRoot {
		return groupProperties(out), nil
	}
	return out.marshal(), nil
}

// groupProperties states once a schema that several properties of an object
// share: those properties move from "properties" to one "patternProperties"
// entry that matches exactly their names, ^(a|b|c)$. Validation is the same
// (a name in properties and a name matched by patternProperties are both
// validated by their schema, and neither is an additional property); a model
// reads each name once and the shared shape once. The root properties of an
// input schema (the tool's arguments, often with a description each) are
// never grouped.
func groupProperties(obj orderedObj) json.RawMessage {
	pi := -1
	for i, kv := range obj {
		if kv.key == "properties" {
			pi = i
		}
		if kv.key == "patternProperties" {
			return obj.marshal() // keep an existing one as it is
		}
	}
	if pi < 0 {
		return obj.marshal()
	}
	props, err := orderedObject(obj[pi].val)
	if err != nil {
		return obj.marshal()
	}
	names := map[string][]string{}
	for _, p := range props {
		names[string(p.val)] = append(names[string(p.val)], p.key)
	}
	var keep, patterns orderedObj
	done := map[string]bool{}
	for _, p := range props {
		group := names[string(p.val)]
		if len(group) < leanGroupMin {
			keep = append(keep, p)
			continue
		}
		if done[string(p.val)] {
			continue
		}
		done[string(p.val)] = true
		quoted := make([]string, len(group))
		for i, n := range group {
			quoted[i] = regexp.QuoteMeta(n)
		}
		k := "^(" + strings.Join(quoted, "|") + ")$"
		patterns = append(patterns, keyVal{k, p.val})
	}
	if len(patterns) == 0 {
		return obj.marshal()
	}
	var out orderedObj
	for i, kv := range obj {
		if i == pi {
			if len(keep) > 0 {
				out = append(out, keyVal{"properties", keep.marshal()})
			}
			out = append(out, keyVal{"patternProperties", patterns.marshal()})
			continue
		}
		out = append(out, kv)
	}
	return out.marshal()
}

// leanGroupMin is how many properties must share a schema to be grouped.
const leanGroupMin = 2

// leanRestatedRE matches what an argument description restates of the
// schema beside it: a length or count bound ("at most 2000 characters",
// "1-20 items") and a default ("(default true)").
var leanRestatedRE = regexp.MustCompile(`(,? (at most|up to) |,? |^)[0-9]+(-[0-9]+)? (characters|items)\b|\s*\(default [^)]*\)`)

// leanDescMax is the longest argument description a lean schema keeps.
const leanDescMax = 64

// shortDescription is the first sentence (up to a ". " before a capital) of an argument's description, cut
// at its first "; " when longer than leanDescMax, or "" (no description)
// when still longer: the tool description says the rest.
func shortDescription(s string) string {
	for from := 0; ; {
		i := strings.Index(s[from:], ". ")
		if i < 0 {
			break
		}
		i += from
		if strings.HasSuffix(s[:i], "e.g") || strings.HasSuffix(s[:i], "i.e") ||
			i+2 < len(s) && !unicode.IsUpper(rune(s[i+2])) {
			from = i + 2
			continue
		}
		s = s[:i+1]
		break
	}
	s = strings.TrimSpace(leanRestatedRE.ReplaceAllString(s, ""))
	if s == "" || s == "." {
		return ""
	}
	if len(s) > leanDescMax {
		if i := strings.Index(s, "; "); i >= 0 {
			s = s[:i] + "."
		}
	}
	if len(s) > leanDescMax {
		return ""
	}
	return s
}

// MCPInputSchema is the input schema tools/list sends for the operation: the
// lean copy of InputSchema (the full one when the row was not built by Op).
func (o Operation) MCPInputSchema() json.RawMessage {
	if o.mcpIn != nil {
		return o.mcpIn
	}
	return o.InputSchema
}

// MCPOutputSchema is the output schema tools/list sends: the lean copy of OutputSchema.
func (o Operation) MCPOutputSchema() json.RawMessage {
	if o.mcpOut != nil {
		return o.mcpOut
	}
	return o.OutputSchema
}

// ErrorCodes are the problem codes an operation declares beyond those every
// call may answer (invalid, rate_limited, internal, payload_too_large; the
// server instructions name those once): the same rules as the statuses of
// its OpenAPI responses.
func ErrorCodes(op Operation) []domain.Code {
	var out []domain.Code
	if len(op.PathParams) > 0 || op.NotFound {
		out = append(out, domain.ENotFound)
	}
	if op.Idem {
		out = append(out, domain.EConflict, domain.EIdemKeyReused)
	}
	if op.Scope != "" {
		out = append(out, domain.EUnauthenticated, domain.EForbidden)
	}
	return out
}

// mcpDescription is the MCP tool description: the Summary. The error codes
// of ErrorCodes are named once for every tool in the server instructions
// (errorCodesNote, option C of docs/tool-budgets.md), not in each
// description.
func mcpDescription(op Operation) string { return op.Summary }
