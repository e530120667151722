package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/wiring"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
	"github.com/launchdir/launchdir/storage/pgtest"
)

// testNow is a Wednesday; its launch week starts on 2026-11-16.
var testNow = time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)

// env is a running web handler over a real SQLite file with the demo data.
type env struct {
	srv     *httptest.Server
	svc     *domain.Service
	console *console.Console // over the same store and clock
	db      *storage.DB
}

// demo returns the env shared by the read-only tests of this package, built
// on first use: seeding once keeps the run short on two cores, and a run
// whose tests never read it (the e2e tier's selection of this package: the
// PostgreSQL parts) does not seed it at all. Tests that break their
// database build their own.
func demo() *env {
	demoOnce.Do(func() {
		dir, err := os.MkdirTemp("", "launchdir-web-")
		if err != nil {
			panic(err)
		}
		e, err := newEnv(dir, true)
		if err != nil {
			os.RemoveAll(dir)
			panic(err)
		}
		demoEnv, demoDir = e, dir
	})
	return demoEnv
}

var (
	demoOnce sync.Once
	demoEnv  *env
	demoDir  string
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m) // stops the PostgreSQL cluster if a test started one
	if demoEnv != nil {
		demoEnv.close()
		_ = os.RemoveAll(demoDir)
	}
	os.Exit(code)
}

// newEnv opens a database in dir, seeds the demo data when asked, and serves
// web.New over it at an httptest server whose URL is the site's origin.
func newEnv(dir string, seed bool) (*env, error) {
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	path := filepath.Join(dir, "launchdir.db")
	// A new database, migrated (a copy); with seed the demo data with the
	// past weeks' awards, as the weekly clock of serve --demo decides them.
	kind := fixtures.Migrated
	if seed {
		kind = fixtures.DemoWeeks
	}
	if err := fixtures.CopySeeded(kind, path); err != nil {
		srv.Close()
		return nil, err
	}
	// The service and the console as serve wires them (internal/wiring):
	// the clock is the only part of the outside world a page test replaces.
	core, err := wiredCore(path, srv.URL, wiring.Adapters{Now: func() time.Time { return testNow }})
	if err != nil {
		srv.Close()
		return nil, err
	}
	svc, cons, db := core.Service, core.Console, core.DB
	h = New(svc, WithConsole(cons))
	return &env{srv: srv, svc: svc, console: cons, db: db}, nil
}

// wiredCore builds the core of a page test's stack through the production
// wiring over the database at path (a SQLite file named launchdir.db in its
// data directory, or a postgres:// URL) for the site at baseURL, with the
// outside world ad (the clock is required). Its job runner is not started;
// close the env's database, not the core (the store's Close writes a
// search snapshot no test reads).
func wiredCore(path, baseURL string, ad wiring.Adapters) (*wiring.Core, error) {
	cfg := wiring.Defaults()
	cfg.BaseURL = baseURL
	switch {
	case storage.IsPostgresURL(path):
		cfg.Database = path
	case filepath.Base(path) == "launchdir.db":
		cfg.Data = filepath.Dir(path)
	default:
		return nil, fmt.Errorf("wiredCore: %s: the data directory's database is launchdir.db", path)
	}
	return wiring.Open(context.Background(), cfg, ad)
}

func (e *env) close() {
	e.srv.Close()
	_ = e.db.Close()
}

// response is what a test reads from one request.
type response struct {
	status int
	header http.Header
	body   string
}

// get requests path (or an absolute URL) from the server.
func (e *env) get(t *testing.T, path string, hdr ...string) response {
	t.Helper()
	u := path
	if !strings.HasPrefix(u, "http") {
		u = e.srv.URL + path
	}
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}
