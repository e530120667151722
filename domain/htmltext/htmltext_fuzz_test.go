package htmltext_test

import (
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// FuzzPage reads any bytes as a page. Properties: Page never panics; every
// line of Text is whitespace-normalised and not blank; Text invents no
// character (each one is in the document or in the document with its
// character references decoded, or is U+FFFD for a byte that is not UTF-8);
// Data holds each string once, normalised, the title first. Seeds: the
// sites of the extractor's and the fetcher's tests.
func FuzzPage(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{"../extract/testdata/sites/*/*.html", "../../internal/fetch/testdata/northwind/*.html"} {
		files, _ := filepath.Glob(pattern)
		seeds = append(seeds, files...)
	}
	if len(seeds) == 0 {
		f.Fatal("no seed pages found")
	}
	for _, name := range seeds {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(doc)
	f.Add(`<p>a<span hidden>x</span>b &amp; &notit; &#0; &#128;<table>t<tr><td>c</table><textarea>&lt;</textarea><xmp>&amp;</xmp>`)
	f.Add(`<style>.r{display:flex;gap:2rem}@media (min-width:40em){.s{display:grid}}.t{margin:0 4px!important}a.u,.v .w{display:block}@font-face{x:y}.x{.y{display:grid}}</style><div class="r"><span class="s">a</span><span class="t u">b</span></div>`)
	f.Add(`<style>.a{display:flex;}}}{{(([[.b{gap:`)
	f.Add("<title>\x00</title><p>\xff\xfe caf\u00e9\r\n</p><svg><title>tip</title></svg>")
	f.Fuzz(func(t *testing.T, in string) {
		p := htmltext.Page("https://acme.test/a/b", in)
		if p.HTML != in || p.URL != "https://acme.test/a/b" {
			t.Fatalf("HTML or URL changed")
		}
		allowed := map[rune]bool{utf8.RuneError: true}
		for _, r := range in {
			allowed[r] = true
		}
		for _, r := range html.UnescapeString(in) {
			allowed[r] = true
		}
		if p.Text != "" {
			for i, line := range strings.Split(p.Text, "\n") {
				if line == "" || line != domain.NormalizeSpace(line) {
					t.Fatalf("line %d %q is blank or not normalised", i, line)
				}
				for _, r := range line {
					if r != ' ' && !allowed[r] && !unicode.IsSpace(r) {
						t.Fatalf("line %d %q has %q, which the document does not", i, line, r)
					}
				}
			}
		}
		if p.Title != domain.NormalizeSpace(p.Title) {
			t.Fatalf("title %q is not normalised", p.Title)
		}
		if p.Title != "" && (len(p.Data) == 0 || p.Data[0] != p.Title) {
			t.Fatalf("title %q is not the first data string: %q", p.Title, p.Data)
		}
		seen := map[string]bool{}
		for _, d := range p.Data {
			if d == "" || d != domain.NormalizeSpace(d) || seen[d] {
				t.Fatalf("data string %q is blank, not normalised or repeated in %q", d, p.Data)
			}
			seen[d] = true
		}
	})
}
