package search

import (
	"strings"
	"unicode/utf8"
)

// LastWord returns the last word of a query as SearchHits's Matched names
// it (folded), the one word that also matches as a prefix.
func LastWord(q string) string {
	var t tokenizer
	toks := t.tokens(q, true)
	if len(toks) > MaxQueryWords {
		toks = toks[:MaxQueryWords]
	}
	if len(toks) == 0 {
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
}

// placerBufs are a Placer's first buffers, per field; a field whose words
// outgrow them gets larger ones from append.
type placerBufs struct {
	buf, arena [3][256]byte
	out        [3][24]token
	words      [3][24]string
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
		if p.wordIn(w, last, p.words[i]) {
			m |= 1 << i
		}
	}
	return places[m]
}

// wordIn reports whether w matches one of the words of a text: as written,
// as a prefix (last word), within one typo, or by a stem in one of the
// drafting languages.
func (p *Placer) wordIn(w string, last bool, words []string) bool {
	runes := utf8.RuneCountInString(w)
	typos := runes >= 3 && !isDigits(w)
	var ws *[numLangs]string // w's stems, made when a word of text may share one
	for _, x := range words {
		switch {
		case x == w, last && runes >= 2 && strings.HasPrefix(x, w):
			return true
		case typos && (runes >= 4 || utf8.RuneCountInString(x) == runes) && within1(w, x):
			return true
		}
		if len(x) >= minStem && len(w) >= minStem && x[:3] == w[:3] { // stems keep the first letters
			if ws == nil {
				ws = stems.of(&p.st, w)
			}
			xs := stems.of(&p.st, x)
			for l := range numLangs {
				if xs[l] == ws[l] {
					return true
				}
			}
		}
	}
	return false
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
