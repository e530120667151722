package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/internal/problem"
	"github.com/launchdir/launchdir/internal/wiring"
)

// busyMessage is what the refusing store says, as storage says it when the
// database refuses a connection for now.
const busyMessage = "The database is busy; try again in a moment."

// refusingListings is the listings store of a database that refuses
// connections for now: every search is unavailable (storage answers so
// when PostgreSQL is out of connections, pgconnect.go).
type refusingListings struct{ console.ListingAdminStore }

func (refusingListings) AdminSearchListings(context.Context, console.AdminListingFilter) ([]console.AdminListing, int, error) {
	return nil, 0, domain.Errorf(domain.EUnavailable, busyMessage)
}

// TestConsole_UnavailableRetryAfter: a console page whose store is
// unavailable answers 503 with Retry-After, as REST and MCP do (one home:
// problem.SetRetryAfter); the page says what the store said. Before, the
// page answered 503 without Retry-After.
func TestConsole_UnavailableRetryAfter(t *testing.T) {
	t.Parallel()
	var h http.Handler
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	// The service as serve wires it (internal/wiring). The console is built
	// again over the same stores with one store spy: a database that refuses
	// connections cannot be had on SQLite, and this test is about the
	// page's answer to one, not about the outside world.
	core, err := wiredCore(filepath.Join(t.TempDir(), "launchdir.db"), srv.URL, wiring.Adapters{Now: func() time.Time { return testNow }})
	if err != nil {
		t.Fatal(err)
	}
	db, st, svc := core.DB, core.Store, core.Service
	t.Cleanup(func() { _ = db.Close() })
	deps := console.Over(st, svc)
	deps.Listings = refusingListings{st}
	cons, err := console.New(deps)
	if err != nil {
		t.Fatal(err)
	}
	if err := cons.GrantTeamRole(context.Background(), console.ActorCommandLine, "ops@launchdir.test", console.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	h = New(svc, WithConsole(cons), WithAdmin(byCookie))
	e := &env{srv: srv, svc: svc, console: cons, db: db}

	res := e.get(t, "/admin/listings?q=notes", as("ops")...)
	if res.status != http.StatusServiceUnavailable || !strings.Contains(res.body, busyMessage) {
		t.Fatalf("console page with an unavailable store: %d, want 503 saying %q; body %.400s", res.status, busyMessage, res.body)
	}
	if got, want := res.header.Get("Retry-After"), "2"; got != want || problem.UnavailableRetryAfter != 2 {
		t.Fatalf("Retry-After %q, want %q (problem.UnavailableRetryAfter %d)", got, want, problem.UnavailableRetryAfter)
	}
	// The page still works for what the store can serve.
	if res := e.get(t, "/admin/listings", as("ops")...); res.status != http.StatusOK || res.header.Get("Retry-After") != "" {
		t.Fatalf("console listings page without a search: %d Retry-After %q", res.status, res.header.Get("Retry-After"))
	}
}
