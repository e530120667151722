package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
)

var demoPlaces = [][2]string{
	{"US", "San Francisco"}, {"US", "New York"}, {"US", "Austin"}, {"US", "Boston"}, {"GB", "London"}, {"GB", "Manchester"},
	{"DE", "Berlin"}, {"DE", "Munich"}, {"FR", "Paris"}, {"FR", "Lyon"}, {"NL", "Amsterdam"}, {"SE", "Stockholm"}, {"ES", "Barcelona"},
	{"ES", "Madrid"}, {"PT", "Lisbon"}, {"CA", "Toronto"}, {"CA", "Vancouver"}, {"IN", "Bangalore"}, {"IN", "Pune"}, {"BR", "São Paulo"},
	{"AU", "Sydney"}, {"AU", "Melbourne"}, {"NZ", "Auckland"}, {"SG", "Singapore"}, {"JP", "Tokyo"}, {"EE", "Tallinn"}, {"PL", "Warsaw"},
	{"IE", "Dublin"}, {"DK", "Copenhagen"}, {"FI", "Helsinki"}, {"NG", "Lagos"}, {"KE", "Nairobi"}, {"ZA", "Cape Town"}, {"MX", "Mexico City"},
	{"AR", "Buenos Aires"}, {"CH", "Zurich"}, {"AT", "Vienna"}, {"IT", "Milan"}, {"CZ", "Prague"}, {"RO", "Bucharest"}, {"LT", "Vilnius"},
}

var demoUSPs = []string{"No credit card needed to start", "Made by a small independent team", "Data hosted in the EU",
	"Open roadmap and public changelog", "Founders answer support within a day", "Import from other tools in one click",
	"Keyboard shortcuts for everything", "Accessible to screen-reader users", "Transparent pricing without per-seat surprises",
	"Independently security audited", "Built on open standards, easy to leave", "Generous free plan for students",
	"Fast: every screen loads in under 200 ms", "Works with the tools you already use"}

// rnd wraps a seeded PCG source with the helpers the generator needs.
type rnd struct{ *rand.Rand }

func newRnd(now time.Time, stream uint64) rnd {
	return rnd{rand.New(rand.NewPCG(uint64(now.UTC().Unix()), 0x6c61756e63686469^stream))}
}

func (r rnd) pick(s []string) string { return s[r.IntN(len(s))] }

func (r rnd) chance(p float64) bool { return r.Float64() < p }

// pickN returns n distinct elements of s in random order.
func (r rnd) pickN(s []string, n int) []string {
	n = min(n, len(s))
	out := make([]string, 0, n)
	for _, i := range r.Perm(len(s))[:n] {
		out = append(out, s[i])
	}
	return out
}

// between returns a time uniformly in [a, b]; a when b is not after a.
func (r rnd) between(a, b time.Time) time.Time {
	if !b.After(a) {
		return a
	}
	return a.Add(time.Duration(r.Int64N(int64(b.Sub(a)))))
}

// slugify turns a name into a listing slug.
func slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(name) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteRune(c)
			dash = false
		case asciiFold[c] != "":
			b.WriteString(asciiFold[c])
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// asciiFold spells the accented letters of the demo's names in ASCII.
var asciiFold = map[rune]string{'á': "a", 'à': "a", 'â': "a", 'ä': "a", 'ã': "a", 'å': "a", 'é': "e", 'è': "e", 'ê': "e", 'ë': "e", 'ě': "e", 'ę': "e",
	'í': "i", 'ì': "i", 'î': "i", 'ï': "i", 'ó': "o", 'ò': "o", 'ô': "o", 'ö': "o", 'õ': "o", 'ø': "o", 'ú': "u", 'ù': "u", 'û': "u", 'ü': "u", 'ū': "u",
	'ç': "c", 'ć': "c", 'č': "c", 'ñ': "n", 'ř': "r", 'š': "s", 'ś': "s", 'ž': "z", 'ý': "y", 'ł': "l", 'ß': "ss"}

// lowerFirst lower-cases the first letter unless the word is an acronym.
func lowerFirst(s string) string {
	if len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z' {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// joinAnd joins phrases as "a, b and c".
func joinAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func companyName(name, country string) string {
	switch country {
	case "US":
		return name + ", Inc."
	case "GB", "IE":
		return name + " Ltd"
	case "DE", "AT", "CH":
		return name + " GmbH"
	case "FR":
		return name + " SAS"
	case "SE":
		return name + " AB"
	case "NL":
		return name + " B.V."
	case "":
		return name
	}
	return name + " Labs"
}

// pricingFor picks a pricing model and summary suited to the category.
func (r rnd) pricingFor(c *Category) (model, summary string) {
	models := []string{"free", "freemium", "freemium", "freemium", "subscription", "subscription", "subscription", "one-time", "open-source", "usage-based"}
	switch c.Parent {
	case "developer-tools":
		models = append(models, "open-source", "open-source", "usage-based", "usage-based")
	case "ai-tools":
		models = append(models, "usage-based", "usage-based", "freemium")
	case "design":
		models = append(models, "one-time", "subscription")
	}
	model = r.pick(models)
	price := []int{5, 8, 9, 12, 15, 19, 24, 29, 39, 49, 79, 99}[r.IntN(12)]
	switch model {
	case "free":
		summary = r.pick([]string{"Free for everyone; no paid plan.", "Free, funded by optional donations.", "Free while in beta."})
	case "freemium":
		summary = fmt.Sprintf("Free plan; Pro from $%d/month.", price)
	case "subscription":
		summary = fmt.Sprintf("From $%d per user per month; %d-day free trial.", price, []int{7, 14, 30}[r.IntN(3)])
	case "one-time":
		summary = fmt.Sprintf("$%d one-time licence, including a year of updates.", price*3)
	case "open-source":
		summary = fmt.Sprintf("Open source (%s licence); hosted plan from $%d/month.", r.pick([]string{"MIT", "Apache-2.0", "AGPL-3.0"}), price)
	case "usage-based":
		summary = fmt.Sprintf("Pay as you go from $%.3f per %s; free tier included.", float64(1+r.IntN(9))/1000, r.pick([]string{"request", "minute", "credit", "task"}))
	}
	return model, summary
}

// newDemoListing writes the profile of one listing from its category's material.
// The tagline is the category's template t with audience a (taglineCombos).
func (r rnd) newDemoListing(i int, c *Category, name string, t, a string) *Listing {
	l := &Listing{Index: i, Name: name, Slug: slugify(name), Cat: c, Attrs: map[string]string{}, Socials: map[string]string{}}
	l.Audience = a
	l.Tagline = fmt.Sprintf(t, l.Audience)
	plain := strings.ReplaceAll(l.Slug, "-", "")
	tlds := []string{".com", ".io", ".app", ".co"}
	switch c.Parent {
	case "ai-tools":
		tlds = append(tlds, ".ai", ".ai")
	case "developer-tools":
		tlds = append(tlds, ".dev", ".dev")
	}
	l.Domain = plain + r.pick(tlds)
	l.URL = "https://" + l.Domain
	// No logo: the demo's domains are made up (or someone else's), so a
	// logo there would be a broken image or a stranger's; pages show the
	// listing's initial instead.
	if r.chance(0.95) {
		p := demoPlaces[r.IntN(len(demoPlaces))]
		l.Country = p[0]
		if r.chance(0.85) {
			l.City = p[1]
		}
	}
	if r.chance(0.8) {
		l.FoundedYear = 2009 + int(math.Sqrt(r.Float64())*17) // skewed towards recent years
	}
	l.PricingModel, l.PricingSummary = r.pricingFor(c)
	l.Features = r.pickN(c.Features, 4+r.IntN(3))
	l.USPs = r.pickN(demoUSPs, 2+r.IntN(2))
	l.Keywords = append([]string{c.Noun}, r.pickN(c.Keywords, 3+r.IntN(3))...)
	if r.chance(0.85) {
		l.Email = r.pick([]string{"hello@", "team@", "support@", "founders@"}) + l.Domain
	}
	if r.chance(0.3) {
		l.VideoURL = l.URL + "/demo.mp4"
	}
	l.Socials["website"] = l.URL
	if r.chance(0.7) {
		l.Socials["x"] = "https://x.com/" + plain
	}
	if r.chance(0.6) {
		l.Socials["linkedin"] = "https://www.linkedin.com/company/" + l.Slug
	}
	if c.Parent == "developer-tools" || l.PricingModel == "open-source" || r.chance(0.1) {
		l.Socials["github"] = "https://github.com/" + plain
	}
	if c.Parent == "design" || c.Parent == "education" {
		if r.chance(0.4) {
			l.Socials["youtube"] = "https://www.youtube.com/@" + plain
		}
		if r.chance(0.3) {
			l.Socials["instagram"] = "https://www.instagram.com/" + plain
		}
	}
	for _, a := range c.Attrs {
		if r.chance(0.8) {
			l.Attrs[a.Key] = r.pick(a.Values)
		}
	}
	return l
}

// taglineCombos returns every (tagline template, audience) pair of c in a
// random order: the listings of a category take one each, so no two share a
// tagline.
func (r rnd) taglineCombos(c *Category) [][2]string {
	var out [][2]string
	for _, t := range c.Taglines {
		for _, a := range c.Audiences {
			out = append(out, [2]string{t, a})
		}
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// uniqueTaglines rewrites a tagline another listing already has (a category
// with more listings than template and audience pairs, or a fixed tagline
// equal to a generated one) from the listing's own features.
func (d *Dataset) uniqueTaglines() {
	seen := map[string]bool{}
	for _, l := range d.Listings {
		for k := 0; seen[strings.ToLower(l.Tagline)] && k < len(l.Features); k++ {
			l.Tagline = fmt.Sprintf("%s, for %s", l.Features[k], l.Audience)
		}
		if seen[strings.ToLower(l.Tagline)] {
			l.Tagline = fmt.Sprintf("%s: %s", l.Name, lowerFirst(l.Tagline)) // names are unique
		}
		seen[strings.ToLower(l.Tagline)] = true
	}
}

// writeText writes the listing's texts from its facts: company name, short
// and long description, FAQs and the facts its website did not state.
func (r rnd) writeText(l *Listing) {
	c, name := l.Cat, l.Name
	l.Company = companyName(name, l.Country)
	feats := make([]string, 3)
	for j := range feats {
		feats[j] = lowerFirst(l.Features[j])
	}
	l.ShortDesc = fmt.Sprintf("%s. %s, %s.", l.Tagline, l.Features[0], lowerFirst(l.Features[1]))
	var d strings.Builder
	fmt.Fprintf(&d, "%s is %s %s for %s. %s %s was built to fix that without adding another complicated tool to your day.\n\n",
		name, article(c.Noun), c.Noun, l.Audience, r.pick(c.Problems), name)
	fmt.Fprintf(&d, "Its main features: %s. %s, and %s.\n\n", joinAnd(feats), l.USPs[0], lowerFirst(l.USPs[1]))
	fmt.Fprintf(&d, "Pricing: %s", l.PricingSummary)
	if l.City != "" {
		fmt.Fprintf(&d, " The team works from %s.", l.City)
	}
	if l.FoundedYear != 0 {
		fmt.Fprintf(&d, " %s was founded in %d.", l.Company, l.FoundedYear)
	}
	l.Description = d.String()
	l.FAQs = r.listingFAQs(l)
	l.NotFound = nil
	for _, f := range []struct {
		name  string
		blank bool
	}{{"founded_year", l.FoundedYear == 0}, {"country", l.Country == ""}, {"city", l.City == ""}, {"contact_email", l.Email == ""}} {
		if f.blank {
			l.NotFound = append(l.NotFound, f.name)
		}
	}
}

// article returns "a" or "an" for a noun phrase.
func article(noun string) string {
	if strings.HasPrefix(noun, "UI") {
		return "a"
	}
	if strings.HasPrefix(noun, "SEO") || strings.ContainsRune("AEIOUaeiou", rune(noun[0])) {
		return "an"
	}
	return "a"
}

func (r rnd) listingFAQs(l *Listing) []domain.FAQ {
	free := map[string]string{
		"free": "Yes. " + l.Name + " is free to use.", "freemium": "Yes. " + l.PricingSummary,
		"open-source": "Yes. The code is open source and free to self-host. " + l.PricingSummary,
		"usage-based": "There is a free tier; after that you pay for what you use. " + l.PricingSummary,
	}[l.PricingModel]
	if free == "" {
		free = "There is no free plan. " + l.PricingSummary
	}
	out := []domain.FAQ{{Question: "Is there a free plan?", Answer: free},
		{Question: "Who is " + l.Name + " for?", Answer: fmt.Sprintf("%s is built for %s who need %s %s that stays out of the way.", l.Name, l.Audience, article(l.Cat.Noun), l.Cat.Noun)}}
	if l.City != "" && r.chance(0.5) {
		out = append(out, domain.FAQ{Question: "Where is " + l.Name + " based?", Answer: fmt.Sprintf("The team is based in %s.", l.City)})
	}
	if r.chance(0.5) {
		out = append(out, domain.FAQ{Question: "Can I import my data?", Answer: "Yes. You can import from CSV and from the most common tools in the category, and export everything at any time."})
	}
	return out
}
