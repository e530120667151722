package htmltext_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

const doc = `<!doctype html>
<html><head>
<title>  Acme
  Notes — notes that think </title>
<base href="https://cdn.acme.test/app/">
<meta name="description" content="Notes that   link themselves.">
<meta property="og:title" content="Acme Notes">
<meta property="og:image" content="/img/og.png">
<meta name="twitter:site" content="@acmenotes">
<meta name="keywords" content="notes, knowledge base">
<meta name="author" content="Dana Reyes">
<meta name="viewport" content="width=device-width">
<link rel="icon" href="favicon.ico">
<link rel="stylesheet" href="site.css">
<style>body { color: red }</style>
<script>var secret = "not text";</script>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization",
 "name":"Acme Notes Inc.","foundingDate":"2019","founder":[{"@type":"Person","name":"Dana Reyes"}],
 "sameAs":["https://github.com/acmenotes"],"n":42}</script>
</head>
<body>
<nav><a href="/pricing">Pricing</a> <a href="#top">Top</a> <a href="javascript:void(0)">Menu</a></nav>
<h1>Notes that <em>link</em>   themselves</h1>
<p>Write once,<br>find&nbsp;it   <strong>everywhere</strong>. Contact <a href="mailto:hi@acme.test">hi@acme.test</a>.</p>
<ul><li>Backlinks</li><li> Daily   notes </li></ul>
<table><tr><th>Plan</th><td>$8/mo</td></tr></table>
<div hidden>Hidden by attribute</div>
<div aria-hidden="true">Hidden from readers</div>
<p style="display: none">Hidden by style</p>
<span style="visibility:hidden">Invisible span</span>
<noscript>Enable JavaScript</noscript>
<template><p>Template text</p></template>
<svg><title>Logo tooltip</title><text>SVG text</text></svg>
<img src="team.jpg" alt="The Acme team in Lisbon">
<iframe src="https://www.youtube.com/embed/abc123">fallback</iframe>
<video><source src="/media/demo.mp4"></video>
<footer>© 2024 Acme Notes Inc. All rights reserved.</footer>
</body></html>`

func TestPage(t *testing.T) {
	p := htmltext.Page("https://acme.test/", doc)

	if p.URL != "https://acme.test/" || p.HTML != doc {
		t.Errorf("URL/HTML not kept: %q", p.URL)
	}
	if want := "Acme Notes — notes that think"; p.Title != want {
		t.Errorf("Title = %q, want %q", p.Title, want)
	}
	wantLines := []string{
		"Pricing Top Menu",
		"Notes that link themselves",
		"Write once,",
		"find it everywhere. Contact hi@acme.test.",
		"Backlinks",
		"Daily notes",
		"Plan",
		"$8/mo",
		"Enable JavaScript", // <noscript> is read as a browser without scripts shows it
		"© 2024 Acme Notes Inc. All rights reserved.",
	}
	if got := strings.Split(p.Text, "\n"); !slices.Equal(got, wantLines) {
		t.Errorf("Text lines:\n got %q\nwant %q", got, wantLines)
	}
	for _, hidden := range []string{"Hidden", "Invisible", "secret", "color: red", "Template", "SVG", "Logo tooltip", "fallback"} {
		if strings.Contains(p.Text, hidden) {
			t.Errorf("Text contains hidden content %q", hidden)
		}
	}

	wantData := []string{
		"Acme Notes — notes that think",
		"Notes that link themselves.",
		"Acme Notes",
		"/img/og.png", "https://cdn.acme.test/img/og.png",
		"@acmenotes", "notes, knowledge base", "Dana Reyes",
		"https://cdn.acme.test/app/favicon.ico",
		"Acme Notes Inc.", "2019", "https://github.com/acmenotes", "Organization", "https://schema.org",
		"https://cdn.acme.test/pricing",
		"mailto:hi@acme.test",
		"The Acme team in Lisbon",
		"https://www.youtube.com/embed/abc123",
		"https://cdn.acme.test/media/demo.mp4",
	}
	for _, w := range wantData {
		if !slices.Contains(p.Data, w) {
			t.Errorf("Data lacks %q; have %q", w, p.Data)
		}
	}
	for _, no := range []string{"width=device-width", "https://cdn.acme.test/app/site.css", "javascript:void(0)", "42"} {
		for _, d := range p.Data {
			if strings.Contains(d, no) {
				t.Errorf("Data holds %q (%q), which is not page data", no, d)
			}
		}
	}
	seen := map[string]bool{}
	for _, d := range p.Data {
		if seen[d] {
			t.Errorf("Data repeats %q", d)
		}
		seen[d] = true
		if d != domain.NormalizeSpace(d) {
			t.Errorf("Data %q is not whitespace-normalised", d)
		}
	}
}

// TestPageGrounding checks the property drafters rely on: a sentence cut from
// the page, across an inline element, is found by domain.QuoteOnPage.
func TestPageGrounding(t *testing.T) {
	p := htmltext.Page("https://acme.test/about", `<p>Acme was <a href="/story">founded in 2019</a> by
		<b>Dana Reyes</b> and Sam Okafor.</p><p>We are based in Lisbon, Portugal.</p>`)
	for _, q := range []string{
		"Acme was founded in 2019 by Dana Reyes and Sam Okafor.",
		"Sam Okafor. We are based in Lisbon", // across two blocks, joined by a space
		"https://acme.test/story",
	} {
		if !domain.QuoteOnPage(&p, q) {
			t.Errorf("quote %q not found in %q / %q", q, p.Text, p.Data)
		}
	}
	if domain.QuoteOnPage(&p, "founded in 2018") {
		t.Error("a quote that is not on the page was found")
	}
}

func TestPageEmptyAndBroken(t *testing.T) {
	p := htmltext.Page("https://x.test/", "")
	if p.Text != "" || p.Title != "" || len(p.Data) != 0 {
		t.Errorf("empty document gave %+v", p)
	}
	// Unclosed tags and a broken JSON-LD block: parsed as browsers do, JSON ignored.
	p = htmltext.Page("https://x.test/", `<div><p>One<p>Two<li>Three<script type="application/ld+json">{broken</script>`)
	if want := "One\nTwo\nThree"; p.Text != want {
		t.Errorf("Text = %q, want %q", p.Text, want)
	}
}

// A logo's address is in the page's data (a drafter proposes it as
// logo_url, and the grounding gate wants it inside a quote): an image named
// logo or brand anywhere, any image of the header or the navigation; other
// images give only their alt text.
func TestPageLogoImages(t *testing.T) {
	p := htmltext.Page("https://acme.test/en/", `<html><body>
<header><a href="/"><img src="/static/acme.svg" alt="Acme"></a></header>
<main><img src="logo-dark.png" alt="Our mark"><img src="/img/team.jpg" alt="The team at work">
<img src="/img/x.png" class="brand-mark" alt=""></main></body></html>`)
	for _, want := range []string{"https://acme.test/static/acme.svg", "https://acme.test/en/logo-dark.png", "https://acme.test/img/x.png", "The team at work"} {
		if !slices.Contains(p.Data, want) {
			t.Errorf("data lacks %q: %q", want, p.Data)
		}
	}
	if slices.Contains(p.Data, "https://acme.test/img/team.jpg") {
		t.Errorf("data has a content image's address: %q", p.Data)
	}
}

// Issue 31 item 2: a single-page app's <noscript> fallback is read as markup
// (blocks, links, an address) the way a browser without scripts shows it;
// hidden content (the yearly price of a toggle, a closed answer) is a gap in
// the visible text, never glued to what follows, and its own text is page
// data, block by block.
func TestPage_NoscriptAndHiddenBlocks(t *testing.T) {
	const spa = `<html><head><title>Rozvrhář</title></head><body><div id="app"></div>
<noscript><h1>Rozvrhy pro školy</h1><p>Základ: 149 Kč měsíčně</p>
<address>Vinohradská 12, 120 00 Praha 2</address><a href="mailto:info@rozvrhar.cz">info@rozvrhar.cz</a></noscript>
<p class="price"><span class="m">€29</span><span class="y" hidden>€290</span>per rider / month</p>
<div class="faq"><button>Can I cancel?</button><div class="answer" hidden><p>Yes, any time.</p><p>No fee.</p></div></div>
</body></html>`
	p := htmltext.Page("https://rozvrhar.test/", spa)
	wantLines := []string{"Rozvrhy pro školy", "Základ: 149 Kč měsíčně", "Vinohradská 12, 120 00 Praha 2",
		"info@rozvrhar.cz", "€29", "per rider / month", "Can I cancel?"}
	if got := strings.Split(p.Text, "\n"); !slices.Equal(got, wantLines) {
		t.Errorf("Text lines:\n got %q\nwant %q", got, wantLines)
	}
	if domain.QuoteOnPage(&p, "€29per rider") || strings.Contains(p.Text, "€290") {
		t.Errorf("hidden content glued to or shown in the visible text: %q", p.Text)
	}
	if !domain.QuoteOnPage(&p, "€29 per rider / month") {
		t.Errorf("the visible price and its unit, across the gap, are not quotable: %q", p.Text)
	}
	for _, w := range []string{"€290", "Yes, any time.", "No fee.", "mailto:info@rozvrhar.cz"} {
		if !slices.Contains(p.Data, w) {
			t.Errorf("Data lacks %q; have %q", w, p.Data)
		}
	}
}

// TestPage_InvisibleCharactersAndSplitText: soft hyphens, zero-width spaces,
// word joiners and byte-order marks are drawn as nothing, so the text has
// none of them; a heading whose letters are all aria-hidden pieces reads as
// its aria-label, while a link's or a landmark's aria-label stays a label.
func TestPage_InvisibleCharactersAndSplitText(t *testing.T) {
	p := htmltext.Page("https://acme.example/", `<html><body><nav aria-label="Main"><a href="/" aria-label="home">Home</a></nav>
<h1 aria-label="Receipts without fuss"><span aria-hidden="true"><span>R</span><span>e</span></span> <span aria-hidden="true">without</span> <span aria-hidden="true">fuss</span></h1>
<p>Filial&shy;tausch and kvitt<span>&#8203;</span>ot&#8288;s&#xFEFF;</p></body></html>`)
	want := "Home\nReceipts without fuss\nFilialtausch and kvittots"
	if p.Text != want {
		t.Errorf("text %q, want %q", p.Text, want)
	}
}
