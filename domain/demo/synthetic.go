package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// SyntheticListing is one synthetic live listing for benchmarks. It has
// counters instead of vote, view and follow rows.
type SyntheticListing struct {
	Slug, Name, Tagline, Description, URL, Domain string
	LaunchWeek, LaunchedAt                        time.Time
	Stage, PricingModel, Country                  string
	Keywords                                      []string
	Votes, Views, Follows                         int
	Category                                      int // index into the leaf categories given to Next
}

// Synthetic draws synthetic listing text. Words are drawn from a Zipf
// distribution over a vocabulary of real words and made-up ones, so common
// words match many listings and rare words few, as in real text. The same now
// and stream give the same listings.
type Synthetic struct {
	r     rnd
	zipf  *rand.Zipf
	vocab []string
	now   time.Time
}

// NewSynthetic returns a generator for now; stream separates the listings of
// a second call on the same database (the writer passes the largest listing id).
func NewSynthetic(now time.Time, stream uint64) *Synthetic {
	r := newRnd(now, 1000+stream)
	vocab := synthVocabulary(r)
	return &Synthetic{r: r, vocab: vocab, now: now.UTC(), zipf: rand.NewZipf(r.Rand, 1.07, 2, uint64(len(vocab)-1))}
}

// synthVocabulary returns real words from the demo content (most frequent
// first in no particular order) followed by made-up words: about 20,000 in all.
func synthVocabulary(r rnd) []string {
	seen := map[string]bool{}
	var words []string
	add := func(text string) {
		for _, w := range strings.FieldsFunc(strings.ToLower(text), func(c rune) bool { return !(c >= 'a' && c <= 'z') }) {
			if len(w) > 2 && !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	for _, c := range Categories() {
		add(c.Noun + " " + c.Name + " " + strings.Join(c.Keywords, " ") + " " + strings.Join(c.Features, " ") + " " + strings.Join(c.Problems, " "))
	}
	syll := []string{"ba", "lo", "ri", "ka", "ne", "so", "tu", "mi", "va", "de", "zen", "tor", "lin", "qua", "pex", "ro", "fi", "gal", "mor", "sy"}
	for len(words) < 20000 {
		var b strings.Builder
		for k := 0; k < 2+r.IntN(3); k++ {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	r.Shuffle(len(words)/20, func(i, j int) { words[i], words[j] = words[j], words[i] }) // mix the head a little
	return words
}

func (g *Synthetic) words(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.vocab[g.zipf.Uint64()]
	}
	return strings.Join(out, " ")
}

var (
	synthStages  = []string{"idea", "pre-launch", "beta", "launched", "launched", "growing", "profitable", "acquired"}
	synthPricing = []string{"free", "freemium", "freemium", "subscription", "one-time", "open-source", "usage-based"}
)

// Next draws listing number i (its slug ends in i+1), launched in one of the
// 104 weeks up to now, in one of categories leaf categories.
func (g *Synthetic) Next(i, categories int) SyntheticListing {
	r := g.r
	w1, w2 := g.vocab[r.IntN(len(g.vocab))], g.vocab[g.zipf.Uint64()]
	l := SyntheticListing{Name: strings.ToUpper(w1[:1]) + w1[1:] + " " + strings.ToUpper(w2[:1]) + w2[1:]}
	l.Slug = fmt.Sprintf("%s-%s-%d", w1, w2, i+1)
	l.URL, l.Domain = "https://"+l.Slug+".example", l.Slug+".example"
	l.LaunchWeek = domain.Monday(g.now).AddDate(0, 0, -7*r.IntN(104))
	l.LaunchedAt = r.between(l.LaunchWeek, minTime(l.LaunchWeek.AddDate(0, 0, 7), g.now))
	l.Votes = int(math.Exp(2.5 + 1.2*r.NormFloat64()))
	l.Tagline = g.words(6 + r.IntN(5))
	l.Keywords = []string{g.words(1), g.words(1), g.words(1), g.words(1)}
	l.Country = demoPlaces[r.IntN(len(demoPlaces))][0]
	// The draws below keep the order of the arguments of the insert they were written for.
	l.Description = g.words(30 + r.IntN(40))
	l.Stage = synthStages[r.IntN(len(synthStages))]
	l.PricingModel = synthPricing[r.IntN(len(synthPricing))]
	l.Views, l.Follows = l.Votes*(5+r.IntN(20)), l.Votes/4
	l.Category = r.IntN(categories)
	return l
}
