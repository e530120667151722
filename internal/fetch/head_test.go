package fetch

import (
	"fmt"
	"slices"
	"testing"
)

// TestHeadTags: headTags yields the named tags with their attributes, in
// order, up to the start of the body, and stops when the loop does.
func TestHeadTags(t *testing.T) {
	doc := `<!DOCTYPE html><html lang="pl"><head><meta name="x" content="y">
<link rel="canonical" href="/a"><link rel="alternate" hreflang="en" href="/en/"></head>
<body><link rel="canonical" href="/in-body"></body></html>`
	var got []string
	for name, a := range headTags(doc, "html", "link") {
		got = append(got, fmt.Sprintf("%s %s %s%s", name, a["rel"], a["href"], a["lang"]))
	}
	want := []string{"html  pl", "link canonical /a", "link alternate /en/"}
	if !slices.Equal(got, want) {
		t.Errorf("headTags = %q, want %q", got, want)
	}
	n := 0
	for range headTags(doc, "link") {
		n++
		break
	}
	if n != 1 {
		t.Errorf("a loop that breaks at once saw %d tags", n)
	}
}
