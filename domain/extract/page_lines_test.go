package extract

import (
	"slices"
	"testing"
)

// TestPage_OwnLines: ownLines yields the lines of the page that are not in
// a foreign segment and not foreign themselves, footer lines included, in
// page order and each with its segment, and stops when the loop does.
func TestPage_OwnLines(t *testing.T) {
	_, p := oneSitePage("Acme", "/about", `
<h1>About Acme</h1><p>Acme keeps the books.</p>
<div class="testimonials"><p>"Acme saved my week," says Dana of Other Co.</p></div>
<p>We started in Lyon.</p>
<section class="customers"><h2>Trusted by</h2><p>Big Bank</p></section>
<div class="press-kit"><h2>In the press</h2></div><p>Acme in the Daily Ledger.</p>
<h2>Team</h2><p>Ana Lima, founder</p>
<footer><p>© 2024 Acme Ltd</p></footer>`)
	type got struct{ title, text string }
	var all []got
	for seg, l := range p.ownLines() {
		all = append(all, got{seg.title, l.text})
	}
	want := []got{{"About Acme", "Acme keeps the books."}, {"About Acme", "We started in Lyon."},
		{"Team", "Ana Lima, founder"}, {"Team", "© 2024 Acme Ltd"}}
	if !slices.Equal(all, want) {
		t.Errorf("ownLines = %q\nwant %q", all, want)
	}
	n := 0
	for range p.ownLines() {
		n++
		break
	}
	if n != 1 {
		t.Errorf("a loop that breaks at once saw %d lines", n)
	}
}
