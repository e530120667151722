package htmltext

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// Gap is how the text of an element whose tag flows inline (a span, a
// link) stands to its neighbours' as its layout shows it: glued, apart by
// a space, or on a line of its own.
type Gap int

const (
	Inline Gap = iota // flows with its neighbours: "<b>Acme</b>ly" is "Acmely"
	Space             // a word apart on the same line
	Line              // a box of its own: Text gives it its own line
)

// Apart returns the gap a reader sees around n:
//
//   - Line when its own style or class displays it as a block
//     ("display:block", Tailwind's "block" or "flex", Bootstrap's
//     "d-block"), or when it is an item of a flex or grid container that
//     holds only elements and lays its items out apart: a grid, a column,
//     items spread over the row ("justify-between"), or a gap of 0.75rem or
//     more ("flex gap-6", "d-flex justify-content-between", "gap: 1rem");
//   - Space when it is an item of such a flex container with a smaller gap
//     ("flex items-baseline gap-x-1": "$25" and "/month" read "$25 /month"),
//     or with a margin or padding of its own ("ml-1");
//   - Inline otherwise.
//
// React and Vue write such rows with no whitespace between the elements, so
// without their layout "<span>Made in Montréal</span><span>© 2025 Acme
// Inc.</span>" would read "Made in Montréal© 2025 Acme Inc.". Words split
// over spans that are one word on screen stay one: spans in a flex row
// without a gap touch ("$9" and "/user" in "flex items-baseline"), and
// spans outside flex and grid flow inline ("<span>Ac</span><span>me</span>").
//
// The classes' layout includes what the page's own <style> elements say of
// them (sheet).
func Apart(n *html.Node) Gap {
	if n.Type != html.ElementNode || blocks[n.DataAtom] || skipped[n.DataAtom] {
		return Inline
	}
	return apart(sheetOf(n), n)
}

// apart is Apart with the sheet of n's document.
func apart(s *sheet, n *html.Node) Gap {
	if n.Type != html.ElementNode || blocks[n.DataAtom] || skipped[n.DataAtom] {
		return Inline
	}
	own := layoutOf(s, n)
	if own.block {
		return Line
	}
	p := n.Parent
	if p == nil || p.Type != html.ElementNode {
		return Inline
	}
	box := layoutOf(s, p)
	if !box.flex && !box.grid {
		return Inline
	}
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return Inline // a sentence with its links and icons: its words flow
		}
	}
	switch {
	case box.grid || box.apart:
		return Line
	case box.gap || own.spaced:
		return Space
	}
	return Inline
}

// layout is what an element's inline style and utility classes say of its
// display.
type layout struct {
	block  bool // displayed as a block-level box
	flex   bool // a flex container (block or inline)
	grid   bool // a grid container
	apart  bool // a container that lays its items apart: a column, spread, a wide gap
	gap    bool // a container with a narrower gap between its items
	spaced bool // an item with a horizontal margin or padding
}

// layoutOf reads n's style attribute and class tokens, and the rules the
// sheet s has for its classes (a later or more specific rule wins, and the
// element's own style over them). A responsive
// prefix ("md:flex", "sm:flex-row") is read as the class it prefixes: the
// layout of one screen width is enough to set items apart.
func layoutOf(s *sheet, n *html.Node) layout {
	var l layout
	class, style := "", ""
	for _, a := range n.Attr {
		switch a.Key {
		case "class":
			class = a.Val
		case "style":
			style = a.Val
		}
	}
	if class == "" && style == "" {
		return l
	}
	for tok := range strings.FieldsSeq(strings.ToLower(class)) {
		if i := strings.LastIndexByte(tok, ':'); i >= 0 {
			tok = tok[i+1:]
		}
		switch tok {
		case "block", "d-block", "flex", "d-flex", "grid", "d-grid":
			l.block = true
		}
		switch {
		case tok == "flex" || tok == "inline-flex" || tok == "d-flex" || tok == "d-inline-flex" || bootstrapDisplay(tok, "flex"):
			l.flex = true
			l.block = l.block || bootstrapDisplay(tok, "flex")
		case tok == "grid" || tok == "inline-grid" || tok == "d-grid" || bootstrapDisplay(tok, "grid"):
			l.grid = true
			l.block = l.block || bootstrapDisplay(tok, "grid")
		case tok == "flex-col" || tok == "flex-column" || tok == "flex-col-reverse" || tok == "flex-column-reverse",
			tok == "justify-between" || tok == "justify-around" || tok == "justify-evenly",
			tok == "justify-content-between" || tok == "justify-content-around" || tok == "justify-content-evenly",
			strings.HasPrefix(tok, "space-y-"):
			l.apart = true
		case hasUtilityPrefix(tok, "gap-", "gap-x-", "column-gap-", "space-x-"):
			// Tailwind's sizes are quarters of a rem, Bootstrap's 1-5 step
			// from 0.25 to 3rem: from 3 on, both are 0.75rem or more
			if wideSize(tok) {
				l.apart = true
			} else {
				l.gap = true
			}
		case hasUtilityPrefix(tok, "mx-", "ml-", "mr-", "ms-", "me-", "px-", "pl-", "pr-", "ps-", "pe-"):
			l.spaced = true
		}
	}
	var won map[string]rule
	if s != nil && class != "" {
		won = s.declarations(n.DataAtom, strings.ToLower(class))
	}
	if style == "" && won == nil {
		return l
	}
	var inline [][2]string
	for decl := range strings.SplitSeq(strings.ToLower(style), ";") {
		prop, val, _ := strings.Cut(decl, ":")
		prop = strings.TrimSpace(prop)
		inline = append(inline, [2]string{prop, strings.Join(strings.Fields(val), " ")})
		delete(won, prop) // an element's own style wins over the sheet's
	}
	for prop, r := range won {
		l.declare(prop, r.val)
	}
	for _, d := range inline {
		l.declare(d[0], d[1])
	}
	return l
}

// declare adds what one CSS declaration says of an element's layout.
func (l *layout) declare(prop, val string) {
	switch prop {
	case "display":
		switch val {
		case "block", "flex", "grid", "list-item", "table":
			l.block = true
		}
		l.flex = l.flex || strings.HasSuffix(val, "flex")
		l.grid = l.grid || strings.HasSuffix(val, "grid")
	case "gap", "column-gap", "grid-gap", "grid-column-gap":
		l.apart = l.apart || wideLength(val)
		l.gap = l.gap || !zeroLength(val)
	case "flex-direction", "flex-flow":
		l.apart = l.apart || strings.HasPrefix(val, "column")
	case "justify-content":
		l.apart = l.apart || strings.HasPrefix(val, "space-")
	case "margin", "padding":
		// the horizontal part of the shorthand: its second value, or its one
		parts := strings.Fields(val)
		if len(parts) > 1 {
			parts = parts[1:]
		}
		l.spaced = l.spaced || len(parts) > 0 && !zeroLength(parts[0])
	case "margin-left", "margin-right", "margin-inline", "margin-inline-start", "margin-inline-end",
		"padding-left", "padding-right", "padding-inline", "padding-inline-start", "padding-inline-end":
		l.spaced = l.spaced || !zeroLength(val)
	}
}

// bootstrapDisplay reports whether tok is Bootstrap's responsive display
// class for kind ("d-md-flex", "d-lg-grid").
func bootstrapDisplay(tok, kind string) bool {
	mid, ok := strings.CutPrefix(tok, "d-")
	if !ok {
		return false
	}
	bp, k, ok := strings.Cut(mid, "-")
	return ok && k == kind && (bp == "sm" || bp == "md" || bp == "lg" || bp == "xl" || bp == "xxl")
}

// hasUtilityPrefix reports whether tok is a spacing utility with one of the
// prefixes and a size that is not zero ("gap-4", "mr-2", "space-x-6",
// "ms-auto"; not "gap-0", "mx-0").
func hasUtilityPrefix(tok string, prefixes ...string) bool {
	for _, p := range prefixes {
		if size, ok := strings.CutPrefix(tok, p); ok && size != "" && size != "0" && size != "px" && size != "0.5" {
			return true
		}
	}
	return false
}

// wideSize reports whether a spacing utility's size ("gap-x-6") is 3 or
// more.
func wideSize(tok string) bool {
	size := tok[strings.LastIndexByte(tok, '-')+1:]
	f, err := strconv.ParseFloat(size, 64)
	return err == nil && f >= 3
}

// wideLength reports whether a CSS length is 0.75rem (12px) or more; the
// first value of a shorthand ("1rem 2rem") is read.
func wideLength(v string) bool {
	v, _, _ = strings.Cut(v, " ")
	px, ok := pixels(v)
	return ok && px >= 12
}

// pixels reads a CSS length in px, rem or em (16px) as pixels.
func pixels(v string) (float64, bool) {
	for _, u := range []struct {
		unit string
		px   float64
	}{{"px", 1}, {"rem", 16}, {"em", 16}} {
		if num, ok := strings.CutSuffix(v, u.unit); ok {
			f, err := strconv.ParseFloat(num, 64)
			return f * u.px, err == nil
		}
	}
	return 0, false
}

// zeroLength reports whether a CSS length is zero ("0", "0px", "0rem").
func zeroLength(v string) bool {
	return strings.TrimRight(strings.TrimLeft(v, "0."), "pxremt%") == "" || v == ""
}
