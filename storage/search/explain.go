package search

import (
	"strings"
	"unicode/utf8"
)

// LastWord returns the last word of a query as SearchHits's Matched names
// it (folded), the one word that also matches as a prefix; "" when no word
// does: a generic last word beside a non-generic one is matched whole, as
// the index matches it ("invoicing for" never places "for" in "format").
func LastWord(q string) string {
	var t tokenizer
	toks := t.tokens(q, true)
	if len(toks) > MaxQueryWords {
		toks = toks[:MaxQueryWords]
	}
	if len(toks) == 0 {
		return ""
	}
	if !lastIsPrefix(toks) {
		return ""
	}
	if p := toks[len(toks)-1].parts; len(p) > 0 {
		return p[len(p)-1] // in case it is matched by its parts
	}
	return toks[len(toks)-1].text
}

// Where says where query word w (as SearchHits's Matched names it; last:
// the query's last word) occurs in a listing's name, tagline and primary
// category name, by the matching rules of a search: "name", "tagline",
// "category", or only "text" when in none of them.
func Where(w string, last bool, name, tagline, category string) []string {
	var p Placer
	return p.Where(w, last, name, tagline, category)
}

// Placer answers Where for the items of one result page: it keeps its
// stemmer's buffers from one call to the next (words' stems are kept for
// every page: stemCache) and the words of the last name, tagline and
// category it read (asked about each query word in turn), tokenized by one
// tokenizer per field into that tokenizer's own buffers (no copy, nothing
// allocated once the buffers have grown), and answers one of eight shared
// slices, which the caller must not modify. A Placer is not safe for
// concurrent use.
//
// A text's words are not kept beyond the Placer: a page the result cache
// has not seen mostly shows listings no recent page showed, and looking a
// tagline up in a process-wide cache, then storing its words, cost about
// three times what tokenizing it does.
type Placer struct {
	t     [3]tokenizer // per field; words[i] borrows t[i]'s buffers
	st    stemmer
	src   [3]string   // the texts last tokenized, per field
	words [3][]string // their words
	read  [3]bool
	bufs  *placerBufs // the fields' first buffers
	qw    []placeWord // the query words asked about, kept for the page
}

// placeWord is what wordIn needs of a query word, worked out once per page
// instead of once per listing and field.
type placeWord struct {
	w     string
	runes int               // w's length in runes
	typos bool              // w may match within one typo
	ws    *[numLangs]string // w's stems, made when a text word may share one
}

// placerBufs are a Placer's first buffers, per field; a field whose words
// outgrow them gets larger ones from append.
type placerBufs struct {
	buf, arena [3][256]byte
	out        [3][24]token
	words      [3][24]string
	qw         [8]placeWord
}

// places are Where's answers, indexed by a bit per field (name 1, tagline
// 2, category 4); 0 is "text".
var places = func() (p [8][]string) {
	p[0] = []string{"text"}
	for m := 1; m < 8; m++ {
		for i, f := range [3]string{"name", "tagline", "category"} {
			if m>>i&1 != 0 {
				p[m] = append(p[m], f)
			}
		}
		p[m] = p[m][:len(p[m]):len(p[m])] // an append by a caller copies
	}
	return p
}()

// Where is the package's Where.
func (p *Placer) Where(w string, last bool, name, tagline, category string) []string {
	m := 0
	for i, text := range [3]string{name, tagline, category} {
		if !p.read[i] || p.src[i] != text {
			t := &p.t[i]
			if !t.borrow { // first use: room for a tagline's words, one allocation for the three fields
				if p.bufs == nil {
					p.bufs = new(placerBufs)
				}
				b := p.bufs
				t.borrow = true
				t.buf, t.arena, t.out, p.words[i] = b.buf[i][:0], b.arena[i][:0], b.out[i][:0], b.words[i][:0]
			}
			ws := p.words[i][:0]
			for _, tok := range t.tokens(text, false) {
				ws = append(ws, tok.text)
			}
			p.words[i], p.src[i], p.read[i] = ws, text, true
		}
	}
	q := p.word(w)
	for i := range p.words {
		if p.wordIn(q, last, p.words[i]) {
			m |= 1 << i
		}
	}
	return places[m]
}

// word returns the Placer's entry for query word w, made on first use.
func (p *Placer) word(w string) *placeWord {
	for i := range p.qw {
		if p.qw[i].w == w {
			return &p.qw[i]
		}
	}
	if p.qw == nil && p.bufs != nil {
		p.qw = p.bufs.qw[:0]
	}
	runes := utf8.RuneCountInString(w)
	p.qw = append(p.qw, placeWord{w: w, runes: runes, typos: runes >= 3 && !isDigits(w)})
	return &p.qw[len(p.qw)-1]
}

// wordIn reports whether q's word matches one of the words of a text: as
// written, as a prefix (last word), within one typo, or by a stem in one of
// the drafting languages. The cheap rules are tried on every word before
// any stem is looked up: a word matched as written further on saves the
// stemming of the words before it that share its first letters.
func (p *Placer) wordIn(q *placeWord, last bool, words []string) bool {
	w, runes := q.w, q.runes
	for _, x := range words {
		switch {
		case x == w, last && runes >= 2 && strings.HasPrefix(x, w):
			return true
		case q.typos && (runes >= 4 || utf8.RuneCountInString(x) == runes) && maybeWithin1(w, x) && within1(w, x):
			return true
		}
	}
	if len(w) < minStem {
		return false
	}
	for _, x := range words {
		if len(x) >= minStem && x[:3] == w[:3] { // stems keep the first letters
			if q.ws == nil {
				q.ws = stems.of(&p.st, w)
			}
			xs := stems.of(&p.st, x)
			for l := range numLangs {
				if xs[l] == q.ws[l] {
					return true
				}
			}
		}
	}
	return false
}

// maybeWithin1 is a necessary condition of within1(w, x) for a w of at
// least three runes, cheap enough to try first: one edit changes the length
// by at most one rune (4 bytes), and leaves the first rune or, when the
// edit is at the first rune, the last two runes as they were, so the first
// or the last bytes are equal.
func maybeWithin1(w, x string) bool {
	if d := len(x) - len(w); d > utf8.UTFMax || d < -utf8.UTFMax || len(x) == 0 {
		return false
	}
	return x[0] == w[0] || x[len(x)-1] == w[len(w)-1]
}

// InCategories returns the ids of the listings in any of the categories
// cats (each once).
func (ix *Index) InCategories(cats []int64) []int64 {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	seen := map[int64]bool{}
	var out []int64
	for _, c := range cats {
		for _, d := range ix.catDocs[c] {
			if ix.status[d] == stDead {
				continue
			}
			if id := ix.idOf(d); !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}
