//go:build e2e

package testtier_test

import (
	"os"
	"testing"

	"github.com/launchdir/launchdir/storage/pgtest"
	"github.com/launchdir/launchdir/web/browsertest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestE2ESetup installs, once per run and one after another, what the e2e
// tier's tests reach outside Go: Chromium and PostgreSQL from Debian's
// packages and the pinned npm packages (Lighthouse, the MCP conformance
// suite and Node 22, the TypeScript MCP clients, Redocly) into the user
// cache, through the same helpers the tests call. .ci/e2e-setup runs it
// before `go test -tags e2e ./...`, so the tests find everything installed
// (their own install calls are then cache hits) instead of each test binary
// racing to apt-get and npm ci at the same time.
func TestE2ESetup(t *testing.T) {
	t.Run("chromium", func(t *testing.T) { t.Logf("chromium: %s", browsertest.Chromium(t)) })
	t.Run("postgresql", func(t *testing.T) {
		c := pgtest.Shared(t)
		t.Logf("postgresql: cluster started in %v (install %v)", c.Started, c.Installed)
	})
	for _, p := range []struct{ name, dir, skip string }{
		{"lighthouse", "../../cmd/launchdir/testdata/lighthouse", "LAUNCHDIR_SKIP_LIGHTHOUSE"},
		{"conformance", "../../tools/testdata/conformance", "LAUNCHDIR_SKIP_CONFORMANCE"},
		{"mcpclients", "../../tools/testdata/mcpclients", "LAUNCHDIR_SKIP_CONFORMANCE"},
		{"openapi-lint", "../../tools/testdata/openapi-lint", "LAUNCHDIR_SKIP_REDOCLY"},
	} {
		t.Run(p.name, func(t *testing.T) {
			if os.Getenv(p.skip) == "1" {
				t.Skipf("%s=1: not installed", p.skip)
			}
			t.Logf("%s: %s", p.name, browsertest.NpmInstall(t, p.name, p.dir, p.skip))
		})
	}
}
