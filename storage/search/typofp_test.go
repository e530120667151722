package search

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/launchdir/launchdir/internal/testtier"
)

// TestRuneFP_NeverRejectsWithin1 checks runeFP's promise: two strings one
// edit apart (within1) have fingerprints near each other (fpCheck.near). Every
// pair of strings up to four symbols long over an alphabet with one- and
// two-byte runes, a three-byte rune and stray bytes of a two-byte rune
// (the first string valid UTF-8, as query words are: for an invalid word
// wordFP compares nothing); every edit of random words; and random pairs. It also checks that the
// fingerprint rejects most pairs of words that are not one edit apart, so
// that a fingerprint that keeps everything does not pass.
func TestRuneFP_NeverRejectsWithin1(t *testing.T) {
	t.Parallel()
	testtier.SkipRace(t, "every short pair and 200,000 random edits checked one after another, one goroutine")
	syms := []string{"a", "b", "é", "日", "\xc3", "\xa9"}
	strs := []string{""}
	for n, from := 0, 0; n < 4; n++ {
		to := len(strs)
		for _, s := range strs[from:to] {
			for _, x := range syms {
				strs = append(strs, s+x)
			}
		}
		from = to
	}
	near := func(a, b string) bool { return wordFP(a).near(runeFP(b)) }
	pairs := 0
	for _, a := range strs {
		if !utf8.ValidString(a) {
			if wordFP(a).mask != 0 {
				t.Fatalf("%q is not valid UTF-8 but its fingerprint is checked", a)
			}
			continue
		}
		for _, b := range strs {
			if within1(a, b) {
				pairs++
				if !near(a, b) {
					t.Fatalf("within1(%q, %q) but fingerprints %08b, %08b", a, b, runeFP(a), runeFP(b))
				}
			}
		}
	}
	if pairs < 10_000 {
		t.Fatalf("only %d pairs one edit apart", pairs)
	}

	r := rand.New(rand.NewPCG(23, 30))
	letters := []rune("abcdefghijklmnopqrstuvwxyzéèüößç日本語")
	word := func() []rune {
		w := make([]rune, 1+r.IntN(14))
		for i := range w {
			w[i] = letters[r.IntN(len(letters))]
		}
		return w
	}
	rejected, far := 0, 0
	for range 200_000 {
		w := word()
		e := slices.Clone(w)
		switch i := r.IntN(len(w)); r.IntN(4) {
		case 0:
			e[i] = letters[r.IntN(len(letters))]
		case 1:
			e = slices.Insert(e, r.IntN(len(w)+1), letters[r.IntN(len(letters))])
		case 2:
			e = slices.Delete(e, i, i+1)
		default:
			if i+1 < len(e) {
				e[i], e[i+1] = e[i+1], e[i]
			}
		}
		a, b := string(w), string(e)
		if !within1(a, b) {
			t.Fatalf("within1(%q, %q) is false for one edit", a, b)
		}
		if !near(a, b) {
			t.Fatalf("within1(%q, %q) but fingerprints %08b, %08b", a, b, runeFP(a), runeFP(b))
		}
		o := string(word())
		if within1(a, o) {
			if !near(a, o) {
				t.Fatalf("within1(%q, %q) but fingerprints %08b, %08b", a, o, runeFP(a), runeFP(o))
			}
		} else if far++; !near(a, o) {
			rejected++
		}
	}
	if rejected*2 < far {
		t.Errorf("fingerprints reject %d of %d random pairs more than one edit apart, want most", rejected, far)
	}
}

// TestTypoCands_FingerprintKeepsSameCandidates checks, over the vocabulary
// of 20,000 docs of the benchmark corpus, that a word's typo candidates
// are the same, in the same order, with and without the fingerprint
// check: every term of the vocabulary and every word of the benchmark's
// distinct queries (misspelt names among them) as the query word. The
// reference reads the typo table comparing no bit of the fingerprints
// (fpCheck{}), then applies typoCands' checks to each candidate's text.
func TestTypoCands_FingerprintKeepsSameCandidates(t *testing.T) {
	t.Parallel()
	testtier.SkipRace(t, "the typo candidates of 39,000 words looked up twice, one goroutine")
	const n = 20_000
	c := newCorpus(42)
	ix := New()
	docs := make(chan Doc, 1024)
	names, tags := make([]string, n+1), make([]string, n+1)
	go func() {
		defer close(docs)
		for id := 1; id <= n; id++ {
			d := c.doc(int64(id))
			names[id], tags[id] = d.Name, d.Tagline
			docs <- d
		}
	}()
	ix.UpsertAll(docs, runtime.GOMAXPROCS(0))
	v := &ix.voc
	var words []string
	for id := range uint32(v.size()) {
		words = append(words, v.term(id))
	}
	qs, _ := benchDistinctQueries(4000, n, names, tags)
	var tk tokenizer
	for _, q := range qs {
		for _, tok := range tk.tokens(q, true) {
			words = append(words, tok.text)
		}
	}
	s := &scratch{}
	got := make([][]cand, len(words))
	read := 0
	for i, w := range words {
		got[i] = ix.typoCands(s, w, qualityTypo, nil)
		read += len(s.tids)
	}

	var buf []byte
	kept, all := 0, 0
	for i, w := range words {
		runes := utf8.RuneCountInString(w)
		var want []cand
		if runes >= 3 && !isDigits(w) {
			var ids []uint32
			buf, _ = v.typoCandidates(w, runes, runes >= 4, fpCheck{}, buf, func(id uint32) { ids = append(ids, id) })
			all += len(ids)
			for _, id := range ids {
				if tw := v.term(id); (runes >= 4 || utf8.RuneCountInString(tw) == runes) && within1(w, tw) {
					want = append(want, cand{id, qualityTypo})
				}
			}
		}
		kept += len(want)
		if !slices.Equal(got[i], want) {
			t.Fatalf("%q: typo candidates %v with fingerprints, %v without", w, got[i], want)
		}
	}
	t.Logf("%d words, %d terms: candidates read %d with fingerprints, %d without; %d one edit away",
		len(words), v.size(), read, all, kept)
	if read >= all {
		t.Errorf("the fingerprints rejected nothing: %d candidates read, %d without them", read, all)
	}
}
