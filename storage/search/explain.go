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
	var out []string
	var t tokenizer
	var st stemmer
	for i, text := range [3]string{name, tagline, category} {
		if wordIn(&t, &st, w, last, text) {
			out = append(out, [3]string{"name", "tagline", "category"}[i])
		}
	}
	if out == nil {
		out = []string{"text"}
	}
	return out
}

// wordIn reports whether w matches a word of text: as written, as a prefix
// (last word), within one typo, or by a stem in one of the drafting
// languages.
func wordIn(t *tokenizer, st *stemmer, w string, last bool, text string) bool {
	runes := utf8.RuneCountInString(w)
	typos := runes >= 3 && strings.Trim(w, "0123456789") != ""
	for _, tok := range t.tokens(text, false) {
		x := tok.text
		switch {
		case x == w, last && runes >= 2 && strings.HasPrefix(x, w):
			return true
		case typos && (runes >= 4 || utf8.RuneCountInString(x) == runes) && within1(w, x):
			return true
		}
		if len(x) >= minStem && len(w) >= minStem && x[:3] == w[:3] { // stems keep the first letters
			for l := range numLangs {
				if st.stem(x, l) == st.stem(w, l) {
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
