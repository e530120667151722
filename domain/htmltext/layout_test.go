package htmltext_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/launchdir/launchdir/domain/htmltext"
)

// TestPage_LayoutGaps: elements written with no whitespace between them
// (React and Vue output) read as a browser lays them out. Items of a flex
// or grid container set apart (a grid, a column, items spread over the row,
// a wide gap) and elements displayed as blocks are lines of their own;
// items with a narrow gap or a margin are words apart on one line. What is
// one word on screen stays one: inline elements outside flex and grid, a
// flex row without a gap, a sentence with its links.
func TestPage_LayoutGaps(t *testing.T) {
	for _, c := range []struct{ name, body, text string }{
		// set apart
		{"footer row, flex-col then justify-between", `<footer><div class="flex flex-col gap-4 sm:flex-row sm:justify-between"><span>Made in Montréal</span><span>© 2025 Threadline Labs Inc.</span><span>hello@threadline.io</span></div></footer>`,
			"Made in Montréal\n© 2025 Threadline Labs Inc.\nhello@threadline.io"},
		{"Bootstrap d-flex justify-content-between", `<div class="container d-flex flex-wrap justify-content-between"><span>© 2025 Pelote SAS</span><span>Nantes, France</span></div>`,
			"© 2025 Pelote SAS\nNantes, France"},
		{"wide gap", `<div class="flex gap-6"><a href="/privacy">Privacy</a><a href="/terms">Terms</a></div>`, "Privacy\nTerms"},
		{"grid", `<div class="grid grid-cols-2"><span>Montréal</span><span>Threads</span></div>`, "Montréal\nThreads"},
		{"inline style flex with a gap", `<div style="display: flex; gap: 16px"><span>Bergen</span><span>Norge</span></div>`, "Bergen\nNorge"},
		{"inline style column", `<div style="display:flex;flex-direction:column"><span>Bergen</span><span>Norge</span></div>`, "Bergen\nNorge"},
		{"block spans", `<p><span class="block">Montréal</span><span class="block">Threads</span></p>`, "Montréal\nThreads"},
		{"display:block", `<p><span style="display:block">Montréal</span><span>Threads</span></p>`, "Montréal\nThreads"},
		{"responsive prefix", `<div class="md:flex md:justify-between"><span>Leeds</span><span>© 2025 Tallyho Ltd</span></div>`, "Leeds\n© 2025 Tallyho Ltd"},
		// a word apart
		{"narrow gap", `<p class="flex items-baseline gap-x-1"><span>$25</span><span>/month</span></p>`, "$25 /month"},
		{"item margin", `<div class="flex items-baseline"><span>$12</span><span class="ml-1">per user / month</span></div>`, "$12 per user / month"},
		// one word on screen
		{"bold suffix", `<p><b>Acme</b>ly helps.</p>`, "Acmely helps."},
		{"split word", `<p><span>Ac</span><span>me</span></p>`, "Acme"},
		{"flex row without a gap", `<div class="flex items-baseline"><span>$9</span><span>/user</span></div>`, "$9/user"},
		{"zero gap", `<div class="flex gap-0"><span>Ac</span><span>me</span></div>`, "Acme"},
		{"inline-block", `<p><span class="inline-block">Ac</span><span class="inline-block">me</span></p>`, "Acme"},
		{"a sentence in a flex container", `<p class="flex gap-4">Made with <a href="/f">Framer</a><span>,</span> in Paris</p>`, "Made with Framer, in Paris"},
		{"brand in a wrapper span of a flex link", `<a href="/" class="flex items-center gap-2"><img src="/logo.svg" alt=""><span><span>Thread</span><span>line</span></span></a>`, "Threadline"},
	} {
		p := htmltext.Page("https://x.test/", "<html><body>"+c.body+"</body></html>")
		if p.Text != c.text {
			t.Errorf("%s: text %q, want %q", c.name, p.Text, c.text)
		}
		doc, _ := htmltext.Parse("<html><body>" + c.body + "</body></html>")
		if got := htmltext.Text(doc); got != c.text {
			t.Errorf("%s: Text %q, want %q", c.name, got, c.text)
		}
	}
}

// TestPage_LayoutFromStyleElement: a site's own CSS in a <style> element
// lays out its rows as its utility classes would: a flex row with a wide gap,
// a grid, a column and a row spread over its width are apart, a flex row
// without a gap stays glued, a selector that is not one class (descendant,
// pseudo-class, attribute) changes nothing, a later rule wins over an earlier
// one, and a media query that holds at a desktop width counts while others
// do not.
func TestPage_LayoutFromStyleElement(t *testing.T) {
	for _, c := range []struct{ name, style, body, text string }{
		{"flex row with a gap", `.nav{display:flex;gap:24px}`,
			`<nav><div class="nav"><a href="/pricing">Tarifs</a><a href="/about">À propos</a></div></nav>`, "Tarifs\nÀ propos"},
		{"spread row", `.footer-bottom { display: flex; justify-content: space-between }`,
			`<footer><div class="footer-bottom"><span>© 2025 Pelote SAS</span><span>Nantes, France</span></div></footer>`, "© 2025 Pelote SAS\nNantes, France"},
		{"grid", `div.cols{display:grid;grid-template-columns:1fr 1fr}`,
			`<div class="cols"><span>Bergen</span><span>Norge</span></div>`, "Bergen\nNorge"},
		{"column", `.a, .stack{display:flex;flex-direction:column}`,
			`<div class="stack"><span>Bergen</span><span>Norge</span></div>`, "Bergen\nNorge"},
		{"block", `.site-info{display:block}`,
			`<p><span class="site-info">Made in Leeds</span><span>© 2025 Tallyho Ltd</span></p>`, "Made in Leeds\n© 2025 Tallyho Ltd"},
		{"narrow gap", `.price{display:flex;gap:4px}`,
			`<p class="price"><span>$25</span><span>/month</span></p>`, "$25 /month"},
		{"item margin shorthand", `.row{display:flex}.per{margin:0 4px}`,
			`<div class="row"><span>$12</span><span class="per">per user</span></div>`, "$12 per user"},
		{"gapless flex row stays glued", `.price{display:flex;align-items:baseline}`,
			`<div class="price"><span>$9</span><span>/user</span></div>`, "$9/user"},
		{"ignored selectors", `.footer .row{display:flex;gap:2rem} .row:hover{display:grid} [class=row]{display:grid} #r{display:grid} .row.x{display:grid}`,
			`<div class="footer"><div id="r" class="row x"><span>Ac</span><span>me</span></div></div>`, "Acme"},
		{"a nested rule is left out, the rest of its parent read", `.row{display:flex; .x{display:block} gap:24px} .r2{display:flex;& span{margin:0 1em}}`,
			`<div class="row"><span>Ac</span><span>me</span></div><div class="r2"><span>Ro</span><span>ta</span></div>`, "Ac\nme\nRota"},
		{"later rule wins", `.row{display:flex;gap:24px} .row{display:inline}`,
			`<p><span class="row"><span>Ac</span><span>me</span></span></p>`, "Acme"},
		{"later rule wins, other way", `.row{display:inline} .row{display:flex;gap:24px}`,
			`<p><span class="row"><span>Ac</span><span>me</span></span></p>`, "Ac\nme"},
		{"inline style over the sheet", `.row{display:flex;gap:24px}`,
			`<div class="row" style="gap:0"><span>Ac</span><span>me</span></div>`, "Acme"},
		{"desktop media query", `@media (min-width: 768px) { .row{display:flex;justify-content:space-between} }`,
			`<div class="row"><span>Leeds</span><span>© 2025 Tallyho Ltd</span></div>`, "Leeds\n© 2025 Tallyho Ltd"},
		{"other media queries", `@media (max-width: 600px) { .row{display:grid} } @media print { .row{display:grid} } @media (min-width: 1400px) { .row{display:grid} }`,
			`<div class="row"><span>Ac</span><span>me</span></div>`, "Acme"},
	} {
		page := "<html><head><style>" + c.style + "</style></head><body>" + c.body + "</body></html>"
		p := htmltext.Page("https://x.test/", page)
		if p.Text != c.text {
			t.Errorf("%s: text %q, want %q", c.name, p.Text, c.text)
		}
		doc, _ := htmltext.Parse(page)
		if got := htmltext.Text(doc); got != c.text {
			t.Errorf("%s: Text %q, want %q", c.name, got, c.text)
		}
	}
}

// TestPage_StyleElementBound: the CSS read per page is bounded; a rule
// past the bound is left out, one before it still counts.
func TestPage_StyleElementBound(t *testing.T) {
	filler := strings.Repeat(".pad{color:red}\n", 200<<10/16)
	body := `<div class="early"><span>Ac</span><span>me</span></div><div class="late"><span>Ro</span><span>ta</span></div>`
	page := "<html><head><style>.early{display:grid}" + filler + ".late{display:grid}</style></head><body>" + body + "</body></html>"
	if got, want := htmltext.Page("https://x.test/", page).Text, "Ac\nme\nRota"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
}

// TestApart_SheetOfEachDocument: Apart reads the <style> of the document the
// element belongs to, whichever document was read before.
func TestApart_SheetOfEachDocument(t *testing.T) {
	grid, _ := htmltext.Parse(`<html><head><style>.row{display:grid}</style></head><body><div class="row"><span>a</span><span>b</span></div></body></html>`)
	plain, _ := htmltext.Parse(`<html><head><style>.row{display:inline}</style></head><body><div class="row"><span>a</span><span>b</span></div></body></html>`)
	span := func(doc *html.Node) *html.Node {
		return doc.LastChild.LastChild.FirstChild.FirstChild // html > body > div > span
	}
	for range 2 {
		if got := htmltext.Apart(span(grid)); got != htmltext.Line {
			t.Errorf("grid row item: %v, want Line", got)
		}
		if got := htmltext.Apart(span(plain)); got != htmltext.Inline {
			t.Errorf("plain row item: %v, want Inline", got)
		}
	}
}

// TestApart_OnlyInlineElements: block elements and text are never Apart's;
// their lines are the blocks'.
func TestApart_OnlyInlineElements(t *testing.T) {
	doc, _ := htmltext.Parse(`<html><body><div class="flex gap-6"><div>A</div><p>B</p>C</div></body></html>`)
	var n = doc
	for n.FirstChild != nil {
		n = n.LastChild
	}
	if got := htmltext.Apart(n); got != htmltext.Inline {
		t.Errorf("text node: %v, want Inline", got)
	}
	body := doc.LastChild.LastChild
	div := body.FirstChild
	for c := div.FirstChild; c != nil; c = c.NextSibling {
		if got := htmltext.Apart(c); got != htmltext.Inline {
			t.Errorf("%s: %v, want Inline", strings.TrimSpace(c.Data), got)
		}
	}
}

// BenchmarkPage_StyleElement: the cost of the CSS a page's <style> holds, up
// to the bound and past it: a page with 128 KiB of class rules against the
// same page without them.
func BenchmarkPage_StyleElement(b *testing.B) {
	var css strings.Builder
	for i := 0; css.Len() < 128<<10; i++ {
		fmt.Fprintf(&css, ".c%d{display:flex;gap:%dpx;margin:0 auto;color:#333}\n.c%d .x:hover,a.c%d{padding:4px 8px}\n@media (min-width:768px){.c%d{justify-content:space-between}}\n", i, i%32, i, i, i)
	}
	body := "<body>" + strings.Repeat(`<div class="c1 c7"><span class="c3">Made in Leeds</span><span>© 2025 Tallyho Ltd</span></div>`, 50) + "</body>"
	for _, c := range []struct{ name, head string }{{"none", ""}, {"128KiB", "<style>" + css.String() + "</style>"}, {"256KiB", "<style>" + css.String() + css.String() + "</style>"}} {
		page := "<html><head>" + c.head + "</head>" + body + "</html>"
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				htmltext.Page("https://x.test/", page)
			}
		})
	}
}
