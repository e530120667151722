package search

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// whereRef is Where as it was before Placer: a new tokenizer and stemmer per
// call and both stems made for every word sharing w's first letters.
func whereRef(w string, last bool, name, tagline, category string) []string {
	var out []string
	var t tokenizer
	var st stemmer
	in := func(text string) bool {
		runes := len([]rune(w))
		typos := runes >= 3 && strings.Trim(w, "0123456789") != ""
		for _, tok := range t.tokens(text, false) {
			x := tok.text
			switch {
			case x == w, last && runes >= 2 && strings.HasPrefix(x, w):
				return true
			case typos && (runes >= 4 || len([]rune(x)) == runes) && within1(w, x):
				return true
			}
			if len(x) >= minStem && len(w) >= minStem && x[:3] == w[:3] {
				for l := range numLangs {
					if st.stem(x, l) == st.stem(w, l) {
						return true
					}
				}
			}
		}
		return false
	}
	for i, text := range [3]string{name, tagline, category} {
		if in(text) {
			out = append(out, [3]string{"name", "tagline", "category"}[i])
		}
	}
	if out == nil {
		out = []string{"text"}
	}
	return out
}

var whereWords = strings.Fields(`invoice invoices invoicing invoise facture factures rechnung rechnungen
	time timer tracking tracker trackers track app apps team teams data database notes note notetaking
	schedule scheduler scheduling planning planificación 2024 crm email e-mail emails mail in`)

func whereText(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(8) {
		w := whereWords[r.IntN(len(whereWords))]
		if r.IntN(3) == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w + " ")
	}
	return b.String()
}

// TestPlacer_SameAsWhere asks one Placer, as a page does, where many words
// occur in many listings' fields, and compares each answer with the
// reference (a fresh tokenizer and stemmer per call).
func TestPlacer_SameAsWhere(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(30, 5))
	var p Placer
	for i := range 3000 {
		if i%200 == 0 {
			p = Placer{} // a new page
		}
		w := whereWords[r.IntN(len(whereWords))]
		if r.IntN(4) == 0 {
			w = w[:min(len(w), 2+r.IntN(4))]
		}
		last := r.IntN(2) == 0
		name, tagline, cat := whereText(r), whereText(r), whereText(r)
		want := whereRef(w, last, name, tagline, cat)
		if got := p.Where(w, last, name, tagline, cat); !slices.Equal(got, want) {
			t.Fatalf("Where(%q, last %v, %q, %q, %q) = %v, want %v", w, last, name, tagline, cat, got, want)
		}
		if got := Where(w, last, name, tagline, cat); !slices.Equal(got, want) {
			t.Fatalf("package Where(%q, ...) = %v, want %v", w, got, want)
		}
	}
}

// BenchmarkWhere compares, in one run, a page of 20 listings' "where" for a
// two-word query made the old way (ref) and with one Placer (placer):
//
//	go test ./storage/search -run '^$' -bench Where -benchtime 2000x
func BenchmarkWhere(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	type item struct{ name, tagline, cat string }
	page := make([]item, 20)
	for i := range page {
		page[i] = item{whereText(r), whereText(r) + whereText(r), whereText(r)}
	}
	words := []string{"invoicing", "freelancers"}
	b.Run("ref", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, it := range page {
				for i, w := range words {
					whereRef(w, i == len(words)-1, it.name, it.tagline, it.cat)
				}
			}
		}
	})
	b.Run("placer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p Placer
			for _, it := range page {
				for i, w := range words {
					p.Where(w, i == len(words)-1, it.name, it.tagline, it.cat)
				}
			}
		}
	})
}

// TestMaybeWithin1 checks that the Placer's quick filter never rules out a
// pair within1 accepts: words of three or more runes (ASCII and not) against
// every one-edit variant and against random words.
func TestMaybeWithin1(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(30, 15))
	alpha := []rune("abcdeéüßz")
	word := func(n int) string {
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alpha[r.IntN(len(alpha))]
		}
		return string(rs)
	}
	for range 20000 {
		w := word(3 + r.IntN(5))
		rw := []rune(w)
		var xs []string
		for i := 0; i <= len(rw); i++ {
			c := string(alpha[r.IntN(len(alpha))])
			xs = append(xs, string(rw[:i])+c+string(rw[i:])) // insertion
			if i < len(rw) {
				xs = append(xs, string(rw[:i])+string(rw[i+1:]))   // deletion
				xs = append(xs, string(rw[:i])+c+string(rw[i+1:])) // substitution
			}
			if i+1 < len(rw) {
				xs = append(xs, string(rw[:i])+string(rw[i+1])+string(rw[i])+string(rw[i+2:])) // transposition
			}
		}
		xs = append(xs, w, word(1+r.IntN(8)), "")
		for _, x := range xs {
			if within1(w, x) && !maybeWithin1(w, x) {
				t.Fatalf("maybeWithin1(%q, %q) = false, within1 true", w, x)
			}
		}
	}
}

// A generic last word beside a non-generic one is not a prefix for the
// index, so LastWord must not hand it to the Placer as one: "invoicing for"
// would otherwise say "for" matched a tagline that holds only "format".
func TestLastWord_GenericBesideOthersIsWhole(t *testing.T) {
	for q, want := range map[string]string{
		"invoicing for":     "",
		"time tracking app": "",
		"for":               "for",
		"app tool":          "tool",
		"invoic":            "invoic",
		"for invoic":        "invoic",
	} {
		if got := LastWord(q); got != want {
			t.Errorf("LastWord(%q) = %q, want %q", q, got, want)
		}
	}
	if got := Where("for", LastWord("invoicing for") == "for", "Acme", "Invoices in any format", ""); len(got) != 1 || got[0] != "text" {
		t.Errorf(`Where("for") in a tagline with only "format" = %v, want [text]`, got)
	}
}
