package search

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSearch_ProximityRanksAdjacentFirst: of listings holding the same
// query words in the same fields (so the same BM25), the one where they
// stand together in the name or tagline ranks first, whatever their votes
// and ids; the words' other forms and a generic word between them count as
// together; and proximity never lifts a listing above one matching more
// words.
func TestSearch_ProximityRanksAdjacentFirst(t *testing.T) {
	t.Parallel()
	ix := New()
	add := func(id int64, name, tagline string, votes int) {
		d := mk(id, name, tagline, "")
		d.Votes = votes
		ix.Upsert(d)
	}
	// Same words, same field lengths; the scattered ones have more votes
	// and lower ids, so without proximity they rank first.
	add(1, "Clockwise", "time for busy remote teams tracking", 50)
	add(2, "Clockhand", "time tracking for busy remote teams", 0)
	add(3, "Billfold", "invoices made simple, for your freelancers", 50)
	add(4, "Billbook", "freelancers made simple, for your invoices", 40)
	add(5, "Billpad", "simple invoices for your freelancers made", 0)
	// More words matched, apart, still above two words together.
	add(6, "Agenda", "calendar, busy clinics, quick booking", 0)
	add(7, "Slotter", "calendar booking made quick", 90)
	loaded, _ := roundTrip(t, ix)
	for i, ix := range []*Index{ix, loaded} {
		for _, c := range []struct {
			q    string
			want []int64
		}{
			{"time tracking", []int64{2, 1}},
			{"tracking time", []int64{2, 1}},              // order does not matter
			{"invoicing freelancers", []int64{5, 3, 4}},   // forms: invoices/invoicing; a generic word between
			{"invoice for freelancers", []int64{5, 3, 4}}, // the query's generic word is skipped too
			{"calendar booking clinics", []int64{6, 7}},   // three words before two together
		} {
			got, _ := ix.Search(Query{Text: c.q})
			if diff := cmp.Diff(c.want, got[:min(len(got), len(c.want))]); diff != "" {
				t.Errorf("index %d: Search(%q) (-want +got):\n%s", i, c.q, diff)
			}
		}
	}
}

// TestProxSig checks the signature's pairs: neighbouring content words of
// one text, unordered, cut to five runes, generic words skipped, never
// across the name and the tagline; and that a pair a doc does not have
// finds its bits set rarely (the Bloom filter's false positives).
func TestProxSig(t *testing.T) {
	t.Parallel()
	var tk1, tk2 tokenizer
	sig := func(name, tagline string) uint64 {
		return proxSig(tk1.tokens(name, false), tk2.tokens(tagline, false))
	}
	has := func(sig uint64, a, b string) bool {
		m := pairMask(proxNorm(a), proxNorm(b))
		return m != 0 && sig&m == m
	}
	s := sig("NoteFlow Pro", "Time-tracking for the invoices of freelancers")
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"time", "tracking", true},
		{"tracker", "time", true},           // unordered, forms share five letters
		{"tracking", "invoicing", true},     // "for the" is skipped
		{"invoices", "freelancer", true},    // "of" too
		{"noteflow", "pro", true},           // within the name
		{"pro", "time", false},              // not across the name and the tagline
		{"time", "invoices", false},         // not neighbours
		{"timetracking", "invoices", false}, // a joined form is not a word as written
	} {
		if got := has(s, c.a, c.b); got != c.want {
			t.Errorf("pair (%s, %s) in the signature: %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if pairMask("invoi", "invoi") != 0 {
		t.Error("a word paired with itself has bits")
	}
	// False positives: taglines of 8 random words (7 pairs), against pairs
	// they do not hold.
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string { return fmt.Sprintf("w%05d", rng.IntN(50000)) }
	fp, n := 0, 0
	for range 2000 {
		tag := ""
		for range 8 {
			tag += word() + " "
		}
		s := sig("", tag)
		for range 20 {
			n++
			if has(s, word(), word()) {
				fp++
			}
		}
	}
	if rate := float64(fp) / float64(n); rate > 0.06 {
		t.Errorf("false positives %.3f of absent pairs, want <= 0.06", rate)
	}
}
