package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// bruteMatch reports whether query word w matches doc term t by the rules
// of the package, checked directly rather than through the index. The
// answers are kept (bruteMatched): the test asks the same few hundred pairs
// about two million times, and isStem stems in every language on each call
// (93% of the test's CPU before, 60 s at load 28).
func bruteMatch(w, t string, last bool) bool {
	k := bruteKey{w, t, last}
	if v, ok := bruteMatched.Load(k); ok {
		return v.(bool)
	}
	v := bruteMatchUncached(w, t, last)
	bruteMatched.Store(k, v)
	return v
}

type bruteKey struct {
	w, t string
	last bool
}

// bruteMatched holds bruteMatch's answers by bruteKey.
var bruteMatched sync.Map

func bruteMatchUncached(w, t string, last bool) bool {
	if w == t || isStem(w, t) || last && utf8.RuneCountInString(w) >= 2 && strings.HasPrefix(t, w) {
		return true
	}
	n := utf8.RuneCountInString(w)
	if n < 3 || strings.Trim(w, "0123456789") == "" {
		return false
	}
	if n == 3 && utf8.RuneCountInString(t) != 3 {
		return false
	}
	return within1(w, t)
}

// brutePart is a word a query word is matched as, and its matcher.
type brutePart struct {
	word  string
	match func(t string) bool
}

// bruteWord returns what query word w is matched as, given the index's
// terms vocab: itself by bruteMatch; when no term matches it so, itself
// through a typo of one of its stems (4+ runes, the word 5+); when nothing
// matches it either way, the two parts of its most even split into two
// terms of 3+ runes each (each part matched the same ways, but not split).
func bruteWord(vocab []string, w string, last bool) []brutePart {
	direct := func(w string, last bool) func(string) bool {
		if f := func(t string) bool { return bruteMatch(w, t, last) }; slices.ContainsFunc(vocab, f) {
			return f
		}
		if utf8.RuneCountInString(w) <= minStem {
			return nil
		}
		var st stemmer
		var stems []string
		for l := range numLangs {
			if x := st.stem(w, l); x != w && utf8.RuneCountInString(x) >= minStem && strings.Trim(x, "0123456789") != "" {
				stems = append(stems, x)
			}
		}
		f := func(t string) bool {
			return slices.ContainsFunc(stems, func(x string) bool { return within1(x, t) })
		}
		if slices.ContainsFunc(vocab, f) {
			return f
		}
		return nil
	}
	if f := direct(w, last); f != nil {
		return []brutePart{{w, f}}
	}
	best, bestMin := -1, 0
	rs := []rune(w)
	for i := minSplit; i <= len(rs)-minSplit; i++ {
		a, b := string(rs[:i]), string(rs[i:])
		if slices.Contains(vocab, a) && slices.Contains(vocab, b) && min(i, len(rs)-i) > bestMin {
			best, bestMin = i, min(i, len(rs)-i)
		}
	}
	if best < 0 {
		return nil
	}
	var out []brutePart
	for j, p := range []string{string(rs[:best]), string(rs[best:])} {
		if f := direct(p, last && j == 1); f != nil {
			out = append(out, brutePart{p, f})
		}
	}
	return out
}

// TestSearch_MatchesBruteForce checks the candidate sets (every listing
// matching a non-generic word, or any word when all are generic; a query
// word also matches its stems) (the
// SymSpell lookups, the scan and binary-search paths, the filters) against
// a brute-force matcher over a random corpus with many near-duplicate words.
func TestSearch_MatchesBruteForce(t *testing.T) {
	t.Parallel()
	words := []string{"app", "apps", "ape", "apt", "note", "notes", "nose", "tone", "track", "tracker",
		"trace", "crate", "cart", "card", "time", "tide", "team", "teams", "steam", "mail", "email",
		"emails", "meal", "data", "date", "dates", "sync", "synk", "cloud", "clouds", "could", "the", "he"}
	rng := rand.New(rand.NewPCG(7, 9))
	ix := New()
	docs := map[int64][]string{} // id -> tokens
	countries := []string{"US", "DE", "FR"}
	country := map[int64]string{}
	cats := map[int64][]int64{}
	for id := int64(1); id <= 600; id++ {
		var b strings.Builder
		// A few common words in most docs, so the later words of a query
		// hit both the scan and the binary-search path.
		for range 2 + rng.IntN(8) {
			i := int(rng.ExpFloat64() * 6)
			b.WriteString(words[i%len(words)] + " ")
		}
		d := mk(id, "", "", b.String())
		d.Country = countries[rng.IntN(3)]
		country[id] = d.Country
		d.Categories = []int64{int64(rng.IntN(4)), int64(rng.IntN(4))}
		cats[id] = d.Categories
		ix.Upsert(d)
		if rng.IntN(10) == 0 { // churn: replace or delete some
			if rng.IntN(2) == 0 {
				ix.Delete(id)
				continue
			}
			d.Description = words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
			ix.Upsert(d)
		}
		var tk tokenizer
		docs[id] = nil
		for _, tok := range tk.tokens(d.Description, false) { // a description's words are not stemmed
			docs[id] = append(docs[id], tok.text)
		}
	}
	for id := range docs {
		if _, ok := ix.byID.get(ix, id); !ok {
			delete(docs, id)
		}
	}
	for qi := range 300 {
		var qw []string
		for range 1 + rng.IntN(3) {
			w := words[rng.IntN(len(words))]
			switch r := rng.IntN(6); {
			case r < 2 && len(w) > 3: // mangle: drop a letter
				i := rng.IntN(len(w))
				w = w[:i] + w[i+1:]
			case r == 2: // a closed compound
				w += words[rng.IntN(len(words))]
			case r == 3 && len(w) > 4: // mangle: change a letter
				i := rng.IntN(len(w))
				w = w[:i] + string(rune('a'+rng.IntN(26))) + w[i+1:]
			}
			qw = append(qw, w)
		}
		q := Query{Text: strings.Join(qw, " "), Limit: 1000}
		if qi%4 == 0 {
			q.Country = "DE"
		}
		if qi%3 == 0 {
			q.Categories = []int64{1, 2}
		}
		if qi%10 == 0 {
			q.Text, qw = "", nil
		}
		var vocab []string // the terms a query word can match: those with postings
		for id := range uint32(ix.voc.size()) {
			if ix.voc.df[id] > 0 {
				vocab = append(vocab, ix.voc.term(id))
			}
		}
		parts := make([][]brutePart, len(qw))
		for i, w := range qw {
			parts[i] = bruteWord(vocab, w, i == len(qw)-1)
		}
		generic := 0
		for _, w := range qw {
			if genericWords[w] {
				generic++
			}
		}
		var want []string
		for id, toks := range docs {
			if q.Country != "" && country[id] != q.Country ||
				q.Categories != nil && !slices.ContainsFunc(cats[id], func(c int64) bool { return slices.Contains(q.Categories, c) }) {
				continue
			}
			hits := 0
			for _, ps := range parts {
				for _, p := range ps {
					if (generic == len(qw) || !genericWords[p.word]) && slices.ContainsFunc(toks, p.match) {
						hits++
					}
				}
			}
			if hits > 0 || len(qw) == 0 { // every doc when the query has no words
				want = append(want, fmt.Sprintf("s%d", id))
			}
		}
		got, total := search(ix, q)
		slices.Sort(got)
		slices.Sort(want)
		if want == nil {
			want = []string{}
		}
		if diff := cmp.Diff(want, got); diff != "" || total != len(want) {
			t.Fatalf("Search(%q, country %q): total %d, want %d (-want +got):\n%s", q.Text, q.Country, total, len(want), diff)
		}
	}
}
