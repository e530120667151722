package storage

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/storage/pgtest"
)

// TestPostgres_IDListGenericPlans: the store's connections keep one generic
// plan per prepared statement (plan_cache_mode = force_generic_plan), planned
// without the array a statement gets (PostgreSQL assumes 10 elements), so an
// id list (inIDs: col = ANY(?)) must have a generic plan that reads the rows
// by their index, not a scan of the table. Checked with EXPLAIN EXECUTE on
// 1,000 synthetic listings (seed --synthetic, analysed) for the statements
// that take an id list on the read path: the summaries a search page lacks
// (summariesByID), and the search index's catch-up (its search_log
// look-ups and the listings it re-reads). The catch-up's listing_categories
// read is left out: on 1,000 listings its generic plan reads the small table
// whole, which the planner costs below ten index probes, and on 5,000 it
// takes listing_categories_pkey (docs/scaling.md, sixth part).
func TestPostgres_IDListGenericPlans(t *testing.T) {
	if pgtest.Skipped() {
		t.Skip("PostgreSQL tests are skipped")
	}
	t.Parallel()
	ctx := context.Background()
	db := openEngine(t, "postgres")
	if err := SeedSynthetic(ctx, db, demoSite, 1000, demoNow); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, query, col, table, index string
	}{
		{"summariesByID", `SELECT ` + summaryCols + `, l.id FROM ` + summaryFrom + ` WHERE `, "l.id", "listings", "listings_pkey"},
		{"reindex listings", `SELECT ` + docCols + ` FROM listings l WHERE `, "l.id", "listings", "listings_pkey"},
		{"search_log gaps", `SELECT seq, listing_id FROM search_log WHERE `, "seq", "search_log", `\w+`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, args := db.eng.inIDs(c.col, []int64{3, 77, 500, 999})
			q, _ := db.eng.bind(c.query+in, args)
			conn, err := db.sql.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			for _, stmt := range []string{`SET plan_cache_mode = force_generic_plan`, `PREPARE idlist(bigint[]) AS ` + q} {
				if _, err := conn.ExecContext(ctx, stmt); err != nil {
					t.Fatalf("%s: %v", stmt, err)
				}
			}
			defer conn.ExecContext(ctx, `DEALLOCATE idlist`)
			rows, err := conn.QueryContext(ctx, `EXPLAIN EXECUTE idlist('{3,77,500,999}')`)
			if err != nil {
				t.Fatal(err)
			}
			var plan strings.Builder
			for rows.Next() {
				var line string
				if err := rows.Scan(&line); err != nil {
					t.Fatal(err)
				}
				plan.WriteString(line + "\n")
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			// An index searched by the list (Index Cond), not one read whole
			// and filtered (what l.id + 0 = ANY(?) would give).
			col := c.col[strings.IndexByte(c.col, '.')+1:]
			byIndex := regexp.MustCompile(`Scan (using )?` + c.index + ` on ` + c.table + `\b.*\n\s+Index Cond: \(` + col + ` = ANY \(\$1\)\)`)
			if p := plan.String(); !byIndex.MatchString(p) || strings.Contains(p, "Seq Scan on "+c.table+" ") {
				t.Errorf("the generic plan of %s does not read %s by its index (%s):\n%s", c.name, c.table, byIndex, p)
			}
		})
	}
}
