package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
	"github.com/launchdir/launchdir/domain/vat"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/pgtest"
)

// consoleEnvOn is newOrderEnv on engine ("sqlite": a file in t.TempDir();
// "postgres": a fresh database in the test binary's throwaway cluster), for
// the console's tests, which run on both engines (fixtures.OnEngines).
func consoleEnvOn(t testing.TB, engine string, pay domain.Payments, opts ...Option) *orderEnv {
	t.Helper()
	var path string
	switch engine {
	case "sqlite":
		path = filepath.Join(t.TempDir(), "launchdir.db")
	case "postgres":
		path = pgtest.Database(t)
	default:
		t.Fatalf("unknown engine %q", engine)
	}
	e := &orderEnv{clock: testclock.New(testNow)}
	var h http.Handler
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(e.srv.Close)
	db, err := storage.Open(path, storage.WithClock(e.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	e.db = db
	site := domain.Site{Key: "main", Name: "Launchdir", Purpose: "A public directory of software launches.", BaseURL: e.srv.URL}
	st, err := storage.NewStore(context.Background(), db, site)
	if err != nil {
		t.Fatal(err)
	}
	orders, err := storage.NewOrderStore(db, site)
	if err != nil {
		t.Fatal(err)
	}
	now := e.clock.Now
	runner := domain.NewRunner(storage.NewJobStore(db), domain.RunnerOptions{Now: now})
	if pay == nil {
		pay = domain.TestPayments{}
	}
	e.svc = domain.NewService(st, site)
	e.svc.Now = now
	e.svc.Orders = &domain.Ordering{Store: orders, Payments: pay, EnqueueAt: runner.EnqueueAt, VAT: vat.Rules{}}
	e.svc.RegisterOrderJobs(runner)
	h = New(e.svc, opts...)

	ctx := context.Background()
	// The site team of the admin tests (teamOnly signs in as ops@).
	for _, admin := range []string{"ops@launchdir.test", "team@launchdir.test"} {
		if err := e.svc.GrantTeamRole(ctx, domain.ActorCommandLine, admin, domain.RoleAdmin); err != nil {
			t.Fatal(err)
		}
	}
	u, err := storage.NewAuthStore(db).UpsertUser(ctx, "urn:launchdir:email", "ann@notably.test", "ann@notably.test", "Ann Lee", testNow)
	if err != nil {
		t.Fatal(err)
	}
	e.listing, err = st.SaveOwnListing(ctx, u.ID, 0, &domain.ListingWrite{Name: "Notably", Tagline: "Team notes in Markdown",
		URL: "https://notably.test/", Domain: "notably.test"})
	if err != nil {
		t.Fatal(err)
	}
	e.caller = domain.WithCaller(ctx, domain.Caller{UserID: u.ID, Email: u.Email, Name: u.Name, Via: domain.ViaAPIKey})
	return e
}
