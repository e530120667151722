//go:build e2e

package main

import (
	neturl "net/url"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/storage/pgtest"
)

// This file's name sorts first in the package on purpose: TestServe_Postgres
// is the package's longest parallel test (serve --demo seeds the demo into
// PostgreSQL, 1.5-3 minutes, mostly the server's work), and the testing
// package resumes the first-declared parallel test first once the serial
// tests (Lighthouse) are done, the others after it. Declared first, the seed
// runs beside the browser tests from the start of the parallel phase
// instead of being left alone in one slot at its end (docs/testing.md).

// TestServe_Postgres: serve --database postgres://... loads the demo into
// PostgreSQL and serves it the same way; the banner names the database
// without its password.
func TestServe_Postgres(t *testing.T) {
	t.Parallel()
	url := pgtest.Database(t)
	banner := serveDemo(t, "--data", t.TempDir(), "--database", url)
	if !strings.Contains(banner, "launchdir is serving postgres://") {
		t.Errorf("banner = %q; want it to name the PostgreSQL database", banner)
	}
	if u, _ := neturl.Parse(url); u != nil {
		if pw, ok := u.User.Password(); ok && pw != "" && strings.Contains(banner, pw) {
			t.Errorf("banner shows the database password: %q", banner)
		}
	}
}
