package wiring

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/llmdraft"
	"github.com/launchdir/launchdir/storage"
)

// Config is every setting of the service, typed. Each field is declared
// once, as a row of Settings, which gives its flag, its environment
// variable, its default, how it parses and whether it is a secret.
type Config struct {
	Addr     string
	Data     string
	Database string
	// DBMaxConns bounds this process's PostgreSQL connections (0: none).
	DBMaxConns int
	// RequestTimeout bounds each REST and MCP tool call (0: none).
	RequestTimeout time.Duration
	BaseURL        string
	SiteName       string
	Demo           bool

	RateLimit         float64
	RateBurst         int
	RateFailures      int
	RateOAuth         int
	RateMCP           int
	RatePages         int
	TrustedProxies    string
	VoteMinAccountAge time.Duration

	OIDCIssuer       string
	OIDCClientID     string
	OIDCClientSecret string
	OIDCName         string
	SMTPHost         string
	SMTPPort         int
	SMTPUser         string
	SMTPPassword     string
	SMTPFrom         string

	FetchAllowLoopback bool
	LLMBaseURL         string
	LLMModel           string
	LLMAPIKey          string
	LLMTimeout         time.Duration
	LLMMaxInputChars   int
	JobWorkers         int
	JobLease           time.Duration
	DNSResolver        string

	Currency            string
	SellerCountry       string
	VIES                bool
	StripeSecretKey     string
	StripeWebhookSecret string
	AdminEmails         string
	WebhookKey          string
}

// Setting is one row of the configuration table: the only place a setting
// is declared. --help, the environment names and the README's settings
// table all come from Settings.
type Setting struct {
	// Flag is the command-line name, without dashes.
	Flag string
	// Env is the environment variable that sets it when the flag is not
	// given (an empty variable counts as unset).
	Env string
	// Default is the value when neither is given, as it would be typed.
	Default string
	// Usage says what it does, for --help and the README.
	Usage string
	// Secret marks a credential: the environment is the way to give it
	// (flags show in ps), and no value of it is ever printed.
	Secret bool
	// Expect, when set, says what a value must look like (else the kind's
	// own words, e.g. "a whole number").
	Expect string
	// field is the Config field it sets: a *string, *bool, *int, *float64
	// or *time.Duration.
	field func(*Config) any
	// check, when set, refuses a parsed value the kind accepts.
	check func(*Config) error
}

// Settings is the configuration table, in the order --help lists it.
var Settings = []Setting{
	{Flag: "addr", Env: "LAUNCHDIR_ADDR", Default: "127.0.0.1:8080", Usage: "listen address",
		field: func(c *Config) any { return &c.Addr }},
	{Flag: "data", Env: "LAUNCHDIR_DATA", Default: "./data", Usage: "data directory holding the SQLite file",
		field: func(c *Config) any { return &c.Data }},
	{Flag: "database", Env: "LAUNCHDIR_DATABASE_URL", Usage: "a PostgreSQL database to use instead of the SQLite file under --data: postgres://user:password@host/name",
		field: func(c *Config) any { return &c.Database }},
	{Flag: "db-max-conns", Env: "LAUNCHDIR_DB_MAX_CONNS", Default: strconv.Itoa(storage.DefaultMaxConns),
		Usage:  "most PostgreSQL connections this process opens; a call finding them all busy waits for one until its deadline, then gets 503 with Retry-After; keep processes x this under the server's max_connections (docs/scaling.md), 0 = no bound; SQLite ignores it",
		Expect: "a whole number of 0 or more",
		field:  func(c *Config) any { return &c.DBMaxConns },
		check: func(c *Config) error {
			if c.DBMaxConns < 0 {
				return errors.New("negative")
			}
			return nil
		}},
	{Flag: "request-timeout", Env: "LAUNCHDIR_REQUEST_TIMEOUT", Default: "30s",
		Usage:  "how long one REST call or MCP tool call may run, waiting for a database connection included; past it the call gets 503 with Retry-After; MCP streams are not cut by it; 0 = no limit",
		Expect: "a duration of 0 or more, e.g. 30s",
		field:  func(c *Config) any { return &c.RequestTimeout },
		check: func(c *Config) error {
			if c.RequestTimeout < 0 {
				return errors.New("negative")
			}
			return nil
		}},
	{Flag: "base-url", Env: "LAUNCHDIR_BASE_URL", Usage: "public origin, e.g. https://launchdir.example; empty: the listen address, and on loopback each loopback name with its port",
		field: func(c *Config) any { return &c.BaseURL }},
	{Flag: "site-name", Env: "LAUNCHDIR_SITE_NAME", Default: DefaultSiteName, Usage: "the site's name until the site team sets site_name in the console",
		field: func(c *Config) any { return &c.SiteName }},
	{Flag: "demo", Env: "LAUNCHDIR_DEMO", Default: "false", Usage: "load the demo data when the data directory has no listings",
		field: func(c *Config) any { return &c.Demo }},

	{Flag: "rate-limit", Env: "LAUNCHDIR_RATE_LIMIT", Default: "20", Usage: "requests per second per client on every operation, 0 = off",
		field: func(c *Config) any { return &c.RateLimit }},
	{Flag: "rate-burst", Env: "LAUNCHDIR_RATE_BURST", Default: "40", Usage: "burst per client",
		field: func(c *Config) any { return &c.RateBurst }},
	{Flag: "rate-failures", Env: "LAUNCHDIR_RATE_FAILURES", Default: strconv.Itoa(ratelimit.DefaultFailures.Quota), Usage: "failed attempts of one credential (a bad bearer token or API key, a refused /token or /revoke client credential with its code or token, an invalid sign-in link) per network per 15 minutes; then that credential from that network gets 429 until the window ends, other credentials are still checked, 0 = off",
		field: func(c *Config) any { return &c.RateFailures }},
	{Flag: "rate-oauth", Env: "LAUNCHDIR_RATE_OAUTH", Default: strconv.Itoa(ratelimit.DefaultOAuth.Quota), Usage: "requests per network per minute to /authorize, /token, /register and /revoke, 0 = off",
		field: func(c *Config) any { return &c.RateOAuth }},
	{Flag: "rate-mcp", Env: "LAUNCHDIR_RATE_MCP", Default: strconv.Itoa(ratelimit.DefaultMCP.Quota), Usage: "MCP requests other than tools/call (initialize, tools/list, ping, notifications) per network per minute, 0 = off",
		field: func(c *Config) any { return &c.RateMCP }},
	{Flag: "rate-pages", Env: "LAUNCHDIR_RATE_PAGES", Default: strconv.Itoa(ratelimit.DefaultPages.Quota), Usage: "web page requests per network per minute, 0 = off",
		field: func(c *Config) any { return &c.RatePages }},
	{Flag: "trusted-proxies", Env: "LAUNCHDIR_TRUSTED_PROXIES", Usage: "comma-separated CIDRs of reverse proxies whose X-Forwarded-For names the client; empty: the client is the TCP peer",
		field: func(c *Config) any { return &c.TrustedProxies }},
	{Flag: "vote-min-account-age", Env: "LAUNCHDIR_VOTE_MIN_ACCOUNT_AGE", Default: domain.DefaultVoteMinAccountAge.String(),
		Usage:  "votes of accounts younger than this are held until the account is this old, 0 = none held for age",
		Expect: "a duration of 0 or more, e.g. 24h",
		field:  func(c *Config) any { return &c.VoteMinAccountAge },
		check: func(c *Config) error {
			if c.VoteMinAccountAge < 0 {
				return errors.New("negative")
			}
			return nil
		}},

	{Flag: "oidc-issuer", Env: "LAUNCHDIR_OIDC_ISSUER", Usage: "OpenID Connect provider issuer URL for sign-in; empty: email-link sign-in only",
		field: func(c *Config) any { return &c.OIDCIssuer }},
	{Flag: "oidc-client-id", Env: "LAUNCHDIR_OIDC_CLIENT_ID", Usage: "OpenID Connect client id",
		field: func(c *Config) any { return &c.OIDCClientID }},
	{Flag: "oidc-client-secret", Env: "LAUNCHDIR_OIDC_CLIENT_SECRET", Usage: "OpenID Connect client secret", Secret: true,
		field: func(c *Config) any { return &c.OIDCClientSecret }},
	{Flag: "oidc-name", Env: "LAUNCHDIR_OIDC_NAME", Default: "your identity provider", Usage: "provider name on the sign-in button",
		field: func(c *Config) any { return &c.OIDCName }},
	{Flag: "smtp-host", Env: "LAUNCHDIR_SMTP_HOST", Usage: "SMTP server for mail; empty: mail is written to the outbox table and the log",
		field: func(c *Config) any { return &c.SMTPHost }},
	{Flag: "smtp-port", Env: "LAUNCHDIR_SMTP_PORT", Default: "587", Usage: "SMTP port",
		field: func(c *Config) any { return &c.SMTPPort }},
	{Flag: "smtp-user", Env: "LAUNCHDIR_SMTP_USER", Usage: "SMTP user",
		field: func(c *Config) any { return &c.SMTPUser }},
	{Flag: "smtp-password", Env: "LAUNCHDIR_SMTP_PASSWORD", Usage: "SMTP password", Secret: true,
		field: func(c *Config) any { return &c.SMTPPassword }},
	{Flag: "smtp-from", Env: "LAUNCHDIR_SMTP_FROM", Usage: "sender address",
		field: func(c *Config) any { return &c.SMTPFrom }},

	{Flag: "fetch-allow-loopback", Env: "LAUNCHDIR_FETCH_ALLOW_LOOPBACK", Default: "false", Usage: "let the site reader reach loopback addresses, for local testing only; private and link-local stay refused",
		field: func(c *Config) any { return &c.FetchAllowLoopback }},
	{Flag: "llm-base-url", Env: "LAUNCHDIR_LLM_BASE_URL", Usage: "OpenAI-compatible endpoint for the model drafter, e.g. https://api.openai.com/v1; empty: the grounded extractor alone",
		field: func(c *Config) any { return &c.LLMBaseURL }},
	{Flag: "llm-model", Env: "LAUNCHDIR_LLM_MODEL", Usage: "model name for the model drafter",
		field: func(c *Config) any { return &c.LLMModel }},
	{Flag: "llm-api-key", Env: "LAUNCHDIR_LLM_API_KEY", Usage: "API key for the model drafter", Secret: true,
		field: func(c *Config) any { return &c.LLMAPIKey }},
	{Flag: "llm-timeout", Env: "LAUNCHDIR_LLM_TIMEOUT", Default: "1m0s", Usage: "how long one request to the model drafter's endpoint may take; a local model on a CPU may need minutes",
		field: func(c *Config) any { return &c.LLMTimeout }},
	{Flag: "llm-max-input-chars", Env: "LAUNCHDIR_LLM_MAX_INPUT_CHARS", Default: strconv.Itoa(llmdraft.DefaultMaxInputChars), Usage: "characters of page text the model drafter sends; keep it under the model's context window, about 3 characters a token",
		field: func(c *Config) any { return &c.LLMMaxInputChars }},
	{Flag: "job-workers", Env: "LAUNCHDIR_JOB_WORKERS", Default: "2", Usage: "background job workers in this process",
		field: func(c *Config) any { return &c.JobWorkers }},
	{Flag: "job-lease", Env: "LAUNCHDIR_JOB_LEASE", Default: "30s", Usage: "how long a worker holds a job between renewals; after a crash the job resumes once this has run out",
		field: func(c *Config) any { return &c.JobLease }},
	{Flag: "dns-resolver", Env: "LAUNCHDIR_DNS_RESOLVER", Usage: "host:port of the DNS server that checks DNS claims, e.g. 1.1.1.1:53; empty: the system resolver",
		field: func(c *Config) any { return &c.DNSResolver }},

	{Flag: "currency", Env: "LAUNCHDIR_CURRENCY", Default: domain.DefaultCurrency, Usage: "ISO 4217 currency of every price",
		field: func(c *Config) any { return &c.Currency }},
	{Flag: "seller-country", Env: "LAUNCHDIR_SELLER_COUNTRY", Default: "IE", Usage: "EU member state the site is VAT-registered in: businesses there pay domestic VAT",
		field: func(c *Config) any { return &c.SellerCountry }},
	{Flag: "vies", Env: "LAUNCHDIR_VIES", Default: "false", Usage: "also confirm EU VAT numbers online with the EU's VIES service",
		field: func(c *Config) any { return &c.VIES }},
	{Flag: "stripe-secret-key", Env: "LAUNCHDIR_STRIPE_SECRET_KEY", Usage: "Stripe secret key: take payments with Stripe Checkout instead of the built-in test provider", Secret: true,
		field: func(c *Config) any { return &c.StripeSecretKey }},
	{Flag: "stripe-webhook-secret", Env: "LAUNCHDIR_STRIPE_WEBHOOK_SECRET", Usage: "signing secret of the Stripe webhook endpoint /webhooks/stripe", Secret: true,
		field: func(c *Config) any { return &c.StripeWebhookSecret }},
	{Flag: "admin-emails", Env: "LAUNCHDIR_ADMIN_EMAILS", Usage: "comma-separated sign-in addresses of the site team, who may open /admin",
		field: func(c *Config) any { return &c.AdminEmails }},
	{Flag: "webhook-key", Env: "LAUNCHDIR_WEBHOOK_KEY", Usage: "server key that encrypts webhook signing secrets at rest: 32 bytes as 64 hex characters or base64; empty: secrets are stored as they are", Secret: true,
		Expect: "32 bytes as 64 hex characters or base64, e.g. the output of: openssl rand -hex 32",
		field:  func(c *Config) any { return &c.WebhookKey },
		check: func(c *Config) error {
			if c.WebhookKey == "" {
				return nil
			}
			_, err := ParseWebhookKey(c.WebhookKey)
			return err
		}},
}

// DefaultSiteName is the site's name when none is configured.
const DefaultSiteName = "Launchdir"

// The settings each kind of command takes (besides its own flags).
var (
	// StorageSettings say where the data lives: every subcommand takes them.
	StorageSettings = []string{"data", "database", "db-max-conns"}
	// SiteSettings say which site a command acts for and at which origin.
	SiteSettings = []string{"data", "database", "db-max-conns", "addr", "base-url", "site-name"}
)

// Lookup returns the setting with flag name (false when there is none).
func Lookup(name string) (Setting, bool) {
	for _, s := range Settings {
		if s.Flag == name {
			return s, true
		}
	}
	return Setting{}, false
}

// Defaults returns the Config of the defaults of every setting.
func Defaults() Config {
	var c Config
	for _, s := range Settings {
		if err := (&value{s: s, c: &c}).set(s.Default); err != nil {
			panic(fmt.Sprintf("wiring: default of --%s: %v", s.Flag, err))
		}
	}
	return c
}

// Register adds the named settings (every one when names is empty) to fs
// as flags writing into c, each with its default set in c now.
func Register(fs *flag.FlagSet, c *Config, names ...string) {
	for _, s := range Settings {
		if len(names) > 0 && !contains(names, s.Flag) {
			continue
		}
		v := &value{s: s, c: c}
		if err := v.set(s.Default); err != nil {
			panic(fmt.Sprintf("wiring: default of --%s: %v", s.Flag, err))
		}
		fs.Var(v, s.Flag, s.Help())
	}
}

// Help is the setting's line in --help: its usage and how the environment
// sets it.
func (s Setting) Help() string {
	if s.Secret {
		return s.Usage + " (prefer env " + s.Env + ": flags show in ps)"
	}
	return s.Usage + " (env " + s.Env + ")"
}

// Parse parses args into fs, then gives each setting of fs not set on the
// command line the value of its environment variable, parsed as the flag
// parses it: a malformed value is an error naming the variable and what it
// expects, never a silent default. An empty variable counts as unset.
func Parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	return ApplyEnv(fs)
}

// ApplyEnv sets each setting of fs that the command line did not set from
// its environment variable (see Parse).
func ApplyEnv(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		v, ok := f.Value.(*value)
		if err != nil || !ok || set[f.Name] {
			return
		}
		raw, ok := os.LookupEnv(v.s.Env)
		if !ok || raw == "" {
			return
		}
		if v.Set(raw) != nil {
			err = fmt.Errorf("%s=%q: want %s (it sets --%s)", v.s.Env, raw, v.s.Expects(), f.Name)
		}
	})
	return err
}

// Expects says what a value of the setting must look like.
func (s Setting) Expects() string {
	if s.Expect != "" {
		return s.Expect
	}
	var c Config
	switch s.field(&c).(type) {
	case *bool:
		return "true or false (or 1 or 0)"
	case *int:
		return "a whole number, e.g. " + s.Default
	case *float64:
		return "a number, e.g. " + s.Default
	case *time.Duration:
		return "a duration with a unit, e.g. 30s or 2m"
	}
	return "a valid value"
}

// Kind names the setting's type as the README shows it.
func (s Setting) Kind() string {
	var c Config
	switch s.field(&c).(type) {
	case *bool:
		return "bool"
	case *int:
		return "int"
	case *float64:
		return "number"
	case *time.Duration:
		return "duration"
	}
	return "string"
}

// value is a setting bound to a Config: the flag.Value of its flag.
type value struct {
	s Setting
	c *Config
}

func (v *value) String() string {
	if v == nil || v.c == nil {
		return ""
	}
	if v.s.Secret {
		return "" // never printed
	}
	switch p := v.s.field(v.c).(type) {
	case *string:
		return *p
	case *bool:
		return strconv.FormatBool(*p)
	case *int:
		return strconv.Itoa(*p)
	case *float64:
		return strconv.FormatFloat(*p, 'g', -1, 64)
	case *time.Duration:
		return p.String()
	}
	return ""
}

// Set parses raw into the setting's field.
func (v *value) Set(raw string) error { return v.set(raw) }

func (v *value) set(raw string) error {
	switch p := v.s.field(v.c).(type) {
	case *string:
		*p = raw
	case *bool:
		if raw == "" {
			*p = false
			break
		}
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return errors.New("parse error")
		}
		*p = b
	case *int:
		if raw == "" {
			*p = 0
			break
		}
		n, err := strconv.ParseInt(raw, 0, strconv.IntSize)
		if err != nil {
			return errors.New("parse error")
		}
		*p = int(n)
	case *float64:
		if raw == "" {
			*p = 0
			break
		}
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return errors.New("parse error")
		}
		*p = f
	case *time.Duration:
		if raw == "" {
			*p = 0
			break
		}
		d, err := time.ParseDuration(raw)
		if err != nil {
			return errors.New("parse error")
		}
		*p = d
	default:
		return fmt.Errorf("wiring: --%s has no parser", v.s.Flag)
	}
	if v.s.check != nil {
		if err := v.s.check(v.c); err != nil {
			return fmt.Errorf("want %s", v.s.Expects())
		}
	}
	return nil
}

// IsBoolFlag lets a bool setting be given as --flag alone.
func (v *value) IsBoolFlag() bool {
	if v == nil || v.c == nil {
		return false
	}
	_, ok := v.s.field(v.c).(*bool)
	return ok
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// DBPath is the database in use: the SQLite file inside the data
// directory, or --database.
func (c Config) DBPath() string {
	if c.Database != "" {
		return c.Database
	}
	return filepath.Join(c.Data, "launchdir.db")
}

// DBName names the database in messages: DBPath without a password.
func (c Config) DBName() string {
	if c.Database != "" {
		return RedactURL(c.Database)
	}
	return c.DBPath()
}

// OpenDB opens the database on the clock now, applying migrations.
func (c Config) OpenDB(now func() time.Time, opts ...storage.Option) (*storage.DB, error) {
	if c.Database != "" && !storage.IsPostgresURL(c.Database) {
		return nil, fmt.Errorf("--database (env LAUNCHDIR_DATABASE_URL): want a postgres:// or postgresql:// URL, got %q", RedactURL(c.Database))
	}
	db, err := storage.Open(c.DBPath(), append([]storage.Option{storage.WithClock(now), storage.WithMaxConns(c.DBMaxConns)}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", c.DBName(), err)
	}
	return db, nil
}

// Site describes the directory this process serves.
func (c Config) Site() domain.Site {
	name := c.SiteName
	if name == "" {
		name = DefaultSiteName
	}
	return domain.Site{
		Key:          "main",
		Name:         name,
		Purpose:      "A public directory of software products with weekly launch calendars, community leaderboards, awards and badges. Founders submit a product by its URL and launch it free or through a paid order.",
		BaseURL:      c.PublicOrigin(),
		FreeWeeksMin: 6,
		FreeWeeksMax: 8,
	}
}

// PublicOrigin is --base-url, or the listen address as an http URL (an
// unspecified address, 0.0.0.0 or ::, as localhost). It is the default
// origin: the one printed, and the one of URLs built outside a request.
func (c Config) PublicOrigin() string {
	return c.Origins().Default
}

// Origins is where the service is reachable: --base-url alone, or without
// it the listen address and, on a loopback or unspecified listen address,
// every loopback name with the listener's port (domain.Origins).
func (c Config) Origins() domain.Origins {
	if c.BaseURL != "" {
		return domain.Origins{Default: strings.TrimRight(c.BaseURL, "/")}
	}
	host, port, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return domain.Origins{Default: "http://" + c.Addr}
	}
	loopback := false
	switch strings.ToLower(host) {
	case "", "0.0.0.0", "::":
		host, loopback = "localhost", true
	case "localhost":
		host, loopback = "localhost", true
	default:
		ip := net.ParseIP(host)
		loopback = ip != nil && ip.IsLoopback()
	}
	o := domain.Origins{Default: "http://" + net.JoinHostPort(host, port)}
	if loopback {
		o.LoopbackPort = port
	}
	return o
}

// SettingsMarkdown is the README's settings table, made from Settings.
func SettingsMarkdown() string {
	var b strings.Builder
	b.WriteString("| Flag | Environment | Default | Type | What it sets |\n|---|---|---|---|---|\n")
	for _, s := range Settings {
		def := "`" + s.Default + "`"
		switch {
		case s.Secret:
			def = "(secret: prefer the environment)"
		case s.Default == "":
			def = "(empty)"
		}
		fmt.Fprintf(&b, "| `--%s` | `%s` | %s | %s | %s |\n", s.Flag, s.Env, def, s.Kind(), strings.ReplaceAll(s.Usage, "|", "\\|"))
	}
	return b.String()
}
