package storage

import (
	"fmt"
	"strings"

	"github.com/launchdir/launchdir/domain/demo"
)

// On PostgreSQL the demo seed sends its statements in batches: the rows of
// a fresh demo are tens of thousands of single-row statements, and one
// round trip each made the seed of the demo take minutes on a loaded
// machine (docs/testing.md). A batch is the same statements, in the same
// order, in the same transaction, joined into one simple-protocol query
// (pgx quotes the arguments into it, dialect.go), so the stored rows are
// those of one statement at a time (TestSeedDemo_GoldenOnPostgres holds
// them to the SQLite digest). SQLite runs each statement as before: it has
// no round trip to save.

// demoBatchMax bounds the statements of one batch (and so the size of one
// query, a few hundred kilobytes at most).
const demoBatchMax = 500

// pgBatch collects statements with plain ? placeholders for one query.
type pgBatch struct {
	q     strings.Builder
	args  []any
	n     int
	first string // the first statement's leading words, for errors
}

// batchable reports whether q can join a batch: its placeholders are plain
// ? (a numbered ?N would refer to another statement's arguments once
// joined).
func batchable(q string) bool {
	for i := strings.IndexByte(q, '?'); i >= 0; {
		if i+1 < len(q) && q[i+1] >= '0' && q[i+1] <= '9' {
			return false
		}
		j := strings.IndexByte(q[i+1:], '?')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return true
}

// queue adds a statement to the writer's batch (PostgreSQL) and sends the
// batch when it is full. It reports false when the statement was not
// queued (SQLite, or a statement that cannot join a batch).
func (w *demoWriter) queue(query string, args ...any) bool {
	if w.db == nil || !w.db.eng.pricedRoundTrips() || !batchable(query) {
		return false
	}
	if w.err != nil {
		return true
	}
	if w.batch == nil {
		w.batch = &pgBatch{}
	}
	b := w.batch
	if b.n == 0 {
		b.first = fmt.Sprint(strings.Fields(query)[0:3])
	} else {
		b.q.WriteString("\n;\n")
	}
	b.q.WriteString(query)
	b.args = append(b.args, args...)
	b.n++
	if b.n >= demoBatchMax {
		w.flush()
	}
	return true
}

// flush sends the queued statements, if any, in one round trip. Every read
// of the transaction (a RETURNING id, castVotes' queries) and the commit
// come after a flush, so they see every statement queued before them.
func (w *demoWriter) flush() {
	b := w.batch
	if b == nil || b.n == 0 {
		return
	}
	q, args, n, first := b.q.String(), b.args, b.n, b.first
	b.q.Reset()
	b.args, b.n = nil, 0
	if w.err != nil {
		return
	}
	if _, err := w.tx.ExecScript(w.ctx, q, args...); err != nil {
		w.err = fmt.Errorf("demo data: batch of %d statements from %s: %w", n, first, err)
	}
}

// writeViewsPG writes the views of writeActivity on PostgreSQL. There, the
// views_count_ins trigger's UPDATE of the listing row for each view made a
// new version of that row per view, all alive in the seeding transaction,
// and each next UPDATE walked them all through the listing's indexes: the
// 72,776 views of the demo took 4 min 46 s of the seed's 6 min 14 s (load
// average 13-19). Here the trigger is disabled for the seeding transaction
// (ALTER TABLE is transactional on PostgreSQL, so it is enabled again when
// the transaction ends either way; concurrent inserts of views wait for the
// seed, which runs on an empty site before anything serves it), and the
// seed does what the trigger did: views_count grows by the listing's views,
// and search_log gets one row of the listing per view, in the order the
// trigger's updates added them (the one UPDATE adds the first through
// search_log_listing_upd). The rows are those of SQLite, where the trigger
// runs (TestSeedDemo_GoldenOnPostgres). A database role that does not own
// the views table may not disable its trigger: the seed then inserts the
// views as SQLite does, each counted by the trigger
// (TestWriteViewsPG_OwnerOrNot).
func (w *demoWriter) writeViewsPG(d *demo.Dataset) {
	w.flush()
	var owner bool
	if w.err == nil {
		if err := w.tx.QueryRowContext(w.ctx, `SELECT pg_has_role(current_user, c.relowner, 'USAGE') FROM pg_class c WHERE c.oid = 'views'::regclass`).Scan(&owner); err != nil {
			w.err = fmt.Errorf("demo data: owner of views: %w", err)
		}
	}
	if !owner {
		w.writeViews(d)
		return
	}
	w.exec(`ALTER TABLE views DISABLE TRIGGER views_count_ins`)
	for _, l := range d.Listings {
		if l.LaunchedAt.IsZero() || l.Views == 0 {
			continue
		}
		from, span := l.LaunchedAt.Unix(), max(d.Now.Unix()-l.LaunchedAt.Unix(), 1)
		id := w.ids[l.Index]
		w.exec(viewsInsert, l.Views, id, from, span, l.Views)
		w.exec(`UPDATE listings SET views_count = views_count + ? WHERE id = ?`, l.Views, id)
		if l.Views > 1 {
			w.exec(`INSERT INTO search_log (listing_id) SELECT ? FROM generate_series(2, ?)`, id, l.Views)
		}
	}
	w.exec(`ALTER TABLE views ENABLE TRIGGER views_count_ins`)
}
