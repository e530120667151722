package domain_test

import (
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// newEnvOn is fixtures.New on engine ("sqlite" or "postgres"): a database,
// seeded with the demo data when seed is set, and the service over it on
// the fixtures' clock.
func newEnvOn(t *testing.T, engine string, seed bool) *fixtures.Env {
	t.Helper()
	db := fixtures.OpenOn(t, engine, seed)
	svc, st := fixtures.Service(t, db, fixtures.Site, func() time.Time { return fixtures.Now })
	return &fixtures.Env{DB: db, Store: st, Service: svc}
}
