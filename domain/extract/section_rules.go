package extract

// Labels, page words, dates and DOM shapes in seven languages (en, de, fr,
// es, it, nl, pt) for features, FAQs, taglines and milestones.
// The rules are written down in docs/extract-f4.md.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

var (
	// productPath: a page about the product in any of the seven languages
	// (the shared page kinds know only some English and German words).
	productPath = lazyMustCompile(`(?i)/(features?|product|produkt|funktionen|leistungen|fonctionnalites|fonctionnalités|produit|funciones|funcionalidades|caracteristicas|características|producto|funzionalita|funzionalità|funzioni|prodotto|functies|mogelijkheden|recursos|produto|tour)(/|\.html?$|$)`)
	// fAQPath: an FAQ page's path.
	fAQPath = lazyMustCompile(`(?i)(faq|frequent|preguntas|perguntas|domande|vragen|haeufige|häufige|haufige|fragen|questions)`)
	// changelogWords: a changelog, release notes or timeline, as a path or a heading.
	changelogWords = lazyMustCompile(`(?i)changelog|release[ -]?notes|releases|what'?s new|timeline|milestones|our history|our story so far|änderungen|aenderungen|neuerungen|neuigkeiten|versionshinweise|meilensteine|chronik|unsere geschichte|nouveautés|nouveautes|journal des modifications|notes de version|historique|jalons|novedades|notas de la versión|historial de cambios|hitos|cronología|novità|novita|note di rilascio|tappe|wijzigingen|nieuw in|release-opmerkingen|mijlpalen|tijdlijn|novidades|notas de versão|notas de lancamento|marcos|linha do tempo`)
	// checkMark: a check mark opening a list item ("✓ Export to CSV").
	checkMark = lazyMustCompile(`^[✓✔✅☑√+]\s*`)
	// footerishRe: a line that belongs to a footer even outside <footer>: contact
	// lines, "follow us", founding lines, legal lines (they end an FAQ answer).
	footerishRe = lazyMustCompile(`(?i)^(contact|kontakt|contacto|contatti|contato|contacte|neem contact|fale com|follow us|folgen sie uns|folge uns|suivez-nous|síguenos|siguenos|seguici|seguite|volg ons|siga-nos|siga a gente|siga nos|founded in|gegründet|fondée|fondé|fundada|fundado|fondata|fondato|opgericht|imprint|impressum|mentions légales|aviso legal|privacy|datenschutz|©|\(c\)|copyright)|©`)
)

// foreignClassRe: class or id words of testimonial, review and consent boxes
// in the other six languages (the shared foreign() knows the English ones).
var foreignClassRe = lazyMustCompile(`t[eé]moignage|testimonio|testimonianz|getuigenis|depoimento|kundenstimme|bewertung|rezension|opiniones|recensioni|beoordeling|ervaringen|avaliacoes|avaliações|consent|gdpr|rgpd|cookie`)

// speaksOfOthers reports whether n speaks about someone else, in any of the seven languages.
func speaksOfOthers(n *html.Node) bool {
	if n == nil {
		return false
	}
	if foreign(n) {
		return true
	}
	for a := n; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && foreignClassRe.MatchString(strings.ToLower(attr(a, "class")+" "+attr(a, "id"))) {
			return true
		}
	}
	return false
}

// ownSpeaksOfOthers is speaksOfOthers for one element alone, for walks that already
// checked the ancestors on the way down.
func ownSpeaksOfOthers(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Blockquote, atom.Q, atom.Cite:
		return true
	}
	c := strings.ToLower(attr(n, "class") + " " + attr(n, "id"))
	return c != " " && (hasForeignHint(c) || foreignClassRe.MatchString(c))
}

// welcomeRe is a greeting heading ("Welcome to Acme"), not a tagline.
var welcomeRe = lazyMustCompile(`(?i)^(welcome to|willkommen (bei|auf|zu|im)|herzlich willkommen|bienvenue (sur|chez|à|a)|bienvenid[oa]s? (a|al|en)|benvenut[oi] (su|in|a)|welkom (bij|op)|bem-vind[oa]s? (ao|à|a|na|no))\b`)

// monthNumbers maps month names and abbreviations of the seven languages to numbers.
var monthNumbers = map[string]int{}

func init() {
	names := [][]string{
		{"january", "jan", "januar", "jänner", "janvier", "janv", "enero", "ene", "gennaio", "gen", "januari", "janeiro"},
		{"february", "feb", "februar", "février", "fevrier", "févr", "fevr", "febrero", "febbraio", "februari", "fevereiro", "fev"},
		{"march", "mar", "märz", "maerz", "mär", "mars", "marzo", "maart", "mrt", "março", "marco"},
		{"april", "apr", "avril", "avr", "abril", "abr", "aprile"},
		{"may", "mai", "mayo", "maggio", "mag", "mei", "maio"},
		{"june", "jun", "juni", "juin", "junio", "giugno", "giu", "junho"},
		{"july", "jul", "juli", "juillet", "juil", "julio", "luglio", "lug", "julho"},
		{"august", "aug", "août", "aout", "agosto", "ago", "augustus"},
		{"september", "sep", "sept", "septembre", "septiembre", "settembre", "set", "setembro"},
		{"october", "oct", "oktober", "okt", "octobre", "octubre", "ottobre", "ott", "outubro", "out"},
		{"november", "nov", "novembre", "noviembre", "novembro"},
		{"december", "dec", "dezember", "dez", "décembre", "decembre", "déc", "diciembre", "dic", "dicembre", "dezembro"},
	}
	for i, ns := range append(append(names, monthNamesMore...), monthNames35...) {
		for _, n := range ns {
			monthNumbers[n] = i%12 + 1
		}
	}
	var alt []string
	for n := range monthNumbers {
		alt = append(alt, regexp.QuoteMeta(n))
	}
	// Longest first, so that "marzo" is not read as "mar".
	for i := range alt {
		for j := i + 1; j < len(alt); j++ {
			if len(alt[j]) > len(alt[i]) {
				alt[i], alt[j] = alt[j], alt[i]
			}
		}
	}
	m := `(` + strings.Join(alt, "|") + `)`
	// Without a day, only names of four letters or more (and "mär", "déc"):
	// "set", "out", "ago", "mag", "gen" are words too.
	var long []string
	for _, a := range alt {
		if len([]rune(a)) >= 4 || a == "mär" || a == "déc" || a == "dez" || a == "okt" {
			long = append(long, a)
		}
	}
	ml := `(` + strings.Join(long, "|") + `)`
	// "3. März 2024", "12 mars 2024", "1er février 2024", "12 de marzo de 2024", "12 maart 2024".
	dMY = lazyMustCompile(`(?i)(?:^|[^\pL\d])(\d{1,2})(?:\.|er|º|°)?\s+(?:de\s+)?` + m + `\.?,?\s+(?:de\s+)?((?:19|20)\d\d)\b`)
	// "März 2024", "marzo de 2024", "maart 2024".
	mY = lazyMustCompile(`(?i)(?:^|[^\pL\d])` + ml + `\.?\s+(?:de\s+)?((?:19|20)\d\d)\b`)
}

var dMY, mY *lazyRegexp

// findLocalDate reads a date in the seven languages' day-month-year and
// month-year forms; like findDate it returns YYYY-MM-DD and s without the date.
func findLocalDate(s string, atStart bool) (date, rest string, ok bool) {
	if d, r, ok := findDateMore(s, atStart); ok {
		return d, r, true
	}
	for _, re := range []*lazyRegexp{dMY, mY} {
		loc := re.FindStringSubmatchIndex(s)
		if loc == nil {
			continue
		}
		// The match may open with the one character before the day or month.
		start := loc[2]
		if atStart && strings.TrimSpace(s[:start]) != "" {
			continue
		}
		g := func(i int) string { return s[loc[2*i]:loc[2*i+1]] }
		if re == dMY {
			var d int
			_, _ = fmt.Sscan(g(1), &d) // the pattern matched digits
			mo := monthNumbers[strings.ToLower(g(2))]
			if d < 1 || d > 31 || mo == 0 {
				continue
			}
			date = fmt.Sprintf("%s-%02d-%02d", g(3), mo, d)
		} else {
			mo := monthNumbers[strings.ToLower(g(1))]
			if mo == 0 {
				continue
			}
			date = fmt.Sprintf("%s-%02d-01", g(2), mo)
		}
		rest = trimDateSep(s[:start] + " " + s[loc[1]:])
		rest = domain.NormalizeSpace(strings.ReplaceAll(rest, "()", ""))
		return date, rest, true
	}
	return "", "", false
}

// productPage reports whether p is a product or features page in any language.
func productPage(p *page) bool {
	return p.kind == kindFeatures || (p.kind == kindOther && productPath.MatchString(p.base.Path))
}

// fAQPage reports whether p is an FAQ page: by its path or its h1.
func fAQPage(p *page) bool {
	if p.kind == kindFAQ || (p.kind == kindOther && fAQPath.MatchString(p.base.Path)) {
		return true
	}
	for _, seg := range p.segs {
		if seg.level == 1 {
			return faqHdr.MatchString(seg.title)
		}
	}
	return false
}

// changelogPage reports whether p is a changelog or timeline page: by its path or its h1.
func changelogPage(p *page) bool {
	if p.kind == kindChangelog {
		return true
	}
	if p.kind == kindBlog || p.kind == kindPricing {
		return false
	}
	if changelogWords.MatchString(strings.ReplaceAll(p.base.Path, "-", " ")) {
		return true
	}
	for _, seg := range p.segs {
		if seg.level == 1 {
			return changelogWords.MatchString(seg.title)
		}
	}
	return false
}

// listItemText is a list item as a feature: without a leading check mark.
func listItemText(s string) string {
	return strings.TrimSpace(checkMark.ReplaceAllString(s, ""))
}

// isUnder reports whether n is c or below c.
func isUnder(n, c *html.Node) bool {
	for a := n; a != nil; a = a.Parent {
		if a == c {
			return true
		}
	}
	return false
}

// headingBlock is the element that holds one FAQ entry or one section: the
// heading's parent, unless that is the whole page.
func headingBlock(h *html.Node) *html.Node {
	if h == nil || h.Parent == nil || h.Parent.DataAtom == atom.Body || h.Parent.DataAtom == atom.Html {
		return nil
	}
	return h.Parent
}

// inBlock reports whether line l may belong to an answer or section whose
// block is b: inside b (when there is one), not in the footer, not about someone else.
func inBlock(l line, b *html.Node) bool {
	if l.footer || l.foreign || speaksOfOthers(l.node) || (l.node != nil && within(l.node, atom.Nav, atom.Header)) {
		return false
	}
	return b == nil || (l.node != nil && isUnder(l.node, b))
}

// cardGrid finds a row of at least three sibling cards, each an element
// holding one short heading (h2-h4) and a line or two of text, on the given
// page: the usual unlabelled feature grid. A card that quotes someone
// (a testimonial), names a person or shows a price is not a feature.
func cardGrid(p *page) domain.DraftedValue {
	var found domain.DraftedValue
	forEach(p.doc, false, func(n *html.Node) bool {
		if len(found.List) > 0 {
			return false
		}
		switch n.DataAtom {
		case atom.Nav, atom.Footer, atom.Header, atom.Form, atom.Head, atom.Script:
			return false
		}
		if ownSpeaksOfOthers(n) || strings.Contains(strings.ToLower(attr(n, "class")+" "+attr(n, "id")), "footer") {
			return false
		}
		var titles []string
		bad := false
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if headingLevel[c.DataAtom] > 0 || c.DataAtom == atom.P || attr(c, "role") == "tablist" {
				continue // the grid's own title and intro; a tab set's buttons
			}
			t, ok := featureCard(c)
			if !ok {
				bad = true
				break
			}
			titles = append(titles, t)
		}
		if bad || len(titles) < 3 {
			return true
		}
		// A grid whose titles are mostly people's names is a team.
		if people := len(slices.DeleteFunc(slices.Clone(titles), func(t string) bool { return !personRe.MatchString(t) })); 2*people > len(titles) {
			return true
		}
		for _, t := range titles {
			found.List = append(found.List, t)
			found.Evidence = append(found.Evidence, p.ev(t))
		}
		return false
	})
	return found
}

// featureCard returns the title of a feature card: one h2-h4 of 1-8 words that is
// no question, no person and no price, and at most 40 words of other text, no quotes.
func featureCard(c *html.Node) (string, bool) {
	var heads []*html.Node
	quoted := false
	forEach(c, false, func(n *html.Node) bool {
		if l := headingLevel[n.DataAtom]; l >= 2 && l <= 4 {
			heads = append(heads, n)
			return false
		}
		if headingLevel[n.DataAtom] > 0 || ownSpeaksOfOthers(n) {
			quoted = true
		}
		// A dated card or one linking to a post is a blog teaser.
		if n.DataAtom == atom.Time || (n.DataAtom == atom.A && postLink.MatchString(attr(n, "href"))) {
			quoted = true
		}
		return true
	})
	if len(heads) == 0 && !quoted && !ownSpeaksOfOthers(c) {
		return headlessCard(c)
	}
	if len(heads) != 1 || quoted || ownSpeaksOfOthers(c) {
		return "", false
	}
	if hasPostLink(heads[0]) {
		return "", false
	}
	title := nodeText(heads[0])
	all := nodeText(c)
	n := len(strings.Fields(title))
	if n < 1 || n > 8 || strings.HasSuffix(title, "?") || personRe.MatchString(title) || priceRe.MatchString(all) || figureRe.MatchString(title) {
		return "", false
	}
	if _, _, dated := findDate(all, false); dated {
		return "", false
	}
	if len(strings.Fields(all))-n > 40 {
		return "", false
	}
	return title, true
}

// heroList is the unlabelled list that follows the hero's heading and lead
// (a home or product page's h1 segment): three to ten short items, no links,
// outside navigation, header and footer.
func heroList(p *page) domain.DraftedValue {
	for _, seg := range p.segs {
		if seg.level != 1 {
			continue
		}
		var list *html.Node
		var v domain.DraftedValue
		for _, l := range seg.lines {
			if l.tag != atom.Li || l.foreign || l.footer || speaksOfOthers(l.node) || within(l.node, atom.Nav, atom.Header, atom.Footer) {
				continue
			}
			ul := l.node.Parent
			if list != nil && ul != list {
				break
			}
			list = ul
			if n := len(strings.Fields(l.text)); n < 2 || n > 12 || priceRe.MatchString(l.text) || hasLink(l.node) {
				return domain.DraftedValue{}
			}
			v.List = append(v.List, listItemText(l.text))
			v.Evidence = append(v.Evidence, p.ev(l.text))
		}
		if len(v.List) >= 3 && len(v.List) <= 10 {
			return v
		}
		return domain.DraftedValue{}
	}
	return domain.DraftedValue{}
}

// postLink is a link to a blog post, a news item or an article.
var postLink = lazyMustCompile(`(?i)/(blog|news|posts?|articles?|stories|press|actualites|noticias|notizie|nieuws|artikel|artigos?|magazine)(/|$)`)

// figureRe is a heading that is only a figure ("1.200", "4,8", "15%", "10k+"): a statistics row.
var figureRe = lazyMustCompile(`^[\d.,\s]+(%|\+|k\+?|m\+?|x|×)?$`)

func hasPostLink(n *html.Node) bool {
	has := false
	forEach(n, false, func(c *html.Node) bool {
		if c.DataAtom == atom.A && postLink.MatchString(attr(c, "href")) {
			has = true
		}
		return !has
	})
	return has
}

func hasLink(n *html.Node) bool {
	has := false
	forEach(n, false, func(c *html.Node) bool {
		if c.DataAtom == atom.A {
			has = true
		}
		return !has
	})
	return has
}

// definitionTerms are the terms of the <dl> lists in a feature section's
// segments (a term and its description: the term is the feature).
func definitionTerms(lines []line) []string {
	var out []string
	for _, l := range lines {
		if l.tag == atom.Dt && !l.foreign && !speaksOfOthers(l.node) && !strings.HasSuffix(l.text, "?") && !within(l.node, atom.Nav, atom.Footer) {
			if n := len(strings.Fields(l.text)); n >= 1 && n <= 10 {
				out = append(out, l.text)
			}
		}
	}
	return out
}

// heroText returns the tagline and lead of a page's hero: its h1 (2-16 words,
// not the name) and the first paragraph under it.
func (s *site) heroText(p *page) (tagline, lead string) {
	for _, seg := range p.segs {
		if seg.level != 1 || seg.foreign {
			continue
		}
		n := len(strings.Fields(seg.title))
		if n < 2 || n > 16 || strings.EqualFold(seg.title, s.name) {
			return "", ""
		}
		tagline = seg.title
		for _, l := range seg.lines {
			if l.tag == atom.P && !l.foreign && !l.footer && len(strings.Fields(l.text)) >= 8 {
				lead = l.text
				break
			}
		}
		return tagline, lead
	}
	return "", ""
}

// productPages are the product and feature pages other than the home page.
func (s *site) productPages() []*page {
	var out []*page
	for _, p := range s.content() {
		if p.kind != kindHome && productPage(p) {
			out = append(out, p)
		}
	}
	return out
}

// entryBlock is the block of one question heading's answer: the heading's
// parent when it wraps this one entry (one heading inside), else the FAQ section's block.
func entryBlock(h, sect *html.Node) *html.Node {
	b := headingBlock(h)
	if b == nil {
		return sect
	}
	heads := 0
	forEach(b, false, func(n *html.Node) bool {
		if headingLevel[n.DataAtom] > 0 {
			heads++
		}
		return heads < 2
	})
	if heads == 1 {
		return b
	}
	return sect
}

// unlabelledFeatures reads features that no heading names: a grid of
// feature cards, else the list under the hero, on the home page and then on
// the product pages (a thin home page leaves them to those).
func (s *site) unlabelledFeatures() domain.DraftedValue {
	pages := append([]*page{s.pages[0]}, s.productPages()...)
	for _, p := range pages {
		if v := cardGrid(p); len(v.List) > 0 {
			return v
		}
		if v := definitionList(p); len(v.List) > 0 {
			return v
		}
		if v := heroList(p); len(v.List) > 0 {
			return v
		}
	}
	return domain.DraftedValue{}
}

// thinHome fills tagline and short_description from the first product
// page when the home page gave neither a heading nor a summary.
func (s *site) thinHome() {
	_, hasTag := s.out.Fields["tagline"]
	_, hasDesc := s.out.Fields["short_description"]
	if hasTag && hasDesc {
		return
	}
	for _, p := range s.productPages() {
		tag, lead := s.heroText(p)
		if tag == "" {
			continue
		}
		if !hasTag {
			s.set("tagline", domain.DraftedValue{Text: tag, Evidence: []domain.Evidence{p.ev(tag)}})
		}
		if !hasDesc {
			d := p.meta["description"]
			if len(strings.Fields(d)) < 5 {
				d = lead
			}
			if d != "" && len(d) <= 500 {
				s.set("short_description", domain.DraftedValue{Text: d, Evidence: []domain.Evidence{p.ev(d)}})
			}
		}
		return
	}
}

// taglineCase writes the tagline in sentence case: a hero or title that
// opens in lower case ("find the flaky tests in your CI") gets a capital
// first letter. The quote stays as the page writes it.
func (s *site) taglineCase() {
	v, ok := s.out.Fields["tagline"]
	if !ok || v.Text == "" {
		return
	}
	// "Acme: notes for teams" / "Acme — notes for teams": the tagline is what follows the name.
	if loc := titleSep.FindStringIndex(v.Text); loc != nil && loc[0] > 0 && strings.EqualFold(strings.TrimSpace(v.Text[:loc[0]]), s.name) {
		if rest := strings.TrimSpace(v.Text[loc[1]:]); len(strings.Fields(rest)) >= 2 {
			v.Text = rest
			s.out.Fields["tagline"] = v
		}
	}
	r := []rune(v.Text)
	if unicode.IsLower(r[0]) {
		r[0] = unicode.ToUpper(r[0])
		v.Text = string(r)
		s.out.Fields["tagline"] = v
	}
}

// definitionList reads an unlabelled term-and-description list (three to
// twelve short terms, none a question, no prices) outside navigation, header
// and footer as the features.
func definitionList(p *page) domain.DraftedValue {
	var found domain.DraftedValue
	forEach(p.doc, false, func(n *html.Node) bool {
		if len(found.List) > 0 {
			return false
		}
		switch n.DataAtom {
		case atom.Nav, atom.Footer, atom.Header, atom.Form, atom.Head, atom.Script:
			return false
		case atom.Dl:
		default:
			return !ownSpeaksOfOthers(n)
		}
		var v domain.DraftedValue
		// Tailwind's feature lists wrap each term and description in a div
		// ("<dl><div><dt>…</dt><dd>…</dd></div>…</dl>"): those are read as
		// the dl's own terms and descriptions.
		var kids []*html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.DataAtom == atom.Div {
				for g := c.FirstChild; g != nil; g = g.NextSibling {
					if g.DataAtom == atom.Dt || g.DataAtom == atom.Dd {
						kids = append(kids, g)
					}
				}
				continue
			}
			kids = append(kids, c)
		}
		for _, c := range kids {
			switch c.DataAtom {
			case atom.Dt:
				t := nodeText(c)
				if k := len(strings.Fields(t)); k < 1 || k > 8 || strings.HasSuffix(t, "?") || personRe.MatchString(t) {
					return false
				}
				v.List = append(v.List, t)
				v.Evidence = append(v.Evidence, p.ev(t))
			case atom.Dd:
				if priceRe.MatchString(nodeText(c)) {
					return false
				}
			}
		}
		if len(v.List) >= 3 && len(v.List) <= 12 {
			found = v
		}
		return false
	})
	return found
}

// leadOverSlogan: a meta description is sometimes a slogan ("Lumo makes
// money admin painless"); the hero's lead paragraph then says what the
// product is. The summary is the one of the two that shares more words with
// the title's descriptor ("Lumo – Invoicing for freelance photographers");
// on a tie the meta description stays.
func (s *site) leadOverSlogan(home *page) {
	cur, ok := s.out.Fields["short_description"]
	if !ok {
		return
	}
	_, lead := s.heroText(home)
	if lead == "" || lead == cur.Text || len(lead) > 500 {
		return
	}
	words := map[string]bool{}
	for _, part := range titleSep.Split(home.wp.Title, -1) {
		if strings.EqualFold(strings.TrimSpace(part), s.name) {
			continue
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(part), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if len([]rune(w)) >= 4 && compact(w) != s.brand {
				words[w] = true
			}
		}
	}
	score := func(t string) int {
		n := 0
		t = strings.ToLower(t)
		for w := range words {
			if strings.Contains(t, w) {
				n++
			}
		}
		return n
	}
	if a, b := score(lead), score(cur.Text); a >= 2 && a > b {
		s.set("short_description", domain.DraftedValue{Text: lead, Evidence: []domain.Evidence{home.ev(lead)}})
	}
}
