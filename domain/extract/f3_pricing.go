package extract

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Pricing words in English, German, French, Spanish, Italian, Dutch and
// Portuguese (docs/extract-f3.md).
var (
	// f3PricingPath names a pricing page by its path.
	f3PricingPath = regexp.MustCompile(`(?i)(pricing|prices|plans|preise|tarif|precios|precos|preços|planes|planos|prezzi|piani|tariff|prijzen|tarieven|pakketten|abonnement|abbonament)` + f31PricingPath)
	// f3FreePlanRe is a free plan named in a sentence ("the free plan", "plan gratuit").
	f3FreePlanRe = regexp.MustCompile(`(?i)\bfree (plan|tier|version|account|forever)\b|\bforever free\b|\b(plan|piano|plano|formule|formula|version|versione|versión|versão|tarif|pakket|abonnement|offre|offerta)\s+(gratuit\w*|gratis|grátis|kostenlos\w*)|\bkostenlose[nr]?\s+(tarif|version|plan|basis)|\bgratis\s+(plan|pakket|versie|account|abonnement)\b|für immer kostenlos|gratuit pour toujours|gratis para siempre|gratis per sempre|gratuito per sempre|voor altijd gratis|grátis para sempre` + f31FreePlan)
	// f3TrapRe marks a sentence whose amount is not the product's price:
	// savings and discounts, revenue and funding.
	f3TrapRe = regexp.MustCompile(`(?i)\b(save[sd]?|saving|spare|sparen|spart|gespart|économise\w*|économie|ahorr\w*|risparmi\w*|bespaar\w*|economiz\w*|poupe\w*|discount|rabatt|remise|descuento|sconto|korting|desconto|revenue|raised|funding|umsatz|chiffre d'affaires|fatturato|omzet|faturamento|million\w*|millones|milioni|miljoen\w*|milhões|billion)\b`)
	// f3RivalRe names other products: their prices are not ours.
	f3RivalRe = regexp.MustCompile(`(?i)\b(competitors?|alternatives?|vs|versus|unlike|wettbewerb\w*|konkurrenz|concurren\w*|competidor\w*|concorrent\w*)\b|\bother (tools|apps|services|products|vendors)\b|\bandere (anbieter|tools|programme)\b|\bautres (outils|logiciels|solutions)\b|\botr[ao]s (herramientas|soluciones|programas)\b|\baltri (software|strumenti|servizi)\b|\boutras (ferramentas|soluções)\b`)
	// f3CompareRe marks a sentence comparing ("compared with", "rispetto a"); a
	// table headed "Compare plans" still holds plans, so tables check only f3RivalRe.
	f3CompareRe = regexp.MustCompile(`(?i)\b(compared|comparison|im vergleich|par rapport|comparado|rispetto|vergeleken|comparado)\b`)
	// f3PlanWordRe ends a plan name in prose: "Il piano Completo", "La formule Équipe".
	f3PlanWordRe = regexp.MustCompile(`(?i)\b(?:plan|tier|tarif|formule|offre|piano|plano|pakket|abonnement|paket|formula)\s+(\p{Lu}[\p{L}\d+]*)\s*$`)
	// f3CapNameRe is a capitalised name right before the verb: "Pro", "Parlotti Plus", "Pro-Tarif".
	f3CapNameRe = regexp.MustCompile(`(\p{Lu}[\p{L}\d+-]*(?:\s\p{Lu}[\p{L}\d+-]*)?)\s*$`)
	// f3VerbTail is the verb and filler between a plan's name and its price.
	f3VerbTail   = regexp.MustCompile(`(?i)[\s:–-]*(?:\b(?:costs?|is|are|kostet|kosten|ist|coûte|coûtent|est|cuesta|cuestan|es|costa|costano|è|kost|kosten|custa|custam|é|for|für|pour|por|per|voor|at|à|a|only|just|from|nur|ab|seulement|dès|desde|solo|solamente|da|soltanto|vanaf|slechts|maar|apenas|a partir de|à partir de)\b[\s:–-]*)*$`)
	f3StopNames  = map[string]bool{"it": true, "this": true, "that": true, "everything": true, "all": true, "es": true, "das": true, "dies": true, "alles": true, "il": true, "elle": true, "cela": true, "ce": true, "ça": true, "tout": true, "esto": true, "eso": true, "todo": true, "questo": true, "tutto": true, "het": true, "dit": true, "dat": true, "alles.": true, "isso": true, "isto": true, "tudo": true}
	f3PriceLabel = regexp.MustCompile(`(?i)^(price|pricing|cost|preis|kosten|prix|tarif|precio|coste|prezzo|costo|prijs|kosten|preço|valor|custo)\b`)
)

// f3PricingPage reports whether p is a pricing page: by its path in any of
// our languages, or by a title that names prices.
func f3PricingPage(p *page) bool {
	if p.kind == kindPricing {
		return true
	}
	if p.kind == kindHome || p.kind == kindBlog {
		return false
	}
	return f3PricingPath.MatchString(p.base.Path) || pricingHdr.MatchString(p.wp.Title)
}

// f3Prices reports whether s shows a price above zero and a price of zero.
func f3Prices(s string) (nonzero, zero bool) {
	for _, m := range priceRe.FindAllString(s, -1) {
		if strings.ContainsAny(m, "123456789") {
			nonzero = true
		} else {
			zero = true
		}
	}
	return nonzero, zero
}

// f3Trap reports whether the amounts of a sentence are savings, revenue or a
// competitor's price rather than the product's own price.
func f3Trap(s string) bool {
	return f3TrapRe.MatchString(s) || f3RivalRe.MatchString(s) || f3CompareRe.MatchString(s) || f3BigAmount.MatchString(s)
}

// f3BigAmount is an amount in thousands, millions or billions ("$2B", "€5 Mio.",
// "$40M processed"): a volume or revenue, never a plan's price.
var f3BigAmount = regexp.MustCompile(`(?i)(?:R\$|US\$|[$€£])\s?\d[\d.,]*\s?(?:k|m|b|bn|mn|mm|mio|mrd|mil)\b|\d[\d.,]*\s?(?:k|mio\.?|mrd\.?)\s?(?:€|\$|EUR)`)

// f3Sentences splits a line into its sentences (each a substring of it).
func f3Sentences(s string) []string {
	var out []string
	start := 0
	for _, m := range sentenceEnd.FindAllStringIndex(s, -1) {
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

// f3ProseLines returns the sentences of a page's own text that state a price
// with its unit ("Pro costs $9 per month", "$19, once", "$0.05 per minute")
// or name a free plan. Testimonials, the header, navigation and footer are
// not read; the caller drops savings, revenue and competitors.
func f3ProseLines(p *page, pricingPage bool) []pline {
	if !pricingPage && p.kind != kindHome && p.kind != kindFeatures && p.kind != kindFAQ {
		return nil
	}
	var out []pline
	for _, seg := range p.segs {
		if seg.foreign {
			continue
		}
		for _, l := range seg.lines {
			// Table cells are not sentences: plans in tables are read by tablePlans.
			if l.foreign || l.footer || within(l.node, atom.Nav, atom.Header, atom.Footer, atom.A, atom.Button, atom.Table) {
				continue
			}
			for _, sen := range f3Sentences(l.text) {
				nz, _ := f3Prices(sen)
				if nz && (periodRe.MatchString(sen) || usageRe.MatchString(sen) || oneTimeRe.MatchString(sen)) || f3FreePlanRe.MatchString(sen) {
					out = append(out, pline{p, sen})
				}
			}
		}
	}
	return out
}

// f3ProseSummary names the plans and prices of price sentences: "Pro: $9 per
// month", each with its sentence as the quote.
func f3ProseSummary(lines []pline, brand string) domain.DraftedValue {
	var sum domain.DraftedValue
	seen := map[string]bool{}
	n := 0
	for _, c := range lines {
		if seen[c.l] || n == 4 {
			continue
		}
		seen[c.l] = true
		var loc []int
		for _, m := range priceRe.FindAllStringIndex(c.l, -1) {
			if strings.ContainsAny(c.l[m[0]:m[1]], "123456789") {
				loc = m
				break
			}
		}
		if loc == nil {
			continue
		}
		item := f3PricePhrase(c.l[loc[0]:])
		// The product's own name is not a plan's ("Voxnote costs $0.05 per minute").
		if name := f3PlanName(c.l[:loc[0]]); name != "" && compact(name) != brand {
			item = name + ": " + item
		}
		if seen["\x00"+item] {
			continue
		}
		seen["\x00"+item] = true
		n++
		if sum.Text != "" {
			sum.Text += "; "
		}
		sum.Text += item
		sum.Evidence = append(sum.Evidence, c.p.ev(c.l))
	}
	return sum
}

// f3PhraseCut ends a price phrase: punctuation followed by a space (not the
// comma of "14,90 €") or a bracket.
var f3PhraseCut = regexp.MustCompile(`[,;:!?](\s|$)|[()]`)

var f3PhraseStop = regexp.MustCompile(`^(?i)(and|und|et|y|e|en|or|oder|ou|o|of)$`)
var f3PhraseGo = regexp.MustCompile(`^(?i)(per|pro|par|por|al|a|im|au|all'\p{L}+)$`)

// f3PricePhrase is the price at the start of s and the words that qualify it,
// up to a comma, the sentence's end or a conjunction not followed by another
// price or unit: "$12.99 per month or $79.99 per year", "5 € par utilisateur et par mois".
func f3PricePhrase(s string) string {
	end := len(s)
	if m := f3PhraseCut.FindStringIndex(s); m != nil {
		end = m[0]
	}
	if m := sentenceEnd.FindStringIndex(s); m != nil && m[0] < end {
		end = m[0]
	}
	words := strings.Fields(s[:end])
	var kept []string
	for i, w := range words {
		if i >= 10 {
			break
		}
		if f3PhraseStop.MatchString(w) {
			if i+1 >= len(words) || !(priceRe.MatchString(words[i+1]) || f3PhraseGo.MatchString(words[i+1]) || strings.ContainsAny(words[i+1], "$€£")) {
				break
			}
		}
		kept = append(kept, w)
	}
	return strings.TrimRight(strings.Join(kept, " "), ".")
}

// f3PlanName is the plan named right before a price in a sentence: "Il piano
// Completo costa" -> Completo, "Pro costs" -> Pro; "" when none is.
func f3PlanName(prefix string) string {
	prefix = f3VerbTail.ReplaceAllString(prefix, "")
	if m := f3PlanWordRe.FindStringSubmatch(prefix); m != nil {
		return m[1]
	}
	m := f3CapNameRe.FindStringSubmatch(prefix)
	if m == nil || f3StopNames[strings.ToLower(m[1])] {
		return ""
	}
	// "Der Pro-Tarif" -> Pro: no article, no plan word.
	name := f3Article.ReplaceAllString(m[1], "")
	name = f3PlanSuffix.ReplaceAllString(name, "")
	if name == "" || len(name) > 30 || f3StopNames[strings.ToLower(name)] {
		return ""
	}
	return name
}

var (
	f3Article    = regexp.MustCompile(`^(?i)(the|our|der|die|das|unser|unsere|le|la|les|l'|notre|el|los|las|nuestro|il|lo|gli|i|nostro|de|het|ons|onze|o|a|os|as|nosso)\s+`)
	f3PlanSuffix = regexp.MustCompile(`(?i)[- ](plan|tier|tarif|paket|abo|abonnement|pakket|formule|piano|plano)$`)
)

// shortFreeOrContact is a whole price line that says "Free" or "On request"
// (optionally "forever"); "Free SSL" or "Contact us for details" are not prices.
var shortFreeOrContact = regexp.MustCompile(`(?i)^(free|contact (sales|us)|custom( pricing)?|let's talk|kostenlos|gratis|gratuit[eo]?|gratuita|grátis|auf anfrage|individuell|sur devis|sur demande|nous contacter|contactez-nous|contactar|contáctanos|a medida|contattaci|su richiesta|su preventivo|op aanvraag|neem contact op|op maat|sob consulta|fale conosco)(\s+(forever|für immer|pour toujours|para siempre|per sempre|voor altijd|para sempre))?\s*[.!]?$`)

// f3ListPlans reads plans written as list items or paragraphs that begin with
// a bold name ("<li><strong>Solo</strong> €15 per maand</li>") and as
// definition lists (dt name, dd price).
func f3ListPlans(p *page, segs []*segment) (out []plan) {
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
				if f3PlanPrice(dd) && !f3PlanPrice(l.text) && len(strings.Fields(l.text)) <= 4 {
					out = append(out, plan{p: p, name: l.text, price: f3ShortPrice(dd), priceLine: dd})
				}
				continue
			}
			if l.tag != atom.Li && l.tag != atom.P {
				continue
			}
			b := f3FirstBold(l.node)
			if b == nil {
				// "Základ: 149 Kč měsíčně", "프로: 월 9,900원": a list of two or
				// more items, each a short name and a colon before its price (issue 31).
				if l.tag == atom.Li {
					if m := f31NamePrice.FindStringSubmatch(l.text); m != nil && textWords(m[1]) <= 4 && !strings.ContainsAny(m[1], "0123456789$€£") && f3PlanPrice(m[2]) {
						colon = append(colon, plan{p: p, name: m[1], price: f3ShortPrice(m[2]), priceLine: l.text})
					}
				}
				continue
			}
			name := strings.TrimRight(domain.NormalizeSpace(nodeText(b)), ":–- ")
			if name == "" || len(strings.Fields(name)) > 4 || strings.ContainsAny(name, "0123456789$€£") || !strings.HasPrefix(l.text, name) {
				continue
			}
			rest := strings.TrimLeft(l.text[len(name):], ":–- ")
			if f3PlanPrice(rest) {
				out = append(out, plan{p: p, name: name, price: f3ShortPrice(rest), priceLine: l.text})
			}
		}
	}
	return out
}

// f3FirstBold is the strong or b element that opens n's text, if any.
func f3FirstBold(n *html.Node) *html.Node {
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

// f3PlanPrice reports whether s shows a plan's price: an amount, or a short "Free" / "On request".
func f3PlanPrice(s string) bool {
	return priceRe.MatchString(s) || len(s) <= 30 && shortFreeOrContact.MatchString(s)
}

// f3ShortPrice is the price of a card line: the line itself if short, else its price phrase.
func f3ShortPrice(s string) string {
	if len(s) <= 60 {
		return s
	}
	if loc := priceRe.FindStringIndex(s); loc != nil {
		return f3PricePhrase(s[loc[0]:])
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

// f3InComparison reports whether n is inside a comparison table.
func f3InComparison(n *html.Node, brand string) bool {
	for a := n; a != nil; a = a.Parent {
		if a.DataAtom == atom.Table {
			return f3ComparisonTable(a, brand)
		}
	}
	return false
}

// f3ComparisonTable reports whether a table compares the product with others:
// a header or caption or the heading before it names rivals ("Us vs. X",
// "alternatives"), a header cell is the product's own name (brand, compacted),
// or the heading speaks of a comparison without naming plans ("Aufgabenfuchs
// im Vergleich", but not "Compare plans"). Its other columns are competitors'
// prices, not plans.
func f3ComparisonTable(t *html.Node, brand string) bool {
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
		if f3RivalRe.MatchString(h) || brand != "" && compact(h) == brand ||
			f3CompareHdr.MatchString(h) && !f3PlanWords.MatchString(h) && !pricingHdr.MatchString(h) {
			return true
		}
	}
	return false
}

var (
	f3CompareHdr = regexp.MustCompile(`(?i)\b(compared?|comparison|vergleich|comparatif|comparaison|comparación|comparativa|confronto|vergelijking|vergelijk|comparação|comparativo)\b`)
	f3PlanWords  = regexp.MustCompile(`(?i)\b(plans?|tiers?|tarife?|tarifs?|pakete?|formules?|offres?|planes|piani|planos|pakketten|abonnements?)\b`)
)

// f3CardHint is the class of an element that holds one plan.
var f3CardHint = regexp.MustCompile(`(?i)plan|tier|card|package|paket|pakket|tarif|formule|offre|offer|piano|plano|precio|preco|prezzo|prijs|price-box|pricing-item`)

// f3CardPlans reads plan cards built without a heading: an element whose class
// names a plan, tier, card or offer (in our languages), holding a short name
// line and, after it, a price, "Free" or an on-request line
// (<div class="tier"><div>Studio</div><div>$24/mo</div></div>). Cards with a
// heading are segPlans' work.
func f3CardPlans(p *page, segs []*segment) []plan {
	var out []plan
	done := map[*html.Node]bool{}
	for _, seg := range segs {
		if seg.foreign {
			continue
		}
		for j, l := range seg.lines {
			if l.foreign || l.node == nil || !f3PlanPrice(l.text) || trialRe.MatchString(l.text) || f3Trap(l.text) || within(l.node, atom.Table) {
				continue
			}
			card := f3Card(l.node)
			if card == nil || done[card] {
				continue
			}
			done[card] = true
			// The name is the line before the price inside the same card.
			if j == 0 {
				continue
			}
			if prev := seg.lines[j-1]; prev.node != nil && f3Inside(prev.node, card) {
				name := prev.text
				if len(strings.Fields(name)) <= 4 && !priceRe.MatchString(name) && !prev.foreign {
					pl := plan{p: p, name: name, price: f3ShortPrice(l.text), priceLine: l.text}
					if j+1 < len(seg.lines) && f3Inside(seg.lines[j+1].node, card) {
						pl = f3WithPeriod(pl, seg.lines[j+1].text)
					}
					out = append(out, pl)
				}
			}
		}
	}
	return out
}

// f3Card is the nearest ancestor of n whose class names a card and that has
// no heading inside.
func f3Card(n *html.Node) *html.Node {
	for a := n.Parent; a != nil && a.DataAtom != atom.Body && a.DataAtom != atom.Main; a = a.Parent {
		if a.Type != html.ElementNode || !f3CardHint.MatchString(attr(a, "class")) {
			continue
		}
		heading := false
		forEach(a, false, func(c *html.Node) bool {
			if headingLevel[c.DataAtom] > 0 {
				heading = true
			}
			return !heading
		})
		if heading {
			return nil
		}
		return a
	}
	return nil
}

// f3Inside reports whether n is a or below it.
func f3Inside(n, a *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == a {
			return true
		}
	}
	return false
}

// f3AllPlans is a heading about every plan ("All plans include", "Tutti i
// piani includono"): the lines below it are not one plan's price.
var f3AllPlans = regexp.MustCompile(`(?i)\b(all|every|each|alle|jeder|jede|tous|toutes|chaque|todos|todas|cada|tutti|tutte|ogni|elke)(\s+(the|our|die|unsere|les|nos|los|las|nuestros|i|gli|le|nostri|de|onze|os|as|nossos))?\s+(plans?|tiers?|tarife?n?|pakete?n?|forfaits?|formules?|offres?|planes|plan|piani|piano|pakketten|pakket|abonnements?|planos|plano)\b`)

// f3WithPeriod adds the period written on the line after a plan's price
// ("9 €" then "al mese") when the price line has none and that line is only a period.
func f3WithPeriod(pl plan, next string) plan {
	if periodRe.MatchString(pl.priceLine) || len(strings.Fields(next)) > 4 || priceRe.MatchString(next) || !periodRe.MatchString(next) {
		return pl
	}
	pl.price += " " + next
	pl.period = next
	return pl
}

// f3FreeFor says that using the product costs nothing: "Free for up to 3
// users", "Gratuit jusqu'à 3 utilisateurs", "free forever", "kostenlos für
// Einzelpersonen", "gratis para siempre", "free to use".
var f3FreeFor = regexp.MustCompile(`(?i)^(free|kostenlos|gratuit[eo]?|gratuita|gratis|grátis)\b|\b(free|kostenlos|gratuit[eo]?|gratuita|gratis|grátis)\s+(for|forever|to use|up to|until|für|bis|pour|jusqu|à vie|para|hasta|per|fino|voor|tot|até|sempre|siempre|immer|toujours|altijd)\b|\b(is|are|ist|sind|est|sont|es|son|è|sono|is|zijn|é|são)\s+(free|kostenlos|gratuit[eo]?|gratuita|gratis|grátis)\b|\bfree (plan|tier|version|account)\b`)

// f3FreeStatement reports whether a pricing line states a free plan or free
// use, not a free extra ("Free SSL", "free updates"): a whole-line Free, a
// free plan named, or free use stated.
func f3FreeStatement(s string) bool {
	return shortFreeOrContact.MatchString(s) && freeRe.MatchString(s) || f3FreePlanRe.MatchString(s) || f3FreeFor.MatchString(s)
}
