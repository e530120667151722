package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
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

// demo is shared by the read-only tests of this package: seeding once keeps
// the run short on two cores. Tests that break their database build their own.
var demo *env

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "launchdir-web-")
	if err != nil {
		panic(err)
	}
	e, err := newEnv(dir, true)
	if err != nil {
		panic(err)
	}
	demo = e
	code := pgtest.Main(m) // stops the PostgreSQL cluster if a test started one
	e.close()
	_ = os.RemoveAll(dir)
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
	db, err := storage.Open(path, storage.WithClock(time.Now))
	if err != nil {
		srv.Close()
		return nil, err
	}
	site := domain.Site{Key: "main", Name: "Launchdir", Purpose: "A public directory of software launches.", BaseURL: srv.URL}
	st, err := storage.NewStore(context.Background(), db, site)
	if err != nil {
		srv.Close()
		_ = db.Close()
		return nil, err
	}
	svc := domain.NewService(st, site, func() time.Time { return testNow })
	cons, err := console.New(console.Over(st, svc))
	if err != nil {
		srv.Close()
		_ = db.Close()
		return nil, err
	}
	h = New(svc, WithConsole(cons))
	return &env{srv: srv, svc: svc, console: cons, db: db}, nil
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
