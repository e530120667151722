package extract

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// Plans by the grid they sit in, as site builders write them: whatever the
// cards' classes say (a featured card's combo class, Tailwind's utility
// classes differ from card to card) and however deep the card sits (a
// Bootstrap col > card, an Element UI el-col > price-card), a pricing grid
// is two or more sibling elements of one tag that each hold a price. A
// card's name is the short line before its price that every card has at
// the same place (a badge such as "Most popular" sits in one card only);
// a price split across elements ("$" "19" "/agent/mo") is read as one.

// gridItem is one line of a card: its text, its element and its place.
type gridItem struct {
	text string
	node *html.Node
}

// gridCard is a card of a pricing grid and its lines.
type gridCard struct {
	node  *html.Node
	items []gridItem
	price int // index of the card's price line
}

var (
	// loneCurrency is a line that is only a currency: the amount is the next line.
	loneCurrency = lazyMustCompile(`^(?:[$€£¥₩₺￥＄]|US\$|R\$|[A-Z]{3}|zł|kr|Kč|円|원|元|Ft|lei)$`)
	// loneAmount is a line that is only an amount.
	loneAmount = lazyMustCompile(`^[\d０-９](?:[\d０-９.,  '，．]*[\d０-９])?$`)
	// oldPriceHint is the class of a price struck through by style
	// (Elementor's original-price, "price--old", "was-price", "compare-at").
	oldPriceHint = lazyMustCompile(`(?i)original|old[-_]?price|price[-_]?old|was[-_]?price|\bwas\b|__was|strike|crossed|line-through|compare[-_]?at`)
	// addOnLabel heads prices that are extras bought beside a plan.
	addOnLabel = lazyMustCompile(`(?i)\badd[- ]?ons?\b|\bextras\b|\boptional extras\b|\bzusatz\w*|\bextras?\s+options?\b|\boptions? (payantes|supplémentaires)\b|\bcomplementos\b|\bdodatki\b|\btillägg\b|\bdoplňky\b|\bek hizmetler\b|オプション|추가 옵션|부가 서비스|附加|增值服务|加购`)
)

// gridPlans reads the plan cards of a page's pricing grids. addOns are the
// price lines of grids introduced as add-ons or extras: no reader may take
// them for plans.
func gridPlans(p *page) (out []plan, addOns map[string]bool) {
	addOns = map[string]bool{}
	if p.doc == nil {
		return nil, addOns
	}
	// prices are the elements of the amounts (the grid's seeds), all those
	// of every price line ("Free" and "Custom" too).
	var prices, all []*html.Node
	items := gridLines(p.doc)
	for i, it := range items {
		if t, _, _ := splitPrice(items, i); t != "" && !within(it.node, atom.Nav, atom.Header, atom.Footer) {
			all = append(all, it.node)
			if hasDigit(t) {
				prices = append(prices, it.node)
			}
		}
	}
	if len(prices) < 2 {
		return nil, addOns
	}
	seenGrid := map[*html.Node]bool{}
	for _, pn := range prices {
		card := gridCardOf(pn, prices)
		if card == nil || seenGrid[card.Parent] {
			continue
		}
		seenGrid[card.Parent] = true
		if addOnLabel.MatchString(gridLabel(card.Parent, all)) {
			for i, it := range items {
				if _, q, _ := splitPrice(items, i); q != "" && isInside(it.node, card.Parent) {
					addOns[q] = true
				}
			}
			continue
		}
		out = append(out, readGrid(p, card, all)...)
	}
	return out, addOns
}

// gridCardOf is the nearest ancestor of the price element n that is one of
// two or more sibling elements of its tag each holding an amount.
func gridCardOf(n *html.Node, prices []*html.Node) *html.Node {
	for a := n; a != nil && a.Parent != nil && a.DataAtom != atom.Body && a.DataAtom != atom.Main; a = a.Parent {
		if a.Type != html.ElementNode {
			continue
		}
		same := 0
		for c := a.Parent.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && c.DataAtom == a.DataAtom && holdsAny(c, prices) {
				same++
			}
		}
		if same >= 2 {
			return a
		}
	}
	return nil
}

func holdsAny(a *html.Node, ns []*html.Node) bool {
	for _, n := range ns {
		if isInside(n, a) {
			return true
		}
	}
	return false
}

// readGrid reads the cards beside card (its siblings of its tag holding a price).
func readGrid(p *page, card *html.Node, prices []*html.Node) []plan {
	grid := card.Parent
	var cards []gridCard
	for c := grid.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.DataAtom != card.DataAtom || !holdsAny(c, prices) || foreign(c) {
			continue
		}
		// The card's price is its first amount, else its first other price
		// line below its first line ("Self-hosted" over "Free").
		gc := gridCard{node: c, items: gridLines(c), price: -1}
		for i := range gc.items {
			if t, _, _ := splitPrice(gc.items, i); hasDigit(t) {
				gc.price = i
				break
			}
		}
		for i := 1; gc.price < 0 && i < len(gc.items); i++ {
			if t, _, _ := splitPrice(gc.items, i); t != "" {
				gc.price = i
			}
		}
		if gc.price > 0 {
			cards = append(cards, gc)
		}
	}
	if len(cards) < 2 {
		return nil
	}
	// The name's place: the key (tag, depth, class) of a line before the
	// price that every card has; without classes in common, tag and depth.
	name := func(withClass, heading bool) []int {
		count := map[string]int{}
		for _, c := range cards {
			seen := map[string]bool{}
			for _, it := range c.items[:c.price] {
				k := itemKey(it.node, c.node, withClass)
				if !seen[k] {
					seen[k] = true
					count[k]++
				}
			}
		}
		var idx []int
		for _, c := range cards {
			j := -1
			for i, it := range c.items[:c.price] {
				if count[itemKey(it.node, c.node, withClass)] == len(cards) && isPlanName(it.text) && (!heading || headingLevel[it.node.DataAtom] > 0) {
					j = i
					break
				}
			}
			if j < 0 {
				return nil
			}
			idx = append(idx, j)
		}
		return idx
	}
	// A heading at the same place in every card is the name ("<h3>Hobby</h3>"
	// whatever its utility classes); else a line of the same class; else a
	// line of the same tag and depth.
	idx := name(false, true)
	if idx == nil {
		idx = name(true, false)
	}
	if idx == nil {
		idx = name(false, false)
	}
	if idx == nil {
		return nil
	}
	var out []plan
	for k, c := range cards {
		price, quote, n := splitPrice(c.items, c.price)
		if isPriceTrap(quote) || trialRe.MatchString(quote) {
			continue
		}
		pl := plan{p: p, name: c.items[idx[k]].text, price: price, priceLine: quote, card: c.node}
		next := c.price + n
		if next < len(c.items) && len(c.items[next].text) <= 2 && loneAmount.MatchString(c.items[next].text) {
			next++ // the cents of "£29" "00" "per month"
		}
		if next < len(c.items) {
			pl = withOnce(withPeriod(pl, c.items[next].text), c.items[next].text)
		}
		out = append(out, pl)
	}
	return out
}

// isPlanName reports whether s can be a plan's name: short, no price, no question.
func isPlanName(s string) bool {
	return s != "" && len(strings.Fields(s)) <= 4 && len(s) <= 40 && !priceRe.MatchString(s) && !strings.HasSuffix(s, "?") && !loneAmount.MatchString(s)
}

// itemKey is the place of n inside card: its tag, its depth and (withClass) its class.
func itemKey(n, card *html.Node, withClass bool) string {
	depth := 0
	for a := n; a != nil && a != card; a = a.Parent {
		depth++
	}
	k := n.Data + "@" + string(rune('0'+depth%10))
	if withClass {
		k += "." + attr(n, "class")
	}
	return k
}

// gridLabel is the text that introduces a grid: the grid's own lines
// outside its cards and the heading or line just before it.
func gridLabel(grid *html.Node, prices []*html.Node) string {
	var b strings.Builder
	for c := grid.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && !holdsAny(c, prices) {
			b.WriteString(nodeText(c) + " ")
		}
	}
	for prev := grid.PrevSibling; prev != nil; prev = prev.PrevSibling {
		if prev.Type == html.ElementNode {
			b.WriteString(nodeText(prev))
			break
		}
	}
	return b.String()
}

// gridLines are the lines of n as the page shows them (hidden elements,
// struck-through old prices, tables, controls and testimonials left out),
// each with the block element that holds it: inline runs ("<span>£</span>
// <span>29</span>") are one line, a block ends a line. A line made of two
// or more inline elements with no price, no bare amount and no text of the block's own (a
// flex row "<span>Solo</span><span>Launch offer</span>") gives those
// elements' texts one by one.
func gridLines(n *html.Node) []gridItem { return cardLines(n, false) }

// cardLines are gridLines; withControls keeps the text of buttons (an
// accordion row's title is its button).
func cardLines(n *html.Node, withControls bool) []gridItem {
	var out []gridItem
	var run strings.Builder
	var parts []*html.Node
	direct := false
	flush := func(block *html.Node) {
		t := strings.Join(strings.Fields(run.String()), " ")
		run.Reset()
		ps := parts
		parts, direct = nil, false
		if t == "" {
			return
		}
		if len(ps) >= 2 && !direct && !priceRe.MatchString(t) && !slices.ContainsFunc(ps, func(p *html.Node) bool { return loneAmount.MatchString(strings.TrimSpace(nodeText(p))) }) {
			for _, p := range ps {
				if s := strings.Join(strings.Fields(visibleText(p)), " "); s != "" {
					out = append(out, gridItem{text: s, node: p})
				}
			}
			return
		}
		if len(ps) == 1 && !direct {
			block = ps[0] // "<header><span class=name>Studio</span></header>": the span is the line's place
		}
		out = append(out, gridItem{text: t, node: block})
	}
	var walk func(n, block *html.Node, top bool)
	walk = func(n, block *html.Node, top bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.TextNode {
				if strings.TrimSpace(c.Data) != "" && top {
					direct = true
				}
				run.WriteString(c.Data)
				continue
			}
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Script, atom.Style, atom.Template, atom.Table, atom.Svg, atom.Select, atom.Noscript:
				continue
			case atom.Button:
				if !withControls {
					continue
				}
			}
			if htmltext.Hidden(c) {
				if htmltext.HiddenGap(c) {
					flush(block) // the text ends its line at hidden content, as the page's text does
				}
				continue
			}
			if foreign(c) {
				continue
			}
			if c.DataAtom == atom.S || c.DataAtom == atom.Del || c.DataAtom == atom.Strike || oldPriceHint.MatchString(attr(c, "class")) {
				// A struck-through old price ends nothing and is not read.
				run.WriteString(" ")
				continue
			}
			gap := htmltext.Apart(c) // the page's text sets such an element apart
			if blockTags[c.DataAtom] || headingLevel[c.DataAtom] > 0 || gap == htmltext.Line {
				flush(block)
				walk(c, c, true)
				flush(c)
				continue
			}
			if top && strings.TrimSpace(nodeText(c)) != "" {
				parts = append(parts, c)
			}
			if gap == htmltext.Space {
				run.WriteString(" ")
			}
			walk(c, block, false)
			if gap == htmltext.Space {
				run.WriteString(" ")
			}
		}
	}
	walk(n, n, true)
	flush(n)
	return out
}

// visibleText is n's text without its struck-through parts ("<s>$12</s> $8" is "$8").
func visibleText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type == html.ElementNode:
				if c.DataAtom == atom.S || c.DataAtom == atom.Del || c.DataAtom == atom.Strike || oldPriceHint.MatchString(attr(c, "class")) || htmltext.Hidden(c) {
					b.WriteString(" ")
					continue
				}
				if htmltext.Apart(c) != htmltext.Inline {
					b.WriteString(" ")
				}
				walk(c)
				if htmltext.Apart(c) != htmltext.Inline {
					b.WriteString(" ")
				}
			}
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// splitPrice reads the price that starts at items[i]: a line that is a plan's
// price ("$25", "Free", "49 元/月"), or a currency alone followed by its
// amount ("$" then "19"), or an amount followed by its currency ("29" then
// "zł"). It returns the price as shown, its quote (two lines joined by a
// space: the gate reads a break as a space) and how many lines it took.
func splitPrice(items []gridItem, i int) (price, quote string, n int) {
	t := items[i].text
	if i+1 < len(items) {
		next := items[i+1].text
		if loneCurrency.MatchString(t) && loneAmount.MatchString(next) {
			return t + next, t + " " + next, 2
		}
		if loneAmount.MatchString(t) && loneCurrency.MatchString(next) {
			return t + " " + next, t + " " + next, 2
		}
	}
	if len(t) <= 60 && planPrice(t) && !loneAmount.MatchString(t) {
		return t, t, 1
	}
	return "", "", 0
}

// cardHolds reports whether the text of an element of card is quote.
func cardHolds(card *html.Node, quote string) bool {
	found := false
	forEach(card, false, func(n *html.Node) bool {
		found = found || nodeText(n) == quote || domain.NormalizeSpace(nodeText(n)) == quote
		return !found
	})
	return found
}

// headingBefore is the text of the heading nearest before n in the page
// (a previous sibling of n or of an ancestor), or "".
func headingBefore(n *html.Node) string {
	for a := n; a != nil; a = a.Parent {
		for prev := a.PrevSibling; prev != nil; prev = prev.PrevSibling {
			if prev.Type != html.ElementNode {
				continue
			}
			if headingLevel[prev.DataAtom] > 0 {
				return nodeText(prev)
			}
			if hasHeading(prev) {
				return ""
			}
		}
	}
	return ""
}
