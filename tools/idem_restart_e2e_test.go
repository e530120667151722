package tools

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestIdempotency_RetryAfterRestart: a request in flight
// when its process dies leaves its Idempotency-Key pending. The retry, sent
// to the process that serves the same SQLite file afterwards, runs the
// operation at once (201, one effect) instead of answering 409 until
// domain.IdemLease (5 minutes) runs out. The first "process" is a whole
// stack over the file whose call is held inside the operation; it stops
// with its database closed, never finishing the call.
func TestIdempotency_RetryAfterRestart(t *testing.T) {
	path := fixtures.MigratedFile(t) // a new database, migrated (a copy)
	clock := testclock.New(catNow)   // stands still: the lease never runs out here
	type process struct {
		srv *httptest.Server
		db  *storage.DB
		fx  *idemEffects
	}
	start := func(gate chan struct{}) process {
		var h http.Handler
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
		t.Cleanup(srv.Close)
		// The service and auth as serve wires them (internal/wiring), over
		// the one file both processes serve.
		core := wiredCore(t, path, srv.URL, clock.Now, newTestWorld(t))
		db, svc, a := core.DB, core.Service, core.Auth
		fx := &idemEffects{by: map[string]int{}, gate: gate, started: make(chan struct{}, 1)}
		s := newServer(svc, Options{Now: svc.Now, Auth: a, Idem: storage.NewIdemStore(db), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, fx.operations())
		s.idemWait = 2 * time.Second // a 409 comes after this; the lease is minutes
		h = s.Handler()
		return process{srv, db, fx}
	}
	first := start(make(chan struct{}))
	var release sync.Once // let the dead process's call end, before its server closes
	t.Cleanup(func() { release.Do(func() { close(first.fx.gate) }) })
	as := storage.NewAuthStore(first.db)
	u, err := as.UpsertUser(context.Background(), auth.EmailIssuer, "retry@example.com", "retry@example.com", "", catNow)
	if err != nil {
		t.Fatal(err)
	}
	key := auth.NewSecret(auth.PrefixAPIKey)
	if _, err := as.CreateAPIKey(context.Background(), auth.APIKey{UserID: u.ID, Name: "t", Prefix: key[:12], Hash: auth.Hash(key), CreatedAt: catNow}); err != nil {
		t.Fatal(err)
	}
	send := func(p process, ctx context.Context) (int, string, error) {
		req, _ := http.NewRequestWithContext(ctx, "POST", p.srv.URL+"/v1/things", strings.NewReader(`{"name":"once"}`))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(IdempotencyKeyHeader, "order-after-crash")
		res, err := p.srv.Client().Do(req)
		if err != nil {
			return 0, "", err
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b), nil
	}

	// The first process takes the key and is inside the operation when it dies.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); send(first, ctx) }()
	select {
	case <-first.fx.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the first call never started")
	}
	cancel()
	first.srv.CloseClientConnections()
	if err := first.db.Close(); err != nil {
		t.Fatal(err)
	}

	// The retry reaches the process serving the file now.
	second := start(nil)
	began := time.Now()
	st, body, err := send(second, context.Background())
	if err != nil || st != http.StatusCreated {
		t.Fatalf("retry after the restart: %d %v %s, want 201", st, err, body)
	}
	if d := time.Since(began); d > time.Second {
		t.Errorf("the retry waited %v for the dead claim", d)
	}
	if n := second.fx.count("idem_create", u.ID, "once"); n != 1 {
		t.Fatalf("the operation ran %d times in the second process, want 1", n)
	}
	// And its answer is kept: a second retry replays it.
	st, body2, _ := send(second, context.Background())
	if st != http.StatusCreated || body2 != body || second.fx.count("idem_create", u.ID, "once") != 1 {
		t.Fatalf("replay: %d %s (runs %d)", st, body2, second.fx.count("idem_create", u.ID, "once"))
	}
	release.Do(func() { close(first.fx.gate) })
	<-done
}
