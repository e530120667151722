package storage_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// Issue 30 item 5: the relevance of search_listings on the demo data,
// measured on two judged sets of queries (storage/search/testdata/relevance,
// README.md there): recall@10 and nDCG@10 per kind of query and overall,
// and the queries that answer nothing although relevant listings exist.
//
//	go test ./storage -run 'TestRelevance$' -v -count=1
//
// logs the table of each set, the service beside the plain FTS bm25 OR
// baseline (relevance_baseline_test.go). LAUNCHDIR_RELEVANCE_QUERIES=dev adds
// a line per development query (its top ten, relevant ones marked); =heldout
// does so for the held-out set, which is for reporting only, never for tuning.

// relevanceDir holds the sets, relative to this package.
const relevanceDir = "search/testdata/relevance"

// relevanceKinds are the kinds a query may have, in table order.
var relevanceKinds = []string{"generic", "plural", "forms", "language", "typo", "x-for-y", "short", "long", "name"}

// relevanceFloor holds the figures recorded for each set (docs/search.md,
// "Relevance"); TestRelevance fails when a set scores more than
// relevanceMargin below them or has more zero-result queries. A ranking
// change that improves a set may raise its floor.
var relevanceFloor = map[string]relFigures{
	// At a485d9d, before issue 30: dev 0.668/0.719/2, held-out 0.641/0.693/6.
	// After its matching strategy, word forms and glossary (the held-out set unchanged):
	// search3: 8 dev queries added (closed compounds, typos of inflected
	// forms; 0.877/0.885/3 on 57 before their fix); then:
	"dev":     {Recall: 0.921, NDCG: 0.931, Zero: 0},
	"heldout": {Recall: 0.866, NDCG: 0.886, Zero: 0},
}

const relevanceMargin = 0.02

// relevanceBaseline holds the baseline's recorded figures (docs/search.md).
var relevanceBaseline = map[string]relFigures{
	"dev":     {Recall: 0.625, NDCG: 0.639, Zero: 7}, // 57 queries since search3 (49 before: 0.702, 0.720, 6)
	"heldout": {Recall: 0.705, NDCG: 0.723, Zero: 16},
}

// relQuery is one judged query of a set.
type relQuery struct {
	Q          string   `json:"q"`
	Kind       string   `json:"kind"`
	Relevant   []string `json:"relevant"`
	Categories []string `json:"categories"`
	Note       string   `json:"note"`
}

// relCorpus is what judgements are checked against: the live listings with
// their primary category, the scheduled ones (to say why a slug cannot be
// relevant) and every category slug.
type relCorpus struct {
	primary   map[string]string // live listing slug -> primary category slug
	scheduled map[string]bool
	cats      map[string]bool
}

// relFigures are a set's means over its queries (or a kind's) and how many
// of them answered zero results although relevant listings exist.
type relFigures struct {
	N            int
	Recall, NDCG float64
	Zero         int
}

// relReport is the outcome of a set.
type relReport struct {
	kinds map[string]*relFigures
	all   relFigures
	lines []string // one per query, in set order
}

// relSearch runs a query and gives the slugs of its first page (at most
// ten, best first) and its total.
type relSearch func(q string) (slugs []string, total int, err error)

func TestRelevance(t *testing.T) {
	t.Parallel() // its own copy of the seeded demo; reads only
	st, path := seededStore(t)
	corpus := loadRelCorpus(t, st)
	search := storeSearch(st)
	base := newFTSBaseline(t, loadBaselineDocs(t, path, corpus))
	show := os.Getenv("LAUNCHDIR_RELEVANCE_QUERIES")
	for _, set := range []string{"dev", "heldout"} {
		t.Run(set, func(t *testing.T) {
			qs := loadRelSet(t, set)
			if err := corpus.check(qs); err != nil {
				t.Fatalf("%s.json: %v", set, err)
			}
			r, err := evalRelevance(qs, corpus, search)
			if err != nil {
				t.Fatal(err)
			}
			rb, err := evalRelevance(qs, corpus, base.search)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("set %s: the service (Store.SearchListings, relevance, first 10) and the FTS bm25 OR baseline:\n%s", set, relTable(r, rb))
			if show == set {
				t.Logf("service, per query (query | kind | relevant | recall nDCG | total | top 10, * relevant):\n%s", strings.Join(r.lines, "\n"))
				t.Logf("baseline, per query:\n%s", strings.Join(rb.lines, "\n"))
			}
			floor := relevanceFloor[set]
			if r.all.Recall < floor.Recall-relevanceMargin || r.all.NDCG < floor.NDCG-relevanceMargin || r.all.Zero > floor.Zero {
				t.Errorf("set %s: recall@10 %.3f, nDCG@10 %.3f, %d zero-result queries; floor: recall %.3f, nDCG %.3f (less %.2f), at most %d zero",
					set, r.all.Recall, r.all.NDCG, r.all.Zero, floor.Recall, floor.NDCG, relevanceMargin, floor.Zero)
			}
			// The baseline depends only on the demo data and SQLite: its
			// recorded figures (docs/search.md) must stay true.
			want := relevanceBaseline[set]
			if math.Abs(rb.all.Recall-want.Recall) > 0.0005 || math.Abs(rb.all.NDCG-want.NDCG) > 0.0005 || rb.all.Zero != want.Zero {
				t.Errorf("set %s: the baseline scores recall@10 %.3f, nDCG@10 %.3f, %d zero; recorded %.3f, %.3f, %d: record the new figures here and in docs/search.md",
					set, rb.all.Recall, rb.all.NDCG, rb.all.Zero, want.Recall, want.NDCG, want.Zero)
			}
		})
	}
}

// BenchmarkRelevance runs each set through the service and the baseline
// and reports their figures as metrics, with the time a query takes:
//
//	go test ./storage -run '^$' -bench 'Relevance' -benchtime 20x
func BenchmarkRelevance(b *testing.B) {
	st, path := seededStore(b)
	corpus := loadRelCorpus(b, st)
	base := newFTSBaseline(b, loadBaselineDocs(b, path, corpus))
	for _, eng := range []struct {
		name   string
		search relSearch
	}{{"service", storeSearch(st)}, {"baseline", base.search}} {
		for _, set := range []string{"dev", "heldout"} {
			qs := loadRelSet(b, set)
			if err := corpus.check(qs); err != nil {
				b.Fatalf("%s.json: %v", set, err)
			}
			b.Run(eng.name+"/"+set, func(b *testing.B) {
				var r relReport
				var err error
				for b.Loop() {
					if r, err = evalRelevance(qs, corpus, eng.search); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(qs)), "ns/query")
				b.ReportMetric(r.all.Recall, "recall@10")
				b.ReportMetric(r.all.NDCG, "nDCG@10")
				b.ReportMetric(float64(r.all.Zero), "zero")
			})
		}
	}
}

// seededStore is a Store over a copy of the seeded demo database, and the
// copy's path.
func seededStore(t testing.TB) (*storage.Store, string) {
	t.Helper()
	path := fixtures.SeededFile(t, fixtures.DemoSeeded)
	db, err := storage.Open(path, storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	st, err := storage.NewStore(context.Background(), db, fixtures.Site)
	if err != nil {
		t.Fatal(err)
	}
	return st, path
}

// storeSearch is the service's search as search_listings runs it: relevance
// order, live listings, the first page of ten.
func storeSearch(st *storage.Store) relSearch {
	return func(q string) ([]string, int, error) {
		items, total, err := st.SearchListings(context.Background(), domain.ListingQuery{
			Q: strings.TrimSpace(q), Status: "live", Sort: "relevance", Limit: 10})
		if err != nil {
			return nil, 0, err
		}
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = it.Slug
		}
		return out, total, nil
	}
}

func loadRelSet(t testing.TB, name string) []relQuery {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(relevanceDir, name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	qs, err := parseRelSet(b)
	if err != nil {
		t.Fatalf("%s.json: %v", name, err)
	}
	return qs
}

func parseRelSet(b []byte) ([]relQuery, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var qs []relQuery
	if err := dec.Decode(&qs); err != nil {
		return nil, err
	}
	return qs, nil
}

// loadRelCorpus lists every live and scheduled listing through the store.
func loadRelCorpus(t testing.TB, st *storage.Store) relCorpus {
	t.Helper()
	ctx := context.Background()
	c := relCorpus{primary: map[string]string{}, scheduled: map[string]bool{}, cats: map[string]bool{}}
	for _, status := range []string{"live", "upcoming"} {
		for off := 0; ; off += 100 {
			items, _, err := st.SearchListings(ctx, domain.ListingQuery{Status: status, Sort: "votes", Offset: off, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				if status == "upcoming" {
					c.scheduled[it.Slug] = true
				} else if it.PrimaryCategory != nil {
					c.primary[it.Slug] = it.PrimaryCategory.Slug
				} else {
					c.primary[it.Slug] = ""
				}
			}
			if len(items) < 100 {
				break
			}
		}
	}
	tree, err := st.Categories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var walk func([]domain.CategoryNode)
	walk = func(ns []domain.CategoryNode) {
		for _, n := range ns {
			c.cats[n.Slug] = true
			walk(n.Subcategories)
		}
	}
	walk(tree)
	if len(c.primary) == 0 || len(c.cats) == 0 {
		t.Fatalf("no live listings (%d) or categories (%d) in the seeded demo", len(c.primary), len(c.cats))
	}
	return c
}

// check refuses a malformed set: an empty set or query, an unknown kind, a
// query twice, a slug of no live listing, a category slug of no category, or
// judgements that make no listing relevant.
func (c relCorpus) check(qs []relQuery) error {
	if len(qs) == 0 {
		return fmt.Errorf("no queries")
	}
	seen := map[string]bool{}
	for i, q := range qs {
		at := fmt.Sprintf("query %d (%q)", i, q.Q)
		key := strings.ToLower(strings.TrimSpace(q.Q))
		switch {
		case key == "":
			return fmt.Errorf("%s: empty q", at)
		case seen[key]:
			return fmt.Errorf("%s: the same query twice", at)
		case !slices.Contains(relevanceKinds, q.Kind):
			return fmt.Errorf("%s: kind %q is not one of %v", at, q.Kind, relevanceKinds)
		case len(q.Relevant) == 0 && len(q.Categories) == 0:
			return fmt.Errorf("%s: no judgement (relevant and categories are empty)", at)
		}
		seen[key] = true
		for _, s := range q.Relevant {
			if _, ok := c.primary[s]; !ok {
				if c.scheduled[s] {
					return fmt.Errorf("%s: listing %q is scheduled, not live: search cannot find it", at, s)
				}
				return fmt.Errorf("%s: %q is the slug of no listing", at, s)
			}
		}
		for _, s := range q.Categories {
			if !c.cats[s] {
				return fmt.Errorf("%s: %q is the slug of no category", at, s)
			}
		}
		if len(c.relevant(q)) == 0 {
			return fmt.Errorf("%s: no live listing is relevant (categories %v have no live listing as primary)", at, q.Categories)
		}
	}
	return nil
}

// relevant is the set of live listings relevant to q: its slugs and the
// live listings whose primary category is one of its categories.
func (c relCorpus) relevant(q relQuery) map[string]bool {
	rel := map[string]bool{}
	for _, s := range q.Relevant {
		if _, ok := c.primary[s]; ok {
			rel[s] = true
		}
	}
	for s, cat := range c.primary {
		if slices.Contains(q.Categories, cat) {
			rel[s] = true
		}
	}
	return rel
}

// relScore scores one answer with binary gains: recall@10 is the relevant
// results among the first ten over min(10, #relevant), so that a perfect
// page scores 1 whatever the number of relevant listings; nDCG@10 divides
// the DCG of the first ten (gain 1/log2(rank+1)) by the DCG of
// min(10, #relevant) relevant results in a row.
func relScore(rel map[string]bool, got []string) (recall, ndcg float64) {
	if len(rel) == 0 {
		return 0, 0
	}
	ideal := min(10, len(rel))
	var hits int
	var dcg, idcg float64
	for i, s := range got[:min(10, len(got))] {
		if rel[s] {
			hits++
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := range ideal {
		idcg += 1 / math.Log2(float64(i+2))
	}
	return float64(hits) / float64(ideal), dcg / idcg
}

// evalRelevance runs every query of a well-formed set through search.
func evalRelevance(qs []relQuery, c relCorpus, search relSearch) (relReport, error) {
	r := relReport{kinds: map[string]*relFigures{}}
	for _, q := range qs {
		got, total, err := search(q.Q)
		if err != nil {
			return r, fmt.Errorf("%q: %w", q.Q, err)
		}
		rel := c.relevant(q)
		recall, ndcg := relScore(rel, got)
		zero := total == 0 && len(got) == 0
		k := r.kinds[q.Kind]
		if k == nil {
			k = &relFigures{}
			r.kinds[q.Kind] = k
		}
		for _, f := range []*relFigures{k, &r.all} {
			f.N++
			f.Recall += recall
			f.NDCG += ndcg
			if zero {
				f.Zero++
			}
		}
		marked := make([]string, len(got))
		for i, s := range got {
			marked[i] = s
			if rel[s] {
				marked[i] = "*" + s
			}
		}
		r.lines = append(r.lines, fmt.Sprintf("%-48q | %-8s | %3d | %.2f %.2f | %4d | %s",
			q.Q, q.Kind, len(rel), recall, ndcg, total, strings.Join(marked, " ")))
	}
	for _, f := range r.kinds {
		f.Recall /= float64(f.N)
		f.NDCG /= float64(f.N)
	}
	if r.all.N > 0 {
		r.all.Recall /= float64(r.all.N)
		r.all.NDCG /= float64(r.all.N)
	}
	return r, nil
}

// relTable shows the service's report and the baseline's side by side:
// one row per kind, then all.
func relTable(r, rb relReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-9s %4s | %-22s | %-22s\n", "", "", "service", "FTS bm25 OR baseline")
	fmt.Fprintf(&b, "%-9s %4s | %7s %7s %6s | %7s %7s %6s\n", "kind", "n", "recall", "nDCG", "zero", "recall", "nDCG", "zero")
	row := func(name string, f, fb relFigures) {
		fmt.Fprintf(&b, "%-9s %4d | %7.3f %7.3f %6d | %7.3f %7.3f %6d\n", name, f.N, f.Recall, f.NDCG, f.Zero, fb.Recall, fb.NDCG, fb.Zero)
	}
	for _, k := range relevanceKinds {
		if f := r.kinds[k]; f != nil {
			row(k, *f, *rb.kinds[k])
		}
	}
	row("all", r.all, rb.all)
	return b.String()
}

// TestRelevance_Scoring checks the metrics on hand-worked answers.
func TestRelevance_Scoring(t *testing.T) {
	rel := map[string]bool{"a": true, "b": true, "c": true}
	for _, tc := range []struct {
		got          []string
		recall, ndcg float64
	}{
		{[]string{"a", "b", "c"}, 1, 1},
		{[]string{"c", "a", "b", "x"}, 1, 1},
		{nil, 0, 0},
		{[]string{"x", "a"}, 1.0 / 3, (1 / math.Log2(3)) / (1 + 1/math.Log2(3) + 0.5)},
		{[]string{"x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "a"}, 0, 0}, // the eleventh does not count
	} {
		recall, ndcg := relScore(rel, tc.got)
		if math.Abs(recall-tc.recall) > 1e-9 || math.Abs(ndcg-tc.ndcg) > 1e-9 {
			t.Errorf("%v: recall %.4f nDCG %.4f, want %.4f %.4f", tc.got, recall, ndcg, tc.recall, tc.ndcg)
		}
	}
	// Twelve relevant: ten relevant results in a row are a perfect page.
	many := map[string]bool{}
	var top []string
	for i := range 12 {
		s := fmt.Sprint("l", i)
		many[s] = true
		if i < 10 {
			top = append(top, s)
		}
	}
	if recall, ndcg := relScore(many, top); recall != 1 || math.Abs(ndcg-1) > 1e-9 {
		t.Errorf("ten of twelve relevant: recall %.4f nDCG %.4f, want 1 1", recall, ndcg)
	}
}

// TestRelevance_MalformedSets checks that check refuses each kind of
// malformed set, against a small corpus.
func TestRelevance_MalformedSets(t *testing.T) {
	c := relCorpus{
		primary:   map[string]string{"notely": "notes", "jotter": "notes"},
		scheduled: map[string]bool{"soonly": true},
		cats:      map[string]bool{"notes": true, "design": true},
	}
	ok := `{"q": "notes app", "kind": "generic", "relevant": [], "categories": ["notes"], "note": ""}`
	qs, err := parseRelSet([]byte("[" + ok + "]"))
	if err != nil || c.check(qs) != nil {
		t.Fatalf("a well-formed set is refused: %v %v", err, c.check(qs))
	}
	for _, tc := range []struct{ name, set, want string }{
		{"Empty", `[]`, "no queries"},
		{"EmptyQ", `[{"q": " ", "kind": "short", "relevant": ["notely"]}]`, "empty q"},
		{"Twice", `[` + ok + `, {"q": "Notes App", "kind": "generic", "relevant": ["notely"]}]`, "twice"},
		{"UnknownKind", `[{"q": "x", "kind": "odd", "relevant": ["notely"]}]`, "kind"},
		{"NoJudgement", `[{"q": "x", "kind": "short", "relevant": [], "categories": []}]`, "no judgement"},
		{"UnknownSlug", `[{"q": "x", "kind": "name", "relevant": ["nope"]}]`, "no listing"},
		{"ScheduledSlug", `[{"q": "x", "kind": "name", "relevant": ["soonly"]}]`, "scheduled"},
		{"UnknownCategory", `[{"q": "x", "kind": "short", "categories": ["nope"]}]`, "no category"},
		{"CategoryWithoutLive", `[{"q": "x", "kind": "short", "categories": ["design"]}]`, "no live listing"},
		{"UnknownField", `[{"q": "x", "kind": "short", "relevent": ["notely"]}]`, "unknown field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qs, err := parseRelSet([]byte(tc.set))
			if err == nil {
				err = c.check(qs)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
