package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Pricing words in English, German, French, Spanish, Italian, Dutch and
// Portuguese (docs/extract-f3.md).
var (
	// pricingPathRe names a pricing page by its path.
	pricingPathRe = lazyMustCompile(`(?i)(pricing|prices|plans|preise|tarif|precios|precos|preços|planes|planos|prezzi|piani|tariff|prijzen|tarieven|pakketten|abonnement|abbonament)` + pricingPathMore)
	// freePlanRe is a free plan named in a sentence ("the free plan", "plan gratuit").
	freePlanRe = lazyMustCompile(`(?i)\bfree (plan|tier|version|account|forever)\b|\bfree for (?:personal|private|individual|non-commercial|noncommercial|hobby) use\b|\bforever free\b|\b(plan|piano|plano|formule|formula|version|versione|versión|versão|tarif|pakket|abonnement|offre|offerta)\s+(gratuit\w*|gratis|grátis|kostenlos\w*)|\bkostenlose[nr]?\s+(tarif|version|plan|basis)|\bgratis\s+(plan|pakket|versie|account|abonnement)\b|für immer kostenlos|gratuit pour toujours|gratis para siempre|gratis per sempre|gratuito per sempre|voor altijd gratis|grátis para sempre` + freePlan)
	// trapRe marks a sentence whose amount is not the product's price:
	// savings and discounts, revenue and funding.
	trapRe = lazyMustCompile(`(?i)\b(save[sd]?|saving|spare|sparen|spart|gespart|économise\w*|économie|ahorr\w*|risparmi\w*|bespaar\w*|economiz\w*|poupe\w*|discount|rabatt|remise|descuento|sconto|korting|desconto|revenue|raised|funding|umsatz|chiffre d'affaires|fatturato|omzet|faturamento|million\w*|millones|milioni|miljoen\w*|milhões|billion)\b`)
	// rivalRe names other products: their prices are not ours.
	rivalRe = lazyMustCompile(`(?i)\b(competitors?|alternatives?|vs|versus|unlike|wettbewerb\w*|konkurrenz|concurren\w*|competidor\w*|concorrent\w*)\b|\bother (tools|apps|services|products|vendors)\b|\bandere (anbieter|tools|programme)\b|\bautres (outils|logiciels|solutions)\b|\botr[ao]s (herramientas|soluciones|programas)\b|\baltri (software|strumenti|servizi)\b|\boutras (ferramentas|soluções)\b`)
	// compareRe marks a sentence comparing ("compared with", "rispetto a"); a
	// table headed "Compare plans" still holds plans, so tables check only rivalRe.
	compareRe = lazyMustCompile(`(?i)\b(compared|comparison|im vergleich|par rapport|comparado|rispetto|vergeleken|comparado)\b`)
	// planWordRe ends a plan name in prose: "Il piano Completo", "La formule Équipe".
	planWordRe = lazyMustCompile(`(?i)\b(?:plan|tier|tarif|formule|offre|piano|plano|pakket|abonnement|paket|formula)\s+(\p{Lu}[\p{L}\d+]*)\s*$`)
	// capNameRe is a capitalised name right before the verb: "Pro", "Parlotti Plus", "Pro-Tarif".
	capNameRe = lazyMustCompile(`(\p{Lu}[\p{L}\d+-]*(?:\s\p{Lu}[\p{L}\d+-]*)?)\s*$`)
	// verbTail is the verb and filler between a plan's name and its price.
	verbTail   = lazyMustCompile(`(?i)[\s:–-]*(?:\b(?:costs?|is|are|kostet|kosten|ist|coûte|coûtent|est|cuesta|cuestan|es|costa|costano|è|kost|kosten|custa|custam|é|for|für|pour|por|per|voor|at|à|a|only|just|from|nur|ab|seulement|dès|desde|solo|solamente|da|soltanto|vanaf|slechts|maar|apenas|a partir de|à partir de)\b[\s:–-]*)*$`)
	stopNames  = map[string]bool{"it": true, "this": true, "that": true, "everything": true, "all": true, "es": true, "das": true, "dies": true, "alles": true, "il": true, "elle": true, "cela": true, "ce": true, "ça": true, "tout": true, "esto": true, "eso": true, "todo": true, "questo": true, "tutto": true, "het": true, "dit": true, "dat": true, "alles.": true, "isso": true, "isto": true, "tudo": true}
	priceLabel = lazyMustCompile(`(?i)^(price|pricing|cost|preis|kosten|prix|tarif|precio|coste|prezzo|costo|prijs|kosten|preço|valor|custo)\b`)
)

// isPricingPage reports whether p is a pricing page: by its path in any of
// our languages, or by a title that names prices.
func isPricingPage(p *page) bool {
	if p.kind == kindPricing {
		return true
	}
	if p.kind == kindHome || p.kind == kindBlog {
		return false
	}
	return pricingPathRe.MatchString(p.base.Path) || pricingHdr.MatchString(p.wp.Title)
}

// hasPrices reports whether s shows a price above zero and a price of zero.
func hasPrices(s string) (nonzero, zero bool) {
	for _, m := range priceRe.FindAllString(s, -1) {
		if hasNonzero(m) {
			nonzero = true
		} else {
			zero = true
		}
	}
	return nonzero, zero
}

// isPriceTrap reports whether the amounts of a sentence are savings, revenue or a
// competitor's price rather than the product's own price.
func isPriceTrap(s string) bool {
	return trapRe.MatchString(s) || rivalRe.MatchString(s) || compareRe.MatchString(s) || bigAmount.MatchString(s) || setupFeeRe.MatchString(s)
}

// bigAmount is an amount in thousands, millions or billions ("$2B", "€5 Mio.",
// "$40M processed"): a volume or revenue, never a plan's price.
var bigAmount = lazyMustCompile(`(?i)(?:R\$|US\$|[$€£])\s?\d[\d.,]*\s?(?:k|m|b|bn|mn|mm|mio|mrd|mil)\b|\d[\d.,]*\s?(?:k|mio\.?|mrd\.?)\s?(?:€|\$|EUR)`)

// sentenceEndAny ends a sentence as sentenceEnd does, or at a full-width
// "。", "！" or "？" (Japanese and Chinese write no space after them).
var sentenceEndAny = lazyMustCompile(`[.!?](\s|$)|[。！？]`)

// splitSentences splits a line into its sentences (each a substring of it).
func splitSentences(s string) []string {
	var out []string
	start := 0
	for _, m := range sentenceEndAny.FindAllStringIndex(s, -1) {
		// An abbreviation's point before a lower-case word ends no
		// sentence: "99 kr. pr. måned" is one price and its period.
		if r, _ := utf8.DecodeRuneInString(strings.TrimLeft(s[m[1]:], " ")); s[m[0]] == '.' && unicode.IsLower(r) {
			continue
		}
		if t := strings.TrimSpace(s[start:m[1]]); t != "" {
			out = append(out, t)
		}
		start = m[1]
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

// proseLines returns the sentences of a page's own text that state a price
// with its unit ("Pro costs $9 per month", "$19, once", "$0.05 per minute")
// or name a free plan. Testimonials, the header, navigation and footer are
// not read; the caller drops savings, revenue and competitors.
func proseLines(p *page, pricingPage bool) []pline {
	if !pricingPage && p.kind != kindHome && p.kind != kindFeatures && p.kind != kindFAQ {
		return nil
	}
	var out []pline
	for _, l := range p.ownLines() {
		// Table cells are not sentences: plans in tables are read by tablePlans.
		if l.footer || within(l.node, atom.Nav, atom.Header, atom.Footer, atom.A, atom.Button, atom.Table) {
			continue
		}
		for _, sen := range splitSentences(l.text) {
			nz, _ := hasPrices(sen)
			if nz && (periodRe.MatchString(sen) || usageRe.MatchString(sen) || oneTimeRe.MatchString(sen)) || freePlanRe.MatchString(sen) || freeUpTo(sen) {
				out = append(out, pline{p, sen})
			}
		}
	}
	return out
}

// proseSummary names the plans and prices of price sentences: "Pro: $9 per
// month", each with its sentence as the quote.
func proseSummary(lines []pline, brand string) domain.DraftedValue {
	var sum domain.DraftedValue
	seen := map[string]bool{}
	n, items := 0, 0
	for _, c := range lines {
		if seen[c.l] || n == 4 {
			continue
		}
		seen[c.l] = true
		added := false
		for _, item := range proseItems(c.l, brand) {
			if seen["\x00"+item] || items == 6 {
				continue
			}
			seen["\x00"+item] = true
			added = true
			items++
			if sum.Text != "" {
				sum.Text += "; "
			}
			sum.Text += item
		}
		if added {
			n++
			sum.Evidence = append(sum.Evidence, c.p.ev(c.l))
		}
	}
	return sum
}

// phraseCut ends a price phrase: punctuation followed by a space (not the
// comma of "14,90 €"), a bracket, a full-width comma or bracket, or a
// spaced dash.
var phraseCut = lazyMustCompile(`[,;:!?](\s|$)|[()（）、，；]|\s[–—]\s`)

var phraseStop = lazyMustCompile(`^(?i)(and|und|et|y|e|en|or|oder|ou|o|of)$`)
var phraseGo = lazyMustCompile(`^(?i)(per|pro|par|por|al|a|im|au|all'\p{L}+)$`)

// pricePhrase is the price at the start of s and the words that qualify it,
// up to a comma, the sentence's end or a conjunction not followed by another
// price or unit: "$12.99 per month or $79.99 per year", "5 € par utilisateur et par mois".
func pricePhrase(s string) string {
	end := len(s)
	if m := phraseCut.FindStringIndex(s); m != nil {
		end = m[0]
	}
	if m := sentenceEndAny.FindStringIndex(s); m != nil && m[0] < end {
		end = m[0]
	}
	words := strings.Fields(s[:end])
	var kept []string
	for i, w := range words {
		if i >= 10 {
			break
		}
		if phraseStop.MatchString(w) {
			if i+1 >= len(words) || !(priceRe.MatchString(words[i+1]) || phraseGo.MatchString(words[i+1]) || strings.ContainsAny(words[i+1], "$€£")) {
				break
			}
		}
		kept = append(kept, w)
	}
	return strings.TrimRight(strings.Join(kept, " "), ".")
}

// planName is the plan named right before a price in a sentence: "Il piano
// Completo costa" -> Completo, "Pro costs" -> Pro; "" when none is.
func planName(prefix string) string {
	if m := cjkPlanName.FindStringSubmatch(prefix); m != nil {
		return m[1]
	}
	if m := hangulTopicName.FindStringSubmatch(prefix); m != nil && !costWord.MatchString(m[1]) {
		return m[1]
	}
	if name := latinPlanName(prefix); name != "" {
		return name
	}
	if m := leadName.FindStringSubmatch(prefix); m != nil && !stopNames[strings.ToLower(m[1])] {
		return m[1]
	}
	return ""
}

// latinPlanName is planName for names in Latin script: a plan word's name or
// the capitalised words before the verb.
func latinPlanName(prefix string) string {
	prefix = verbTail.ReplaceAllString(prefix, "")
	if m := planWordRe.FindStringSubmatch(prefix); m != nil {
		return m[1]
	}
	prefix = planWordEnd.ReplaceAllString(prefix, "") // "The Team plan is $8": Team
	m := capNameRe.FindStringSubmatch(prefix)
	if m == nil || stopNames[strings.ToLower(m[1])] {
		return ""
	}
	// "Der Pro-Tarif" -> Pro: no article, no plan word.
	name := articleRe.ReplaceAllString(m[1], "")
	name = planSuffix.ReplaceAllString(name, "")
	if name == "" || len(name) > 30 || stopNames[strings.ToLower(name)] {
		return ""
	}
	return name
}

var (
	articleRe  = lazyMustCompile(`^(?i)(the|our|der|die|das|unser|unsere|le|la|les|l'|notre|el|los|las|nuestro|il|lo|gli|i|nostro|de|het|ons|onze|o|a|os|as|nosso)\s+`)
	planSuffix = lazyMustCompile(`(?i)[- ](plan|tier|tarif|paket|abo|abonnement|pakket|formule|piano|plano)$`)
)

// shortFreeOrContact is a whole price line that says "Free" or "On request"
// (optionally "forever"); "Free SSL" or "Contact us for details" are not prices.
var shortFreeOrContact = lazyMustCompile(`(?i)^(free|za darmo|darmow\p{L}*|bezpłatn\p{L}*|kostnadsfri\p{L}*|gratis|zdarma|bezplatn\p{L}*|ücretsiz|無料|免费|무료|contact (sales|us)|custom( pricing)?|let's talk|get in touch|talk to us|kostenlos|gratis|gratuit[eo]?|gratuita|grátis|auf anfrage|individuell|sur devis|sur demande|nous contacter|contactez-nous|contactar|contáctanos|a medida|contattaci|su richiesta|su preventivo|op aanvraag|neem contact op|op maat|sob consulta|fale conosco` + onRequestWorld + `)(\s+(forever|für immer|pour toujours|para siempre|per sempre|voor altijd|para sempre))?\s*[.!]?$`)

// listPlans reads plans written as list items or paragraphs that begin with
// a bold name ("<li><strong>Solo</strong> €15 per maand</li>") and as
// definition lists (dt name, dd price).
func listPlans(p *page, segs []*segment) (out []plan) {
	var colon []plan
	defer func() {
		if len(colon) >= 2 {
			out = append(out, colon...)
		}
	}()
	for _, seg := range segs {
		if seg.foreign {
			continue
		}
		for j, l := range seg.lines {
			if l.foreign || l.node == nil || trialRe.MatchString(l.text) {
				continue
			}
			if l.tag == atom.Dt && j+1 < len(seg.lines) && seg.lines[j+1].tag == atom.Dd {
				dd := seg.lines[j+1].text
				if planPrice(dd) && !planPrice(l.text) && len(strings.Fields(l.text)) <= 4 {
					out = append(out, plan{p: p, name: l.text, price: shortPrice(dd), priceLine: dd})
				}
				continue
			}
			if l.tag != atom.Li && l.tag != atom.P {
				continue
			}
			b := firstBold(l.node)
			if b == nil {
				// "Základ: 149 Kč měsíčně", "프로: 월 9,900원": a list of two or
				// more items, each a short name and a colon before its price.
				if l.tag == atom.Li {
					if m := namePriceRe.FindStringSubmatch(l.text); m != nil && textWords(m[1]) <= 4 && !strings.ContainsAny(m[1], "0123456789$€£") {
						// "Starter: free, 5 monitors": the price before the plan's limits.
						price, _, _ := strings.Cut(m[2], ",")
						if planPrice(m[2]) {
							price = m[2]
						}
						if planPrice(price) {
							colon = append(colon, plan{p: p, name: m[1], price: shortPrice(price), priceLine: l.text})
						}
					}
				}
				continue
			}
			name := strings.TrimRight(domain.NormalizeSpace(nodeText(b)), ":–- ")
			if name == "" || len(strings.Fields(name)) > 4 || strings.ContainsAny(name, "0123456789$€£") || !strings.HasPrefix(l.text, name) {
				continue
			}
			rest := strings.TrimLeft(l.text[len(name):], ":–- ")
			if price, ok := clausePrice(rest); ok {
				out = append(out, plan{p: p, name: name, price: price, priceLine: l.text})
			}
		}
	}
	return out
}

// firstBold is the strong or b element that opens n's text, if any.
func firstBold(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			if strings.TrimSpace(c.Data) != "" {
				return nil
			}
			continue
		}
		if c.Type == html.ElementNode {
			if c.DataAtom == atom.Strong || c.DataAtom == atom.B {
				return c
			}
			return nil
		}
	}
	return nil
}

// planPrice reports whether s shows a plan's price: an amount, or a short "Free" / "On request".
func planPrice(s string) bool {
	return priceRe.MatchString(s) || len(s) <= 30 && shortFreeOrContact.MatchString(s)
}

// shortPrice is the price of a card line: the line itself if short, else its price phrase.
func shortPrice(s string) string {
	if len(s) <= 60 {
		return s
	}
	if loc := priceRe.FindStringIndex(s); loc != nil {
		return pricePhrase(s[loc[0]:])
	}
	return s
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// inComparison reports whether n is inside a comparison table.
func inComparison(n *html.Node, brand string) bool {
	for a := n; a != nil; a = a.Parent {
		if a.DataAtom == atom.Table {
			return comparisonTable(a, brand)
		}
	}
	return false
}

// comparisonTable reports whether a table compares the product with others:
// a header or caption or the heading before it names rivals ("Us vs. X",
// "alternatives"), a header cell is the product's own name (brand, compacted),
// or the heading speaks of a comparison without naming plans ("Aufgabenfuchs
// im Vergleich", but not "Compare plans"). Its other columns are competitors'
// prices, not plans.
func comparisonTable(t *html.Node, brand string) bool {
	var head []string
	forEach(t, false, func(n *html.Node) bool {
		switch n.DataAtom {
		case atom.Caption, atom.Th:
			head = append(head, nodeText(n))
			return false
		case atom.Td:
			return false
		}
		return true
	})
	for prev := t.PrevSibling; prev != nil; prev = prev.PrevSibling {
		if prev.Type != html.ElementNode {
			continue
		}
		if headingLevel[prev.DataAtom] > 0 || prev.DataAtom == atom.P {
			head = append(head, nodeText(prev))
		}
		break
	}
	for _, h := range head {
		if rivalRe.MatchString(h) || brand != "" && compact(h) == brand ||
			compareHdr.MatchString(h) && !planWords.MatchString(h) && !pricingHdr.MatchString(h) {
			return true
		}
	}
	return false
}

var (
	compareHdr = lazyMustCompile(`(?i)\b(compared?|comparison|vergleich|comparatif|comparaison|comparación|comparativa|confronto|vergelijking|vergelijk|comparação|comparativo)\b`)
	planWords  = lazyMustCompile(`(?i)\b(plans?|tiers?|tarife?|tarifs?|pakete?|formules?|offres?|planes|piani|planos|pakketten|abonnements?)\b`)
)

// cardHint is the class of an element that holds one plan.
var cardHint = lazyMustCompile(`(?i)plan|tier|card|package|paket|pakket|tarif|formule|offre|offer|piano|plano|precio|preco|prezzo|prijs|price-box|pricing-item`)

// cardPlans reads plan cards built without a heading: an element whose class
// names a plan, tier, card or offer (in our languages), holding a short name
// line and, after it, a price, "Free" or an on-request line
// (<div class="tier"><div>Studio</div><div>$24/mo</div></div>). Cards with a
// heading are segPlans' work.
func cardPlans(p *page, segs []*segment) []plan {
	var out []plan
	done := map[*html.Node]bool{}
	for _, seg := range segs {
		if seg.foreign {
			continue
		}
		for j, l := range seg.lines {
			if l.foreign || l.node == nil || !planPrice(l.text) || trialRe.MatchString(l.text) || isPriceTrap(l.text) || within(l.node, atom.Table) || proseParagraph(l.text) {
				continue
			}
			card := planCard(l.node)
			if card == nil {
				card = repeatedCard(l.node) // a grid's card, whatever its class says
			}
			if card == nil || done[card] {
				continue
			}
			done[card] = true
			// The name is the line before the price inside the same card, or
			// the label of an icon before it when the card names its plan only so.
			if j == 0 || seg.lines[j-1].node == nil || !isInside(seg.lines[j-1].node, card) {
				if name := iconName(card, l.node); name != "" {
					pl := plan{p: p, name: name, price: shortPrice(l.text), priceLine: l.text}
					if j+1 < len(seg.lines) && isInside(seg.lines[j+1].node, card) {
						pl = withOnce(withPeriod(pl, seg.lines[j+1].text), seg.lines[j+1].text)
					}
					out = append(out, pl)
				}
				continue
			}
			if prev := seg.lines[j-1]; prev.node != nil && isInside(prev.node, card) {
				name := prev.text
				if len(strings.Fields(name)) <= 4 && !priceRe.MatchString(name) && !prev.foreign {
					pl := plan{p: p, name: name, price: shortPrice(l.text), priceLine: l.text}
					if j+1 < len(seg.lines) && isInside(seg.lines[j+1].node, card) {
						pl = withOnce(withPeriod(pl, seg.lines[j+1].text), seg.lines[j+1].text)
					}
					out = append(out, pl)
				}
			}
		}
	}
	return out
}

// hasHeading reports whether n holds a heading element.
func hasHeading(n *html.Node) bool {
	heading := false
	forEach(n, false, func(c *html.Node) bool {
		if headingLevel[c.DataAtom] > 0 {
			heading = true
		}
		return !heading
	})
	return heading
}

// planCard is the nearest ancestor of n whose class names a card and that has
// no heading inside.
func planCard(n *html.Node) *html.Node {
	for a := n.Parent; a != nil && a.DataAtom != atom.Body && a.DataAtom != atom.Main; a = a.Parent {
		if a.Type != html.ElementNode || !cardHint.MatchString(attr(a, "class")) {
			continue
		}
		if hasHeading(a) {
			return nil
		}
		return a
	}
	return nil
}

// isInside reports whether n is a or below it.
func isInside(n, a *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == a {
			return true
		}
	}
	return false
}

// allPlans is a heading about every plan ("All plans include", "Tutti i
// piani includono"): the lines below it are not one plan's price.
var allPlans = lazyMustCompile(`(?i)\b(all|every|each|alle|jeder|jede|tous|toutes|chaque|todos|todas|cada|tutti|tutte|ogni|elke)(\s+(the|our|die|unsere|les|nos|los|las|nuestros|i|gli|le|nostri|de|onze|os|as|nossos))?\s+(plans?|tiers?|tarife?n?|pakete?n?|forfaits?|formules?|offres?|planes|plan|piani|piano|pakketten|pakket|abonnements?|planos|plano)\b`)

// withPeriod adds the period written on the line after a plan's price
// ("9 €" then "al mese") when the price line has none and that line is only a period.
func withPeriod(pl plan, next string) plan {
	if periodRe.MatchString(pl.priceLine) || priceRe.MatchString(next) {
		return pl
	}
	shown := next
	if len(strings.Fields(next)) > 4 {
		// "/month, up to 100 listeners": the period that opens the line
		shown = periodHead(next)
	}
	if shown == "" || !periodRe.MatchString(shown) {
		return pl
	}
	pl.price += " " + shown
	pl.period = next
	return pl
}

// freeFor says that using the product costs nothing: "Free for up to 3
// users", "Gratuit jusqu'à 3 utilisateurs", "free forever", "kostenlos für
// Einzelpersonen", "gratis para siempre", "free to use".
var freeFor = lazyMustCompile(`(?i)^(free|kostenlos|gratuit[eo]?|gratuita|gratis|grátis)\b|\b(free|kostenlos|gratuit[eo]?|gratuita|gratis|grátis)\s+(for|forever|to use|up to|until|für|bis|pour|jusqu|à vie|para|hasta|per|fino|voor|tot|até|sempre|siempre|immer|toujours|altijd)\b|\b(is|are|ist|sind|est|sont|es|son|è|sono|is|zijn|é|são)\s+(free|kostenlos|gratuit[eo]?|gratuita|gratis|grátis)\b|\bfree (plan|tier|version|account)\b` +
	// "Starter: free, 5 monitors": a plan's name, a colon, then free
	`|^\p{Lu}[\p{L}\d +-]{0,30}:\s*(free|kostenlos|gratuit[eo]?|gratuita|gratis|grátis)\b`)

// freeStatement reports whether a pricing line states a free plan or free
// use, not a free extra ("Free SSL", "free updates"): a whole-line Free, a
// free plan named, or free use stated.
func freeStatement(s string) bool {
	return shortFreeOrContact.MatchString(s) && freeRe.MatchString(s) || freePlanRe.MatchString(s) || freeFor.MatchString(s)
}
