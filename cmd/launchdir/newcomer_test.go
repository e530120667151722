package main

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/internal/app"
	"github.com/launchdir/launchdir/storage"
)

// TestServe_GrantSeenByRunningServer: a newcomer starts serve, signs in,
// reads on /admin that nobody is admin, runs "launchdir admin grant" (another
// process: here run in-process on its own handle of the same SQLite file) and
// reloads /admin: the running server sees the grant. The person granted gets
// the console; another signed-in person is no longer told that nobody is
// admin (that hint is true only while the team is empty).
func TestServe_GrantSeenByRunningServer(t *testing.T) {
	const nobody = "Nobody is admin on this instance yet"
	dir := t.TempDir()
	s := startServe(t, "--data", dir)
	origin := "http://127.0.0.1:" + s.port
	me, other := s.signIn(t, origin, "me@example.com"), s.signIn(t, origin, "other@example.com")
	if st, body := adminPage(t, me, origin); st != 404 || !strings.Contains(body, nobody) {
		t.Fatalf("/admin before the grant: %d, hint shown %t", st, strings.Contains(body, nobody))
	}
	var out, errOut bytes.Buffer
	if err := run(context.Background(), time.Now, []string{"admin", "grant", "--email", "me@example.com", "--role", "admin", "--data", dir}, &out, &errOut); err != nil {
		t.Fatalf("admin grant: %v\n%s", err, errOut.String())
	}
	if st, body := adminPage(t, me, origin); st != 200 || !strings.Contains(body, "Product prices") {
		t.Errorf("/admin for me@ after the grant on the running server: %d\n%.600s", st, body)
	}
	if st, body := adminPage(t, other, origin); st != 404 || strings.Contains(body, nobody) {
		t.Errorf("/admin for another signed-in person after the grant: %d, still says %q: %t", st, nobody, strings.Contains(body, nobody))
	}
}

// TestAdmin_CommandsLogNoServerNotes: "admin grant", "admin team" and
// "admin settings get" print their answer and nothing about the search
// index they open (the server's start-up note "search index loaded from its
// snapshot" went to stderr through slog's default logger).
func TestAdmin_CommandsLogNoServerNotes(t *testing.T) {
	dir := t.TempDir()
	// A data directory whose search index has a snapshot, as after serve.
	db, err := storage.Open(filepath.Join(dir, "launchdir.db"), storage.WithClock(time.Now))
	if err != nil {
		t.Fatal(err)
	}
	st, err := storage.NewStore(context.Background(), db, app.Config{}.Site())
	if err != nil {
		t.Fatal(err)
	}
	st.SnapshotInBackground()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(filepath.Join(dir, "launchdir.db.search")); err != nil {
		t.Fatalf("no search snapshot to load: %v", err)
	}
	var logged bytes.Buffer // what slog's default logger (stderr in a real run) gets
	was := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	t.Cleanup(func() { slog.SetDefault(was) })
	for _, args := range [][]string{
		{"admin", "grant", "--email", "me@example.com", "--role", "admin"},
		{"admin", "team"},
		{"admin", "settings", "get"},
		{"admin", "settings", "get", "free_week_capacity"},
		{"admin", "prices", "list"},
	} {
		logged.Reset()
		var out, errOut bytes.Buffer
		if err := run(context.Background(), time.Now, append(args, "--data", dir), &out, &errOut); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errOut.String())
		}
		if out.Len() == 0 {
			t.Errorf("%v printed nothing", args)
		}
		if got := logged.String() + errOut.String(); got != "" {
			t.Errorf("%v also printed:\n%s", args, got)
		}
	}
}

// TestHelp_ListsEveryCommand: "launchdir --help" names every subcommand the
// binary runs, the site team's among them, and says how to run them from a
// source checkout.
func TestHelp_ListsEveryCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), time.Now, []string{"--help"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"launchdir serve", "launchdir seed", "launchdir migrate", "launchdir apikey create",
		"launchdir admin prices", "launchdir admin team", "launchdir admin grant --email EMAIL --role admin|moderator",
		"launchdir admin revoke --email EMAIL", "launchdir admin settings get", "launchdir admin ratings import",
		"go run ./cmd/launchdir", "go build -o launchdir ./cmd/launchdir"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("--help lacks %q:\n%s", w, out.String())
		}
	}
}

// TestServe_BannerCommandsRunAsStarted: the banner's and /admin's "run
// launchdir admin grant" name a command that works for the person who started
// serve: under go run (as this test binary, built in Go's build cache) there
// is no launchdir binary, so they say "go run ./cmd/launchdir admin grant".
func TestServe_BannerCommandsRunAsStarted(t *testing.T) {
	if !strings.Contains(filepath.ToSlash(os.Args[0]), "/go-build") {
		t.Skipf("this test binary is not in Go's build cache (%s)", os.Args[0])
	}
	const grant = "go run ./cmd/launchdir admin grant --email you@example.com --role admin"
	s := startServe(t)
	origin := "http://127.0.0.1:" + s.port
	if !strings.Contains(s.banner, grant) {
		t.Errorf("the banner does not say %q:\n%s", grant, s.banner)
	}
	if st, body := adminPage(t, s.signIn(t, origin, "me@example.com"), origin); st != 404 || !strings.Contains(body, grant) {
		t.Errorf("/admin's hint: %d, says %q: %t", st, grant, strings.Contains(body, grant))
	}
	was := os.Args[0]
	t.Cleanup(func() { os.Args[0] = was })
	for arg0, want := range map[string]string{"launchdir": "launchdir", "./launchdir": "./launchdir", "/usr/local/bin/launchdir": "/usr/local/bin/launchdir",
		"/tmp/go-build2243/b001/exe/launchdir": "go run ./cmd/launchdir"} {
		os.Args[0] = arg0
		if got := selfCommand(); got != want {
			t.Errorf("started as %s: selfCommand() = %q, want %q", arg0, got, want)
		}
	}
}
