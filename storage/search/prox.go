package search

// Proximity. Query words that stand next to each other in a listing's name
// or tagline ("time tracking" in "Time tracking for teams") rank the listing
// above one holding the same words apart, within a level: the bonus is part
// of the extra score, so it never lifts a listing above one matching more or
// rarer words.
//
// The index keeps no word positions (about a byte a posting, 80 MiB at a
// million listings). Instead each doc has a 64-bit signature (Index.prox):
// every pair of neighbouring content words of its name, and of its tagline,
// sets two bits chosen by a hash of the pair. A content word is a word as
// written that is not generic (genericWords: "for", "and", "app", ...), so
// "invoicing for freelancers" makes the pair (invoicing, freelancers): near,
// not only adjacent. A pair is unordered ("tracking time" counts as "time
// tracking") and its words are cut to their first proxRunes runes, so the
// forms of a word share a pair ("invoice", "invoices", "invoicing" are all
// "invoi"; truncation to five letters is a known crude stemmer, and needs no
// language). A listing has about five such pairs, so a pair it does not
// have finds its two bits set with a chance of about 2% (a Bloom filter):
// then a listing holding both words apart gets the bonus too.
//
// A query's pairs are its neighbouring non-generic words (qpair); a doc
// earns a pair's bonus when it matches both words and its signature has the
// pair's bits.

// proxRunes is how many leading runes of a word a pair keeps.
const proxRunes = 5

// proxNorm returns w cut to its first proxRunes runes.
func proxNorm(w string) string {
	n := 0
	for i := range w {
		if n == proxRunes {
			return w[:i]
		}
		n++
	}
	return w
}

// pairMask returns the two signature bits of the unordered pair of words a
// and b (already cut by proxNorm); 0 when they are the same word. The hash
// is FNV-1a, fixed, because signatures are saved in snapshots.
func pairMask(a, b string) uint64 {
	if a == b {
		return 0
	}
	if a > b {
		a, b = b, a
	}
	h := uint64(14695981039346656037)
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * 1099511628211
	}
	h = (h ^ 0xff) * 1099511628211 // not a byte of UTF-8: "ab"+"c" is not "a"+"bc"
	for i := 0; i < len(b); i++ {
		h = (h ^ uint64(b[i])) * 1099511628211
	}
	h ^= h >> 29
	return 1<<(h&63) | 1<<(h>>6&63)
}

// proxSig returns the signature of the content words of each of texts (a
// doc's name and tagline tokens), pairs never spanning two texts.
func proxSig(texts ...[]token) uint64 {
	var sig uint64
	for _, toks := range texts {
		prev := ""
		for _, t := range toks {
			if !t.primary || genericWords[t.text] {
				continue
			}
			n := proxNorm(t.text)
			if prev != "" {
				sig |= pairMask(prev, n)
			}
			prev = n
		}
	}
	return sig
}

// qpair is a pair of neighbouring non-generic query words: a and b are
// their places in s.order (set by match), mask their pair's signature bits,
// bonus what a doc matching both with the pair in its signature earns.
type qpair struct {
	wa, wb int // their indexes in s.words
	a, b   int // their places in s.order
	mask   uint64
	bonus  float32
}

// proxWeight scales a pair's bonus: proxWeight times the sum of its two
// words' idf (docs/search.md, "Proximity"). A larger weight widens the band
// of window bounds within which a window's docs must be checked for pairs:
// at 30, two common words at 1M listings ranked 1.4x slower.
const proxWeight = 5

// setPairs sets s.pairs to the query's pairs of neighbouring non-generic
// words (in query order), from s.words with their generic flags set. Their
// bonuses are set by match, once the words' idf is known (setBonuses).
func (s *scratch) setPairs() {
	s.pairs = s.pairs[:0]
	prev := -1
	for i := range s.words {
		if s.words[i].generic {
			continue
		}
		if prev >= 0 && len(s.pairs) < MaxQueryWords {
			if m := pairMask(proxNorm(s.words[prev].text), proxNorm(s.words[i].text)); m != 0 {
				s.pairs = append(s.pairs, qpair{wa: prev, wb: i, mask: m})
			}
		}
		prev = i
	}
}

// proxOf returns the proximity bonus of a doc with signature sig whose
// extra scores per word (in s.order) are best (best[k*stride+b]): the sum,
// in pair order, of the bonuses of the pairs it has both words of (or, with
// any set, whatever its words) and whose bits its signature holds.
func (s *scratch) proxOf(sig uint64, best []float32, stride, b int, any bool) float32 {
	var p float32
	for i := range s.pairs {
		q := &s.pairs[i]
		if sig&q.mask == q.mask && (any || best[q.a*stride+b] > 0 && best[q.b*stride+b] > 0) {
			p += q.bonus
		}
	}
	return p
}

// hasPair reports whether signature sig holds any of the query's pairs.
func (s *scratch) hasPair(sig uint64) bool {
	for i := range s.pairs {
		if m := s.pairs[i].mask; sig&m == m {
			return true
		}
	}
	return false
}
