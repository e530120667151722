package tools

import (
	"net"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/fetch"
	"github.com/launchdir/launchdir/storage"
)

// idleOwning configures the owner's area as serve does by default (the
// guarded page reader, the system resolver, no mail) with a job runner that
// is not started: scheduled jobs stay queued. Only the stacks still built by
// hand use it (see docs/decisions.md).
func idleOwning(db *storage.DB) *domain.Owning {
	return &domain.Owning{
		Pages: fetch.New(fetch.Options{}), Resolver: net.DefaultResolver,
		EnqueueAt: domain.NewRunner(storage.NewJobStore(db), domain.RunnerOptions{Now: db.Now}).EnqueueAt,
	}
}

// withOwning points env's owner's area at local sites: in the outside
// world, the real page reader with loopback allowed (as
// --fetch-allow-loopback) and resolver for DNS claims (nil: the system
// resolver). Mail goes through the wiring's outbox; it returns the env's
// mail. Jobs are queued on the wiring's runner, which is not started; tests
// that run them register their kinds on a runner of their own.
func withOwning(t testing.TB, env *catEnv, resolver domain.TXTResolver) *recordingMailer {
	t.Helper()
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	pages := fetch.New(fetch.Options{AllowLoopback: true})
	t.Cleanup(pages.Close)
	env.world.swap(func(w *testWorld) { w.pages, w.resolver = pages, resolver })
	return env.world.mail
}
