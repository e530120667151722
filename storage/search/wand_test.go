package search

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSearch_EarlyTerminationMatchesScoringEveryMatch checks the bounds
// that let a search skip docs (per window and per doc: a doc's level and
// the best extra scores of the words it matches, docBounds) against
// refRank, which scores every match, on random queries whose words are
// mostly matched apart: each doc holds a few words of a Zipf-like
// vocabulary, so that fewer docs than a page match every word and the
// docs matching some of them (the lower levels) fill it, with generic
// words, exact, typo, stem and prefix terms and pages from 1 to 150 (the
// heap and the buffer). A bound below some doc's key drops that doc and
// fails the comparison.
func TestSearch_EarlyTerminationMatchesScoringEveryMatch(t *testing.T) {
	t.Parallel()
	words := strings.Fields(`invoice invoices invoicing track tracker tracking time timer team teams
		note notes chat chart cart card mail email emails sync cloud clouds data date dates design
		rough threads website video imports pipelines offline clients capture summaries payments
		zenquami bainnepex syezende kadegal linriba gafivalo lovaba vaalba modezen`)
	generic := []string{"app", "tool", "for", "software", "the"}
	rng := rand.New(rand.NewPCG(30, 8))
	word := func() string { return words[int(rng.ExpFloat64()*9)%len(words)] }
	pick := func(n int) string {
		var b strings.Builder
		for range n {
			if rng.IntN(6) == 0 {
				b.WriteString(generic[rng.IntN(len(generic))] + " ")
			}
			b.WriteString(word() + " ")
		}
		return b.String()
	}
	doc := func(id int64) Doc {
		d := mk(id, pick(1+rng.IntN(2)), pick(1+rng.IntN(3)), pick(1+rng.IntN(4)), word())
		d.Votes = rng.IntN(3)
		d.Country = []string{"US", "DE"}[rng.IntN(2)]
		return d
	}
	ix := New()
	ch := make(chan Doc, 64)
	go func() {
		defer close(ch)
		for id := int64(1); id <= 6000; id++ {
			ch <- doc(id)
		}
	}()
	ix.UpsertAll(ch, 1)
	for range 400 { // churn: tails after packed lists, tombstones
		if id := 1 + int64(rng.IntN(6500)); rng.IntN(3) == 0 {
			ix.Delete(id)
		} else {
			ix.Upsert(doc(id))
		}
	}
	if len(ix.voc.dense) == 0 {
		t.Fatal("no dense term: the corpus does not exercise both posting forms")
	}
	levels := 0 // queries ranked by levels (fewer docs than the page match every word)
	for qi := range 600 {
		var qw []string
		for range 2 + rng.IntN(3) {
			w := words[rng.IntN(len(words))]
			switch rng.IntN(6) {
			case 0: // a typo
				if len(w) > 4 {
					i := 1 + rng.IntN(len(w)-2)
					w = w[:i] + w[i+1:]
				}
			case 1: // a prefix
				w = w[:min(len(w), 3+rng.IntN(3))]
			case 2:
				w = generic[rng.IntN(len(generic))]
			}
			qw = append(qw, w)
		}
		q := Query{Text: strings.Join(qw, " "), Limit: []int{1, 10, 20, 20, 50}[qi%5], Offset: []int{0, 0, 5, 37, 100}[qi%4]}
		if qi%7 == 0 {
			q.Country = "DE"
		}
		want, wantTotal := refRank(ix, q)
		got, total := ix.Search(q)
		if len(got) == 0 && len(want) == 0 {
			got, want = nil, nil
		}
		if diff := cmp.Diff(want, got); diff != "" || total != wantTotal {
			t.Fatalf("Search(%q, offset %d, limit %d): total %d, want %d; page (-scoring every match +Search):\n%s",
				q.Text, q.Offset, q.Limit, total, wantTotal, diff)
		}
		s := &scratch{}
		ix.parse(s, q.Text)
		f := ix.filterOf(&q)
		s.sort, s.k = sortRelevance, q.Offset+q.Limit
		ix.match(s, &f)
		if s.levels > 1 {
			levels++
		}
	}
	if levels < 200 {
		t.Fatalf("only %d of 600 queries were ranked by levels: the corpus does not exercise the lower levels", levels)
	}
	t.Logf("%d of 600 queries ranked by levels", levels)
}
