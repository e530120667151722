package demo

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Review text is put together from an opening by rating, a sentence about one
// of the listing's features and a closing, so that reviews read differently.
var (
	demoReviewOpen = map[int][]string{
		5: {"Exactly what I needed.", "I have tried most of the tools in this space and {name} is the one I kept.", "Our whole team switched to {name} within a week.",
			"Setup took five minutes and {name} has been part of my day since.", "Rarely write reviews, but {name} deserves one.", "Simple, fast and it just works.",
			"Moved over from a much bigger tool and do not miss it.", "This replaced two subscriptions for me."},
		4: {"Very good overall.", "{name} does what it promises.", "Solid product with a few rough edges.", "Been using {name} for a couple of months now.",
			"A good fit for {audience}.", "Happy with it so far."},
		3: {"Decent, but not there yet.", "Fine for the basics.", "Mixed feelings about {name}.", "It works, mostly.", "Good idea, uneven execution."},
		2: {"I wanted to like {name}.", "Not for us, in the end.", "Disappointing after the launch post."},
		1: {"Did not work for me at all."},
	}
	// A pattern with {verb} needs a feature that reads as a verb phrase.
	demoReviewFeatureGood = []string{"The part I use most: {feature}. It saves me real time every week.", "What sold me: {feature}.",
		"Standout for me: {feature}, better than in anything else I tried.", "Love that it {verb}.", "The fact that it {verb} made the switch easy."}
	demoReviewFeatureMeh = []string{"The feature I came for ({feature}) still feels unfinished.", "Not convinced yet: {feature} needs work.",
		"It {verb}, though not always reliably."}
	demoReviewClose = map[int][]string{
		5: {"Worth every cent.", "The team answers support emails within hours.", "Already recommended it to a few friends.", "Keep it simple, please!", ""},
		4: {"A few more integrations and it would be five stars.", "The mobile experience could be smoother.", "Pricing is fair for what you get.",
			"Support was quick when I had a question.", ""},
		3: {"I outgrew it after a few months.", "A bit slow on large projects.", "The pricing page could be clearer.", "Will check back in a few releases."},
		2: {"Sync failed twice in the first week.", "Missing features I expected at this price.", "Support took a week to reply."},
		1: {"Cancelled after the trial."},
	}
	demoFlaggedBodies = []string{"Terrible, do not use. Try the other one instead.", "Scam!!! Worst app ever, go elsewhere.",
		"Total waste of money. The competitor is ten times better.", "Do not trust the reviews here. Use something else."}
)

// reviewBody writes a review of l with the given stars.
func (r rnd) reviewBody(l *Listing, stars int) string {
	feat := l.Features[r.IntN(len(l.Features))]
	low := lowerFirst(feat)
	if w, _, _ := strings.Cut(feat, " "); demoProperNouns[w] {
		low = feat
	}
	fill := strings.NewReplacer("{name}", l.Name, "{audience}", l.Audience, "{verb}", low, "{feature}", low)
	var mid []string
	for _, m := range map[bool][]string{true: demoReviewFeatureGood, false: demoReviewFeatureMeh}[stars > 3] {
		if verbPhrase(feat) || !strings.Contains(m, "{verb}") {
			mid = append(mid, m)
		}
	}
	parts := []string{r.pick(demoReviewOpen[stars]), r.pick(mid), r.pick(demoReviewClose[stars])}
	var out []string
	for _, p := range parts {
		if p != "" {
			s := fill.Replace(p)
			c, n := utf8.DecodeRuneInString(s)
			out = append(out, strings.ToUpper(string(c))+s[n:])
		}
	}
	return strings.Join(out, " ")
}

// addReviews adds reviews by people, more on listings with more votes and none
// on many small ones, mostly by people who voted for it; and, on some
// listings, a flagged 1-star review without an account (held).
func (d *Dataset) addReviews(r rnd, l *Listing) {
	votes := len(l.Votes)
	if r.Float64() > min(0.9, 0.25+float64(votes)/150) {
		return
	}
	n := min(1+int(float64(votes)/20*r.Float64()*1.5), 14)
	quality := 3.4 + 1.5*r.Float64() // some listings are liked more than others
	taken := map[int]bool{}
	for k := 0; k < n; k++ {
		p, at := -1, time.Time{}
		if votes > 0 && r.chance(0.8) {
			v := l.Votes[r.IntN(votes)]
			if v.Person < demoPeople {
				p, at = v.Person, r.between(v.At.Add(time.Hour), d.Now)
			}
		}
		if p < 0 {
			p, at = r.IntN(demoPeople), r.between(l.LaunchedAt.Add(2*time.Hour), d.Now)
		}
		if taken[p] || !at.Before(d.Now) {
			continue
		}
		taken[p] = true
		stars := int(math.Round(min(5, max(1, quality+0.9*r.NormFloat64()))))
		l.Reviews = append(l.Reviews, Review{Person: p, Author: d.People[p].Signature, Rating: stars,
			Body: r.reviewBody(l, stars), Genuine: true, At: at.Truncate(time.Second)})
	}
	if r.chance(0.15) {
		l.Reviews = append(l.Reviews, Review{Person: -1, Author: "anonymous-" + fmt.Sprint(r.IntN(1000)), Rating: 1,
			Body: r.pick(demoFlaggedBodies), Genuine: false, At: r.between(l.LaunchedAt, d.Now).Truncate(time.Second)})
	}
	slices.SortFunc(l.Reviews, func(a, b Review) int { return a.At.Compare(b.At) })
}

// verbPhrase reports whether a feature reads as "it ...": its first word is a
// verb in the third person ("Drafts articles", "Keeps a ...").
func verbPhrase(feature string) bool {
	w, _, _ := strings.Cut(feature, " ")
	return strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !demoPluralNouns[strings.ToLower(w)]
}

// demoProperNouns are first words of features that keep their capital letter.
var demoProperNouns = map[string]bool{"Figma": true, "Google": true, "Slack": true, "Chrome": true, "Zoom": true, "Gmail": true,
	"React": true, "WordPress": true, "Zapier": true, "Markdown": true, "English": true, "Spanish": true, "Peppol": true, "PostgreSQL": true,
	"OpenTelemetry": true, "OpenAPI": true, "GitHub": true}

// demoPluralNouns are first words of features that end in s and are not verbs.
var demoPluralNouns = map[string]bool{"focus": true, "templates": true, "payments": true, "invoices": true, "reports": true, "segments": true,
	"mentions": true, "funnels": true, "heatmaps": true, "components": true, "sales": true, "quizzes": true, "coupons": true, "lessons": true,
	"statistics": true}
