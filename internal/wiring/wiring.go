// Package wiring builds the service's core from a typed Config and the
// outside world's adapters: storage, the domain Service, the site team's
// console, the mail outbox, auth, the limiters and the job runner. It
// imports neither tools nor web, so the test harnesses of those packages
// build their stack through it; internal/app composes the REST/MCP router
// and the pages on top for serve and the admin subcommands. Tests replace
// only the outside world (Adapters).
package wiring

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
	"github.com/launchdir/launchdir/internal/webhooksend"
	"github.com/launchdir/launchdir/storage"
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
	// WebhookSender delivers webhooks; nil: the sender with the crawler's
	// address rules (loopback only with --fetch-allow-loopback).
	WebhookSender domain.WebhookSender
	// MetadataClient fetches OAuth client metadata documents; nil: auth's
	// client with the SSRF guard.
	MetadataClient *http.Client
	// AdminHint is what /admin tells a signed-in person on a local instance
	// without admins ("": nothing); internal/app hands it to the pages.
	AdminHint string
}

// Core is the service without its HTTP front ends, built by Open.
type Core struct {
	Config  Config
	DB      *storage.DB
	Store   *storage.Store
	Service *domain.Service
	// Console is the site team's console (/admin and the admin subcommands).
	Console *console.Console
	Auth    *auth.Auth
	// Runner runs every job kind of the Service; Start starts it (a test
	// that does not call Start runs due jobs itself with RunDue).
	Runner *domain.Runner
	// Limits are the per-network limiters the front ends share with auth.
	Limits Limits
	// Stripe is the Stripe provider when --stripe-secret-key is set (its
	// webhook confirms payments), else nil.
	Stripe *stripepay.Provider
	// Team is the size of the site team after --admin-emails was applied.
	Team int

	logger   *slog.Logger
	stopJobs func()
	closed   bool
	// notes are what Start logs about the adapters in use (a command that
	// only opens the service says nothing about payments).
	notes []func()
}

// Limits are the per-network limiters built from the Config; a nil
// limiter is off.
type Limits struct {
	Failures, OAuth, MCP, Pages *ratelimit.Limiter
	// Trusted are the networks whose X-Forwarded-For names the client.
	Trusted []netip.Prefix
}

// Open validates cfg, opens the database (applying migrations; with
// cfg.Demo loading the demo data into an empty one) and builds the core
// over it. It runs no job: Start does. A configuration or wiring mistake
// (a dependency domain.New finds missing) is an error here, at start; a
// configuration mistake is found before the database is touched.
func Open(ctx context.Context, cfg Config, ad Adapters) (_ *Core, err error) {
	if ad.Now == nil {
		return nil, errors.New("wiring: Adapters.Now (the clock) is required")
	}
	if ad.Logger == nil {
		ad.Logger = slog.New(slog.DiscardHandler)
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	c := &Core{Config: cfg, logger: ad.Logger}
	if c.Limits, err = newLimits(&c.Config, ad.Now); err != nil {
		return nil, err
	}
	if c.DB, err = cfg.OpenDB(ad.Now, storage.WithLogger(ad.Logger)); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = c.DB.Close()
		}
	}()
	site := cfg.Site()
	if cfg.Demo {
		seeded, err := storage.SeedDemo(ctx, c.DB, site, ad.Now().UTC())
		if err != nil {
			return nil, fmt.Errorf("demo data: %w", err)
		}
		if seeded {
			ad.Logger.Info("loaded demo data", "data", cfg.Data)
		}
	}
	if c.Store, err = storage.NewStore(ctx, c.DB, site); err != nil {
		return nil, err
	}
	if err := c.build(ctx, ad); err != nil {
		_ = c.Store.Close()
		return nil, err
	}
	return c, nil
}

// build wires the Service, the console and auth over c.Store.
func (c *Core) build(ctx context.Context, ad Adapters) error {
	cfg, db, store, site, logger := &c.Config, c.DB, c.Store, c.Config.Site(), ad.Logger
	c.Runner = domain.NewRunner(storage.NewJobStore(db), domain.RunnerOptions{Workers: cfg.JobWorkers, Lease: cfg.JobLease, Logger: logger, Now: db.Now})

	// Mail goes through the outbox, which the Service and auth share: it is
	// built first, so neither waits for the other.
	smtp := ad.SMTP
	if smtp == nil && cfg.SMTPHost != "" {
		m, err := auth.NewSMTPMailer(auth.SMTPConfig{Host: cfg.SMTPHost, Port: cfg.SMTPPort, Username: cfg.SMTPUser, Password: cfg.SMTPPassword, From: cfg.SMTPFrom})
		if err != nil {
			return fmt.Errorf("smtp: %w", err)
		}
		smtp = m
	}
	authStore := storage.NewAuthStore(db)
	outbox := &auth.Outbox{Store: authStore, Transport: smtp, MailLog: ad.MailLog, Logger: logger, Now: db.Now}

	drafts, err := c.drafting(ad, outbox)
	if err != nil {
		return err
	}
	orders, err := c.ordering(ad, site)
	if err != nil {
		return err
	}
	owner, err := c.owning(ad, outbox)
	if err != nil {
		return err
	}
	svc, err := domain.New(domain.Deps{Site: site, Now: db.Now,
		Store: store, Claims: store, Free: store, MyListings: store, Edits: store, Content: store,
		Votes: store, VoteMinAccountAge: cfg.VoteMinAccountAge, Weeks: store, Reviews: store,
		Settings: store, Redirects: store, Trophies: store, Feeds: store, OpenData: store, Matches: store, VoteDays: store,
		Drafts: drafts, Orders: orders, Owner: owner, Jobs: c.Runner, Logger: logger})
	if err != nil {
		return fmt.Errorf("wiring the service: %w", err)
	}
	if svc.Hooks, err = c.webhooking(ad, outbox); err != nil {
		return err
	}
	c.Service = svc
	cons, err := console.New(console.Deps{Site: site, Now: db.Now, VoteMinAccountAge: cfg.VoteMinAccountAge,
		Team: store, Settings: store, Categories: store, Blog: store, Listings: store, People: store,
		Moderation: store, Ratings: store, Revenue: store, Owners: store})
	if err != nil {
		return fmt.Errorf("wiring the console: %w", err)
	}
	c.Console = cons

	acfg := auth.Config{Origin: cfg.PublicOrigin(), SiteName: site.Name, Store: authStore, Logger: logger, Now: db.Now,
		Outbox: outbox, Mailer: smtp, MailLog: ad.MailLog, MetadataClient: ad.MetadataClient,
		// The mail names the site as the site team named it last.
		SiteNameNow: func(ctx context.Context) string { return svc.SiteNow(ctx).Name },
		Invites:     svc, Account: db, Listings: db, Orders: svc, Webhooks: svc,
		OAuthLimit: c.Limits.OAuth, Failures: c.Limits.Failures}
	if cfg.OIDCIssuer != "" {
		acfg.OIDC = &auth.OIDCProvider{Issuer: cfg.OIDCIssuer, ClientID: cfg.OIDCClientID, ClientSecret: cfg.OIDCClientSecret, Name: cfg.OIDCName}
	}
	if c.Auth, err = auth.New(acfg); err != nil {
		return err
	}

	// The site team lives in the database; --admin-emails makes its first
	// admins (a member keeps the role the team gave them).
	if err := cons.EnsureAdmins(ctx, slices.Sorted(maps.Keys(adminEmailSet(cfg.AdminEmails)))); err != nil {
		return err
	}
	members, err := cons.TeamMembers(ctx)
	if err != nil {
		return err
	}
	c.Team = len(members)
	return nil
}

// Start recovers the drafts a crash left without their job, makes sure the
// weekly clock and the open-data export are scheduled, and starts the job
// runner until Close.
func (c *Core) Start(ctx context.Context) error {
	for _, note := range c.notes {
		note()
	}
	svc := c.Service
	// A draft left being built without its job (a crash between the two,
	// before they were written together) gets its job again.
	if ids, err := svc.RecoverDrafts(ctx); err != nil {
		return fmt.Errorf("recover drafts: %w", err)
	} else if len(ids) > 0 {
		c.logger.Warn("recovered drafts that were being built without a job; building them again", "drafts", ids)
	}
	// The weekly clock: its job exists from the start (a missed week is
	// caught up at once, docs/weeks.md).
	if err := svc.EnsureWeekClock(ctx, c.Runner); err != nil {
		return fmt.Errorf("schedule the weekly clock: %w", err)
	}
	// The open-data export is rebuilt each Monday (docs/feeds.md).
	if err := svc.EnsureOpenDataJob(ctx, c.Runner); err != nil {
		return fmt.Errorf("schedule the open-data export: %w", err)
	}
	// The webhook delivery log is pruned daily (docs/webhooks.md).
	if err := svc.EnsureWebhookPruneJob(ctx, c.Runner); err != nil {
		return fmt.Errorf("schedule pruning the webhook log: %w", err)
	}
	jobsCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.Runner.Run(jobsCtx)
	}()
	c.stopJobs = func() {
		stop()
		<-done
	}
	return nil
}

// Close stops the job runner and waits for it, closes the store (which
// writes the search snapshot if the index moved) and the database. A
// second Close does nothing.
func (c *Core) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	if c.stopJobs != nil {
		c.stopJobs()
		c.stopJobs = nil
	}
	_ = c.Store.Close() // it logs why a snapshot was not written
	return c.DB.Close()
}

// Logger is the service's log (discarded when Adapters.Logger was nil).
func (c *Core) Logger() *slog.Logger { return c.logger }

// TrustedProxies are the networks whose X-Forwarded-For names the client.
func (c *Core) TrustedProxies() []netip.Prefix { return c.Limits.Trusted }

// Check refuses the settings that are well-formed but unusable, before
// anything is opened, and writes the currency and the seller's country in
// capitals.
func (c *Config) Check() error {
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
func (c *Core) drafting(ad Adapters, mailer domain.Mailer) (*domain.Drafting, error) {
	cfg, logger := &c.Config, ad.Logger
	drafter := ad.Drafter
	if drafter == nil {
		drafter = extract.New()
		if cfg.LLMBaseURL != "" {
			d, err := llmdraft.New(llmdraft.Config{BaseURL: cfg.LLMBaseURL, Model: cfg.LLMModel, APIKey: cfg.LLMAPIKey, Timeout: cfg.LLMTimeout, MaxInputChars: cfg.LLMMaxInputChars, Fallback: drafter})
			if err != nil {
				return nil, fmt.Errorf("model drafter: %w", err)
			}
			drafter = d
			c.notes = append(c.notes, func() {
				logger.Info("drafting with a model", "base_url", cfg.LLMBaseURL, "model", cfg.LLMModel, "timeout", cfg.LLMTimeout, "max_input_chars", cfg.LLMMaxInputChars)
			})
		}
	}
	sites := ad.Sites
	if sites == nil {
		if cfg.FetchAllowLoopback {
			c.notes = append(c.notes, func() {
				logger.Warn("the site reader may reach loopback addresses (--fetch-allow-loopback); use this for local testing only")
			})
		}
		sites = fetch.New(fetch.Options{AllowLoopback: cfg.FetchAllowLoopback})
	}
	return &domain.Drafting{Store: c.Store, Fetcher: sites, Drafter: drafter,
		Enqueue: c.Runner.Enqueue, Wake: c.Runner.Wake, Mailer: mailer}, nil
}

// ordering wires the order operations: the order store, the payment
// provider (Stripe when a key is configured, else the built-in test
// provider) and VIES. The Stripe provider, whose webhook confirms payments,
// is c.Stripe.
func (c *Core) ordering(ad Adapters, site domain.Site) (*domain.Ordering, error) {
	cfg, logger := &c.Config, ad.Logger
	store, err := storage.NewOrderStore(c.DB, site)
	if err != nil {
		return nil, err
	}
	o := &domain.Ordering{Store: store, Payments: ad.Payments, EnqueueAt: c.Runner.EnqueueAt, VAT: vat.Rules{}, Options: &validate.Options{},
		Currency: cfg.Currency, SellerCountry: cfg.SellerCountry, VIES: ad.VIES}
	if o.VIES == nil && cfg.VIES {
		o.VIES = &vies.VIES{}
	}
	switch {
	case o.Payments != nil:
	case cfg.StripeSecretKey != "":
		p, err := stripepay.New(stripepay.Config{SecretKey: cfg.StripeSecretKey, WebhookSecret: cfg.StripeWebhookSecret, Now: ad.Now})
		if err != nil {
			return nil, err
		}
		o.Payments, c.Stripe = p, p
		c.notes = append(c.notes, func() { logger.Info("payments: Stripe Checkout", "test_mode", p.TestMode()) })
	default:
		o.Payments = domain.TestPayments{}
		c.notes = append(c.notes, func() {
			logger.Warn("payments: the built-in TEST provider; no money is taken (set LAUNCHDIR_STRIPE_SECRET_KEY for real payments)")
		})
	}
	return o, nil
}

// owning wires the owner's area: one-page reads of owners' sites (badge
// checks, meta and file claims) through the SSRF guard, DNS TXT lookups,
// mail and scheduled jobs.
func (c *Core) owning(ad Adapters, mailer domain.Mailer) (*domain.Owning, error) {
	pages, resolver := ad.Pages, ad.Resolver
	if pages == nil {
		pages = fetch.New(fetch.Options{AllowLoopback: c.Config.FetchAllowLoopback})
	}
	if resolver == nil {
		resolver = newResolver(c.Config.DNSResolver)
	}
	return &domain.Owning{Pages: pages, Resolver: resolver, Mailer: mailer, EnqueueAt: c.Runner.EnqueueAt}, nil
}

// webhooking wires the webhooks: the sender (by default with the crawler's
// address rules: loopback only with --fetch-allow-loopback), the server
// key, the owner's mail and the job runner's wake-up.
func (c *Core) webhooking(ad Adapters, mailer domain.Mailer) (*domain.Webhooking, error) {
	cfg := &c.Config
	sender := ad.WebhookSender
	if sender == nil {
		sender = webhooksend.New(webhooksend.Options{AllowLoopback: cfg.FetchAllowLoopback})
	}
	h := &domain.Webhooking{Store: c.Store, Sender: sender, Mailer: mailer, Wake: c.Runner.Wake}
	if cfg.WebhookKey == "" {
		// A note for Start, so serve warns and the admin commands do not.
		c.notes = append(c.notes, func() {
			c.logger.Warn("no --webhook-key (LAUNCHDIR_WEBHOOK_KEY): webhook signing secrets are stored unencrypted; set a key in production (docs/webhooks.md)")
		})
		return h, nil
	}
	b, err := ParseWebhookKey(cfg.WebhookKey)
	if err != nil {
		return nil, errors.New("--webhook-key (env LAUNCHDIR_WEBHOOK_KEY) must be 32 bytes written as 64 hex characters or base64, e.g. the output of: openssl rand -hex 32")
	}
	h.Key = b
	return h, nil
}

// newResolver returns the system resolver, or one that asks only the DNS
// server at addr (host:port, checked by Config.Check).
func newResolver(addr string) *net.Resolver {
	if addr == "" {
		return net.DefaultResolver
	}
	var d net.Dialer
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}
}

// newLimits builds the limiters on the clock now.
func newLimits(c *Config, now func() time.Time) (Limits, error) {
	trusted, err := ratelimit.ParsePrefixes(c.TrustedProxies)
	if err != nil {
		return Limits{}, fmt.Errorf("--trusted-proxies: %w", err)
	}
	return Limits{
		Failures: ratelimit.New(withQuota(ratelimit.DefaultFailures, c.RateFailures), now),
		OAuth:    ratelimit.New(withQuota(ratelimit.DefaultOAuth, c.RateOAuth), now),
		MCP:      ratelimit.New(withQuota(ratelimit.DefaultMCP, c.RateMCP), now),
		Pages:    ratelimit.New(withQuota(ratelimit.DefaultPages, c.RatePages), now),
		Trusted:  trusted,
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
