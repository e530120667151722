package tools

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain/validate"
	"github.com/launchdir/launchdir/schemas"
)

// TestLeanInput_SameVerdicts compiles the full and the lean input schema of
// update_draft (grouped patternProperties, $defs, inlined shapes), of
// get_listing and submit_draft (lengths the pattern enforces) and of create_checkout with
// the project's JSON Schema validator and checks that both accept and reject
// the same arguments: the lean copy keeps the contract, but for the bounds of
// nested shapes (option A, issue 28), which only the full schema the server
// validates with enforces.
func TestLeanInput_SameVerdicts(t *testing.T) {
	t.Parallel()
	cases := map[string][]struct {
		args   string
		ok     bool
		nested bool // a nested bound only: the lean copy accepts it, the server (full schema) refuses it
	}{
		"update_draft": {
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","fields":{"name":"Acme","tags":["a"],"description":null}}`, true, false},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","company_socials":{"github":"https://github.com/acme"}}`, true, false},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","story":{"journey":"long"}}`, true, false},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","fields":{"nmae":"Acme"}}`, false, false},          // misspelt field
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","fields":{"tags":"a"}}`, false, false},             // wrong type
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","company_socials":{"myspace":"x"}}`, false, false}, // unknown platform
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","fields":{"tagline":"` + longString(501) + `"}}`, false, true},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","lock_fields":["` + longString(41) + `"]}`, false, true},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","lock_fields":["a","a","a","a","a","a","a","a","a","a","a","a","a","a","a","a","a","a","a","a","a"]}`, false, false}, // a root argument's maxItems stays
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","competitor_url":"` + longString(2049) + `"}`, false, false},                                                         // a root argument's maxLength stays
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","story":{"journey":1}}`, false, false},
			{`{"fields":{}}`, false, false}, // id required
		},
		"get_listing": { // maxLength 220 is left to the slug pattern
			{`{"slug":"a` + longString(219) + `"}`, true, false},
			{`{"slug":"a` + longString(220) + `"}`, false, false},
			{`{"slug":""}`, false, false},
		},
		"submit_draft": { // minLength 1 of idempotency_key is left to its pattern
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","idempotency_key":"k"}`, true, false},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","idempotency_key":""}`, false, false},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","idempotency_key":"` + longString(256) + `"}`, false, false},
		},
		"create_checkout": {
			{`{"items":[{"product":"launch","listing_id":3}],"idempotency_key":"k-1"}`, true, false},
			{`{"items":[]}`, false, false},
			{`{"items":[{"listing_id":3}]}`, false, false},
			{`{"items":[{"product":"launch","colour":"red"}]}`, false, false},
			{`{"items":[{"product":"billboard_min","amount_cents":0}]}`, false, true},
			{`{"items":[{"product":"launch","listing_id":3}],"idempotency_key":"` + longString(256) + `"}`, false, false},
		},
	}
	ops := map[string]Operation{}
	for _, op := range Catalog() {
		ops[op.Name] = op
	}
	for name, rows := range cases {
		op := ops[name]
		full, err := validate.Compile(name+"-full", op.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		lean, err := validate.Compile(name+"-lean", op.MCPInputSchema())
		if err != nil {
			t.Fatal(err)
		}
		if len(op.MCPInputSchema()) >= len(op.InputSchema) {
			t.Errorf("%s: lean schema %d bytes, full %d: not leaner", name, len(op.MCPInputSchema()), len(op.InputSchema))
		}
		for _, r := range rows {
			var doc any
			if err := json.Unmarshal([]byte(r.args), &doc); err != nil {
				t.Fatal(err)
			}
			fe, le := full.Validate(doc), lean.Validate(doc)
			if (len(fe) == 0) != r.ok || (len(le) == 0) != (r.ok || r.nested) {
				t.Errorf("%s %.120s: want ok=%v (lean ok=%v); full schema errors %v, lean schema errors %v", name, r.args, r.ok, r.ok || r.nested, fe, le)
			}
		}
	}
}

func longString(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a'
	}
	return string(b)
}

// leanKeywords are the keywords that validate: every one the full input
// schema has must be in the lean copy at the same place (or be implied).
var leanKeywords = []string{
	"type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems",
	"minProperties", "maxProperties", "required", "additionalProperties",
}

// TestLeanInput_KeepsEveryConstraint checks, for every tool, that each
// (place, keyword) constraint of the full input schema (type, enum, bounds,
// lengths, pattern, format, required, additionalProperties, ...) is in the
// lean schema tools/list sends at the same place, following $ref and
// patternProperties in both, or is implied there: a minLength/maxLength by
// an anchored pattern (PatternLengths). Nothing may be lost but the bounds
// of nested shapes (leanNestedBounds below the root arguments: option A,
// decided in issue 28), which the server checks;
// TestLeanInput_NestedBoundsOverMCP shows it naming field and rule.
func TestLeanInput_KeepsEveryConstraint(t *testing.T) {
	t.Parallel()
	checked, nested := 0, 0
	for _, op := range Catalog() {
		var full, lean map[string]any
		if err := json.Unmarshal(op.InputSchema, &full); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(op.MCPInputSchema(), &lean); err != nil {
			t.Fatal(err)
		}
		leanWalk(full, full, nil, 0, func(path []string, kw string, want any) {
			checked++
			nodes := leanAt(lean, path)
			if len(nodes) == 0 {
				t.Errorf("%s %s: no lean schema at this place (full has %s=%v)", op.Name, strings.Join(path, "/"), kw, want)
				return
			}
			if leanNestedPlace(path) && leanNestedBounds[kw] {
				// Option A: a bound of a nested shape is left to the
				// server; if the lean copy has it, it must be the same.
				nested++
				for _, n := range nodes {
					if got, ok := n[kw]; ok && !leanSame(kw, got, want) {
						t.Errorf("%s %s: lean %s=%v, full %v", op.Name, strings.Join(path, "/"), kw, got, want)
					}
				}
				return
			}
			if !leanHas(nodes, kw, want) {
				t.Errorf("%s %s: %s=%v is in the full input schema, not in the lean one", op.Name, strings.Join(path, "/"), kw, want)
			}
		})
	}
	if checked < 500 || nested < 100 {
		t.Fatalf("checked only %d constraints (%d nested bounds): the walk is broken", checked, nested)
	}
	t.Logf("%d constraints of %d tools checked; %d of them bounds of nested shapes, left to the server", checked, len(Catalog()), nested)
}

// leanNestedPlace says whether a place of leanWalk is below a root argument
// (a member, item or additional property of one, at any depth); a branch of
// anyOf/oneOf/allOf is at its parent's place.
func leanNestedPlace(path []string) bool {
	n := 0
	for _, s := range path {
		if !strings.Contains(s, "/") {
			n++
		}
	}
	return n > 1
}

// leanWalk calls visit for every validating keyword of the schema node, at
// its place: the property names, "items", "additionalProperties" and
// "anyOf/i" steps from the root; a $ref is followed in place.
func leanWalk(root, node map[string]any, path []string, depth int, visit func([]string, string, any)) {
	if depth > 32 {
		return
	}
	for _, kw := range leanKeywords {
		if v, ok := node[kw]; ok {
			if _, isSchema := v.(map[string]any); kw == "additionalProperties" && isSchema {
				continue
			}
			visit(path, kw, v)
		}
	}
	if ref, ok := node["$ref"].(string); ok {
		if d := leanDef(root, ref); d != nil {
			leanWalk(root, d, path, depth+1, visit)
		}
	}
	step := func(s string) []string { return append(append([]string(nil), path...), s) }
	if props, ok := node["properties"].(map[string]any); ok {
		for name, p := range props {
			if m, ok := p.(map[string]any); ok {
				leanWalk(root, m, step("properties:"+name), depth+1, visit)
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if m, ok := node[k].(map[string]any); ok {
			leanWalk(root, m, step(k), depth+1, visit)
		}
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if list, ok := node[k].([]any); ok {
			for i, x := range list {
				if m, ok := x.(map[string]any); ok {
					leanWalk(root, m, step(fmt.Sprintf("%s/%d", k, i)), depth+1, visit)
				}
			}
		}
	}
}

func leanDef(root map[string]any, ref string) map[string]any {
	defs, _ := root["$defs"].(map[string]any)
	d, _ := defs[strings.TrimPrefix(ref, schemas.DefsPrefix)].(map[string]any)
	return d
}

// leanAt is every schema of the lean copy that applies at the place path:
// a property step matches properties[name] and each patternProperties entry
// whose pattern matches the name; $refs are followed.
func leanAt(root map[string]any, path []string) []map[string]any {
	var expand func(n map[string]any, depth int) []map[string]any
	expand = func(n map[string]any, depth int) []map[string]any {
		out := []map[string]any{n}
		if ref, ok := n["$ref"].(string); ok && depth < 32 {
			if d := leanDef(root, ref); d != nil {
				out = append(out, expand(d, depth+1)...)
			}
		}
		return out
	}
	nodes := expand(root, 0)
	for _, s := range path {
		var next []map[string]any
		for _, n := range nodes {
			var found []map[string]any
			switch {
			case strings.HasPrefix(s, "properties:"):
				name := strings.TrimPrefix(s, "properties:")
				props, _ := n["properties"].(map[string]any)
				if p, ok := props[name].(map[string]any); ok {
					found = append(found, p)
				}
				pats, _ := n["patternProperties"].(map[string]any)
				for pat, p := range pats {
					if m, ok := p.(map[string]any); ok && regexp.MustCompile(pat).MatchString(name) {
						found = append(found, m)
					}
				}
			case strings.Contains(s, "/"):
				k, i, _ := strings.Cut(s, "/")
				list, _ := n[k].([]any)
				for j, x := range list {
					if m, ok := x.(map[string]any); ok && fmt.Sprint(j) == i {
						found = append(found, m)
					}
				}
			default:
				if m, ok := n[s].(map[string]any); ok {
					found = append(found, m)
				}
			}
			for _, f := range found {
				next = append(next, expand(f, 0)...)
			}
		}
		nodes = next
	}
	return nodes
}

// leanHas says whether one of the lean nodes at a place has the keyword with
// the same value (required as a set), or implies it.
func leanHas(nodes []map[string]any, kw string, want any) bool {
	for _, n := range nodes {
		if got, ok := n[kw]; ok && leanSame(kw, got, want) {
			return true
		}
		if kw != "minLength" && kw != "maxLength" {
			continue
		}
		p, ok := n["pattern"].(string)
		if !ok {
			continue
		}
		lo, hi, ok := PatternLengths(p)
		w := int(want.(float64))
		if ok && (kw == "minLength" && lo >= w || kw == "maxLength" && hi >= 0 && hi <= w) {
			return true
		}
	}
	return false
}

func leanSame(kw string, got, want any) bool {
	if kw == "required" || kw == "enum" || kw == "type" {
		return leanSet(got) == leanSet(want)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	return string(g) == string(w)
}

func leanSet(v any) string {
	list, ok := v.([]any)
	if !ok {
		list = []any{v}
	}
	s := make([]string, len(list))
	for i, x := range list {
		b, _ := json.Marshal(x)
		s[i] = string(b)
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}

// TestPatternLengths pins the pattern measure the lean schemas rely on to
// leave out an implied minLength or maxLength.
func TestPatternLengths(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		p      string
		lo, hi int
	}{
		{`^[a-z0-9][a-z0-9-]{0,219}$`, 1, 220},
		{`^(this|next|last|[0-9]{4}-[0-9]{2}-[0-9]{2})$`, 4, 10},
		{`^[ -~]+$`, 1, -1},
		{`^([A-Za-z]{2})?$`, 0, 2},
		{`^https://`, 8, -1}, // not anchored at the end: any longer string
		{`[a-z]{3}$`, 3, -1},
		{`^$`, 0, 0},
		{`^é{2}$`, 2, 2}, // code points, not bytes
	} {
		lo, hi, ok := PatternLengths(c.p)
		if !ok || lo != c.lo || hi != c.hi {
			t.Errorf("PatternLengths(%q) = %d, %d, %v; want %d, %d", c.p, lo, hi, ok, c.lo, c.hi)
		}
		// The measure is what a validator enforces: strings just inside pass, just outside fail.
		re := regexp.MustCompile(c.p)
		if c.hi > 0 && c.p[0] == '^' {
			if s := strings.Repeat("9", c.hi+1); re.MatchString(s) {
				t.Errorf("%q accepts %d characters, over hi %d", c.p, len(s), c.hi)
			}
		}
	}
}
