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
// is not started: scheduled jobs stay queued.
func idleOwning(db *storage.DB) *domain.Owning {
	return &domain.Owning{
		Pages: fetch.New(fetch.Options{}), Resolver: net.DefaultResolver,
		EnqueueAt: domain.NewRunner(storage.NewJobStore(db), domain.RunnerOptions{Now: db.Now}).EnqueueAt,
	}
}

// withOwning wires the owner's area into env for tests against local sites:
// the real page reader with loopback allowed (as --fetch-allow-loopback),
// resolver for DNS claims (nil: the system resolver), and a mailer that
// records what it sends. Jobs are queued on a runner that is not started;
// tests that run them replace EnqueueAt.
func withOwning(t testing.TB, env *catEnv, resolver domain.TXTResolver) *recordingMailer {
	t.Helper()
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	mailer := &recordingMailer{}
	pages := fetch.New(fetch.Options{AllowLoopback: true})
	t.Cleanup(pages.Close)
	env.svc.Owner = &domain.Owning{Pages: pages, Resolver: resolver, Mailer: mailer, EnqueueAt: idleOwning(env.db).EnqueueAt}
	return mailer
}
