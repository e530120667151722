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

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
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
	var lc limitConfig
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", env("LAUNCHDIR_ADDR", "127.0.0.1:8080"), "listen address (env LAUNCHDIR_ADDR)")
	dataFlag(fs, &c)
	fs.StringVar(&c.baseURL, "base-url", env("LAUNCHDIR_BASE_URL", ""), "public origin, e.g. https://launchdir.example (env LAUNCHDIR_BASE_URL; default: the listen address, and on loopback each loopback name with its port)")
	fs.BoolVar(&c.demo, "demo", envBool("LAUNCHDIR_DEMO"), "load the demo data when the data directory has no listings (env LAUNCHDIR_DEMO)")
	fs.Float64Var(&c.rateLimit, "rate-limit", envFloat("LAUNCHDIR_RATE_LIMIT", 20), "requests per second per client on every operation, 0 = off (env LAUNCHDIR_RATE_LIMIT)")
	fs.IntVar(&c.rateBurst, "rate-burst", int(envFloat("LAUNCHDIR_RATE_BURST", 40)), "burst per client (env LAUNCHDIR_RATE_BURST)")
	authFlags(fs, &ac)
	draftFlags(fs, &dc)
	orderFlags(fs, &oc)
	ownerFlags(fs, &owc)
	limitFlags(fs, &lc)
	if err := fs.Parse(args); err != nil {
		return err
	}
	lim, err := newLimits(&lc, time.Now)
	if err != nil {
		return err
	}
	ac.oauthLimit, ac.failures = lim.oauth, lim.failures
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
	ac.mailLog = stderr
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
		Idem: storage.NewIdemStore(db), Failures: lim.failures, Session: lim.mcp}).Handler()

	mux := http.NewServeMux()
	az.Register(mux)
	mux.Handle("/v1/", api)
	mux.Handle("/v1", api)
	mux.Handle("/mcp", api)
	if stripeWebhook != nil {
		mux.Handle("POST /webhooks/stripe", stripeWebhook)
	}
	admins := adminEmailSet(oc.adminEmails)
	webOpts := []web.Option{web.WithLogger(logger), web.WithAdmin(func(r *http.Request) (string, bool) {
		email, ok := az.SignedInEmail(r)
		return email, ok && admins[strings.ToLower(email)]
	}), web.WithAccount(az.SignedInUser)}
	if len(admins) == 0 && c.origins().LoopbackPort != "" {
		// A local instance without admins: /admin says how to become one.
		webOpts = append(webOpts, web.WithAdminHint(adminHint))
	}
	mux.Handle("/", web.New(svc, append(webOpts, web.WithRateLimit(lim.pages))...))

	origins := c.origins()
	srv := &http.Server{
		Handler:           auth.WithOrigins(origins, ratelimit.TrustProxies(lim.trusted, mux)),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	printBanner(stdout, c.dbPath(), c.addr, origins, len(admins) > 0)

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

// adminHint is what /admin's 404 page tells a signed-in person on a local
// instance that has no admin.
const adminHint = "Nobody is admin on this instance yet: restart launchdir serve with --admin-emails you@example.com, then sign in as that address."

// printBanner prints where the service is: its URLs at the default origin,
// the other loopback name that works on a loopback listener, and how to
// become admin when nobody is.
func printBanner(out io.Writer, db, addr string, o domain.Origins, hasAdmins bool) {
	origin := o.Default
	w := &strings.Builder{} // written at once, so a reader sees the whole banner
	defer func() { io.WriteString(out, w.String()) }()
	fmt.Fprintf(w, "launchdir is serving %s on %s\n", db, addr)
	fmt.Fprintf(w, "  Web:      %s/\n", origin)
	fmt.Fprintf(w, "  REST API: %s%s\n", origin, domain.APIPrefix)
	fmt.Fprintf(w, "  OpenAPI:  %s%s\n", origin, domain.OpenAPIPath)
	fmt.Fprintf(w, "  MCP:      %s%s\n", origin, domain.MCPPath)
	fmt.Fprintf(w, "  Docs:     %s%s\n", origin, domain.DocsPath)
	fmt.Fprintf(w, "  Sign in:  %s%s\n", origin, domain.SignInPath)
	if hasAdmins {
		fmt.Fprintf(w, "  Admin:    %s/admin (for the accounts in --admin-emails)\n", origin)
	} else {
		fmt.Fprintf(w, "  Admin:    %s/admin (nobody is admin yet: restart with --admin-emails you@example.com, then sign in as that address)\n", origin)
	}
	if o.LoopbackPort != "" {
		other := "http://localhost:" + o.LoopbackPort
		if strings.HasPrefix(origin, "http://localhost:") {
			other = "http://127.0.0.1:" + o.LoopbackPort
		}
		fmt.Fprintf(w, "  Also:     %s/ and %s%s work the same: on loopback, localhost, 127.0.0.1 and [::1] with port %s\n"+
			"            are all this server, and each client gets OAuth metadata and links naming the address it used.\n",
			other, other, domain.MCPPath, o.LoopbackPort)
	}
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
