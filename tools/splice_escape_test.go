package tools

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAppendJSONString_LongAndDense: appendJSONString writes what
// encoding/json writes for strings long enough, and dense enough in
// escapes (six bytes for one), to outgrow the room it reserves ahead, after
// a prefix it must keep, into destinations with and without spare room.
func TestAppendJSONString_LongAndDense(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(20, 2026))
	alphabet := []string{"a", "bc", "\"", "\\", "<", ">", "&", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "\u2028", "\u2029",
		"\xe2\x80", "\xff", "🚀", "\ufffd", `\u003c`}
	cases := []string{"", strings.Repeat("<", 1000), strings.Repeat("\x01", 333), strings.Repeat("\u2028", 100),
		strings.Repeat("\xff", 257), strings.Repeat("a", 4096) + "\"", strings.Repeat("🚀", 300)}
	for range 3000 {
		var sb strings.Builder
		for range r.IntN(300) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		cases = append(cases, sb.String())
	}
	for _, s := range cases {
		want, _ := json.Marshal(s)
		for _, dst := range [][]byte{nil, []byte("xy"), make([]byte, 3, 3+len(s)), make([]byte, 0, 2*len(s)+2)} {
			prefix := bytes.Clone(dst)
			got := appendJSONString(dst, []byte(s))
			if !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], want) {
				t.Fatalf("%q after %q: %s, encoding/json %s", s, prefix, got, want)
			}
		}
	}
}
