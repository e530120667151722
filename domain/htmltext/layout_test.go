package htmltext_test

import (
	"strings"
	"testing"

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
