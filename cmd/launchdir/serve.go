package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/tools"
	"github.com/launchdir/launchdir/web"
)

func serveCmd(ctx context.Context, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	var c config
	var ac authConfig
	var dc draftConfig
	var oc orderConfig
	var owc ownerConfig
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", env("LAUNCHDIR_ADDR", "127.0.0.1:8080"), "listen address (env LAUNCHDIR_ADDR)")
	dataFlag(fs, &c)
	fs.StringVar(&c.baseURL, "base-url", env("LAUNCHDIR_BASE_URL", ""), "public origin, e.g. https://launchdir.example (env LAUNCHDIR_BASE_URL; default: the listen address)")
	fs.BoolVar(&c.demo, "demo", envBool("LAUNCHDIR_DEMO"), "load the demo data when the data directory has no listings (env LAUNCHDIR_DEMO)")
	fs.Float64Var(&c.rateLimit, "rate-limit", envFloat("LAUNCHDIR_RATE_LIMIT", 20), "requests per second per client on every operation, 0 = off (env LAUNCHDIR_RATE_LIMIT)")
	fs.IntVar(&c.rateBurst, "rate-burst", int(envFloat("LAUNCHDIR_RATE_BURST", 40)), "burst per client (env LAUNCHDIR_RATE_BURST)")
	authFlags(fs, &ac)
	draftFlags(fs, &dc)
	orderFlags(fs, &oc)
	ownerFlags(fs, &owc)
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	c.addr = ln.Addr().String()

	db, err := c.open()
	if err != nil {
		return err
	}
	defer db.Close()
	site := c.site()
	if c.demo {
		seeded, err := storage.SeedDemo(ctx, db, site, time.Now().UTC())
		if err != nil {
			return fmt.Errorf("demo data: %w", err)
		}
		if seeded {
			logger.Info("loaded demo data", "data", c.data)
		}
	}
	store, err := storage.NewStore(db, site)
	if err != nil {
		return err
	}
	svc := domain.NewService(store, site)
	az, err := newAuth(&c, &ac, db, logger, svc)
	if err != nil {
		return err
	}
	runner, err := newDrafting(&dc, db, store, svc, az, logger)
	if err != nil {
		return err
	}
	stripeWebhook, err := newOrdering(&oc, db, site, svc, runner, logger)
	if err != nil {
		return err
	}
	if svc.Owner, err = newOwning(&owc, &dc, runner, az); err != nil {
		return err
	}
	svc.RegisterFreeJobs(runner)
	svc.RegisterOwnerContentJobs(runner)
	// A draft left being built without its job (a crash between the two,
	// before they were written together) gets its job again.
	if ids, err := svc.RecoverDrafts(ctx); err != nil {
		return fmt.Errorf("recover drafts: %w", err)
	} else if len(ids) > 0 {
		logger.Warn("recovered drafts that were being built without a job; building them again", "drafts", ids)
	}
	jobsCtx, stopJobs := context.WithCancel(context.Background())
	jobsDone := runJobs(jobsCtx, runner)
	defer func() { stopJobs(); <-jobsDone }()
	api := tools.New(svc, tools.Options{RateLimit: c.rateLimit, RateBurst: c.rateBurst, Logger: logger, Auth: az,
		Idem: storage.NewIdemStore(db)}).Handler()

	mux := http.NewServeMux()
	az.Register(mux)
	mux.Handle("/v1/", api)
	mux.Handle("/v1", api)
	mux.Handle("/mcp", api)
	if stripeWebhook != nil {
		mux.Handle("POST /webhooks/stripe", stripeWebhook)
	}
	admins := adminEmailSet(oc.adminEmails)
	mux.Handle("/", web.New(svc, web.WithLogger(logger), web.WithAdmin(func(r *http.Request) (string, bool) {
		email, ok := az.SignedInEmail(r)
		return email, ok && admins[strings.ToLower(email)]
	}), web.WithAccount(az.SignedInUser)))

	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	origin := site.BaseURL
	fmt.Fprintf(stdout, "launchdir is serving %s on %s\n", c.dbPath(), c.addr)
	fmt.Fprintf(stdout, "  Web:      %s/\n", origin)
	fmt.Fprintf(stdout, "  REST API: %s%s\n", origin, domain.APIPrefix)
	fmt.Fprintf(stdout, "  OpenAPI:  %s%s\n", origin, domain.OpenAPIPath)
	fmt.Fprintf(stdout, "  MCP:      %s%s\n", origin, domain.MCPPath)
	fmt.Fprintf(stdout, "  Docs:     %s%s\n", origin, domain.DocsPath)
	fmt.Fprintf(stdout, "  Sign in:  %s%s\n", origin, domain.SignInPath)
	fmt.Fprintf(stdout, "  Admin:    %s/admin (accounts in --admin-emails)\n", origin)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
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

func seedCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var c config
	var demo bool
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataFlag(fs, &c)
	fs.BoolVar(&demo, "demo", false, "load the deterministic demo data set")
	fs.StringVar(&c.baseURL, "base-url", env("LAUNCHDIR_BASE_URL", ""), "public origin (env LAUNCHDIR_BASE_URL)")
	fs.StringVar(&c.addr, "addr", env("LAUNCHDIR_ADDR", "127.0.0.1:8080"), "listen address used to derive the origin (env LAUNCHDIR_ADDR)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if !demo {
		return errors.New("seed: say which data set to load: --demo")
	}
	db, err := c.open()
	if err != nil {
		return err
	}
	defer db.Close()
	seeded, err := storage.SeedDemo(ctx, db, c.site(), time.Now().UTC())
	if err != nil {
		return err
	}
	if seeded {
		fmt.Fprintf(stdout, "loaded the demo data into %s\n", c.dbPath())
	} else {
		fmt.Fprintf(stdout, "%s already has listings; nothing loaded\n", c.dbPath())
	}
	return nil
}

func migrateCmd(_ context.Context, args []string, stdout, stderr io.Writer) error {
	var c config
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataFlag(fs, &c)
	if err := fs.Parse(args); err != nil {
		return err
	}
	db, err := c.open()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "migrations applied to %s\n", c.dbPath())
	return db.Close()
}
