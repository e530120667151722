package tools

import (
	"encoding/json"
	"testing"

	"github.com/launchdir/launchdir/domain/validate"
)

// TestLeanInput_SameVerdicts compiles the full and the lean input schema of
// update_draft (grouped patternProperties, $defs) and of create_checkout with
// the project's JSON Schema validator and checks that both accept and reject
// the same arguments: the lean copy keeps the contract.
func TestLeanInput_SameVerdicts(t *testing.T) {
	cases := map[string][]struct {
		args string
		ok   bool
	}{
		"update_draft": {
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","fields":{"name":"Acme","tags":["a"],"description":null}}`, true},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","company_socials":{"github":"https://github.com/acme"}}`, true},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","story":{"journey":"long"}}`, true},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","fields":{"nmae":"Acme"}}`, false},          // misspelt field
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","fields":{"tags":"a"}}`, false},             // wrong type
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","company_socials":{"myspace":"x"}}`, false}, // unknown platform
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","fields":{"tagline":"` + longString(501) + `"}}`, false},
			{`{"id":"7d6c2b9e-1f0a-4c55-9a3e-2b7f0d9c1e11","story":{"journey":1}}`, false},
			{`{"fields":{}}`, false}, // id required
		},
		"create_checkout": {
			{`{"items":[{"product":"launch","listing_id":3}],"idempotency_key":"k-1"}`, true},
			{`{"items":[]}`, false},
			{`{"items":[{"listing_id":3}]}`, false},
			{`{"items":[{"product":"launch","colour":"red"}]}`, false},
			{`{"items":[{"product":"billboard_min","amount_cents":0}]}`, false},
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
			if (len(fe) == 0) != r.ok || (len(le) == 0) != r.ok {
				t.Errorf("%s %s: want ok=%v; full schema errors %v, lean schema errors %v", name, r.args, r.ok, fe, le)
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
