package tools

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeFlat_SameAsDecodeJSON: whenever decodeFlat takes an input, it
// answers what decodeJSON's reader of any input (decodeTokens) answers,
// without an error, over random inputs made of the pieces that matter
// (quotes, escapes, control characters, bad UTF-8, numbers of every form,
// literals, nesting, keys twice, trailing data); and it takes the common
// flat arguments.
func TestDecodeFlat_SameAsDecodeJSON(t *testing.T) {
	t.Parallel()
	takes := []string{`{}`, ` { } `, `{"q":"time tracking"}`, "{\n\t\"q\" : \"zeit ü 🚀 \ufffd\u2028\",\r\"page\":2,\"per_page\":-0}",
		`{"a":true,"b":false,"c":null,"d":123456789012345,"":"x"}`}
	for _, in := range takes {
		if _, ok := decodeFlat([]byte(in)); !ok {
			t.Errorf("decodeFlat does not take %q", in)
		}
	}
	keys := []string{`"q"`, `"page"`, `"a\"b"`, `"a\u0000"`, `"é"`, "\"\xff\"", `""`, `"q"`, "\"\x01\"", `q`, `"\ud800"`}
	values := []string{`"time tracking"`, `"a\nb"`, `"x\\y"`, "\"tab\there\"", "\"\xe2\x80\"", `"ü🚀"`, "\"\ufffd\"", `"\ufffd"`, `""`,
		`0`, `-0`, `7`, `-12`, `007`, `1.5`, `1e3`, `1E3`, `-`, `123456789012345`, `1234567890123456`, `99999999999999999999999`,
		`true`, `false`, `null`, `tru`, `nulll`, `truex`, `{}`, `{"a":1}`, `[]`, `[1,"a"]`, `"unterminated`, `+1`, `.5`, `NaN`}
	seps := []string{",", ",", ",", " , ", ",,", ";", ""}
	ends := []string{"}", "}", "}", " }\n", "} x", "}}", "", "},"}
	r := rand.New(rand.NewPCG(20, 30))
	var cases []string
	for range 20000 {
		var sb strings.Builder
		sb.WriteString([]string{"{", "{", " {", "\t{\n", "[", ""}[r.IntN(6)])
		for k := range r.IntN(5) {
			if k > 0 {
				sb.WriteString(seps[r.IntN(len(seps))])
			}
			sb.WriteString(keys[r.IntN(len(keys))])
			sb.WriteString([]string{":", " : ", ":", ""}[r.IntN(4)])
			sb.WriteString(values[r.IntN(len(values))])
		}
		sb.WriteString(ends[r.IntN(len(ends))])
		cases = append(cases, sb.String())
	}
	took := 0
	for _, in := range cases {
		got, ok := decodeFlat([]byte(in))
		if !ok {
			continue
		}
		took++
		want, err := decodeTokens([]byte(in))
		if err != nil {
			t.Fatalf("decodeFlat takes %q, decodeJSON refuses it: %v", in, err)
		}
		if !reflect.DeepEqual(any(got), want) {
			t.Fatalf("%q: decodeFlat %#v, decodeJSON %#v", in, got, want)
		}
	}
	if took < len(cases)/20 {
		t.Errorf("decodeFlat took %d of %d inputs: too few to compare", took, len(cases))
	}
	t.Logf("decodeFlat took %d of %d inputs", took, len(cases))
}
