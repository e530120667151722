package demo

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// testNow is a Wednesday noon; its launch week starts on 2026-11-16.
var testNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

func TestGenerate_Deterministic(t *testing.T) {
	t.Parallel()
	a, b := Generate(testNow), Generate(testNow)
	if !reflect.DeepEqual(a, b) {
		t.Error("two datasets with the same now differ")
	}
	if c := Generate(testNow.AddDate(0, 0, 7)); reflect.DeepEqual(a.Listings, c.Listings) {
		t.Error("datasets a week apart are identical")
	}
}

// TestGenerate_References checks that every index in the dataset points at a
// listing, and that each listing with founders has exactly one primary founder.
func TestGenerate_References(t *testing.T) {
	t.Parallel()
	d := Generate(testNow)
	for i, l := range d.Listings {
		if l.Index != i {
			t.Fatalf("listing %d has Index %d", i, l.Index)
		}
		for _, a := range l.Alternatives {
			if a < 0 || a >= len(d.Listings) || a == i {
				t.Errorf("%s: alternative %d", l.Slug, a)
			}
		}
	}
	for _, a := range d.Awards {
		if a.Listing < 0 || a.Listing >= len(d.Listings) {
			t.Errorf("award %v: listing %d", a.Week, a.Listing)
		}
	}
	if len(d.Founders) != FounderCount() || len(d.Posts) != len(posts) || len(d.Questions) != len(questions) {
		t.Errorf("founders %d, posts %d, questions %d", len(d.Founders), len(d.Posts), len(d.Questions))
	}
	primaries := map[int]int{}
	for _, f := range d.Founders {
		for _, of := range f.Listings {
			if of.Primary {
				primaries[of.Listing]++
			}
		}
	}
	for _, f := range d.Founders {
		for _, of := range f.Listings {
			if primaries[of.Listing] != 1 {
				t.Errorf("%s: %d primary founders", d.Listings[of.Listing].Slug, primaries[of.Listing])
			}
		}
	}
}

// TestSynthetic_ZipfSpread: the most common description word is in many
// listings, most words in few.
func TestSynthetic_ZipfSpread(t *testing.T) {
	t.Parallel()
	const n = 3000
	g := NewSynthetic(testNow, 0)
	words := map[string]int{}
	for i := range n {
		seen := map[string]bool{}
		for _, w := range strings.Fields(g.Next(i, 10).Description) {
			if !seen[w] {
				seen[w] = true
				words[w]++
			}
		}
	}
	top, rare := 0, 0
	for _, c := range words {
		top = max(top, c)
		if c <= 5 {
			rare++
		}
	}
	if top < n/4 || rare < len(words)/3 {
		t.Errorf("word spread: most common word in %d listings, %d of %d words in at most 5 listings; want a Zipf-like spread", top, rare, len(words))
	}
}
