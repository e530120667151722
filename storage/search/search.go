package search

import (
	"math"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Match qualities: how much of a term's score a query word earns by matching
// it exactly, as a prefix (last word only) or within one typo.
const (
	qualityExact  = 1.0
	qualityStem   = 0.65
	qualityPrefix = 0.75
	qualityTypo   = 0.6
)

// maxPrefixTerms caps how many completions a prefix expands to; the most
// frequent terms are kept.
const maxPrefixTerms = 32

// Sort orders.
const (
	sortRelevance = iota
	sortNewest
	sortVotes
	sortTrending
	sortViews
	sortFollows
)

func sortKind(s string) int {
	switch s {
	case "newest":
		return sortNewest
	case "votes":
		return sortVotes
	case "trending":
		return sortTrending
	case "most_viewed":
		return sortViews
	case "most_followed":
		return sortFollows
	}
	return sortRelevance
}

// filter is a Query's filters resolved against the index.
type filter struct {
	none                    bool // some filter can match nothing
	status                  uint8
	stage, country, pricing uint32 // 0 = any
	domain                  string
	catsOn                  bool
	cats                    []int64
}

func (ix *Index) filterOf(q *Query) filter {
	f := filter{status: stLive, domain: normDomain(q.Domain), cats: q.Categories, catsOn: q.Categories != nil}
	if q.Status != "" {
		f.status = statusCode(q.Status)
	}
	look := func(v string) uint32 {
		if v == "" {
			return 0
		}
		id, ok := ix.strs[v]
		if !ok {
			f.none = true
		}
		return id
	}
	f.stage = look(normStage(q.Stage))
	f.country = look(normCountry(q.Country))
	f.pricing = look(normPricing(q.PricingModel))
	if f.status == stDead || (f.catsOn && len(f.cats) == 0) {
		f.none = true
	}
	return f
}

// filterBits sets dst, one word a window of 64 doc numbers, to the docs
// passing f's status, stage, country, pricing and categories (the OR of the
// categories' doc lists, built in s.catb); it reports whether the domain
// must still be checked doc by doc (passDomain).
func (ix *Index) filterBits(s *scratch, f *filter, dst []uint64) bool {
	clear(dst[copy(dst, ix.stBits[f.status]):])
	for i, v := range [3]uint32{f.stage, f.country, f.pricing} {
		if v == 0 {
			continue
		}
		b := ix.valBits[i][v]
		clear(dst[min(len(b), len(dst)):])
		for j, x := range b[:min(len(b), len(dst))] {
			dst[j] &= x
		}
	}
	if f.catsOn {
		s.catb = grow(s.catb, len(dst))
		clear(s.catb)
		for _, c := range f.cats {
			for _, d := range ix.catDocs[c] {
				s.catb[d>>6] |= 1 << (d & 63)
			}
		}
		for j, x := range s.catb {
			dst[j] &= x
		}
	}
	return f.domain != ""
}

// filterWins is filterBits for the windows s.win alone (a sparse query,
// sparseWindows): only their words of dst are set, so that a query
// matching a few docs does not copy and AND bitsets as long as the index.
func (ix *Index) filterWins(s *scratch, f *filter, dst []uint64) bool {
	if f.catsOn {
		return ix.filterBits(s, f, dst) // the categories' doc lists are walked whole anyway
	}
	at := func(b []uint64, j uint32) uint64 {
		if int(j) < len(b) {
			return b[j]
		}
		return 0
	}
	st := ix.stBits[f.status]
	for _, j := range s.win {
		x := at(st, j)
		for i, v := range [3]uint32{f.stage, f.country, f.pricing} {
			if v != 0 {
				x &= at(ix.valBits[i][v], j)
			}
		}
		dst[j] = x
	}
	return f.domain != ""
}

// passDomain reports whether doc d's host is f's domain or a subdomain of it.
func (ix *Index) passDomain(f *filter, d uint32) bool {
	dd := unsafe.String(unsafe.SliceData(ix.domText[ix.domOff[d]:]), ix.domOff[d+1]-ix.domOff[d])
	return dd == f.domain || (len(dd) > len(f.domain) && dd[len(dd)-len(f.domain)-1] == '.' && strings.HasSuffix(dd, f.domain))
}

// qterm is one vocabulary term a query word matches, with its weight
// (match quality times idf) and its exactness bonus: a doc's extra score for
// the term is w*weight(posting) + ex.
type qterm struct {
	id uint32
	w  float32
	ex float32
}

// Ranking. A doc's key is its level, which says how many
// and which non-generic query words it matches, plus its extra score, which
// says how well (float32):
//
//	key = sum over matched words i of lvl_i  +  sum over matched words of (w*weight + ex)
//	lvl_i = wordLevel + rarity_i * rarityLevel (0 for a generic word)
//
// rarity_i is 1..maxRarity from the word's idf, so that of two docs matching
// as many words the one matching the rarer ones ranks first; then come
// exactness (ex: exactBonus for the word as written; none for its stem, a
// typo or a prefix, which BM25 weighs by their quality: a query word's stem
// may be another word, "xadexgraably" -> "xadexgra") and BM25 with field
// weights. A generic word adds its BM25 only. A doc matching every
// non-generic word has the highest level of all, so when at least a page of
// docs do, the others need not be looked at.
const (
	exactBonus  = 1e5     // per word; 16 words and their BM25 stay below rarityLevel
	rarityLevel = 1 << 21 // > 16 * (exactBonus + 15*255)
	maxRarity   = 64
	wordLevel   = rarityLevel * maxRarity * 32 // > 16 words * maxRarity * rarityLevel
)

// rarityScale turns a word's idf into its rarity step (rounded): a higher
// scale separates words of close frequency, a lower one lets BM25 and the
// field weights decide between them.
const rarityScale = 1.0

// qword is one query word and the terms it matches (s.terms[lo:hi]).
type qword struct {
	lo, hi  int
	total   int // postings over all its terms
	text    string
	generic bool  // never excludes a doc on its own
	lvl     int64 // its level (above), set once its docs are counted
	// x is the index in s.terms of the word as written when it has an
	// exactness bonus and the word has other terms (else -1), xd that term's
	// dense form if any (match, score).
	x  int
	xd *dense
	// keep: the word's best score per doc over its terms without a dense
	// form is kept while their lists are decoded (s.ws, keepRule); else
	// scoring reads those lists with cursors (s.curs).
	keep bool
}

// Hit is one listing of a result page and the query words it matched
// (folded, as the index reads them; in query order).
type Hit struct {
	ID      int64
	Matched []string
}

// Search returns the ids of the page of listings matching q, best first,
// and the number of matching listings.
func (ix *Index) Search(q Query) ([]int64, int) {
	var out []int64
	total := ix.search(q, func(n int) { out = make([]int64, 0, n) }, func(s *scratch, e hent) { out = append(out, e.id) })
	return out, total
}

// SearchHits is Search, with the query words each listing matched.
//
// A listing matches a query with words when it matches at least one of its
// non-generic words (any word when all are generic); total counts those
// listings, every one of which some page shows. With sort=relevance the
// listings matching every word come first, then those matching the most
// and the rarest words (see qterm). Other sorts order the listings matching
// every non-generic word, or, when none does, those matching any.
func (ix *Index) SearchHits(q Query) ([]Hit, int) {
	var out []Hit
	var words []string // the page's matched words, one array for every hit
	total := ix.search(q, func(n int) { out = make([]Hit, 0, n) }, func(s *scratch, e hent) {
		h := Hit{ID: e.id}
		if len(s.words) > 0 { // a query with words
			if words == nil {
				words = make([]string, 0, (cap(out)-len(out))*len(s.words))
			}
			n := len(words)
			words = s.matched(e.doc, words)
			h.Matched = words[n:len(words):len(words)]
			if len(h.Matched) == 0 {
				h.Matched = nil
			}
		}
		out = append(out, h)
	})
	return out, total
}

// search runs q, calling start with the page's length and then each with
// the page's entries in order.
func (ix *Index) search(q Query, start func(int), each func(*scratch, hent)) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := ix.scratch()
	defer ix.release(s)

	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	offset := max(q.Offset, 0)
	f := ix.filterOf(&q)
	if f.none {
		start(0)
		return 0
	}
	s.sort = sortKind(q.Sort)
	s.k = offset + limit
	s.resetTop()
	total := 0
	if !ix.parse(s, q.Text) {
		if s.sort == sortRelevance {
			s.sort = sortVotes
		}
		total = ix.browse(s, &f)
	} else {
		total = ix.match(s, &f)
	}
	s.finishTop()
	start(max(min(len(s.heap)-offset, limit), 0))
	for i := offset; i < len(s.heap); i++ {
		each(s, s.heap[i])
	}
	return total
}

// lastIsPrefix reports whether a query's last word (toks is not empty) also
// matches as a prefix: it does unless it is generic beside other words, whose
// completions ("for": "format", "forms") would add only their BM25 to the
// ranking, at the cost of decoding and scoring up to maxPrefixTerms more
// lists. LastWord (the placing of matched) follows the same rule.
func lastIsPrefix(toks []token) bool {
	return !genericWords[toks[len(toks)-1].text] ||
		!slices.ContainsFunc(toks, func(t token) bool { return !genericWords[t.text] })
}

// parse fills s.words with the query's words and their matching terms; it
// reports whether the query has any word.
func (ix *Index) parse(s *scratch, text string) bool {
	s.words, s.terms = s.words[:0], s.terms[:0]
	toks := s.tok.tokens(s.tok.translate(text), true)
	if len(toks) > MaxQueryWords {
		toks = toks[:MaxQueryWords]
	}
	if len(toks) == 0 {
		return false
	}
	n := float64(max(ix.live, 1))
	specific := slices.ContainsFunc(toks, func(t token) bool { return !genericWords[t.text] })
	for i, t := range toks {
		if slices.ContainsFunc(toks[:i], func(o token) bool { return o.text == t.text }) {
			continue
		}
		last := i == len(toks)-1 && lastIsPrefix(toks)
		if ix.expand(s, t.text, last, n) {
			continue
		}
		parts := t.parts
		if len(parts) == 0 {
			parts = ix.split(t.text, s.split[:0])
			s.split = parts
		}
		for j, p := range parts { // a compound nobody wrote joined: match its parts
			ix.expand(s, p, last && j == len(parts)-1, n)
		}
	}
	// Generic words exclude nothing, unless the query has no other word
	// (matched or not: "qqq app" finds nothing).
	if specific {
		for i := range s.words {
			s.words[i].generic = genericWords[s.words[i].text]
		}
	}
	return true
}

// expand appends the word w and the terms it matches to s; it reports
// whether any term matched.
func (ix *Index) expand(s *scratch, w string, last bool, n float64) bool {
	if len(s.words) >= MaxQueryWords { // the stamp encodings assume at most 16 words
		return true
	}
	v := &ix.voc
	lo := len(s.terms)
	add := func(id uint32, quality float64) {
		plen := int(v.df[id])
		if plen == 0 {
			return
		}
		idf := math.Log(1 + (n-float64(plen)+0.5)/(float64(plen)+0.5))
		wt := float32(quality * max(idf, 0.05))
		ex := float32(0)
		if quality == qualityExact {
			ex = exactBonus
		}
		for i := lo; i < len(s.terms); i++ {
			if s.terms[i].id == id {
				s.terms[i].w = max(s.terms[i].w, wt)
				s.terms[i].ex = max(s.terms[i].ex, ex)
				return
			}
		}
		s.terms = append(s.terms, qterm{id, wt, ex})
	}
	for _, c := range ix.candidates(s, w) { // as written, stems, typos
		add(c.id, c.quality)
	}
	runes := utf8.RuneCountInString(w)
	if last && runes >= 2 {
		s.pfx = s.pfx[:0]
		v.withPrefix(w, func(id uint32) {
			if int(v.df[id]) > 0 && v.term(id) != w {
				s.pfx = append(s.pfx, id)
			}
		})
		if len(s.pfx) > maxPrefixTerms {
			slices.SortFunc(s.pfx, func(a, b uint32) int { return int(v.df[b]) - int(v.df[a]) })
			s.pfx = s.pfx[:maxPrefixTerms]
		}
		for _, id := range s.pfx {
			add(id, qualityPrefix)
		}
	}
	if len(s.terms) == lo && runes > minStem {
		// Nothing matched: a typo may be in an inflected form whose other
		// forms the index holds only as a stem ("invoise": no term is one
		// edit away, but its stem "invois" is one edit from "invoic", the
		// stem of "invoices"). Terms one edit from the word's stems match.
		for l := range numLangs {
			if st := s.stem.stem(w, l); st != w && utf8.RuneCountInString(st) >= minStem {
				s.cands = ix.typoCands(s, st, qualityTypo*qualityStem, s.cands[:0])
				for _, c := range s.cands {
					add(c.id, c.quality)
				}
			}
		}
	}
	if len(s.terms) == lo {
		return false
	}
	total := 0
	for _, t := range s.terms[lo:] {
		total += int(v.df[t.id])
	}
	s.words = append(s.words, qword{lo: lo, hi: len(s.terms), total: total, text: w})
	return true
}

// minSplit is the shortest part (in runes) split splits a word into.
const minSplit = 3

// split splits a closed compound no listing writes ("helpdesk", "livechat")
// into two words the index knows as written ("help", "desk"), appending them
// to dst; it returns dst unchanged when no split has both parts. Of several
// splits the most even one wins, which prefers two words to a word and a
// short suffix ("timetracking": "time tracking", not "timetrack ing").
func (ix *Index) split(w string, dst []string) []string {
	v := &ix.voc
	best, bestMin := -1, 0
	runes := 0
	for i := range w {
		if runes >= minSplit && utf8.RuneCountInString(w[i:]) >= minSplit {
			a, b := w[:i], w[i:]
			ida, oka := v.lookupTerm(a)
			idb, okb := v.lookupTerm(b)
			if oka && okb && v.df[ida] > 0 && v.df[idb] > 0 {
				if m := min(runes, utf8.RuneCountInString(b)); m > bestMin {
					best, bestMin = i, m
				}
			}
		}
		runes++
	}
	if best < 0 {
		return dst
	}
	return append(dst, w[:best], w[best:])
}
