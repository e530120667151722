package tools

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestEncodeResult_SameAsStd fills every operation's result type with random
// values (tricky strings, nil and empty slices, maps, times in several zones,
// raw JSON with spaces, numbers at the edges of their formats) and checks that
// encodeResult writes the bytes encoding/json's Marshal writes, and fails
// where it fails.
func TestEncodeResult_SameAsStd(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(17, 2026))
	for _, op := range Catalog() {
		for i := range 40 {
			v := reflect.New(op.Output)
			fillRandom(r, v.Elem(), 0)
			want, wantErr := json.Marshal(v.Interface())
			got, gotErr := encodeResult(nil, v.Interface())
			if (wantErr == nil) != (gotErr == nil) {
				t.Fatalf("%s #%d: encoding/json error %v, encodeResult error %v", op.Name, i, wantErr, gotErr)
			}
			if string(got) != string(want) {
				t.Fatalf("%s #%d: encodeResult wrote\n%s\nencoding/json wrote\n%s", op.Name, i, got, want)
			}
		}
	}
	// A value encoding/json refuses is refused.
	for _, bad := range []any{math.NaN(), map[string]any{"x": math.Inf(1)}, json.RawMessage(`{"a":`)} {
		if _, err := json.Marshal(bad); err == nil {
			t.Fatalf("encoding/json accepted %v", bad)
		}
		if got, err := encodeResult(nil, bad); err == nil {
			t.Errorf("encodeResult(%#v) = %s, want an error as encoding/json gives", bad, got)
		}
	}
}

var trickyStrings = []string{"", "plain", "<script>alert('x')</script>", "a & b", "quote \" back \\ slash",
	"line\nbreak\ttab\r", "\x00\x01\x1f control", "\u2028\u2029 separators", "bad utf-8 \xff\xfe end", "é ü 日本 🚀",
	"https://example.com/a?b=1&c=<2>", strings.Repeat("long ", 60)}

var rawJSON = []string{`{ "a" : [1, 2 ,3] }`, `null`, `"s"`, ` 12.50 `, `[ ]`, `{"k":"<v>"}`, `true`}

var timeType = reflect.TypeFor[time.Time]()
var rawType = reflect.TypeFor[json.RawMessage]()

// fillRandom sets v (settable) to a random value of its type.
func fillRandom(r *rand.Rand, v reflect.Value, depth int) {
	switch {
	case v.Type() == timeType:
		zones := []*time.Location{time.UTC, time.FixedZone("plus", 5*3600+1800), time.FixedZone("minus", -8*3600)}
		v.Set(reflect.ValueOf(time.Unix(r.Int64N(4e9), r.Int64N(1e9)*int64(r.IntN(2))).In(zones[r.IntN(len(zones))])))
		return
	case v.Type() == rawType:
		v.Set(reflect.ValueOf(json.RawMessage(rawJSON[r.IntN(len(rawJSON))])))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(trickyStrings[r.IntN(len(trickyStrings))])
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		edges := []int64{0, -1, 1, math.MaxInt32, math.MinInt32}
		n := edges[r.IntN(len(edges))]
		if r.IntN(2) == 0 {
			n = r.Int64N(1 << 40)
		}
		if v.OverflowInt(n) {
			n = 7
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n := r.Uint64N(1 << 40)
		if v.OverflowUint(n) {
			n = 7
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		edges := []float64{0, -0.5, 1e21, 1e-7, 123456.789, 4.25, 1.0 / 3}
		v.SetFloat(edges[r.IntN(len(edges))])
	case reflect.Pointer:
		if depth > 6 || r.IntN(3) == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		fillRandom(r, p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		switch n := r.IntN(4); {
		case n == 0 || depth > 6:
			// nil
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := range s.Len() {
				fillRandom(r, s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Array:
		for i := range v.Len() {
			fillRandom(r, v.Index(i), depth+1)
		}
	case reflect.Map:
		if depth > 6 || r.IntN(4) == 0 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for range r.IntN(4) {
			k := reflect.New(v.Type().Key()).Elem()
			fillRandom(r, k, depth+1)
			e := reflect.New(v.Type().Elem()).Elem()
			fillRandom(r, e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillRandom(r, v.Field(i), depth+1)
			}
		}
	case reflect.Interface:
		if depth > 6 {
			return
		}
		choices := []any{nil, "s<&>", 1.5, true, []any{"a", 2.0}, map[string]any{"z": 1.0, "a": "b"}}
		if c := choices[r.IntN(len(choices))]; c != nil {
			v.Set(reflect.ValueOf(c))
		}
	}
}
