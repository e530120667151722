package extract

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// pricingLinked are the paths of the site's own pages that a link names as
// pricing by its text ("Cloud pricing", "Preise", "料金プラン"), whatever the
// page's path ("/cloud", "/rates"): the site says which page holds its prices.
func (s *site) pricingLinked() map[string]bool {
	out := map[string]bool{}
	for _, p := range s.content() {
		forEach(p.doc, false, func(n *html.Node) bool {
			if n.DataAtom != atom.A {
				return true
			}
			t := nodeText(n)
			if t == "" || len(t) > 40 || strings.HasSuffix(t, "?") || !pricingHdr.MatchString(t) {
				return false
			}
			u, err := url.Parse(p.resolve(attr(n, "href")))
			if err == nil && strings.EqualFold(u.Hostname(), p.base.Hostname()) {
				out[pathKey(u.Path)] = true
			}
			return false
		})
	}
	return out
}

// pathKey is a path without its trailing slash, for comparing links with pages.
func pathKey(p string) string {
	if k := strings.TrimSuffix(p, "/"); k != "" {
		return k
	}
	return "/"
}

// pricedGrid reports whether grid holds two or more plans of which one is
// priced: a pricing grid, on whatever page the site put it.
func pricedGrid(grid []plan) bool {
	priced := 0
	for _, pl := range grid {
		if hasDigit(pl.price) {
			priced++
		}
	}
	return len(grid) >= 2 && priced >= 1
}

// openHomeLine: a line of the home page that calls the product open source
// and names its licence ("an open-source wiki … MIT licensed"). With a free
// plan on the pricing page (the self-hosted edition) beside hosted plans, it
// makes the model open-source rather than freemium.
func (s *site) openHomeLine() (pline, bool) {
	for _, p := range s.byKind(kindHome) {
		if p.kind != kindHome {
			break
		}
		for _, l := range p.ownLines() {
			if openRe.MatchString(l.text) && licenseRe.MatchString(l.text) {
				return pline{p, l.text}, true
			}
		}
	}
	return pline{}, false
}

// planWordEnd is a lower-case plan word ending a plan's name in prose ("The
// Team plan"), dropped before the capitalised name is read.
var planWordEnd = lazyMustCompile(`\s+(?:plan|tier|edition|package)$`)

// freeNamedRe is a plan named free in a sentence: "The Solo plan is free
// for up to 5 students", "Hobby is free".
var freeNamedRe = lazyMustCompile(`^(?:(?:The|Our)\s+)?(\p{Lu}[\p{L}\d+-]*)(?:\s+(?:plan|tier|edition))?\s+(?:is|stays|remains)\s+(?:(?:always|completely|totally)\s+)?free\b`)

// withFreeNamed puts a plan that a sentence names free before the priced
// plans read from prose: "Solo: free" then "Studio: $12 a month".
func withFreeNamed(sum domain.DraftedValue, free []pline, brand string) domain.DraftedValue {
	for _, f := range free {
		m := freeNamedRe.FindStringSubmatch(strings.TrimSpace(f.l))
		if m == nil || isBrand(m[1], brand) || stopNames[strings.ToLower(m[1])] || strings.Contains(sum.Text, m[1]+":") {
			continue
		}
		sum.Text = m[1] + ": free; " + sum.Text
		sum.Evidence = append([]domain.Evidence{f.p.ev(f.l)}, sum.Evidence...)
		return sum
	}
	return sum
}
