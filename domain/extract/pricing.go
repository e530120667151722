package extract

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

var (
	// priceRe is an amount with its currency before or after it, as product
	// sites in our seven languages write it: "$9", "€ 9", "9 €", "9,00 €",
	// "R$ 29", "29 $", "CHF 12.–", "12 EUR".
	priceRe    = lazyMustCompile(`(?:R\$|US\$|\bCHF|\bEUR|\bUSD|\bGBP|[$€£])\s?\d(?:[\d.,']*\d)?(?:[.,][–-])?|\d(?:[\d.,']*\d)?(?:[.,][–-])?\s?(?:€|R\$|\$|£|\bEUR\b|\bUSD\b|\bGBP\b|\bCHF\b|\b[Ee]uros?\b)` + priceMore + priceWorld + priceCJK)
	periodRe   = lazyMustCompile(domain.PricingPeriodPattern)
	usageRe    = lazyMustCompile(`(?i)per 1[,.]?000\b|\bper (\w+ )?(request|call|gb|minute|hour|email|message|credit|token|run|resolution|conversation|transaction|sms|image|page|document|api call)s?\b|pay[- ]as[- ]you[- ]go|\bcredits?\b|\b(pro|par|por|al|per) (anfrage|minute|requête|solicitud|richiesta|aanvraag|requisição|minuto|minuut|transaktion|transaction|transacción|transazione|transactie|transação|conversation|conversación|conversazione|gesprek|conversa)\b` + usageCJK)
	oneTimeRe  = lazyMustCompile(`(?i)one[- ]time|lifetime (licen[cs]e|deal|access|plan)|\blifetime\b|pay once|, once\b|\bonce\.|einmalig|paiement unique|une seule fois|pago único|una tantum|pagamento unico|eenmalig|pagamento único|compra única` + oneTimeCJK)
	openRe     = lazyMustCompile(`(?i)open[- ]source`)
	licenseRe  = lazyMustCompile(`(?i)\b(mit|apache|gpl|agpl|lgpl|bsd|mpl)\b|licen[cs]ed|licen[cs]e`)
	freeRe     = lazyMustCompile(`(?i)\bfree\b|\bkostenlos\w*|\bgratis\b|\bgratuit\w*|grátis\b` + freeMore + freeWorld)
	trialRe    = lazyMustCompile(`(?i)trial|testen|money-back|start (for )?free|try (it )?(for )?free|free to try|\bessai|\bessayez|\bprueba|\bpruébalo|\bprova\b|\bprovalo|periodo di prova|proefperiode|\bprobeer|uitproberen|\bteste\b|\btestar|\bexperimente` + trialMore)
	contactRe  = lazyMustCompile(`(?i)contact (sales|us for|us to get)|request a quote|get a quote|send (you )?a quote|book a demo|talk to sales|custom pricing|auf anfrage|angebot anfordern|sur devis|sur demande|nous contacter|contactez[- ]nous|contactar|contáctanos|a medida|contattaci|su richiesta|su preventivo|op aanvraag|neem contact|offerte aanvragen|sob consulta|fale conosco|entre em contato`)
	pricingHdr = lazyMustCompile(`(?i)\b(pricing|prices|plans|preise|tarife|tarifs?|precios|planes|prezzi|piani|tariffe|abbonamenti|prijzen|tarieven|pakketten|abonnementen|preços|precos|planos)\b` + pricingHdrMore + pricingHdrWorld)
	costQ      = lazyMustCompile(`(?i)\b(cost|costs|price|pricing|free|pay|paid|kostet|kosten|preis|coûte|prix|cuesta|precio|costa|prezzo|kost|prijs|custa|preço)\b`)
)

// pline is a line of pricing context and its page.
type pline struct {
	p *page
	l string
}

// draftPricing fills pricing_model and pricing_summary from what pricing
// pages, pricing sections, cost questions and JSON-LD offers show, in any of
// our seven languages, and from prices stated in sentences ("Pro costs $9 per
// month"). Blog posts never count: a price there is about the post's subject;
// testimonials, savings, revenue and competitors' prices are left out too.
func (s *site) draftPricing() {
	var ctx []pline
	var plans []plan
	var prose []pline
	addOns := map[string]bool{} // page and quote of add-ons' prices
	linked := s.pricingLinked()
	for _, p := range s.content() {
		pricingPage := isPricingPage(p) || p.kind != kindHome && linked[pathKey(p.base.Path)]
		if p.kind != kindBlog {
			grid, extras := gridPlans(p)
			// a grid of priced plans makes its page a pricing page ("/rates")
			pricingPage = pricingPage || p.kind != kindHome && pricedGrid(grid)
			if pricingPage || p.kind == kindHome {
				plans = append(plans, grid...)
				for q := range extras {
					addOns[p.wp.URL+"\x00"+q] = true
				}
			}
		}
		for i, seg := range p.segs {
			inPricing := pricingPage || (pricingHdr.MatchString(seg.title) && !strings.HasSuffix(seg.title, "?"))
			if inPricing {
				for _, sub := range section(p.segs, i) {
					// "All plans include: Free support" is not a free plan.
					if !allPlans.MatchString(sub.title) {
						ctx = append(ctx, segLines(p, sub, s.brand)...)
					}
				}
				plans = append(plans, segPlans(p, section(p.segs, i))...)
				plans = append(plans, listPlans(p, section(p.segs, i))...)
				plans = append(plans, cardPlans(p, section(p.segs, i))...)
				plans = append(plans, priceHeadingPlans(p, section(p.segs, i))...)
			}
			// "How much does it cost?" and its answer, wherever they are.
			for j, l := range seg.lines {
				if strings.HasSuffix(l.text, "?") && costQ.MatchString(l.text) && j+1 < len(seg.lines) && !l.foreign {
					ctx = append(ctx, pline{p, seg.lines[j+1].text})
				}
			}
			if strings.HasSuffix(seg.title, "?") && costQ.MatchString(seg.title) && len(seg.lines) > 0 && !seg.foreign {
				ctx = append(ctx, pline{p, seg.lines[0].text})
			}
		}
		if pricingPage || p.kind == kindHome {
			plans = append(plans, tablePlans(p, s.brand)...)
			for _, o := range p.ld {
				if hasType(o, "Offer") {
					if d := ldString(o, "description"); d != "" {
						ctx = append(ctx, pline{p, d})
					}
				}
			}
		}
		prose = append(prose, proseLines(p, pricingPage)...)
	}
	ctx = dedupeLines(ctx)
	prose = dedupeLines(prose)

	var free, paid, period, usage, once, open, license, contact []pline
	classify := func(c pline, paidOnly bool) {
		if trialRe.MatchString(c.l) && !oneTimeRe.MatchString(c.l) || isPriceTrap(c.l) {
			return
		}
		nonzero, zero := hasPrices(c.l)
		// "Is there a free plan?" asks; "No, there is no free plan" denies.
		asksOrDenies := isQuestion(c.l) || negationRe.MatchString(c.l)
		// "Free for up to 3 users, with no time limit": a denial after the limit denies no free use.
		if !asksOrDenies && (!paidOnly && (freeStatement(c.l) || zero) || paidOnly && freePlanRe.MatchString(c.l)) || paidOnly && freeUpTo(c.l) {
			free = append(free, c)
		}
		if nonzero {
			paid = append(paid, c)
			if periodRe.MatchString(c.l) {
				period = append(period, c)
			}
			if usageRe.MatchString(c.l) {
				usage = append(usage, c)
			}
			if oneTimeRe.MatchString(c.l) {
				once = append(once, c)
			}
		}
		if paidOnly {
			return
		}
		if openRe.MatchString(c.l) {
			open = append(open, c)
		}
		if licenseRe.MatchString(c.l) {
			license = append(license, c)
		}
		if contactRe.MatchString(c.l) {
			contact = append(contact, c)
		}
	}
	for _, c := range ctx {
		for _, sen := range splitSentences(c.l) {
			classify(pline{c.p, sen}, false)
		}
	}
	for _, c := range prose {
		classify(c, true)
	}
	for _, pl := range plans {
		if nz, zero := hasPrices(pl.price); zero && !nz || freeRe.MatchString(pl.price) && !nz {
			free = append(free, pline{pl.p, pl.priceLine})
		}
		// "$89" over "One-time payment.": the plan is bought once.
		if pl.once != "" {
			paid = append(paid, pline{pl.p, pl.priceLine})
			once = append(once, pline{pl.p, pl.once})
		}
		// "0.045 元/条": a plan priced per unit is metered.
		if nz, _ := hasPrices(pl.price); nz && pl.period == "" && usageRe.MatchString(pl.priceLine) {
			paid = append(paid, pline{pl.p, pl.priceLine})
			usage = append(usage, pline{pl.p, pl.priceLine})
		}
		// "9 €" over "al mese": the period line is the quote of a recurring price.
		if pl.period != "" {
			paid = append(paid, pline{pl.p, pl.priceLine})
			period = append(period, pline{pl.p, pl.period})
		}
	}
	// A free line that says "free" (in its language) is the better quote: "$0" alone does not say it.
	slices.SortStableFunc(free, func(x, y pline) int {
		return cmpBool(!freeRe.MatchString(x.l), !freeRe.MatchString(y.l))
	})
	// Prices without a period beside a "Monthly | Yearly" switch are per that period.
	if len(period) == 0 && len(paid) > 0 && len(once) == 0 && len(usage) == 0 {
		if t, ok := periodToggle(s.content()); ok {
			period = append(period, t)
		}
	}
	// Per-unit charges in a comparison table's cells are extras of plans
	// that recur, not the product's pricing.
	if len(period) > 0 {
		usage = slices.DeleteFunc(usage, cellCharge)
	}
	// An add-on ("Add-on: extra SMS bundle, £12 per month") is no plan.
	plans = slices.DeleteFunc(plans, func(x plan) bool {
		return addOnLabel.MatchString(x.name) || addOns[x.p.wp.URL+"\x00"+x.priceLine]
	})
	once, usage = extraCharges(once, plans, len(period) > 0), extraCharges(usage, plans, len(period) > 0)
	if len(open) == 0 && len(free) > 0 && len(paid) > 0 {
		if l, ok := s.openHomeLine(); ok {
			open, license = append(open, l), append(license, l)
		}
	}
	var model string
	var ev []pline
	fallback := true // JSON-LD's model when the pages state none
	switch {
	case len(open) > 0 && len(license) > 0:
		model, ev = "open-source", []pline{open[0], license[0]}
	case len(once) > 0:
		model, ev = "one-time", once[:1]
	case len(usage) > 0:
		model, ev = "usage-based", usage[:1]
	case len(period) > 0 && len(free) > 0:
		model, ev = "freemium", []pline{free[0], period[0]}
	case len(period) > 0:
		model, ev = "subscription", period[:1]
	case len(paid) == 0 && len(free) > 0:
		model, ev = "free", free[:1]
	case len(paid) == 0 && len(contact) > 0:
		model, ev = "contact-sales", contact[:1]
	}
	// The model's quote must say it ("/hour" is metered by usageRe, but a
	// reader of "€80 per hour" is told no usage-based pricing in words the
	// gate knows): the first line of the model's kind that does, or no model.
	lines := map[string][]pline{"one-time": once, "usage-based": usage, "subscription": period, "contact-sales": contact}
	if ls, ok := lines[model]; ok {
		if i := slices.IndexFunc(ls, func(l pline) bool { return domain.StatesPricingModel(model, l.l) }); i >= 0 {
			ev = ls[i : i+1]
		} else {
			model, ev = "", nil
			fallback = false
		}
	}
	if model == "" && fallback {
		if v, ok := s.ldModel(); ok {
			s.set("pricing_model", v)
		}
	}
	if model != "" {
		v := domain.DraftedValue{Text: model}
		for _, e := range ev {
			v.Evidence = append(v.Evidence, e.p.ev(e.l))
		}
		s.set("pricing_model", v)
	}

	// A price line that names its own plan ("Základ: 149 Kč") belongs to that
	// plan, not to the heading above the list ("Ceník").
	// A card the grid reader read is read: another reader's plan from the
	// same card ("SoloLaunch offer: $12 $8/month", a badge glued to the name
	// and the struck-through price kept) is the same plan read worse.
	plans = slices.DeleteFunc(plans, func(x plan) bool {
		return x.card == nil && slices.ContainsFunc(plans, func(g plan) bool {
			return g.card != nil && g.p == x.p && cardHolds(g.card, x.priceLine)
		})
	})
	plans = slices.DeleteFunc(plans, func(x plan) bool {
		return !strings.HasPrefix(x.priceLine, x.name) && slices.ContainsFunc(plans, func(y plan) bool {
			return y.priceLine == x.priceLine && y.name != x.name && strings.HasPrefix(y.priceLine, y.name)
		})
	})
	var sum domain.DraftedValue
	seen := map[string]bool{}
	var unnamed []plan
	plans = slices.DeleteFunc(plans, func(x plan) bool {
		if x.prose {
			unnamed = append(unnamed, x)
		}
		return x.prose
	})
	for _, pl := range plans {
		key := strings.ToLower(pl.name)
		if seen[key] || len(seen) == 6 {
			continue
		}
		seen[key] = true
		if sum.Text != "" {
			sum.Text += "; "
		}
		sum.Text += pl.name + ": " + pl.price
		sum.Evidence = append(sum.Evidence, pl.p.ev(pl.name), pl.p.ev(pl.priceLine))
		if pl.period != "" {
			sum.Evidence = append(sum.Evidence, pl.p.ev(pl.period))
		}
	}
	if len(plans) == 0 {
		sum = proseSummary(append(append([]pline{}, period...), append(usage, once...)...), s.brand)
		if sum.Text != "" {
			sum = withFreeNamed(sum, free, s.brand)
		}
	}
	// Prose under a pricing heading that the sentence reader could not
	// read ("Start free, upgrade to Pro for $8/month") still states a price.
	if sum.Text == "" && len(unnamed) > 0 {
		sum = domain.DraftedValue{Text: unnamed[0].price, Evidence: []domain.Evidence{unnamed[0].p.ev(unnamed[0].priceLine)}}
	}
	if sum.Text == "" {
		sum = s.ldOffers()
	}
	s.set("pricing_summary", sum)
}

func segLines(p *page, seg *segment, brand string) []pline {
	out := []pline{}
	if seg.title != "" && !seg.foreign {
		out = append(out, pline{p, seg.title})
	}
	for _, l := range seg.lines {
		if !l.foreign && !l.footer && !within(l.node, atom.Nav, atom.Header) && !inComparison(l.node, brand) {
			out = append(out, pline{p, l.text})
		}
	}
	return out
}

func dedupeLines(ls []pline) []pline {
	var out []pline
	seen := map[string]bool{}
	for _, l := range ls {
		k := l.p.wp.URL + "\x00" + l.l
		if !seen[k] {
			seen[k] = true
			out = append(out, l)
		}
	}
	return out
}

// plan is a named plan and the price shown for it.
type plan struct {
	p         *page
	name      string
	price     string     // the price as shown (the line, or the price phrase of a long line)
	priceLine string     // the quote
	period    string     // the period on a line of its own below the price ("al mese"), also quoted
	card      *html.Node // the grid's card the plan was read from (gridPlans), if any
	once      string     // the sentence after the price that says it is paid once, also quoted
	prose     bool       // a price in prose under a pricing heading: no name, read as prose first
}

// segPlans reads plan cards: a heading (below the page title) whose text
// before the next heading shows a price, "Free" or "Contact sales".
func segPlans(p *page, segs []*segment) []plan {
	var out []plan
	for _, seg := range segs {
		if seg.level < 2 || seg.foreign || strings.HasSuffix(seg.title, "?") || len(strings.Fields(seg.title)) > 5 || allPlans.MatchString(seg.title) || feeHeading.MatchString(seg.title) {
			continue
		}
		for j, l := range seg.lines {
			// A table's cells are read by tablePlans: a "Compare plans"
			// heading over a table is no plan.
			if l.foreign || trialRe.MatchString(l.text) || isPriceTrap(l.text) || percentFee.MatchString(l.text) || within(l.node, atom.Table) {
				continue
			}
			if m := priceRe.FindString(l.text); m != "" {
				// "Pricing" over "Acme is free for one brewer. Breweries
				// pay $25 per tank.": a section of prose, read as prose.
				price := l.text
				if proseUnderPricing(seg.title, l.text) {
					out = append(out, plan{p: p, price: shortPrice(price), priceLine: l.text, prose: true})
					break
				}
				if len(price) > 60 {
					price = m
				}
				pl := plan{p: p, name: seg.title, price: price, priceLine: l.text}
				if j+1 < len(seg.lines) {
					pl = withOnce(withPeriod(pl, seg.lines[j+1].text), seg.lines[j+1].text)
				}
				out = append(out, pl)
				break
			}
			if len(l.text) <= 40 && freeCardLine.MatchString(l.text) {
				out = append(out, plan{p: p, name: seg.title, price: l.text, priceLine: l.text})
				break
			}
			if m := freeOpenTier.FindString(l.text); m != "" {
				out = append(out, plan{p: p, name: seg.title, price: m, priceLine: l.text})
				break
			}
			if len(l.text) <= 30 && shortFreeOrContact.MatchString(l.text) {
				out = append(out, plan{p: p, name: seg.title, price: l.text, priceLine: l.text})
				break
			}
		}
	}
	return out
}

// tablePlans reads a pricing table: plan names in the header row (a first
// column may label the rows) and a row whose cells are prices, "Free" or "On
// request"; or one plan a row, its name in the first column and its price in
// the column headed "Price" (in any of our languages).
func tablePlans(p *page, brand string) []plan {
	var out []plan
	forEach(p.doc, false, func(t *html.Node) bool {
		if t.DataAtom != atom.Table || foreign(t) {
			return true
		}
		// A table of extras under an "Options" or "Add-ons" heading is no plan table.
		if comparisonTable(t, brand) || addOnLabel.MatchString(headingBefore(t)) {
			return false
		}
		var rows [][]string
		forEach(t, false, func(n *html.Node) bool {
			if n.DataAtom == atom.Tr {
				var cells []string
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.DataAtom == atom.Th || c.DataAtom == atom.Td {
						cells = append(cells, nodeText(c))
					}
				}
				rows = append(rows, cells)
				return false
			}
			return true
		})
		if len(rows) < 2 {
			return false
		}
		head := rows[0]
		// One plan a row: a header cell names the price column.
		col := -1
		for i, h := range head {
			if i > 0 && priceLabel.MatchString(strings.TrimSpace(h)) {
				col = i
				break
			}
		}
		// No label in our words: the column whose every body cell is a price
		// ("19 zł / mies.", "1,980円") is the price column, by structure.
		// An empty corner cell over named columns is a table of plans as
		// columns, read below ("| ベーシック | ビジネス" over "月額 | 1,980円 | 3,480円").
		corner := strings.TrimSpace(head[0]) == "" && len(head) > 2 && !slices.Contains(head[1:], "")
		for i := 1; col < 0 && !corner && i < len(head); i++ {
			all := true
			for _, r := range rows[1:] {
				all = all && len(r) == len(head) && planPrice(r[i]) && !trialRe.MatchString(r[i])
			}
			if all {
				col = i
			}
		}
		if col > 0 {
			var found []plan
			for _, r := range rows[1:] {
				if len(r) == len(head) && r[0] != "" && planPrice(r[col]) && !trialRe.MatchString(r[col]) {
					pl := plan{p: p, name: r[0], price: r[col], priceLine: r[col]}
					if !periodRe.MatchString(r[col]) && periodRe.MatchString(head[col]) {
						pl.period = head[col] // "月額（税込）" heads the column of prices
					}
					found = append(found, pl)
				}
			}
			if len(found) > 0 {
				out = append(out, found...)
				return false
			}
		}
		for _, r := range rows[1:] {
			if len(r) != len(head) {
				continue
			}
			var found []plan
			for i := range r {
				if head[i] == "" || r[i] == "" {
					continue
				}
				if planPrice(r[i]) {
					pl := plan{p: p, name: head[i], price: r[i], priceLine: r[i]}
					if i > 0 && !periodRe.MatchString(r[i]) && periodRe.MatchString(r[0]) {
						pl.period = r[0] // "月額（1ユーザー） | 1,980円 | 3,480円": the row's label is the period
					}
					found = append(found, pl)
				}
			}
			if len(found) >= 2 {
				out = append(out, found...)
				break
			}
		}
		return false
	})
	return out
}
