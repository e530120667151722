//go:build sqlite_fts5

package storage_test

import (
	"database/sql"
	"slices"
	"strings"
	"testing"
)

// TestRelevance_BaselineIsFTS5 checks that the baseline (FTS4 matchinfo,
// BM25 computed in Go: relevance_baseline_test.go) ranks every query of
// both sets as SQLite FTS5's own ORDER BY bm25() does, pages and totals.
// FTS5 needs mattn/go-sqlite3's build tag, which compiles SQLite again:
//
//	go test -tags sqlite_fts5 ./storage -run 'TestRelevance_BaselineIsFTS5' -count=1
func TestRelevance_BaselineIsFTS5(t *testing.T) {
	st, path := seededStore(t)
	corpus := loadRelCorpus(t, st)
	docs := loadBaselineDocs(t, path, corpus)
	base := newFTSBaseline(t, docs)
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	defer db.Close()
	if _, err := db.Exec(`CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='unicode61')`); err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		if _, err := db.Exec(`INSERT INTO docs (rowid, body) VALUES (?, ?)`, i+1, d.text); err != nil {
			t.Fatal(err)
		}
	}
	fts5 := func(q string) ([]string, int) {
		terms := baselineTerms(q)
		if len(terms) == 0 {
			return nil, 0
		}
		for i, w := range terms {
			terms[i] = `"` + w + `"`
		}
		rows, err := db.Query(`SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs), rowid`, strings.Join(terms, " OR "))
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		defer rows.Close()
		var out []string
		n := 0
		for rows.Next() {
			var id int
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			if n < 10 {
				out = append(out, docs[id-1].slug)
			}
			n++
		}
		return out, n
	}
	checked := 0
	for _, set := range []string{"dev", "heldout"} {
		for _, q := range loadRelSet(t, set) {
			want, wantN := fts5(q.Q)
			got, gotN, err := base.search(q.Q)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) || gotN != wantN {
				t.Errorf("%s %q:\nbaseline %d %v\nFTS5     %d %v", set, q.Q, gotN, got, wantN, want)
			}
			checked++
		}
	}
	t.Logf("%d queries: the baseline's pages and totals are FTS5's", checked)
}
