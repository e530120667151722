package search

import (
	"math/rand/v2"
	"strings"
)

// realWords are the most frequent words of the synthetic corpus, most
// common first; synthetic syllable words follow them in the Zipf ranking.
const realWords = `the and for your with app to of a in that team data tool
teams work on all you by platform ai simple fast from online software manage
build create track business customers one make open source free easy smart new
time tasks project projects productivity notes note-taking email marketing sales
analytics dashboard reports automate automation workflow workflows developers
design designers api cloud security privacy users user content video audio
social media search chat messages calendar meetings scheduling invoices payments
finance budget money crypto health fitness learning students teachers course
courses writing editor code coding deploy hosting database monitoring alerts
logs metrics feedback surveys forms crm leads pipeline hiring recruiting jobs
remote collaboration whiteboard documents docs wiki knowledge base support
tickets helpdesk customer success onboarding growth seo ads campaigns landing
pages website websites builder no-code low-code templates mobile ios android
desktop browser extension plugin integrations slack notion figma github
shopify stripe ecommerce store inventory orders shipping delivery restaurants
food travel booking events tickets music podcast podcasts photos images
editing generator generate summaries summarize transcription translate
languages voice assistant agents agent models prompts copilot insights
personal habits journal goals focus timer pomodoro password manager backup
storage files sharing upload sync offline secure encrypted open-source
self-hosted community forum newsletter blog creators creator influencers
brand branding logo mockups prototypes testing qa bugs issues roadmap
feature requests changelog release releases version control git devops
kubernetes containers serverless functions edge cdn domains dns uptime
status incidents on-call pager compliance gdpr soc audit legal contracts
signatures pdf scanner ocr receipts expenses accounting payroll taxes
bookkeeping banking savings investing stocks portfolio real estate property
rentals tenants landlords home smart-home iot devices sensors energy solar
climate carbon sustainability nonprofit donations fundraising volunteers
education kids parents family dating friends games gaming esports streaming
twitch youtube tiktok instagram linkedin twitter reddit discord telegram
whatsapp sms notifications push widgets charts graphs spreadsheets excel
sheets tables airtable zapier webhooks scraping crawler extract parse
resume interview career freelancers agencies consultants clients proposals
quotes estimates contractors construction field service maintenance fleet
logistics warehouse supply chain procurement vendors suppliers marketplace
wholesale retail pos checkout cart subscriptions billing pricing plans
affiliate referral loyalty rewards coupons discounts reviews ratings
testimonials portfolio showcase gallery photography illustration animation
3d vr ar spatial maps location gps navigation weather news reader rss
bookmarks read-later highlights annotations research papers citations
science lab medical clinic doctors patients therapy mental wellness sleep
meditation yoga running cycling nutrition recipes meal planner grocery`

// syllables build the long tail of the vocabulary.
var syllables = strings.Fields(`ka lo mi ra ven tor sel dra pin qua zen fy lux nor bex tal
cor dex mo ri sta lin vo gra pex tu fen wis bly tron xa mer hol ju cit pra dun`)

// corpus generates a deterministic synthetic directory.
type corpus struct {
	rng   *rand.Rand
	vocab []string
	zipf  *rand.Zipf
}

func newCorpus(seed uint64) *corpus {
	rng := rand.New(rand.NewPCG(seed, seed*31+7))
	vocab := strings.Fields(realWords)
	seen := map[string]bool{}
	for _, w := range vocab {
		seen[w] = true
	}
	for len(vocab) < 4000 {
		n := 2 + rng.IntN(3)
		var b strings.Builder
		for range n {
			b.WriteString(syllables[rng.IntN(len(syllables))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			vocab = append(vocab, w)
		}
	}
	return &corpus{rng: rng, vocab: vocab, zipf: rand.NewZipf(rng, 1.07, 2, uint64(len(vocab)-1))}
}

func (c *corpus) word() string { return c.vocab[c.zipf.Uint64()] }

func (c *corpus) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
			if c.rng.IntN(12) == 0 {
				b.WriteString(". ")
			}
		}
		b.WriteString(c.word())
	}
	return b.String()
}

var (
	countries = []string{"US", "US", "US", "GB", "DE", "FR", "IN", "CA", "NL", "ES", "BR", "SE", "AU", "PL", "JP", "IL", "SG", "IT", "CH", "EE"}
	stages    = []string{"idea", "mvp", "early-revenue", "growth", "profitable"}
	pricings  = []string{"free", "freemium", "paid", "open-source"}
)

// doc returns listing id of the corpus.
func (c *corpus) doc(id int64) Doc {
	cap1 := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	name := cap1(c.vocab[c.rng.IntN(len(c.vocab))]) + cap1(syllables[c.rng.IntN(len(syllables))]) + cap1(syllables[c.rng.IntN(len(syllables))])
	if c.rng.IntN(5) == 0 {
		name += " AI"
	}
	name = strings.NewReplacer("-", "").Replace(name)
	kws := make([]string, 2+c.rng.IntN(4))
	for i := range kws {
		kws[i] = c.word()
	}
	cats := []int64{1 + int64(c.rng.IntN(40))}
	for range c.rng.IntN(4) {
		cats = append(cats, 1+int64(c.rng.IntN(40)))
	}
	status := "live"
	if c.rng.IntN(20) == 0 {
		status = "scheduled"
	}
	d := Doc{
		ID:           id,
		Name:         name,
		Tagline:      c.words(5 + c.rng.IntN(6)),
		Description:  c.words(40 + c.rng.IntN(81)),
		Keywords:     kws,
		Categories:   cats,
		Stage:        stages[c.rng.IntN(len(stages))],
		Country:      countries[c.rng.IntN(len(countries))],
		PricingModel: pricings[c.rng.IntN(len(pricings))],
		Domain:       strings.ToLower(strings.ReplaceAll(name, " ", "")) + ".com",
		Status:       status,
		Newest:       1_700_000_000 + c.rng.Int64N(50_000_000),
		Votes:        int(c.rng.ExpFloat64() * 40),
		Views:        c.rng.IntN(100_000),
		Follows:      c.rng.IntN(2_000),
		Trending:     c.rng.ExpFloat64(),
	}
	return d
}
