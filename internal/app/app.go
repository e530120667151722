// Package app is the one wiring path of launchdir: it builds the whole
// service (storage, the domain Service, auth, the REST/MCP router, the web
// pages and the job runner) from a typed Config and the outside world's
// adapters. serve, the admin subcommands and the test harnesses call it;
// tests replace only the outside world (Adapters).
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/domain/validate"
	"github.com/launchdir/launchdir/domain/vat"
	"github.com/launchdir/launchdir/internal/fetch"
	"github.com/launchdir/launchdir/internal/llmdraft"
	"github.com/launchdir/launchdir/internal/stripepay"
	"github.com/launchdir/launchdir/internal/vies"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/tools"
	"github.com/launchdir/launchdir/web"
)

// Adapters are the outside world the service talks to. Now is required;
// every other nil field is built from the Config: the production adapter
// when one is configured, else the embedded default. Tests set the ones
// they replace, and nothing else.
type Adapters struct {
	// Now is the clock, read once in main and handed down.
	Now func() time.Time
	// Logger receives the service's log; nil: discarded.
	Logger *slog.Logger
	// MailLog receives, without SMTP, each message as plain lines (serve:
	// its stderr), so that a sign-in link can be copied.
	MailLog io.Writer
	// SMTP sends mail on; nil: SMTP from --smtp-host, else none (the outbox
	// and the log).
	SMTP auth.Mailer
	// Sites reads founders' sites for drafts and award pages; nil: the
	// crawler (--fetch-allow-loopback).
	Sites domain.Fetcher
	// Pages reads single pages of owners' sites (badge checks, claims);
	// nil: the crawler.
	Pages domain.PageFetcher
	// Drafter drafts profiles; nil: the grounded extractor, or the model
	// drafter over it when --llm-base-url is set.
	Drafter domain.Drafter
	// Payments takes payments; nil: Stripe when --stripe-secret-key is set,
	// else the built-in test provider.
	Payments domain.Payments
	// VIES confirms VAT numbers online; nil: the EU's VIES service with
	// --vies, else none (offline checks only).
	VIES domain.VATChecker
	// Resolver answers DNS claims' TXT lookups; nil: --dns-resolver or the
	// system resolver.
	Resolver domain.TXTResolver
	// MetadataClient fetches OAuth client metadata documents; nil: auth's
	// client with the SSRF guard.
	MetadataClient *http.Client
	// AdminHint is what /admin tells a signed-in person on a local instance
	// without admins ("": nothing).
	AdminHint string
}

// App is the service built by Open.
type App struct {
	Config  Config
	DB      *storage.DB
	Store   *storage.Store
	Service *domain.Service
	// Console is the site team's console (/admin and the admin subcommands).
	Console *console.Console
	Auth    *auth.Auth
	Runner  *domain.Runner
	// Handler serves every route as serve serves them: the origins a
	// request may name and the trusted proxies applied.
	Handler http.Handler
	// Team is the size of the site team after --admin-emails was applied.
	Team int

	logger   *slog.Logger
	limits   limits
	stopJobs func()
	closed   bool
	// notes are what Start logs about the adapters in use (a command that
	// only opens the App says nothing about payments).
	notes []func()
}

// Open validates cfg, opens the database (applying migrations; with
// cfg.Demo loading the demo data into an empty one) and builds the service
// over it. It runs no job: Start does. A configuration or wiring mistake
// (a dependency domain.New finds missing) is an error here, at start; a
// configuration mistake is found before the database is touched.
func Open(ctx context.Context, cfg Config, ad Adapters) (_ *App, err error) {
	if ad.Now == nil {
		return nil, errors.New("app: Adapters.Now (the clock) is required")
	}
	if ad.Logger == nil {
		ad.Logger = slog.New(slog.DiscardHandler)
	}
	a := &App{Config: cfg, logger: ad.Logger}
	if err := a.checkConfig(); err != nil {
		return nil, err
	}
	if a.limits, err = newLimits(&a.Config, ad.Now); err != nil {
		return nil, err
	}
	if a.DB, err = cfg.OpenDB(ad.Now, storage.WithLogger(ad.Logger)); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = a.DB.Close()
		}
	}()
	site := cfg.Site()
	if cfg.Demo {
		seeded, err := storage.SeedDemo(ctx, a.DB, site, ad.Now().UTC())
		if err != nil {
			return nil, fmt.Errorf("demo data: %w", err)
		}
		if seeded {
			ad.Logger.Info("loaded demo data", "data", cfg.Data)
		}
	}
	if a.Store, err = storage.NewStore(ctx, a.DB, site); err != nil {
		return nil, err
	}
	if err := a.build(ctx, ad); err != nil {
		_ = a.Store.Close()
		return nil, err
	}
	return a, nil
}

// build wires the Service, auth, the router and the pages over a.Store.
func (a *App) build(ctx context.Context, ad Adapters) error {
	c, db, store, site, logger := &a.Config, a.DB, a.Store, a.Config.Site(), ad.Logger
	a.Runner = domain.NewRunner(storage.NewJobStore(db), domain.RunnerOptions{Workers: c.JobWorkers, Lease: c.JobLease, Logger: logger, Now: db.Now})

	// Mail goes through the outbox, which the Service and auth share: it is
	// built first, so neither waits for the other.
	smtp := ad.SMTP
	if smtp == nil && c.SMTPHost != "" {
		m, err := auth.NewSMTPMailer(auth.SMTPConfig{Host: c.SMTPHost, Port: c.SMTPPort, Username: c.SMTPUser, Password: c.SMTPPassword, From: c.SMTPFrom})
		if err != nil {
			return fmt.Errorf("smtp: %w", err)
		}
		smtp = m
	}
	authStore := storage.NewAuthStore(db)
	outbox := &auth.Outbox{Store: authStore, Transport: smtp, MailLog: ad.MailLog, Logger: logger, Now: db.Now}

	drafts, err := a.drafting(ad, outbox)
	if err != nil {
		return err
	}
	orders, stripe, err := a.ordering(ad, site)
	if err != nil {
		return err
	}
	owner, err := a.owning(ad, outbox)
	if err != nil {
		return err
	}
	svc, err := domain.New(domain.Deps{Site: site, Now: db.Now,
		Store: store, Claims: store, Free: store, MyListings: store, Edits: store, Content: store,
		Votes: store, VoteMinAccountAge: c.VoteMinAccountAge, Weeks: store, Reviews: store,
		Settings: store, Redirects: store, Trophies: store, Feeds: store, OpenData: store, Matches: store, VoteDays: store,
		Drafts: drafts, Orders: orders, Owner: owner, Jobs: a.Runner, Logger: logger})
	if err != nil {
		return fmt.Errorf("wiring the service: %w", err)
	}
	if svc.Hooks, err = a.webhooking(outbox); err != nil {
		return err
	}
	a.Service = svc
	cons, err := console.New(console.Deps{Site: site, Now: db.Now, VoteMinAccountAge: c.VoteMinAccountAge,
		Team: store, Settings: store, Categories: store, Blog: store, Listings: store, People: store,
		Moderation: store, Ratings: store, Revenue: store, Owners: store})
	if err != nil {
		return fmt.Errorf("wiring the console: %w", err)
	}
	a.Console = cons

	acfg := auth.Config{Origin: c.PublicOrigin(), SiteName: site.Name, Store: authStore, Logger: logger, Now: db.Now,
		Outbox: outbox, Mailer: smtp, MailLog: ad.MailLog, MetadataClient: ad.MetadataClient,
		// The mail names the site as the site team named it last.
		SiteNameNow: func(ctx context.Context) string { return svc.SiteNow(ctx).Name },
		Invites:     svc, Account: db, Listings: db, Orders: svc, Webhooks: svc,
		OAuthLimit: a.limits.oauth, Failures: a.limits.failures}
	if c.OIDCIssuer != "" {
		acfg.OIDC = &auth.OIDCProvider{Issuer: c.OIDCIssuer, ClientID: c.OIDCClientID, ClientSecret: c.OIDCClientSecret, Name: c.OIDCName}
	}
	if a.Auth, err = auth.New(acfg); err != nil {
		return err
	}

	api := tools.New(svc, tools.Options{RateLimit: c.RateLimit, RateBurst: c.RateBurst, Logger: logger, Auth: a.Auth,
		Idem: storage.NewIdemStore(db), Failures: a.limits.failures, Session: a.limits.mcp, Now: db.Now,
		RequestTimeout: c.RequestTimeout}).Handler()
	mux := http.NewServeMux()
	a.Auth.Register(mux)
	mux.Handle("/v1/", api)
	mux.Handle("/v1", api)
	mux.Handle("/mcp", api)
	// The discovery documents: Server Card, AI Catalog, registry
	// server.json, /llms.txt and /docs.md (docs/discovery.md), on the web
	// pages' per-network budget.
	tools.NewDiscovery(site, tools.Catalog()).RateLimit(a.limits.pages).SiteNow(svc.SiteNow).Register(mux)
	if stripe != nil {
		mux.Handle("POST /webhooks/stripe", stripe.Webhook(svc.ConfirmPayment, logger))
	}
	// The site team lives in the database; --admin-emails makes its first
	// admins (a member keeps the role the team gave them).
	if err := cons.EnsureAdmins(ctx, slices.Sorted(maps.Keys(adminEmailSet(c.AdminEmails)))); err != nil {
		return err
	}
	members, err := cons.TeamMembers(ctx)
	if err != nil {
		return err
	}
	a.Team = len(members)
	webOpts := []web.Option{web.WithLogger(logger), web.WithConsole(cons), web.WithAdmin(a.Auth.SignedInEmail),
		web.WithAccount(a.Auth.SignedInUser), web.WithViews(store), web.WithToolsets(tools.Toolsets(tools.Catalog())),
		web.WithRateLimit(a.limits.pages)}
	if a.Team == 0 && c.Origins().LoopbackPort != "" && ad.AdminHint != "" {
		// A local instance without admins: /admin says how to become one.
		webOpts = append(webOpts, web.WithAdminHint(ad.AdminHint))
	}
	mux.Handle("/", web.New(svc, webOpts...))
	a.Handler = auth.WithOrigins(c.Origins(), ratelimit.TrustProxies(a.limits.trusted, mux))
	return nil
}

// Start recovers the drafts a crash left without their job, makes sure the
// weekly clock and the open-data export are scheduled, and starts the job
// runner until Close.
func (a *App) Start(ctx context.Context) error {
	for _, note := range a.notes {
		note()
	}
	svc := a.Service
	// A draft left being built without its job (a crash between the two,
	// before they were written together) gets its job again.
	if ids, err := svc.RecoverDrafts(ctx); err != nil {
		return fmt.Errorf("recover drafts: %w", err)
	} else if len(ids) > 0 {
		a.logger.Warn("recovered drafts that were being built without a job; building them again", "drafts", ids)
	}
	// The weekly clock: its job exists from the start (a missed week is
	// caught up at once, docs/weeks.md).
	if err := svc.EnsureWeekClock(ctx, a.Runner); err != nil {
		return fmt.Errorf("schedule the weekly clock: %w", err)
	}
	// The open-data export is rebuilt each Monday (docs/feeds.md).
	if err := svc.EnsureOpenDataJob(ctx, a.Runner); err != nil {
		return fmt.Errorf("schedule the open-data export: %w", err)
	}
	// The webhook delivery log is pruned daily (docs/webhooks.md).
	if err := svc.EnsureWebhookPruneJob(ctx, a.Runner); err != nil {
		return fmt.Errorf("schedule pruning the webhook log: %w", err)
	}
	jobsCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Runner.Run(jobsCtx)
	}()
	a.stopJobs = func() {
		stop()
		<-done
	}
	return nil
}

// Close stops the job runner and waits for it, closes the store (which
// writes the search snapshot if the index moved) and the database. A
// second Close does nothing.
func (a *App) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	if a.stopJobs != nil {
		a.stopJobs()
		a.stopJobs = nil
	}
	_ = a.Store.Close() // it logs why a snapshot was not written
	return a.DB.Close()
}

// TrustedProxies are the networks whose X-Forwarded-For names the client.
func (a *App) TrustedProxies() []netip.Prefix { return a.limits.trusted }

// checkConfig refuses the settings that are well-formed but unusable,
// before anything is opened.
func (a *App) checkConfig() error {
	c := &a.Config
	if c.VoteMinAccountAge < 0 {
		return fmt.Errorf("--vote-min-account-age (env LAUNCHDIR_VOTE_MIN_ACCOUNT_AGE) must be a duration of 0 or more, got %s", c.VoteMinAccountAge)
	}
	if c.OIDCIssuer != "" && c.OIDCClientID == "" {
		return errors.New("--oidc-issuer needs --oidc-client-id (and usually --oidc-client-secret)")
	}
	if c.SMTPHost != "" && c.SMTPFrom == "" {
		return errors.New("--smtp-host needs --smtp-from")
	}
	if c.LLMBaseURL != "" && c.LLMModel == "" {
		return fmt.Errorf("--llm-base-url needs --llm-model")
	}
	c.Currency = strings.ToUpper(strings.TrimSpace(c.Currency))
	if !validate.IsCurrency(c.Currency) {
		return fmt.Errorf("--currency %q: use an ISO 4217 code such as USD or EUR", c.Currency)
	}
	c.SellerCountry = strings.ToUpper(strings.TrimSpace(c.SellerCountry))
	if !vat.IsEU(c.SellerCountry) {
		return fmt.Errorf("--seller-country %q: use the EU member state the site is VAT-registered in, such as IE or DE", c.SellerCountry)
	}
	if c.StripeSecretKey != "" && c.StripeWebhookSecret == "" {
		return errors.New("Stripe payments need the webhook signing secret too (LAUNCHDIR_STRIPE_WEBHOOK_SECRET): orders are marked paid only by signed webhooks") //nolint:staticcheck // ST1005: the message starts with the name Stripe
	}
	if c.DNSResolver != "" {
		if _, _, err := net.SplitHostPort(c.DNSResolver); err != nil {
			return fmt.Errorf("--dns-resolver %q: want host:port, e.g. 1.1.1.1:53", c.DNSResolver)
		}
	}
	return nil
}

// drafting wires the draft operations: the site reader, the drafter (the
// grounded extractor, or the model drafter backed by it), the durable job
// runner and the mailer for invites.
func (a *App) drafting(ad Adapters, mailer domain.Mailer) (*domain.Drafting, error) {
	c, logger := &a.Config, ad.Logger
	drafter := ad.Drafter
	if drafter == nil {
		drafter = extract.New()
		if c.LLMBaseURL != "" {
			d, err := llmdraft.New(llmdraft.Config{BaseURL: c.LLMBaseURL, Model: c.LLMModel, APIKey: c.LLMAPIKey, Timeout: c.LLMTimeout, MaxInputChars: c.LLMMaxInputChars, Fallback: drafter})
			if err != nil {
				return nil, fmt.Errorf("model drafter: %w", err)
			}
			drafter = d
			a.notes = append(a.notes, func() {
				logger.Info("drafting with a model", "base_url", c.LLMBaseURL, "model", c.LLMModel, "timeout", c.LLMTimeout, "max_input_chars", c.LLMMaxInputChars)
			})
		}
	}
	sites := ad.Sites
	if sites == nil {
		if c.FetchAllowLoopback {
			a.notes = append(a.notes, func() {
				logger.Warn("the site reader may reach loopback addresses (--fetch-allow-loopback); use this for local testing only")
			})
		}
		sites = fetch.New(fetch.Options{AllowLoopback: c.FetchAllowLoopback})
	}
	return &domain.Drafting{Store: a.Store, Fetcher: sites, Drafter: drafter,
		Enqueue: a.Runner.Enqueue, Wake: a.Runner.Wake, Mailer: mailer}, nil
}

// ordering wires the order operations: the order store, the payment
// provider (Stripe when a key is configured, else the built-in test
// provider) and VIES. It also returns the Stripe provider, whose webhook
// confirms payments (nil otherwise).
func (a *App) ordering(ad Adapters, site domain.Site) (*domain.Ordering, *stripepay.Provider, error) {
	c, logger := &a.Config, ad.Logger
	store, err := storage.NewOrderStore(a.DB, site)
	if err != nil {
		return nil, nil, err
	}
	o := &domain.Ordering{Store: store, Payments: ad.Payments, EnqueueAt: a.Runner.EnqueueAt, VAT: vat.Rules{}, Options: &validate.Options{},
		Currency: c.Currency, SellerCountry: c.SellerCountry, VIES: ad.VIES}
	if o.VIES == nil && c.VIES {
		o.VIES = &vies.VIES{}
	}
	var stripe *stripepay.Provider
	switch {
	case o.Payments != nil:
	case c.StripeSecretKey != "":
		p, err := stripepay.New(stripepay.Config{SecretKey: c.StripeSecretKey, WebhookSecret: c.StripeWebhookSecret, Now: ad.Now})
		if err != nil {
			return nil, nil, err
		}
		o.Payments, stripe = p, p
		a.notes = append(a.notes, func() { logger.Info("payments: Stripe Checkout", "test_mode", p.TestMode()) })
	default:
		o.Payments = domain.TestPayments{}
		a.notes = append(a.notes, func() {
			logger.Warn("payments: the built-in TEST provider; no money is taken (set LAUNCHDIR_STRIPE_SECRET_KEY for real payments)")
		})
	}
	return o, stripe, nil
}

// owning wires the owner's area: one-page reads of owners' sites (badge
// checks, meta and file claims) through the SSRF guard, DNS TXT lookups,
// mail and scheduled jobs.
func (a *App) owning(ad Adapters, mailer domain.Mailer) (*domain.Owning, error) {
	pages, resolver := ad.Pages, ad.Resolver
	if pages == nil {
		pages = fetch.New(fetch.Options{AllowLoopback: a.Config.FetchAllowLoopback})
	}
	if resolver == nil {
		resolver = newResolver(a.Config.DNSResolver)
	}
	return &domain.Owning{Pages: pages, Resolver: resolver, Mailer: mailer, EnqueueAt: a.Runner.EnqueueAt}, nil
}

// newResolver returns the system resolver, or one that asks only the DNS
// server at addr (host:port, checked by checkConfig).
func newResolver(addr string) *net.Resolver {
	if addr == "" {
		return net.DefaultResolver
	}
	var d net.Dialer
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}
}

// limits are the per-network limiters built from the Config; a nil
// limiter is off.
type limits struct {
	failures, oauth, mcp, pages *ratelimit.Limiter
	trusted                     []netip.Prefix
}

// newLimits builds the limiters on the clock now.
func newLimits(c *Config, now func() time.Time) (limits, error) {
	trusted, err := ratelimit.ParsePrefixes(c.TrustedProxies)
	if err != nil {
		return limits{}, fmt.Errorf("--trusted-proxies: %w", err)
	}
	return limits{
		failures: ratelimit.New(withQuota(ratelimit.DefaultFailures, c.RateFailures), now),
		oauth:    ratelimit.New(withQuota(ratelimit.DefaultOAuth, c.RateOAuth), now),
		mcp:      ratelimit.New(withQuota(ratelimit.DefaultMCP, c.RateMCP), now),
		pages:    ratelimit.New(withQuota(ratelimit.DefaultPages, c.RatePages), now),
		trusted:  trusted,
	}, nil
}

// withQuota is p with the quota a setting gave.
func withQuota(p ratelimit.Policy, quota int) ratelimit.Policy {
	p.Quota = quota
	return p
}

// adminEmailSet parses the --admin-emails list.
func adminEmailSet(list string) map[string]bool {
	set := map[string]bool{}
	for _, e := range strings.Split(list, ",") {
		if e = strings.ToLower(strings.TrimSpace(e)); e != "" {
			set[e] = true
		}
	}
	return set
}

// RedactURL is rawURL without its password, for messages.
func RedactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(an unparsable URL)"
	}
	return u.Redacted()
}
