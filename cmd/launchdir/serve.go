package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/app"
	"github.com/launchdir/launchdir/storage"
)

func serveCmd(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	c := app.Defaults()
	if err := app.Parse(newFlags("serve", stderr, &c), args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	c.Addr = ln.Addr().String()

	a, err := app.Open(ctx, c, app.Adapters{Now: now, Logger: logger, MailLog: stderr, AdminHint: adminHint()})
	if err != nil {
		return err
	}
	defer a.Close()
	if err := a.Start(ctx); err != nil {
		return err
	}

	var pacer *memPacer
	if paceMemoryInServe {
		pacer = newMemPacer(logger)
	}
	srv := &http.Server{
		Handler:           a.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	printBanner(stdout, c.DBName(), c.Addr, c.Origins(), a.Team > 0)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	// A search index built from the database is written beside it now,
	// while serving, so that the next start loads it (docs/search.md).
	a.Store.SnapshotInBackground()
	// Listings' summaries go into memory (up to a bound), so that a search's
	// page reads none from the database (docs/search.md).
	filled := a.Store.FillSummaryCacheInBackground()
	if pacer != nil {
		go pacer.run(ctx, filled)
	}
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}

// adminHint is what /admin's 404 page tells a signed-in person on a local
// instance that has no admin.
func adminHint() string {
	return "Nobody is admin on this instance yet: run " + selfCommand() + " admin grant --email you@example.com --role admin (or restart serve with --admin-emails you@example.com), then sign in as that address."
}

// selfCommand is how the person who started this process runs it again, for
// the commands the banner and the pages tell them to run: "go run
// ./cmd/launchdir" under go run (its binary lives in Go's build cache, and
// no "launchdir" is on the PATH yet), "launchdir" from the PATH, else the
// path they typed ("./launchdir").
func selfCommand() string {
	exe := os.Args[0]
	switch {
	case strings.Contains(filepath.ToSlash(exe), "/go-build"):
		return "go run ./cmd/launchdir"
	case !strings.ContainsRune(exe, filepath.Separator) && !strings.ContainsRune(exe, '/'):
		return "launchdir"
	}
	return exe
}

// printBanner prints where the service is: its URLs at the default origin,
// the other loopback name that works on a loopback listener, and how to
// become admin when nobody is.
func printBanner(out io.Writer, db, addr string, o domain.Origins, hasAdmins bool) {
	origin := o.Default
	w := &strings.Builder{} // written at once, so a reader sees the whole banner
	defer func() { _, _ = io.WriteString(out, w.String()) }()
	fmt.Fprintf(w, "launchdir is serving %s on %s\n", db, addr)
	fmt.Fprintf(w, "  Web:      %s/\n", origin)
	fmt.Fprintf(w, "  REST API: %s%s\n", origin, domain.APIPrefix)
	fmt.Fprintf(w, "  OpenAPI:  %s%s\n", origin, domain.OpenAPIPath)
	fmt.Fprintf(w, "  MCP:      %s%s\n", origin, domain.MCPPath)
	fmt.Fprintf(w, "  Docs:     %s%s\n", origin, domain.DocsPath)
	fmt.Fprintf(w, "  Sign in:  %s%s\n", origin, domain.SignInPath)
	if hasAdmins {
		fmt.Fprintf(w, "  Admin:    %s/admin (for the site team: %s admin team lists it)\n", origin, selfCommand())
	} else {
		fmt.Fprintf(w, "  Admin:    %s/admin (nobody is admin yet: run %s admin grant --email you@example.com --role admin, then sign in as that address)\n", origin, selfCommand())
	}
	if o.LoopbackPort != "" {
		// Only the names this listener answers at (listening.go).
		names := loopbackOrigins(addr, lookupHost)
		for _, other := range names {
			if other != origin {
				fmt.Fprintf(w, "  Also:     %s/ and %s%s work the same.\n", other, other, domain.MCPPath)
			}
		}
		if len(names) > 1 {
			fmt.Fprintf(w, "            %s with port %s are all this server, and each client gets OAuth metadata\n"+
				"            and links naming the address it used.\n", hostsOf(names), o.LoopbackPort)
		}
	}
}

// maxSynthetic bounds seed --synthetic: the search index numbers at most 16M documents.
const maxSynthetic = 10_000_000

func seedCmd(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	c := app.Defaults()
	var demo bool
	var synthetic int
	fs := newFlags("seed", stderr, &c, app.SiteSettings...)
	fs.BoolVar(&demo, "demo", false, "load the deterministic demo data set")
	fs.IntVar(&synthetic, "synthetic", 0, "add N synthetic live listings (1 to 10,000,000) for trying the service at scale")
	if err := app.Parse(fs, args); err != nil {
		return err
	}
	switch {
	case demo && synthetic != 0:
		return errors.New("seed: --demo and --synthetic are two data sets: give one")
	case synthetic < 0 || synthetic > maxSynthetic:
		return fmt.Errorf("seed: --synthetic must be a number of listings from 1 to %d, not %d", maxSynthetic, synthetic)
	case !demo && synthetic == 0:
		return errors.New("seed: say which data set to load: --demo, or --synthetic N")
	}
	db, err := c.OpenDB(now)
	if err != nil {
		return err
	}
	defer db.Close()
	if synthetic > 0 {
		start := time.Now()
		if err := storage.SeedSynthetic(ctx, db, c.Site(), synthetic, now().UTC()); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "added %d synthetic listings to %s in %s\n", synthetic, c.DBName(), time.Since(start).Round(time.Second/10))
		return nil
	}
	seeded, err := storage.SeedDemo(ctx, db, c.Site(), now().UTC())
	if err != nil {
		return err
	}
	if seeded {
		fmt.Fprintf(stdout, "loaded the demo data into %s\n", c.DBName())
	} else {
		fmt.Fprintf(stdout, "%s already has listings; nothing loaded\n", c.DBName())
	}
	return nil
}

func migrateCmd(_ context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	c := app.Defaults()
	if err := app.Parse(newFlags("migrate", stderr, &c, app.StorageSettings...), args); err != nil {
		return err
	}
	db, err := c.OpenDB(now)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "migrations applied to %s\n", c.DBName())
	return db.Close()
}
