package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3" // the driver storage opens SQLite with; read here to see the jobs settle

	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/internal/testtier"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// The browser tests, Lighthouse and the host test (e2e tier) and the
// in-process serve tests that use the demo without proving its seed each
// ran `apikey create` and `serve --demo` on an empty data directory: the demo
// seed, the weekly clock's catch-up and the search index, about 6 s of CPU
// per test (docs/testing.md). They now start from a copy of one data
// directory in which that was done once per test binary, by the same
// commands: `apikey create` for buyer@example.com, then `serve --demo` until
// its banner is printed and no job is due, then stopped (it wrote its search
// snapshot on the way out). Each test's `serve --demo` on its copy is the
// restart of a demo instance: the seed finds the demo there and loads
// nothing, the search index is loaded from the snapshot, the weekly clock
// finds its week done. The seed of an empty directory by `serve --demo` is
// proved by the template's build here (TestServe_DemoAwardsFromTheClock
// reads the awards its weekly clock made) and by the tests that still seed
// per test (TestServe, and TestSeedAndMigrate's `seed --demo`).
//
// The demo data depend on the week of the instant they are seeded at, so a
// template on the real clock is keyed by the UTC ISO week: a test that
// starts in a new week gets a template seeded in that week. A template on a
// test clock (demoDataCopyAt) is keyed by the clock's instant and built on a
// clock standing there, as a test's own serve on that clock would seed.

// demoTemplate is one week's seeded data directory.
type demoTemplate struct {
	once sync.Once
	dir  string // the stopped serve's data directory
	key  string // buyer@example.com's API key in it
	err  error
	took time.Duration
}

var (
	demoTemplatesMu sync.Mutex
	demoTemplates   = map[string]*demoTemplate{}
	demoTemplateDir struct {
		once sync.Once
		path string
		err  error
	}
)

// demoDataCopy copies this week's demo template on the real clock (built
// on first use) into a new data directory of the test and returns it and
// buyer@example.com's API key in it.
func demoDataCopy(t testing.TB) (data, key string) {
	t.Helper()
	year, week := time.Now().UTC().ISOWeek()
	return demoDataCopyOf(t, fmt.Sprintf("%d-W%02d", year, week), time.Now)
}

// demoDataCopyAt is demoDataCopy for a test whose serve runs on a test clock
// standing at at: the template is seeded on a clock standing there.
func demoDataCopyAt(t testing.TB, at time.Time) (data, key string) {
	t.Helper()
	return demoDataCopyOf(t, "at-"+at.UTC().Format("20060102T150405.000000000Z"), testclock.New(at).Now)
}

// demoDataCopyOf copies the template name, built on first use on the clock
// now, into a new data directory of the test.
func demoDataCopyOf(t testing.TB, name string, now func() time.Time) (data, key string) {
	t.Helper()
	demoTemplatesMu.Lock()
	tp := demoTemplates[name]
	if tp == nil {
		tp = &demoTemplate{}
		demoTemplates[name] = tp
	}
	demoTemplatesMu.Unlock()
	tp.once.Do(func() {
		start := time.Now()
		tp.dir, tp.key, tp.err = buildDemoTemplate(name, now)
		tp.took = time.Since(start)
		if tp.err == nil {
			t.Logf("demo data template %s built in %v (apikey create, serve --demo until no job is due)", name, tp.took.Round(100*time.Millisecond))
		}
	})
	if tp.err != nil {
		t.Fatalf("demo data template %s: %v", name, tp.err)
	}
	data = filepath.Join(t.TempDir(), "data")
	if err := copyDataDir(tp.dir, data); err != nil {
		t.Fatalf("copy the demo data template: %v", err)
	}
	return data, tp.key
}

// startServeDemoCopy runs serve --demo (startServeAt on the clock now, with
// args after) on the test's own copy of the demo template: the template of
// the real clock's week when now is nil, else the one seeded at now().
func startServeDemoCopy(t testing.TB, now func() time.Time, args ...string) *served {
	t.Helper()
	var data string
	if now == nil {
		now = time.Now
		data, _ = demoDataCopy(t)
	} else {
		data, _ = demoDataCopyAt(t, now())
	}
	return startServeAt(t, now, append([]string{"--demo", "--data", data}, args...)...)
}

// buildDemoTemplate runs `apikey create` and `serve --demo` on a new data
// directory on the clock now, waits for serve's banner and for its due jobs
// (the weekly clock's catch-up, the open-data export) to be done, and stops
// it.
func buildDemoTemplate(name string, now func() time.Time) (dir, key string, err error) {
	demoTemplateDir.once.Do(func() {
		demoTemplateDir.path, demoTemplateDir.err = os.MkdirTemp("", "launchdir-demo-data-")
		if demoTemplateDir.err == nil {
			p := demoTemplateDir.path
			testtier.AtExit(func() { _ = os.RemoveAll(p) })
		}
	})
	if demoTemplateDir.err != nil {
		return "", "", demoTemplateDir.err
	}
	dir = filepath.Join(demoTemplateDir.path, name)
	var out strings.Builder
	if err := run(context.Background(), now, []string{"apikey", "create", "--data", dir, "--email", "buyer@example.com"}, &out, io.Discard); err != nil {
		return "", "", fmt.Errorf("apikey create: %w", err)
	}
	key = strings.TrimSpace(out.String())

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	logs := &syncBuffer{}
	ended := make(chan error, 1)
	go func() {
		err := run(ctx, now, []string{"serve", "--demo", "--data", dir, "--addr", "127.0.0.1:0", "--rate-limit", "0"}, pw, logs)
		pw.Close()
		ended <- err
	}()
	stop := func() error {
		cancel()
		select {
		case err := <-ended:
			return err
		case <-time.After(time.Minute):
			return errors.New("serve did not stop within a minute")
		}
	}
	if _, err := awaitBanner(pr, serveReadyBound); err != nil {
		return "", "", errors.Join(fmt.Errorf("serve --demo: %w\nstderr:\n%s", err, logs), stop())
	}
	if err := awaitNoDueJobs(filepath.Join(dir, "launchdir.db"), now, 2*time.Minute); err != nil {
		return "", "", errors.Join(fmt.Errorf("serve --demo: %w\nstderr:\n%s", err, logs), stop())
	}
	if err := stop(); err != nil {
		return "", "", fmt.Errorf("serve --demo: %w\nstderr:\n%s", err, logs)
	}
	return dir, key, nil
}

// awaitNoDueJobs waits until the SQLite database at path has no queued job
// whose time has come on the clock now (the job runner has run them).
func awaitNoDueJobs(path string, now func() time.Time, bound time.Duration) error {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(bound)
	for {
		var n int
		err := db.QueryRow(`SELECT COUNT(*) FROM jobs WHERE state = 'queued' AND run_at <= ?`, now().Unix()).Scan(&n)
		if err == nil && n == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("jobs still due after %v (%d, %v)", bound, n, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// copyDataDir copies the files of the data directory src (the database,
// its search snapshot) into the new directory dst.
func copyDataDir(src, dst string) error {
	ents, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", filepath.Join(src, e.Name()))
		}
		if err := fixtures.CopyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
