//go:build e2e

package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What PostgreSQL ran in a window of BenchmarkProcesses, from
// pg_stat_statements (the benchmark's own cluster preloads it, issue 36):
// statements per call, their calls, rows and time, so that the cost per call
// can be explained by counts that do not depend on how loaded the machine
// is. -launchdir.procs-statements N logs the N statements that took the most
// time in each window (0: no pg_stat_statements, the shared cluster).
var procsStatementsFlag = flag.Int("launchdir.procs-statements", 12, "statements BenchmarkProcesses lists per window from pg_stat_statements (0: none, and no own cluster)")

// procsIdleFlag is how long BenchmarkProcesses watches the processes idle
// (no calls) after the loads, to count their background statements.
var procsIdleFlag = flag.Duration("launchdir.procs-idle", 5*time.Second, "idle window after the loads in which BenchmarkProcesses counts background statements (0: none)")

// pgWindow is what PostgreSQL counted since its statistics were last reset.
type pgWindow struct {
	ok          bool
	top, nested int64   // statement executions at top level and inside functions (triggers)
	plans       int64   // plannings of the top-level ones (a prepared statement's custom plans, or its generic plan once)
	rows        int64   // rows of the top-level ones
	execMS      float64 // their execution time (wall time: grows with the machine's load)
	stmts       []pgStmt
	// Serialization failures and deadlocks the server logged in the
	// window (each is a transaction run again by DB.inTx), and the
	// server's backends at its end.
	logFrom            int64
	serialize, backend int64
}

type pgStmt struct {
	calls, plans, rows int64
	ms                 float64
	top                bool
	query              string
}

// statsReset empties pg_stat_statements and notes pg_stat_database's
// transaction counts, starting a window (a no-op without the extension).
func (d *procsDB) statsReset() pgWindow {
	var w pgWindow
	if d.stats == nil || !d.pgss {
		return w
	}
	if _, err := d.stats.Exec(`SELECT pg_stat_statements_reset()`); err != nil {
		return w
	}
	if fi, err := os.Stat(d.serverLog()); err == nil {
		w.logFrom = fi.Size()
	}
	w.ok = true
	return w
}

// statsRead ends the window w started: the statements of the benchmark's
// database other than the benchmark's own statistics queries.
func (d *procsDB) statsRead(w pgWindow) pgWindow {
	if !w.ok {
		return w
	}
	rows, err := d.stats.Query(`SELECT s.calls, s.plans, s.rows, s.total_exec_time, s.toplevel, s.query
		FROM pg_stat_statements s JOIN pg_database db ON db.oid = s.dbid
		WHERE db.datname = current_database() AND s.query NOT LIKE '%pg_stat%' AND s.query NOT LIKE '%pg_backend_pid%'
		ORDER BY s.total_exec_time DESC`)
	if err != nil {
		w.ok = false
		return w
	}
	defer rows.Close()
	for rows.Next() {
		var s pgStmt
		if err := rows.Scan(&s.calls, &s.plans, &s.rows, &s.ms, &s.top, &s.query); err != nil {
			w.ok = false
			return w
		}
		if s.top {
			w.top += s.calls
			w.plans += s.plans
			w.rows += s.rows
			w.execMS += s.ms
		} else {
			w.nested += s.calls
		}
		w.stmts = append(w.stmts, s)
	}
	_ = d.stats.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&w.backend)
	if f, err := os.Open(d.serverLog()); err == nil {
		if _, err := f.Seek(w.logFrom, io.SeekStart); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if line := sc.Text(); strings.Contains(line, "could not serialize access") || strings.Contains(line, "deadlock detected") {
					w.serialize++
				}
			}
		}
		f.Close()
	}
	return w
}

// serverLog is the log file of the benchmark's own cluster (pgtest keeps
// it beside the socket); "" without one.
func (d *procsDB) serverLog() string {
	u, err := url.Parse(d.pgURL)
	if err != nil || !d.pgss {
		return ""
	}
	return filepath.Join(u.Query().Get("host"), "server.log")
}

// log writes the window's summary per call (per second for an idle window:
// calls 0, secs its length) and its most costly statements.
func (w pgWindow) log(b *testing.B, what string, calls int, secs float64) {
	if !w.ok {
		return
	}
	per, unit := float64(calls), "call"
	if calls == 0 {
		per, unit = secs, "s"
	}
	if per <= 0 {
		return
	}
	b.Logf("%s: pg_stat_statements: %.2f statements per %s (%d in all; %.2f plannings, %.2f rows and %.3f ms of execution per %s), %.2f in triggers and functions per %s; %d serialization failures or deadlocks (%.3f per %s); %d backends open",
		what, float64(w.top)/per, unit, w.top, float64(w.plans)/per, float64(w.rows)/per, w.execMS/per, unit, float64(w.nested)/per, unit, w.serialize, float64(w.serialize)/per, unit, w.backend)
	n := 0
	for _, s := range w.stmts {
		if n >= *procsStatementsFlag {
			break
		}
		n++
		q := strings.Join(strings.Fields(s.query), " ")
		if len(q) > 150 {
			q = q[:150] + "..."
		}
		lvl := ""
		if !s.top {
			lvl = " (nested)"
		}
		b.Logf("  %7.3f per %s, %6d calls, %5d plans, %7d rows, %8.1f ms%s: %s", float64(s.calls)/per, unit, s.calls, s.plans, s.rows, s.ms, lvl, q)
	}
}

// enablePGSS creates the extension in the benchmark's database.
func (d *procsDB) enablePGSS() error {
	if _, err := d.stats.Exec(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`); err != nil {
		return fmt.Errorf("pg_stat_statements: %w", err)
	}
	d.pgss = true
	return nil
}
