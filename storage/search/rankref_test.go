package search

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// refRank ranks q's matches by scoring every one of them from every posting
// of every term the query's words match: no windows, bounds, cursors or
// skipped terms. The words, their terms, weights and levels are the ones
// match works out (parse, counting), so this checks how a page is chosen,
// not what a word matches (TestSearch_MatchesBruteForce does that).
func refRank(ix *Index, q Query) (ids []int64, total int) {
	s := &scratch{}
	if !ix.parse(s, q.Text) {
		return nil, -1
	}
	f := ix.filterOf(&q)
	s.sort, s.k = sortRelevance, max(q.Offset, 0)+q.Limit
	total = ix.match(s, &f)
	best := map[uint32][]float32{} // doc -> per word (s.order) its best extra score
	for k, wi := range s.order {
		w := s.words[wi]
		for _, t := range s.terms[w.lo:w.hi] {
			raise := func(d, q uint32) {
				if s.ubits[d>>6]>>(d&63)&1 == 0 {
					return
				}
				b := best[d]
				if b == nil {
					b = make([]float32, len(s.order))
					best[d] = b
				}
				if sc := t.w*float32(q) + t.ex; sc > b[k] {
					b[k] = sc
				}
			}
			if dn := ix.voc.dense[t.id]; dn != nil {
				dn.each(raise)
				continue
			}
			pl, d := ix.voc.list(t.id), uint32(0)
			for _, list := range [2][]byte{pl.a, pl.b} {
				for i := 0; i < len(list); {
					var q uint32
					i, d, q = decode(list, i, d)
					raise(d, q)
				}
			}
		}
	}
	var all []hent
	for j, u := range s.ubits {
		for ; u != 0; u &= u - 1 {
			d := uint32(j<<6 + bits.TrailingZeros64(u))
			b := best[d]
			acc, lvl := b[0], int64(0)
			if acc > 0 {
				lvl = s.words[s.order[0]].lvl
			}
			for k := 1; k < len(b); k++ {
				if b[k] > 0 {
					acc += b[k]
					lvl += s.words[s.order[k]].lvl
				}
			}
			all = append(all, hent{key: float64(lvl) + float64(acc), votes: ix.votes[d], doc: d, id: ix.idOf(d)})
		}
	}
	slices.SortFunc(all, func(a, b hent) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	for i := max(q.Offset, 0); i < len(all) && i < max(q.Offset, 0)+q.Limit; i++ {
		ids = append(ids, all[i].id)
	}
	return ids, total
}

// refQueries generates random queries over a corpus's words for the tests
// that compare Search with refRank: each query has minWords + IntN(spread)
// words, each taken as written or, one time in kinds, with a letter
// deleted (words longer than typoMin; inner letters only when typoInner), a
// prefix (prefixMin + IntN(3) letters), or a generic word (when there are
// generic words and kinds > 2). Pages and the country filter cycle through
// limits, offsets and one query in countryEvery.
type refQueries struct {
	rng              *rand.Rand
	words, generic   []string
	minWords, spread int
	kinds, typoMin   int
	typoInner        bool
	prefixMin        int
	limits, offsets  []int
	countryEvery     int
}

// query returns the qi-th query.
func (g *refQueries) query(qi int) Query {
	var qw []string
	for range g.minWords + g.rng.IntN(g.spread) {
		w := g.words[g.rng.IntN(len(g.words))]
		switch g.rng.IntN(g.kinds) {
		case 0: // a typo
			if len(w) > g.typoMin {
				var i int
				if g.typoInner {
					i = 1 + g.rng.IntN(len(w)-2)
				} else {
					i = g.rng.IntN(len(w))
				}
				w = w[:i] + w[i+1:]
			}
		case 1: // a prefix
			w = w[:min(len(w), g.prefixMin+g.rng.IntN(3))]
		case 2:
			if len(g.generic) > 0 {
				w = g.generic[g.rng.IntN(len(g.generic))]
			}
		}
		qw = append(qw, w)
	}
	q := Query{Text: strings.Join(qw, " "), Limit: g.limits[qi%len(g.limits)], Offset: g.offsets[qi%len(g.offsets)]}
	if qi%g.countryEvery == 0 {
		q.Country = "DE"
	}
	return q
}

// refCorpus builds an index of docs 1..n made by doc (bulk loaded, so that
// common terms take the dense form), then churns it: churn upserts or
// deletes (one in three) of ids up to churnIDs, for tails after packed
// lists and tombstones. It fails t when no term is dense.
func refCorpus(t *testing.T, rng *rand.Rand, n, churnIDs, churn int, doc func(int64) Doc) *Index {
	t.Helper()
	ix := New()
	ch := make(chan Doc, 64)
	go func() {
		defer close(ch)
		for id := int64(1); id <= int64(n); id++ {
			ch <- doc(id)
		}
	}()
	ix.UpsertAll(ch, 1)
	for range churn {
		if id := 1 + int64(rng.IntN(churnIDs)); rng.IntN(3) == 0 {
			ix.Delete(id)
		} else {
			ix.Upsert(doc(id))
		}
	}
	if len(ix.voc.dense) == 0 {
		t.Fatal("no dense term: the corpus does not exercise both posting forms")
	}
	return ix
}

// refKeepRules are the ways checkRefRank runs a search: every word keeping
// its per-doc scores (as a small index does), none (cursors over the
// lists), and the words with at most one posting in 16 doc numbers.
var refKeepRules = []keepRule{defaultKeep, {docs: -1, sparse: 1 << 40}, {docs: -1, sparse: 16}}

// checkRefRank fails t when Search's page or total for q differs from
// refRank's, with each of refKeepRules.
func checkRefRank(t *testing.T, ix *Index, q Query) {
	t.Helper()
	want, wantTotal := refRank(ix, q)
	defer func(r keepRule) { ix.keep = r }(ix.keep)
	for _, r := range refKeepRules {
		ix.keep = r
		got, total := ix.Search(q)
		if len(got) == 0 && len(want) == 0 {
			got, want = nil, nil
		}
		if diff := cmp.Diff(want, got); diff != "" || total != wantTotal {
			t.Fatalf("Search(%q, offset %d, limit %d), %+v: total %d, want %d; page (-scoring every match +Search):\n%s",
				q.Text, q.Offset, q.Limit, r, total, wantTotal, diff)
		}
	}
}

// TestSearch_RankingMatchesScoringEveryMatch checks relevance pages against
// refRank over a corpus of near-duplicate words (so that query words have
// exact, stem, typo and prefix terms at once, some dense), in several
// fields, with few distinct votes (ties), churn and a compaction.
func TestSearch_RankingMatchesScoringEveryMatch(t *testing.T) {
	t.Parallel()
	words := strings.Fields(`app apps ape note notes nose tone track tracker tracking trace crate
		cart card time tide team teams steam mail email emails meal data date dates database
		sync synk cloud clouds could invoice invoices invoicing the for`)
	rng := rand.New(rand.NewPCG(11, 13))
	pick := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[int(rng.ExpFloat64()*8)%len(words)] + " ")
		}
		return b.String()
	}
	ix := refCorpus(t, rng, 4000, 4500, 600, func(id int64) Doc {
		d := mk(id, pick(1+rng.IntN(2)), pick(2+rng.IntN(3)), pick(3+rng.IntN(6)))
		d.Votes = rng.IntN(3)
		d.Country = []string{"US", "DE"}[rng.IntN(2)]
		return d
	})
	g := &refQueries{rng: rng, words: words, minWords: 1, spread: 3, kinds: 4, typoMin: 3, prefixMin: 2,
		limits: []int{1, 10, 20}, offsets: []int{0, 0, 5, 37}, countryEvery: 5}
	for qi := range 400 {
		checkRefRank(t, ix, g.query(qi))
	}
}
