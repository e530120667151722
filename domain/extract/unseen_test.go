package extract_test

import (
	"slices"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/testtier"
)

// unseenToday are the drafter's numbers on the unseen set, the floor
// TestEvaluationUnseen holds it to (docs/drafts.md): they may only get better.
var unseenToday = struct {
	recall, accuracy float64
	invented         int
}{recall: 364.0 / 437, accuracy: 364.0 / 375, invented: 1}

// unseenMargin is how far recall or value accuracy may fall below today's
// before TestEvaluationUnseen fails (a value or two on 16 sites).
const unseenMargin = 0.02

// TestEvaluationUnseen measures the drafter on the held-out set of sites in any language
// (testdata/unseen), written before the drafter was run on it: recall and
// value accuracy per set, language and field, invented and non-verbatim
// values, robots.txt. It logs the tables (go test -run TestEvaluationUnseen
// -v) and fails on a malformed truth table, on more invented values than
// today, on a page robots.txt forbids, and on recall or value accuracy more
// than unseenMargin below today's; the goals (90%, 90%, 0 invented, 0
// non-verbatim) are reported, not required yet.
func TestEvaluationUnseen(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadUnseen(t)
	if len(sites) < 15 {
		t.Errorf("%d unseen sites, want at least 15", len(sites))
	}
	newLangs := unseenLanguages[len(truthLanguages):]
	n := 0
	for _, ts := range sites {
		if slices.Contains(newLangs, ts.truth.Language) {
			n++
		}
	}
	if n < 7 {
		t.Errorf("%d unseen sites in languages without word lists (%v), want at least 7", n, newLangs)
	}
	for _, l := range newLangs {
		if !slices.ContainsFunc(sites, func(ts testSite) bool { return ts.truth.Language == l }) {
			t.Errorf("no unseen site in language %s", l)
		}
	}
	sc := scoreSet(t, "unseen", sites, fetched)
	if sc.invented > unseenToday.invented {
		t.Errorf("%d values invented, want at most %d (today's)", sc.invented, unseenToday.invented)
	}
	if sc.robotsSites == 0 || sc.robotsOK != sc.robotsSites {
		t.Errorf("robots.txt obeyed on %d of %d sites that have one, want all", sc.robotsOK, sc.robotsSites)
	}
	if sc.recall() < unseenToday.recall-unseenMargin {
		t.Errorf("recall %.1f%%, want at least %.1f%% (today's %.1f%% less %.0f points)", 100*sc.recall(), 100*(unseenToday.recall-unseenMargin), 100*unseenToday.recall, 100*unseenMargin)
	}
	if sc.accuracy() < unseenToday.accuracy-unseenMargin {
		t.Errorf("value accuracy %.1f%%, want at least %.1f%% (today's %.1f%% less %.0f points)", 100*sc.accuracy(), 100*(unseenToday.accuracy-unseenMargin), 100*unseenToday.accuracy, 100*unseenMargin)
	}
}

// TestVerbatimReading: the evaluation's own judgement of verbatim quotes. A
// quote glued across a hidden element or two blocks, or a relative address
// quoted resolved, is not page text; hidden text, <noscript> text, attribute
// values as written and JSON-LD strings are.
func TestVerbatimReading(t *testing.T) {
	const page = `<!DOCTYPE html><html><head><title>Acme｜Tools</title>
<style>.yearly { display: none }</style>
<script type="application/ld+json">{"@type":"Organization","foundingDate":"2020-03-02","offers":[{"price":19}]}</script>
</head><body>
<a href="/"><img src="img/logo.svg" alt="Acme logo"></a>
<div class="price"><strong>€29</strong><span class="yearly">€290</span><p>per rider / month</p></div>
<p><span>29 zł</span><span hidden>290 zł</span><span> netto / mies.</span></p>
<table><tr><td>Team</td><td>€9</td></tr></table>
<details><summary>Is there a free plan?</summary><p>No, a 14-day trial.</p></details>
<noscript><h1>Acme for teams</h1></noscript>
<div id="app"></div>
</body></html>`
	crawl := &domain.SiteCrawl{Pages: []domain.WebPage{{URL: "https://acme.test/", HTML: page}}}
	r := verbatimReading{}
	for quote, want := range map[string]bool{
		"Acme｜Tools":                     true,
		"2020-03-02":                     true,
		"19":                             true,
		"img/logo.svg":                   true,
		"https://acme.test/img/logo.svg": false,
		"Acme logo":                      true,
		"€29":                            true,
		"€29 per rider / month":          true,  // what a browser shows, across a block
		"€29€290 per rider / month":      true,  // all the text, hidden included
		"€29per rider / month":           false, // glued across the block
		"29 zł netto / mies.":            true,  // shown: the hidden yearly price left out
		"29 zł290 zł netto / mies.":      true,
		"Team €9":                        true, // two cells, joined by a space
		"Team€9":                         false,
		"No, a 14-day trial.":            true,
		"Acme for teams":                 true,
		"Acme for business":              false,
	} {
		_, got := r.allVerbatim(crawl, []domain.Evidence{{Quote: quote, URL: "https://acme.test/"}})
		if got != want {
			t.Errorf("%q verbatim = %v, want %v", quote, got, want)
		}
	}
	if _, ok := r.allVerbatim(crawl, []domain.Evidence{{Quote: "€29", URL: "https://acme.test/other"}}); ok {
		t.Error("a quote on a page that was not read is not verbatim")
	}
}
