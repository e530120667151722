package extract

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

var (
	priceRe    = regexp.MustCompile(`(?:[$€£]\s?\d[\d,]*(?:\.\d+)?|\d[\d.,]*\s?(?:€|EUR|USD|GBP|CHF))`)
	zeroRe     = regexp.MustCompile(`(?:[$€£]\s?0(?:[.,]00)?\b|\b0\s?€)`)
	periodRe   = regexp.MustCompile(`(?i)/\s?(mo|month|yr|year|user|seat)\b|per (month|year|user|seat|agent|member)|a month|a year|\bmonthly\b|\byearly\b|annually|billed|monat|jahr|par mois`)
	usageRe    = regexp.MustCompile(`(?i)per 1[,.]?000\b|per (request|call|gb|minute|hour|email|message|credit|token|run)\b|pay[- ]as[- ]you[- ]go|\bcredits?\b`)
	oneTimeRe  = regexp.MustCompile(`(?i)one[- ]time|lifetime (licen[cs]e|deal|access|plan)|\blifetime\b|pay once|einmalig`)
	openRe     = regexp.MustCompile(`(?i)open[- ]source`)
	licenseRe  = regexp.MustCompile(`(?i)\b(mit|apache|gpl|agpl|lgpl|bsd|mpl)\b|licen[cs]ed|licen[cs]e`)
	freeRe     = regexp.MustCompile(`(?i)\bfree\b|\bkostenlos\b|\bgratis\b|\bgratuit\b`)
	trialRe    = regexp.MustCompile(`(?i)trial|testen|money-back|start (for )?free|try (it )?(for )?free|free to try`)
	contactRe  = regexp.MustCompile(`(?i)contact (sales|us for|us to get)|request a quote|get a quote|send (you )?a quote|book a demo|talk to sales|custom pricing`)
	pricingHdr = regexp.MustCompile(`(?i)\b(pricing|prices|plans|preise|tarife|tarifs)\b`)
	costQ      = regexp.MustCompile(`(?i)\b(cost|costs|price|pricing|free|pay|paid)\b`)
)

// pline is a line of pricing context and its page.
type pline struct {
	p *page
	l string
}

// draftPricing fills pricing_model and pricing_summary from what pricing
// pages, pricing sections, cost questions and JSON-LD offers show. Blog posts
// never count: a price there is about the post's subject.
func (s *site) draftPricing() {
	var ctx []pline
	var plans []plan
	for _, p := range s.content() {
		for i, seg := range p.segs {
			inPricing := p.kind == kindPricing || (pricingHdr.MatchString(seg.title) && !strings.HasSuffix(seg.title, "?"))
			if inPricing {
				for _, sub := range section(p.segs, i) {
					ctx = append(ctx, segLines(p, sub)...)
				}
				plans = append(plans, segPlans(p, section(p.segs, i))...)
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
		if p.kind == kindPricing || p.kind == kindHome {
			plans = append(plans, tablePlans(p)...)
		}
		if p.kind == kindPricing || p.kind == kindHome {
			for _, o := range p.ld {
				if hasType(o, "Offer") {
					if d := ldString(o, "description"); d != "" {
						ctx = append(ctx, pline{p, d})
					}
				}
			}
		}
	}
	ctx = dedupeLines(ctx)

	var free, paid, period, usage, once, open, license, contact []pline
	for _, c := range ctx {
		if trialRe.MatchString(c.l) && !oneTimeRe.MatchString(c.l) {
			continue
		}
		hasPrice := priceRe.MatchString(c.l) && !zeroRe.MatchString(c.l)
		if freeRe.MatchString(c.l) || zeroRe.MatchString(c.l) {
			free = append(free, c)
		}
		if hasPrice {
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
	var model string
	var ev []pline
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
	if model != "" {
		v := domain.DraftedValue{Text: model}
		for _, e := range ev {
			v.Evidence = append(v.Evidence, e.p.ev(e.l))
		}
		s.set("pricing_model", v)
	}

	var sum domain.DraftedValue
	seen := map[string]bool{}
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
	}
	s.set("pricing_summary", sum)
}

func segLines(p *page, seg *segment) []pline {
	out := []pline{}
	if seg.title != "" && !seg.foreign {
		out = append(out, pline{p, seg.title})
	}
	for _, l := range seg.lines {
		if !l.foreign && !l.footer && !within(l.node, atom.Nav, atom.Header) {
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
	price     string // the price as shown (the line, or the price phrase of a long line)
	priceLine string // the quote
}

var shortFreeOrContact = regexp.MustCompile(`(?i)^(free( forever)?|contact (sales|us)|custom( pricing)?|kostenlos|gratis)\b`)

// segPlans reads plan cards: a heading (below the page title) whose text
// before the next heading shows a price, "Free" or "Contact sales".
func segPlans(p *page, segs []*segment) []plan {
	var out []plan
	for _, seg := range segs {
		if seg.level < 2 || seg.foreign || strings.HasSuffix(seg.title, "?") || len(strings.Fields(seg.title)) > 5 {
			continue
		}
		for _, l := range seg.lines {
			if l.foreign || trialRe.MatchString(l.text) {
				continue
			}
			if m := priceRe.FindString(l.text); m != "" {
				price := l.text
				if len(price) > 60 {
					price = m
				}
				out = append(out, plan{p, seg.title, price, l.text})
				break
			}
			if len(l.text) <= 30 && shortFreeOrContact.MatchString(l.text) {
				out = append(out, plan{p, seg.title, l.text, l.text})
				break
			}
		}
	}
	return out
}

// tablePlans reads a pricing table: plan names in the header row, a row whose
// cells are prices or "Free".
func tablePlans(p *page) []plan {
	var out []plan
	forEach(p.doc, false, func(t *html.Node) bool {
		if t.DataAtom != atom.Table || foreign(t) {
			return true
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
		for _, r := range rows[1:] {
			if len(r) != len(head) {
				continue
			}
			var found []plan
			for i := range r {
				if head[i] == "" || r[i] == "" {
					continue
				}
				if priceRe.MatchString(r[i]) || (len(r[i]) <= 30 && shortFreeOrContact.MatchString(r[i])) {
					found = append(found, plan{p, head[i], r[i], r[i]})
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
