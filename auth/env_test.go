package auth_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
)

// env is the auth service over a real SQLite file behind a real HTTP server
// on loopback, with a settable clock.
type env struct {
	t     *testing.T
	srv   *httptest.Server
	auth  *auth.Auth
	store auth.Store
	db    *storage.DB
	// clk is the one clock of the env: auth and the stores read it.
	clk *testclock.Clock
}

// newEnv starts the auth service. modify, when given, may change the config
// before the service is built (cfg.Origin is the test server's URL).
func newEnv(t *testing.T, modify func(*auth.Config)) *env {
	t.Helper()
	clk := testclock.New(time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC))
	db, err := storage.Open(migratedFile(t), storage.WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{t: t, db: db, store: storage.NewAuthStore(db), clk: clk}
	mux := http.NewServeMux()
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	cfg := auth.Config{Origin: e.srv.URL, SiteName: "Launchdir Test", Store: e.store, Now: e.clock}
	if modify != nil {
		modify(&cfg)
	}
	a, err := auth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.Register(mux)
	e.auth = a
	return e
}

// clock is the env's time.
func (e *env) clock() time.Time { return e.clk.Now() }

// advance moves the clock forward.
func (e *env) advance(d time.Duration) { e.clk.Advance(d) }

// browser is an HTTP client with a cookie jar that does not follow
// redirects, so tests see every Location.
func (e *env) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// signedIn returns a browser signed in as email, by a session created
// directly in the store (the sign-in pages have their own tests).
func (e *env) signedIn(email string) (*http.Client, auth.User) {
	e.t.Helper()
	ctx := context.Background()
	u, err := e.store.UpsertUser(ctx, auth.EmailIssuer, email, email, "", e.clock())
	if err != nil {
		e.t.Fatal(err)
	}
	raw := auth.NewSecret("")
	if err := e.store.CreateSession(ctx, auth.Session{Hash: auth.Hash(raw), UserID: u.ID, CSRF: auth.Hash(auth.CSRFToken(raw)),
		CreatedAt: e.clock(), ExpiresAt: e.clock().Add(auth.SessionTTL)}); err != nil {
		e.t.Fatal(err)
	}
	b := e.browser()
	u2, _ := http.NewRequest(http.MethodGet, e.srv.URL, nil)
	b.Jar.SetCookies(u2.URL, []*http.Cookie{{Name: "launchdir_session", Value: raw, Path: "/"}})
	return b, u
}
