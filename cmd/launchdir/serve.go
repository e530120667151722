package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/tools"
	"github.com/launchdir/launchdir/web"
)

// serveFlags are the settings of serve, one struct per area.
type serveFlags struct {
	c   config
	ac  authConfig
	dc  draftConfig
	oc  orderConfig
	owc ownerConfig
	lc  limitConfig
	wc  webhookConfig
	// team is the size of the site team once wired (the banner says how to
	// become admin when it is 0).
	team int
}

// flagSet registers every flag of serve.
func (f *serveFlags) flagSet(stderr io.Writer) *flag.FlagSet {
	c := &f.c
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", env("LAUNCHDIR_ADDR", "127.0.0.1:8080"), "listen address (env LAUNCHDIR_ADDR)")
	dataFlag(fs, c)
	fs.StringVar(&c.baseURL, "base-url", env("LAUNCHDIR_BASE_URL", ""), "public origin, e.g. https://launchdir.example (env LAUNCHDIR_BASE_URL; default: the listen address, and on loopback each loopback name with its port)")
	fs.BoolVar(&c.demo, "demo", false, "load the demo data when the data directory has no listings (env LAUNCHDIR_DEMO)")
	fs.Float64Var(&c.rateLimit, "rate-limit", 20, "requests per second per client on every operation, 0 = off (env LAUNCHDIR_RATE_LIMIT)")
	fs.IntVar(&c.rateBurst, "rate-burst", 40, "burst per client (env LAUNCHDIR_RATE_BURST)")
	fs.DurationVar(&c.voteMinAge, "vote-min-account-age", domain.DefaultVoteMinAccountAge,
		"votes of accounts younger than this are held until the account is this old, 0 = none held for age (env LAUNCHDIR_VOTE_MIN_ACCOUNT_AGE)")
	authFlags(fs, &f.ac)
	draftFlags(fs, &f.dc)
	orderFlags(fs, &f.oc)
	ownerFlags(fs, &f.owc)
	limitFlags(fs, &f.lc)
	webhookFlags(fs, &f.wc)
	return fs
}

func serveCmd(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer, logger *slog.Logger) error {
	f := serveFlags{c: config{now: now, logger: logger}}
	if err := parseFlags(f.flagSet(stderr), args); err != nil {
		return err
	}
	c := &f.c
	if c.voteMinAge < 0 {
		return fmt.Errorf("--vote-min-account-age (env LAUNCHDIR_VOTE_MIN_ACCOUNT_AGE) must be a duration of 0 or more, got %s", c.voteMinAge)
	}
	lim, err := newLimits(&f.lc, c.now)
	if err != nil {
		return err
	}
	f.ac.oauthLimit, f.ac.failures = lim.oauth, lim.failures
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
	if c.demo {
		seeded, err := storage.SeedDemo(ctx, db, c.site(), c.now().UTC())
		if err != nil {
			return fmt.Errorf("demo data: %w", err)
		}
		if seeded {
			logger.Info("loaded demo data", "data", c.data)
		}
	}
	f.ac.mailLog = stderr
	handler, store, stop, err := wire(ctx, &f, db, lim, logger)
	if err != nil {
		return err
	}
	defer stop()

	origins := c.origins()
	srv := &http.Server{
		Handler:           auth.WithOrigins(origins, ratelimit.TrustProxies(lim.trusted, handler)),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	printBanner(stdout, c.dbName(), c.addr, origins, f.team > 0)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	// A search index built from the database is written beside it now,
	// while serving, so that the next start loads it (docs/search.md).
	store.SnapshotInBackground()
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

// wire builds the Service and everything around it over db, recovers the
// drafts a crash left without their job, starts the job runner and returns
// the routes of serve and the store. stop stops the runner and waits for
// it, then closes the store (which writes the search snapshot if the index
// moved). A wiring mistake (a dependency domain.New finds missing) is an
// error here, at start.
func wire(ctx context.Context, f *serveFlags, db *storage.DB, lim *limits, logger *slog.Logger) (_ http.Handler, _ *storage.Store, stop func(), _ error) {
	site := f.c.site()
	store, err := storage.NewStore(ctx, db, site)
	if err != nil {
		return nil, nil, nil, err
	}
	// Auth sends the Service's mail and serves its invite page: it is built
	// first, and reaches the Service through invites once it exists.
	invites := &servicePages{}
	az, err := newAuth(&f.c, &f.ac, db, logger, invites)
	if err != nil {
		return nil, nil, nil, err
	}
	runner := newRunner(&f.dc, db, logger)
	drafts, err := newDrafting(&f.dc, store, runner, az, logger)
	if err != nil {
		return nil, nil, nil, err
	}
	orders, stripe, err := newOrdering(&f.oc, db, site, runner, logger)
	if err != nil {
		return nil, nil, nil, err
	}
	owner, err := newOwning(&f.owc, &f.dc, runner, az)
	if err != nil {
		return nil, nil, nil, err
	}
	svc, err := domain.New(domain.Deps{Site: site, Now: db.Now,
		Store: store, Claims: store, Free: store, MyListings: store, Edits: store, Content: store,
		Votes: store, VoteMinAccountAge: f.c.voteMinAge, Weeks: store, Moderation: store, Reviews: store, Team: store,
		Drafts: drafts, Orders: orders, Owner: owner, Jobs: runner, Logger: logger})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("wiring the service: %w", err)
	}
	invites.Service = svc
	if svc.Hooks, err = newWebhooking(&f.wc, f.dc.allowLoopback, az, runner, logger); err != nil {
		return nil, nil, nil, err
	}
	// A draft left being built without its job (a crash between the two,
	// before they were written together) gets its job again.
	if ids, err := svc.RecoverDrafts(ctx); err != nil {
		return nil, nil, nil, fmt.Errorf("recover drafts: %w", err)
	} else if len(ids) > 0 {
		logger.Warn("recovered drafts that were being built without a job; building them again", "drafts", ids)
	}
	// The weekly clock: its job exists from the start (a missed week is
	// caught up at once, docs/weeks.md).
	if err := svc.EnsureWeekClock(ctx, runner); err != nil {
		return nil, nil, nil, fmt.Errorf("schedule the weekly clock: %w", err)
	}
	// The open-data export is rebuilt each Monday (docs/feeds.md).
	if err := svc.EnsureOpenDataJob(ctx, runner); err != nil {
		return nil, nil, nil, fmt.Errorf("schedule the open-data export: %w", err)
	}
	jobsCtx, stopJobs := context.WithCancel(context.Background())
	jobsDone := runJobs(jobsCtx, runner)
	stop = func() {
		stopJobs()
		<-jobsDone
		_ = store.Close() // it logs why a snapshot was not written
	}

	api := tools.New(svc, tools.Options{RateLimit: f.c.rateLimit, RateBurst: f.c.rateBurst, Logger: logger, Auth: az,
		Idem: storage.NewIdemStore(db), Failures: lim.failures, Session: lim.mcp, Now: db.Now}).Handler()
	mux := http.NewServeMux()
	az.Register(mux)
	mux.Handle("/v1/", api)
	mux.Handle("/v1", api)
	mux.Handle("/mcp", api)
	// The discovery documents: Server Card, AI Catalog, registry
	// server.json, /llms.txt and /docs.md (docs/discovery.md), on the web
	// pages' per-network budget.
	tools.NewDiscovery(site, tools.Catalog()).RateLimit(lim.pages).SiteNow(svc.SiteNow).Register(mux)
	if stripe != nil {
		mux.Handle("POST /webhooks/stripe", stripe.Webhook(svc.ConfirmPayment, logger))
	}
	// The site team lives in the database; --admin-emails makes its first
	// admins (a member keeps the role the team gave them).
	if err := svc.EnsureAdmins(ctx, slices.Sorted(maps.Keys(adminEmailSet(f.oc.adminEmails)))); err != nil {
		return nil, nil, nil, err
	}
	members, err := svc.TeamMembers(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	f.team = len(members)
	webOpts := []web.Option{web.WithLogger(logger), web.WithAdmin(az.SignedInEmail),
		web.WithAccount(az.SignedInUser), web.WithViews(store), web.WithToolsets(tools.Toolsets(tools.Catalog()))}
	if f.team == 0 && f.c.origins().LoopbackPort != "" {
		// A local instance without admins: /admin says how to become one.
		webOpts = append(webOpts, web.WithAdminHint(adminHint()))
	}
	mux.Handle("/", web.New(svc, append(webOpts, web.WithRateLimit(lim.pages))...))
	return mux, store, stop, nil
}

// servicePages serves auth's invite page with the Service, which is built
// after auth; wire sets Service before the server starts.
type servicePages struct{ *domain.Service }

// siteName is the site's name in effect now ("" before the Service is set:
// auth then names the configured one).
func (p *servicePages) siteName(ctx context.Context) string {
	if p.Service == nil {
		return ""
	}
	return p.SiteNow(ctx).Name
}

// AccountOrders implements auth.AccountOrders with the Service (none
// before it is set).
func (p *servicePages) AccountOrders(ctx context.Context, userID int64, limit int) ([]domain.OrderView, error) {
	if p.Service == nil || p.Orders == nil {
		return nil, nil
	}
	return p.Service.AccountOrders(ctx, userID, limit)
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
	c := config{now: now}
	var demo bool
	var synthetic int
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataFlag(fs, &c)
	fs.BoolVar(&demo, "demo", false, "load the deterministic demo data set")
	fs.IntVar(&synthetic, "synthetic", 0, "add N synthetic live listings (1 to 10,000,000) for trying the service at scale")
	fs.StringVar(&c.baseURL, "base-url", env("LAUNCHDIR_BASE_URL", ""), "public origin (env LAUNCHDIR_BASE_URL)")
	fs.StringVar(&c.addr, "addr", env("LAUNCHDIR_ADDR", "127.0.0.1:8080"), "listen address used to derive the origin (env LAUNCHDIR_ADDR)")
	if err := parseFlags(fs, args); err != nil {
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
	db, err := c.open()
	if err != nil {
		return err
	}
	defer db.Close()
	if synthetic > 0 {
		start := time.Now()
		if err := storage.SeedSynthetic(ctx, db, c.site(), synthetic, c.now().UTC()); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "added %d synthetic listings to %s in %s\n", synthetic, c.dbName(), time.Since(start).Round(time.Second/10))
		return nil
	}
	seeded, err := storage.SeedDemo(ctx, db, c.site(), c.now().UTC())
	if err != nil {
		return err
	}
	if seeded {
		fmt.Fprintf(stdout, "loaded the demo data into %s\n", c.dbName())
	} else {
		fmt.Fprintf(stdout, "%s already has listings; nothing loaded\n", c.dbName())
	}
	return nil
}

func migrateCmd(_ context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	c := config{now: now}
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataFlag(fs, &c)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	db, err := c.open()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "migrations applied to %s\n", c.dbName())
	return db.Close()
}

// redactURL is rawURL without its password, for messages.
func redactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(an unparsable URL)"
	}
	return u.Redacted()
}
