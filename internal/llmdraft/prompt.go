package llmdraft

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"

	"github.com/launchdir/launchdir/domain"
)

// systemPrompt states the rules the grounding gate enforces afterwards, so a
// well-behaved model loses nothing to the gate.
const systemPrompt = `You draft a product's directory profile from its own web site, for a launch directory.

Rules:
- Use only what the pages below state. Never invent, guess or infer a fact. If a fact is not stated, leave it out: an omitted field is correct, a guessed one is wrong.
- Every value carries evidence: one or more quotes, each copied character for character from the Text or Data of ONE page, with that page's exact URL. Quote the shortest passage that states the fact (usually one sentence or phrase, at most about 300 characters); never paraphrase, translate, fix or join text inside a quote. A value whose quotes are not found verbatim on the page named is thrown away.
- A value must be supported by its quotes, and is checked:
  - name, tagline, short_description, city, contact_email, demo_video_url, logo_url, and every item of features, usps, keywords and tags: the value itself is copied from the site and occurs inside one of its quotes;
  - founded_year: the year occurs in a quote that states the founding; country: the quote contains the country's name or code; pricing_model: the quote speaks of that kind of pricing (e.g. "free", "per month", "contact sales");
  - a founder's name and a social link's URL occur inside their quotes; a milestone's year occurs in its quote;
  - description, pricing_summary and story sections may be worded by you from the quoted text, but say nothing the quotes do not.
- Sites are written in many languages. Quote in the page's own language exactly as written; never translate a quote. Copied values (tagline, features, city, ...) stay in the site's words; category names and stage slugs are chosen from the lists below whatever the site's language. Labels to know: pricing is "Pricing/Preise/Tarifs/Precios/Prezzi/Prijzen/Preços"; about is "About/Über uns/À propos/Sobre nosotros/Chi siamo/Over ons/Sobre nós"; the legal notice with the company's address is "Imprint/Impressum/Mentions légales/Aviso legal/Note legali/Colofon"; founded is "founded/gegründet/fondée/fundada/fondata/opgericht".
- Where facts are: the tagline is the hero's headline or lead line as the page writes it, not the <title> (titles are often lower case or "Name | slogan"); country and city are the company's own (an address in the footer or the legal notice, or "based in"), not a customer's, partner's, event's or data centre's; founders are often written "Name, Role" or "founded by A and B", in the site's language; a FAQ answer is the text of its own block and stops before the next question and before the footer (contact lines, social links, "Founded in ..." lines are not part of an answer).
- Traps: a copyright year (or range) is not a founding year, nor is a testimonial's "customer since" or a hackathon year; testimonials and "trusted by" lists name customers, not the product or its founders; an investor or advisor is not a founder; a price in a blog post is not the product's pricing; an email address of another domain is not the contact email.
- Reply with one JSON object only, as the schema says. No prose, no code fences.`

// fieldGuide says what each profile field holds, in DraftFieldNames order.
var fieldGuide = map[string]string{
	"name":              "the product's name",
	"tagline":           "the site's own one-line statement of what it is, copied (max 500 characters)",
	"short_description": "one or two sentences copied from the site (max 500 characters)",
	"description":       "a fuller description from the site's own words (max 20000 characters)",
	"stage":             "one of the stage slugs listed below, only when the site states it (e.g. \"in beta\")",
	"categories":        "list: names from the category list below that the site's text supports, best first (max 20)",
	"tags":              "list: short topic tags taken from the site (max 20)",
	"pricing_model":     "one of: " + strings.Join(pricingModels, ", "),
	"pricing_summary":   "the plans and prices the pricing page shows (max 500 characters)",
	"country":           "ISO 3166-1 alpha-2 code of the company's country, only when an address or \"based in\" statement names it",
	"city":              "the company's city, only when stated",
	"founded_year":      "four-digit year, only from a founding statement (\"founded in\", \"since\", foundingDate), never from a copyright line",
	"features":          "list: product features as the site lists them (max 20, each max 200 characters)",
	"usps":              "list: what sets it apart, as the site claims it (max 20)",
	"keywords":          "list: search keywords from the site (max 20)",
	"contact_email":     "the company's contact email address (from a mailto link or the text)",
	"demo_video_url":    "URL of a demo/product video the site embeds or links (YouTube, Vimeo, Loom, ...)",
	"logo_url":          "URL of the company's logo image",
}

// buildMessages is the prompt for req, with the pages cut to budget characters.
func buildMessages(req domain.DraftRequest, budget int) []openai.ChatCompletionMessage {
	var b strings.Builder
	fields := wantedFields(req)
	b.WriteString("Draft these profile fields (leave out any the pages do not state):\n")
	for _, f := range fields {
		fmt.Fprintf(&b, "- %s: %s\n", f, fieldGuide[f])
	}
	if len(req.Only) == 0 {
		b.WriteString(`Also, each with evidence:
- faqs: questions and answers the site itself publishes (FAQ page or section), answer as the site gives it.
- founders: people the site names as founders or team members (name, title/role, bio from the site, their social links); the first is the primary founder.
- socials: the company's own social profiles, by platform (` + strings.Join(domain.SocialPlatforms, ", ") + `); the quote is the link URL as the page's Data lists it.
- story: founder story sections (` + strings.Join(storyKeys, ", ") + `), only from an explicit story/about narrative on the site.
- milestones: dated events the site states (launches, releases, funding); date as YYYY-MM-DD (use -01 for a day or month the site does not give); the quote must contain the date as the site writes it.
`)
	}
	if slices.Contains(fields, "categories") && len(req.Categories) > 0 {
		b.WriteString("\nCategory list (use these names exactly):\n")
		for _, c := range req.Categories {
			if c.Parent != "" {
				fmt.Fprintf(&b, "- %s (under %s)\n", c.Name, c.Parent)
			} else {
				fmt.Fprintf(&b, "- %s\n", c.Name)
			}
		}
	}
	if slices.Contains(fields, "stage") && len(req.Stages) > 0 {
		fmt.Fprintf(&b, "\nStage slugs: %s\n", strings.Join(req.Stages, ", "))
	}
	if lang := req.Site.Language; lang != "" {
		fmt.Fprintf(&b, "\nThe site's language: %s. Quote it as written; do not translate.\n", lang)
	}
	b.WriteString("\nThe crawled pages follow (the home page first, then the pages chosen for their facts: pricing, about, legal notice, ...). Quote only from them.\n")
	writePages(&b, req.Site.Pages, budget)
	return []openai.ChatCompletionMessage{
		systemMessage(systemPrompt),
		userMessage(b.String()),
	}
}

func systemMessage(text string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: text}
}

func userMessage(text string) openai.ChatCompletionMessage {
	return openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: text}
}

// wantedFields are the profile fields to draft: req.Only (those it names that
// exist) or all of them.
func wantedFields(req domain.DraftRequest) []string {
	if len(req.Only) == 0 {
		return domain.DraftFieldNames
	}
	var out []string
	for _, f := range domain.DraftFieldNames {
		if slices.Contains(req.Only, f) {
			out = append(out, f)
		}
	}
	return out
}

// pageBlock is one page's prompt text before cutting.
type pageBlock struct {
	url, title string
	text       string
	data       string
}

// writePages writes every page with its text and data, sharing budget
// characters among them so that a long home page cannot crowd out the
// pricing or team page: each page gets an equal share, and what a short page
// does not use goes to the others.
func writePages(b *strings.Builder, pages []domain.WebPage, budget int) {
	blocks := make([]pageBlock, len(pages))
	sizes := make([]int, len(pages))
	for i, p := range pages {
		blocks[i] = pageBlock{url: p.URL, title: p.Title, text: p.Text, data: dataLines(p)}
		sizes[i] = len(blocks[i].text) + len(blocks[i].data)
	}
	shares := fairShares(sizes, budget)
	for i, blk := range blocks {
		fmt.Fprintf(b, "\n=== PAGE %d: %s\n", i+1, blk.url)
		if blk.title != "" {
			fmt.Fprintf(b, "Title: %s\n", blk.title)
		}
		// Structured data and link targets are dense with facts (founding
		// date, socials, email, logo), so they get up to a third of the page's
		// share; the visible text gets the rest.
		data := cut(blk.data, max(shares[i]/3, shares[i]-len(blk.text)))
		text := cut(blk.text, shares[i]-len(data))
		b.WriteString("Text:\n")
		b.WriteString(text)
		if len(text) < len(blk.text) {
			b.WriteString("\n[... text cut ...]")
		}
		b.WriteString("\n")
		if data != "" {
			b.WriteString("Data (title, meta, structured data, link targets, image alt texts):\n")
			b.WriteString(data)
			b.WriteString("\n")
		}
	}
}

// dataLines lists a page's Data strings, one per line, without repeats.
func dataLines(p domain.WebPage) string {
	seen := make(map[string]bool, len(p.Data))
	var b strings.Builder
	for _, d := range p.Data {
		if d == "" || seen[d] || d == p.Title {
			continue
		}
		seen[d] = true
		b.WriteString("- ")
		b.WriteString(d)
		b.WriteString("\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// fairShares splits budget among items of the given sizes: equal shares, with
// what a smaller item leaves over going to the larger ones (water filling).
func fairShares(sizes []int, budget int) []int {
	shares := make([]int, len(sizes))
	order := make([]int, len(sizes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	left := budget
	for k, i := range order {
		share := left / (len(order) - k)
		shares[i] = min(sizes[i], share)
		left -= shares[i]
	}
	return shares
}

// cut returns s cut to at most n bytes, at a line end when one is in the last
// half, else at a rune boundary.
func cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, '\n'); i >= n/2 {
		return s[:i]
	}
	for len(s) > 0 {
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1] // a rune cut in half
	}
	return s
}
