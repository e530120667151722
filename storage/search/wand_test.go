package search

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/internal/testtier"
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
	testtier.SkipRace(t, "600 random queries against the reference ranking on one goroutine "+
		"(UpsertAll's workers run under -race in TestUpsertAll_SameResults, searches beside writes in TestIndex_Concurrent)")
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
	ix := refCorpus(t, rng, 6000, 6500, 400, func(id int64) Doc {
		d := mk(id, pick(1+rng.IntN(2)), pick(1+rng.IntN(3)), pick(1+rng.IntN(4)), word())
		d.Votes = rng.IntN(3)
		d.Country = []string{"US", "DE"}[rng.IntN(2)]
		return d
	})
	g := &refQueries{rng: rng, words: words, generic: generic, minWords: 2, spread: 3, kinds: 6, typoMin: 4,
		typoInner: true, prefixMin: 3, limits: []int{1, 10, 20, 20, 50}, offsets: []int{0, 0, 5, 37, 100}, countryEvery: 7}
	levels := 0 // queries ranked by levels (fewer docs than the page match every word)
	for qi := range 600 {
		q := g.query(qi)
		checkRefRank(t, ix, q)
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

// TestSearch_InexactBoundMatchesScoringEveryMatch checks the bound of a doc
// lacking a query word as written (score, wordBound: the best score the
// word's other terms give any doc) where those terms are dense and decide
// the page: "tracks" is written by few docs, its typo and stem "track" by
// half of them, in fields of different weights, so that the page is the
// docs matching "alpha" and "track" ordered by how well they match
// "track". A bound below the best of "track"'s scores drops one of them.
func TestSearch_InexactBoundMatchesScoringEveryMatch(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(29, 31))
	fill := func(n int) string {
		return strings.Repeat("filler ", n)
	}
	ix := refCorpus(t, rng, 4000, 4000, 200, func(id int64) Doc {
		name, tag, desc := "alpha", "alpha", fill(rng.IntN(30))
		switch {
		case id%401 == 0:
			tag += " tracks"
		case id%2 == 0:
			switch rng.IntN(4) { // track in one field or more, with more or fewer other words
			case 0:
				name += " track"
			case 1:
				tag += " track " + fill(rng.IntN(8))
			case 2:
				desc += " track track"
			default:
				name, tag = name+" track", tag+" track"
			}
		}
		d := mk(id, name, tag, desc)
		d.Votes = rng.IntN(2)
		return d
	})
	if id, ok := ix.voc.lookupTerm("track"); !ok || ix.voc.dense[id] == nil {
		t.Fatal(`"track" is not dense: the test does not exercise the dense form's bound`)
	}
	for _, q := range []Query{
		{Text: "alpha tracks", Limit: 20},
		{Text: "tracks alpha", Limit: 10, Offset: 3},
		{Text: "alpha tracks", Limit: 50},
		{Text: "alpha tracks filler", Limit: 20},
	} {
		checkRefRank(t, ix, q)
	}
}
