package search

import (
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// Internal doc status values.
const (
	stDead uint8 = iota
	stLive
	stScheduled
)

// maxDocs bounds internal doc numbers.
const maxDocs = 1 << 24

// gone marks a dropped doc in a compaction's renumbering.
const gone = math.MaxUint32

// Fields of a listing, in the order of fieldWeight and avgLen.
const (
	fName = iota
	fTagline
	fKeywords
	fDescription
	fCategories
	fFeatures
	fShort
	numFields
)

// Field weights and BM25 parameters. Each field's term frequency is
// saturated on its own and the results are added with these weights, so a
// name match always outweighs any number of description matches. A
// category's name counts nearly as much as the listing's name: it is what
// an assistant asking for "invoicing" means.
var fieldWeight = [numFields]float64{fName: 4, fTagline: 2, fKeywords: 2, fDescription: 1, fCategories: 3, fFeatures: 1.5, fShort: 1.5}

const (
	wSum          = 15 // the sum of fieldWeight
	bm25K1, bm25B = 1.2, 0.75
)

// avgLen holds typical field lengths in words; fixed so that a doc's
// weights do not depend on load order.
var avgLen = [numFields]float64{fName: 2, fTagline: 8, fKeywords: 4, fDescription: 80, fCategories: 3, fFeatures: 20, fShort: 25}

// Index is an in-memory full-text index of listings. It is safe for
// concurrent use: Search runs under a read lock, Upsert and Delete under the
// write lock.
type Index struct {
	mu sync.RWMutex

	// Per internal doc number. Every Upsert appends a new doc number and
	// tombstones the previous one; compact renumbers when tombstones pile up.
	// A doc's stage, country, pricing and categories are kept only in the
	// bitsets and lists below, which filtering reads.
	ids      []uint32         // listing ids; wideID: see wide
	wide     map[uint32]int64 // doc -> listing id, for ids that do not fit in ids
	status   []uint8
	domText  []byte // hosts back to back, doc d's at domText[domOff[d]:domOff[d+1]]
	domOff   []uint32
	newest   []int64
	votes    []int32
	views    []int32
	follows  []int32
	trending []float64
	// stBits holds, per status (stLive, stScheduled), a bitset of the docs
	// with that status, for filtering a query's matches a word at a time.
	stBits [3][]uint64
	// valBits holds, per interned stage, country and pricing value (fields
	// in that order), a bitset of the docs with it, for the same purpose;
	// tombstones are not cleared (stBits is always ANDed in).
	valBits [3]map[uint32][]uint64

	// catDocs lists, per category id, its doc numbers in ascending order.
	catDocs map[int64][]uint32

	byID docTable // listing id -> doc number of live docs
	live int      // docs not tombstoned
	dead int

	strs map[string]uint32 // interned stage, country and pricing values

	voc vocab
	exp expCache // query words' candidates (expcache.go)

	cnt  counter // Upsert's scratch
	prep prep
	free chan *scratch // idle search scratches
	keep keepRule      // which query words keep their per-doc scores (topk.go)
}

// New returns an empty index.
func New() *Index {
	return &Index{
		domOff:  []uint32{0},
		catDocs: map[int64][]uint32{},
		strs:    map[string]uint32{"": 0},
		voc:     newVocab(),
		free:    make(chan *scratch, maxFree),
		keep:    defaultKeep,
	}
}

// Trim releases the spare capacity that loading left in the posting lists
// and the per-doc arrays; call it after a bulk load.
func (ix *Index) Trim() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.voc.trim()
	ix.ids, ix.status, ix.domText, ix.domOff = clip(ix.ids), clip(ix.status), clip(ix.domText), clip(ix.domOff)
	ix.newest, ix.trending = clip(ix.newest), clip(ix.trending)
	ix.votes, ix.views, ix.follows = clip(ix.votes), clip(ix.views), clip(ix.follows)
	for c, l := range ix.catDocs {
		ix.catDocs[c] = clip(l)
	}
}

// clip returns s without spare capacity, copying it when it has some.
func clip[T any](s []T) []T {
	if cap(s) == len(s) {
		return s
	}
	return slices.Clip(slices.Clone(s))
}

// Len returns the number of listings in the index.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Delete removes the listing with this id; an unknown id is ignored.
func (ix *Index) Delete(id int64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if d, ok := ix.byID.get(ix, id); ok {
		ix.byID.del(ix, id)
		ix.tombstone(d)
		ix.maybeCompact()
	}
}

// Upsert adds d, or replaces the listing with the same ID. A Status other
// than live or scheduled removes the listing.
func (ix *Index) Upsert(d Doc) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.cnt.prepare(&d, &ix.prep)
	ix.apply(&d, &ix.prep)
}

// UpsertAll upserts every doc received from docs until it is closed. Docs
// are tokenised and weighed on workers goroutines beside the index writes,
// so a bulk load uses every core; the docs may enter in any order, which
// changes no result (ties are broken by votes, then listing id).
func (ix *Index) UpsertAll(docs <-chan Doc, workers int) {
	type job struct {
		d Doc
		p prep
	}
	jobs := make(chan *job, 256)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			var c counter
			for d := range docs {
				j := &job{d: d}
				c.prepare(&j.d, &j.p)
				jobs <- j
			}
		})
	}
	go func() {
		wg.Wait()
		close(jobs)
	}()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.voc.lazyDels = true // the typo table is built once at the end
	ix.voc.lazyAux = true  // and so are dense forms
	for j := range jobs {
		ix.apply(&j.d, &j.p)
	}
	ix.voc.buildDels()
	ix.voc.buildAux(len(ix.ids))
	ix.voc.pack(false)
}

// apply adds doc d with its prepared postings p; called with the write lock.
func (ix *Index) apply(d *Doc, p *prep) {
	st := statusCode(d.Status)
	if old, ok := ix.byID.get(ix, d.ID); ok {
		ix.byID.del(ix, d.ID)
		ix.tombstone(old)
	}
	if st == stDead {
		ix.maybeCompact()
		return
	}
	if len(ix.ids) >= maxDocs {
		ix.compact()
		if len(ix.ids) >= maxDocs {
			panic("search: more than 16M listings")
		}
	}
	n := uint32(len(ix.ids))
	ix.live++
	ix.appendID(n, d.ID)
	ix.byID.put(ix, n)
	ix.status = append(ix.status, st)
	ix.setBits(n, [3]uint32{ix.intern(normStage(d.Stage)), ix.intern(normCountry(d.Country)), ix.intern(normPricing(d.PricingModel))})
	ix.domText = append(ix.domText, normDomain(d.Domain)...)
	ix.domOff = append(ix.domOff, uint32(len(ix.domText)))
	for i, c := range d.Categories {
		if !slices.Contains(d.Categories[:i], c) {
			ix.catDocs[c] = append(ix.catDocs[c], n)
		}
	}
	ix.newest = append(ix.newest, d.Newest)
	ix.votes = append(ix.votes, clamp32(d.Votes))
	ix.views = append(ix.views, clamp32(d.Views))
	ix.follows = append(ix.follows, clamp32(d.Follows))
	ix.trending = append(ix.trending, d.Trending)
	for i, t := range p.terms {
		ix.voc.appendPosting(ix.voc.id(t), n, p.weights[i])
	}
	ix.maybeCompact()
}

// prep is a doc's postings, worked out before it enters the index: its
// distinct terms and the doc's weight for each.
type prep struct {
	terms   []string
	weights []uint8
}

// counter tokenises docs and weighs their terms; it keeps its buffers
// between docs.
type counter struct {
	tok  tokenizer
	stem stemmer
	tf   map[string]int32       // term -> index in tfs and p.terms
	tfs  [][numFields]uint16    // per-field term frequencies
	toks [numFields][][]token   // per field, its texts' tokens
	bufs [numFields][]tokenizer // tokenizers whose output toks holds
	lens [numFields]int
}

// prepare fills p with doc d's terms and weights.
func (c *counter) prepare(d *Doc, p *prep) {
	if statusCode(d.Status) == stDead {
		p.terms, p.weights = p.terms[:0], p.weights[:0]
		return
	}
	if c.tf == nil {
		c.tf = map[string]int32{}
	}
	clear(c.tf)
	c.tfs, p.terms = c.tfs[:0], p.terms[:0]
	c.lens = [numFields]int{}
	// Tokenise every field first (each text with its own tokenizer, whose
	// buffers the tokens live in), to guess the language from all of them.
	texts := func(f int, ss ...string) {
		c.toks[f] = c.toks[f][:0]
		for i, s := range ss {
			if len(c.bufs[f]) <= i {
				c.bufs[f] = append(c.bufs[f], tokenizer{})
			}
			c.toks[f] = append(c.toks[f], c.bufs[f][i].tokens(s, false))
		}
	}
	texts(fName, d.Name)
	texts(fTagline, d.Tagline)
	texts(fKeywords, d.Keywords...)
	texts(fDescription, d.Description)
	texts(fCategories, d.CategoryNames...)
	texts(fFeatures, d.Features...)
	texts(fShort, d.ShortDescription)
	lang := guessLang(append(append(c.toks[fTagline], c.toks[fShort]...), c.toks[fDescription]...)...)
	add := func(field int, text string) {
		i, ok := c.tf[text]
		if !ok {
			i = int32(len(c.tfs))
			c.tf[text] = i
			c.tfs = append(c.tfs, [numFields]uint16{})
			p.terms = append(p.terms, text)
		}
		if f := &c.tfs[i]; f[field] < math.MaxUint16 {
			f[field]++
		}
	}
	for field, tss := range c.toks {
		for _, toks := range tss {
			for _, t := range toks {
				add(field, t.text)
				if t.primary {
					c.lens[field]++
					// Stems of every field but the long description, which
					// holds most of the postings (the index heap at 1M
					// listings); a description's plural is still one typo away.
					if field == fDescription {
						continue
					}
					if st := c.stem.stem(t.text, lang); st != t.text {
						add(field, st)
					}
				}
			}
		}
	}
	// A 2-4 word name is also indexed joined ("NoteFlow AI" -> noteflowai).
	var words, joined int
	for _, t := range c.toks[fName][0] {
		if t.primary {
			words++
			joined += len(t.text)
		}
	}
	if words >= 2 && words <= 4 && joined <= maxJoined {
		var b strings.Builder
		for _, t := range c.toks[fName][0] {
			if t.primary {
				b.WriteString(t.text)
			}
		}
		add(fName, b.String())
	}
	p.weights = p.weights[:0]
	for i := range p.terms {
		p.weights = append(p.weights, weight(&c.tfs[i], &c.lens))
	}
}

// weight is a doc's quantized BM25 weight (1..255) for a term with field
// frequencies f in fields of lens words.
func weight(f *[numFields]uint16, lens *[numFields]int) uint8 {
	s := 0.0
	for i, tf := range f {
		if tf == 0 {
			continue
		}
		l := max(lens[i], 1)
		norm := 1 - bm25B + bm25B*float64(l)/avgLen[i]
		s += fieldWeight[i] * float64(tf) / (float64(tf) + bm25K1*norm)
	}
	q := math.Round(s / wSum * 255)
	return uint8(min(max(q, 1), 255))
}

func (ix *Index) tombstone(d uint32) {
	if st := ix.status[d]; st != stDead {
		ix.stBits[st][d>>6] &^= 1 << (d & 63)
		ix.status[d] = stDead
		ix.live--
		ix.dead++
	}
}

// setBits marks doc d in the bitsets of its status and of its interned
// stage, country and pricing values vals.
func (ix *Index) setBits(d uint32, vals [3]uint32) {
	j := int(d >> 6)
	for len(ix.stBits[0]) <= j {
		for i := range ix.stBits {
			ix.stBits[i] = append(ix.stBits[i], 0)
		}
	}
	ix.stBits[ix.status[d]][j] |= 1 << (d & 63)
	for f, v := range vals {
		if v == 0 {
			continue
		}
		if ix.valBits[f] == nil {
			ix.valBits[f] = map[uint32][]uint64{}
		}
		b := ix.valBits[f][v]
		for len(b) <= j {
			b = append(b, 0)
		}
		b[j] |= 1 << (d & 63)
		ix.valBits[f][v] = b
	}
}

// wideID in ids marks a listing id outside [0, wideID): the id is in wide.
const wideID = math.MaxUint32

// appendID appends doc d's listing id.
func (ix *Index) appendID(d uint32, id int64) {
	if id >= 0 && id < wideID {
		ix.ids = append(ix.ids, uint32(id))
		return
	}
	ix.ids = append(ix.ids, wideID)
	if ix.wide == nil {
		ix.wide = map[uint32]int64{}
	}
	ix.wide[d] = id
}

// idOf returns doc d's listing id.
func (ix *Index) idOf(d uint32) int64 {
	if x := ix.ids[d]; x != wideID {
		return int64(x)
	}
	return ix.wide[d]
}

func (ix *Index) intern(s string) uint32 {
	if id, ok := ix.strs[s]; ok {
		return id
	}
	id := uint32(len(ix.strs))
	ix.strs[s] = id
	return id
}

// maybeCompact compacts when at least a quarter of doc numbers are tombstones.
func (ix *Index) maybeCompact() {
	if ix.dead >= 64 && ix.dead*4 >= len(ix.ids) {
		ix.compact()
	}
}

// compact drops tombstoned docs and renumbers the rest, keeping their order,
// so every posting list stays sorted. It costs one pass over all postings.
func (ix *Index) compact() {
	if ix.dead == 0 {
		return
	}
	remap := make([]uint32, len(ix.ids))
	n := uint32(0)
	dom := ix.domText[:0]
	var wide map[uint32]int64
	for d := range ix.ids {
		if ix.status[d] == stDead {
			remap[d] = gone
			continue
		}
		remap[d] = n
		ix.ids[n], ix.status[n] = ix.ids[d], ix.status[d]
		if ix.ids[n] == wideID {
			if wide == nil {
				wide = map[uint32]int64{}
			}
			wide[n] = ix.wide[uint32(d)]
		}
		ix.newest[n], ix.trending[n] = ix.newest[d], ix.trending[d]
		lo, hi := ix.domOff[d], ix.domOff[d+1]
		ix.domOff[n] = uint32(len(dom))
		dom = append(dom, ix.domText[lo:hi]...) // never overtakes lo: dom only shrinks
		ix.votes[n], ix.views[n], ix.follows[n] = ix.votes[d], ix.views[d], ix.follows[d]
		n++
	}
	ix.wide = wide
	ix.domOff[n] = uint32(len(dom))
	ix.domText = dom
	k := int(n)
	ix.ids, ix.status = ix.ids[:k], ix.status[:k]
	ix.newest, ix.trending, ix.domOff = ix.newest[:k], ix.trending[:k], ix.domOff[:k+1]
	ix.votes, ix.views, ix.follows = ix.votes[:k], ix.views[:k], ix.follows[:k]
	words := (k + 63) >> 6
	for st := range ix.stBits {
		ix.stBits[st] = remapBits(ix.stBits[st], remap, words)
	}
	for _, m := range ix.valBits {
		for v, b := range m {
			if b = remapBits(b, remap, 0); slices.ContainsFunc(b, func(x uint64) bool { return x != 0 }) {
				m[v] = b
			} else {
				delete(m, v)
			}
		}
	}
	ix.byID.reset(ix, k)
	for d := range k {
		ix.byID.put(ix, uint32(d))
	}
	ix.voc.rewrite(remap, k)
	for c, list := range ix.catDocs {
		out := list[:0]
		for _, d := range list {
			if nd := remap[d]; nd != gone {
				out = append(out, nd)
			}
		}
		if len(out) == 0 {
			delete(ix.catDocs, c)
		} else {
			ix.catDocs[c] = out
		}
	}
	ix.dead = 0
}

// remapBits renumbers the docs of bitset b through remap (gone: dropped)
// into a bitset of at least words words; renumbering keeps the order, so it works in
// place.
func remapBits(b []uint64, remap []uint32, words int) []uint64 {
	out := b[:0]
	for j := range b {
		x := b[j]
		b[j] = 0
		for ; x != 0; x &= x - 1 {
			if nd := remap[j<<6+bits.TrailingZeros64(x)]; nd != gone {
				for len(out) <= int(nd>>6) {
					out = append(out, 0)
				}
				out[nd>>6] |= 1 << (nd & 63)
			}
		}
	}
	for len(out) < words {
		out = append(out, 0)
	}
	return out
}

func statusCode(s string) uint8 {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "live":
		return stLive
	case "scheduled", "upcoming":
		return stScheduled
	}
	return stDead
}

func normStage(s string) string   { return strings.ToLower(strings.TrimSpace(s)) }
func normCountry(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }
func normPricing(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// normDomain lower-cases a host and drops "www." and a trailing dot.
func normDomain(s string) string {
	s = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
	return strings.TrimPrefix(s, "www.")
}

func clamp32(v int) int32 {
	return int32(min(max(v, math.MinInt32), math.MaxInt32))
}
