package storage_test

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"unicode"

	_ "github.com/mattn/go-sqlite3"
)

// The baseline of issue 30: plain SQLite full-text search with BM25 over
// the same live listings, the query's words ORed. It is SQLite FTS5's
// bm25() with its defaults (k1 = 1.2, b = 0.75, every column weight 1),
// computed from FTS4's matchinfo, because mattn/go-sqlite3 has FTS3/4
// built in and FTS5 only behind the sqlite_fts5 build tag (a second cgo
// build of SQLite). With weights of 1 FTS5's bm25 over several columns is
// BM25 over their concatenation (a term's frequency is summed over the
// columns, the document length is the row's total, a document counts for a
// term's IDF when any column holds it), so the listing's text goes into one
// column. docs/search.md ("Relevance") says more, and
// relevance_fts5_test.go (tag sqlite_fts5) checks that FTS5 ranks the same.

// baselineSQL reads what the baseline indexes of each listing: name,
// tagline, short and long description, keywords, features, and the names of
// all its categories (primary and extra).
const baselineSQL = `SELECT l.slug, l.name, l.tagline, l.short_description, l.description, l.keywords, l.features,
	COALESCE((SELECT group_concat(c.name, ' ') FROM listing_categories lc JOIN categories c ON c.id = lc.category_id
		WHERE lc.listing_id = l.id), '')
	FROM listings l ORDER BY l.id`

// baselineDoc is one listing's text for the baseline.
type baselineDoc struct {
	slug, text string
}

// loadBaselineDocs reads the text of every live listing of c (those the
// service searches) from the SQLite database at path.
func loadBaselineDocs(t testing.TB, path string, c relCorpus) []baselineDoc {
	t.Helper()
	src, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	rows, err := src.Query(baselineSQL)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var docs []baselineDoc
	for rows.Next() {
		var slug, name, tagline, short, desc, kw, feat, cats string
		if err := rows.Scan(&slug, &name, &tagline, &short, &desc, &kw, &feat, &cats); err != nil {
			t.Fatal(err)
		}
		if _, live := c.primary[slug]; !live {
			continue
		}
		parts := []string{name, tagline, short, desc}
		for _, js := range []string{kw, feat} {
			var list []string
			if err := json.Unmarshal([]byte(js), &list); err != nil {
				t.Fatalf("%s: %v", slug, err)
			}
			parts = append(parts, list...)
		}
		docs = append(docs, baselineDoc{slug, strings.Join(append(parts, cats), "\n")})
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(docs) != len(c.primary) {
		t.Fatalf("baseline: %d listings read, %d live", len(docs), len(c.primary))
	}
	return docs
}

// ftsBaseline is an in-memory FTS4 table of the listings' text.
type ftsBaseline struct {
	db     *sql.DB
	slugs  []string // by docid - 1
	nDocs  float64
	avgLen float64
}

func newFTSBaseline(t testing.TB, docs []baselineDoc) *ftsBaseline {
	t.Helper()
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // one connection: an in-memory database is per connection
	t.Cleanup(func() { db.Close() })
	// unicode61 folds case and diacritics, as FTS5's default tokenizer does.
	if _, err := db.Exec(`CREATE VIRTUAL TABLE docs USING fts4(body, tokenize=unicode61)`); err != nil {
		t.Fatal(err)
	}
	b := &ftsBaseline{db: db}
	for i, d := range docs {
		if _, err := db.Exec(`INSERT INTO docs (docid, body) VALUES (?, ?)`, i+1, d.text); err != nil {
			t.Fatal(err)
		}
		b.slugs = append(b.slugs, d.slug)
	}
	// The exact average length: matchinfo's 'a' is truncated to an integer.
	// docs_stat row 0 holds varints: the number of rows, then each column's
	// total number of tokens.
	var stat []byte
	if err := db.QueryRow(`SELECT value FROM docs_stat WHERE id = 0`).Scan(&stat); err != nil {
		t.Fatal(err)
	}
	n, k := binary.Uvarint(stat)
	total, k2 := binary.Uvarint(stat[max(k, 0):])
	if k <= 0 || k2 <= 0 || n != uint64(len(docs)) {
		t.Fatalf("docs_stat: %x (rows %d, %d docs)", stat, n, len(docs))
	}
	b.nDocs, b.avgLen = float64(n), float64(total)/float64(n)
	return b
}

// baselineTerms are the query's words as the tokenizer sees them (split on
// anything that is not a letter or digit), each once, in order.
func baselineTerms(q string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// search runs the OR query and ranks every match by BM25, best first, ties
// by docid (insertion order, the listings' id order); it gives the first
// ten slugs and the number of matches.
func (b *ftsBaseline) search(q string) ([]string, int, error) {
	terms := baselineTerms(q)
	if len(terms) == 0 {
		return nil, 0, nil
	}
	quoted := make([]string, len(terms))
	for i, w := range terms {
		quoted[i] = `"` + w + `"`
	}
	rows, err := b.db.QueryContext(context.Background(),
		`SELECT docid, matchinfo(docs, 'pcnlx') FROM docs WHERE docs MATCH ?`, strings.Join(quoted, " OR "))
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	type hit struct {
		doc   int
		score float64
	}
	var hits []hit
	for rows.Next() {
		var doc int
		var blob []byte
		if err := rows.Scan(&doc, &blob); err != nil {
			return nil, 0, err
		}
		s, err := b.bm25(blob)
		if err != nil {
			return nil, 0, err
		}
		hits = append(hits, hit{doc, s})
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	slices.SortFunc(hits, func(x, y hit) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return cmp.Compare(x.doc, y.doc)
	})
	var out []string
	for _, h := range hits[:min(10, len(hits))] {
		out = append(out, b.slugs[h.doc-1])
	}
	return out, len(hits), nil
}

// bm25 is FTS5's bm25() of one row from matchinfo 'pcnlx' (one column):
// for each phrase (query word) i with f_i occurrences in the row and n_i
// rows holding it, IDF_i = ln((N - n_i + 0.5) / (n_i + 0.5)), at least
// 1e-6, and the score is sum IDF_i * f_i * (k1 + 1) / (f_i + k1 * (1 - b +
// b * D / avgdl)) with D the row's length in tokens.
func (b *ftsBaseline) bm25(blob []byte) (float64, error) {
	const k1, bb = 1.2, 0.75
	if len(blob)%4 != 0 || len(blob) < 16 {
		return 0, fmt.Errorf("matchinfo: %d bytes", len(blob))
	}
	u := make([]uint32, len(blob)/4)
	for i := range u {
		u[i] = binary.NativeEndian.Uint32(blob[4*i:])
	}
	p, c := int(u[0]), int(u[1])
	if c != 1 || len(u) != 4+3*p {
		return 0, fmt.Errorf("matchinfo: %d phrases, %d columns, %d values", p, c, len(u))
	}
	d := float64(u[3])
	var score float64
	for i := range p {
		x := u[4+3*i:]
		f, nHit := float64(x[0]), float64(x[2])
		idf := math.Log((b.nDocs - nHit + 0.5) / (nHit + 0.5))
		if idf <= 0 {
			idf = 1e-6
		}
		score += idf * f * (k1 + 1) / (f + k1*(1-bb+bb*d/b.avgLen))
	}
	return score, nil
}
