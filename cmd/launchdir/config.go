package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
)

// config is what every subcommand shares: where the data lives and which site it serves.
type config struct {
	addr string
	data string
	// logger is what the stores log with (serve's; nil: slog's default).
	logger *slog.Logger
	// database is --database: a PostgreSQL URL used instead of the SQLite
	// file under data (docs/scaling.md).
	database  string
	baseURL   string
	demo      bool
	rateLimit float64
	rateBurst int
	// voteMinAge is --vote-min-account-age (docs/votes.md).
	voteMinAge time.Duration
	// now is the clock main read once; the database and everything built
	// on it take it from there.
	now func() time.Time
}

// env returns the environment variable name's value, or def.
func env(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

// envVarRE finds the environment variable a flag's help names: "(env NAME".
var envVarRE = regexp.MustCompile(`\(env (LAUNCHDIR_[A-Z0-9_]+)`)

// parseFlags parses args into fs, then gives each flag not set on the
// command line the value of the environment variable its help names
// ("(env LAUNCHDIR_X"), parsed as the flag parses it: a malformed value is
// an error naming the variable and what it expects, never a silent default.
// An empty variable counts as unset.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		m := envVarRE.FindStringSubmatch(f.Usage)
		if err != nil || set[f.Name] || m == nil {
			return
		}
		v, ok := os.LookupEnv(m[1])
		if !ok || v == "" {
			return
		}
		if fs.Set(f.Name, v) != nil {
			err = fmt.Errorf("%s=%q: want %s (it sets --%s)", m[1], v, expects(f), f.Name)
		}
	})
	return err
}

// expects says what a flag's value must look like.
func expects(f *flag.Flag) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return "a valid value"
	}
	switch g.Get().(type) {
	case bool:
		return "true or false (or 1 or 0)"
	case int, int64, uint, uint64:
		return "a whole number, e.g. " + f.DefValue
	case float64:
		return "a number, e.g. " + f.DefValue
	case time.Duration:
		return "a duration with a unit, e.g. 30s or 2m"
	}
	return "a valid value"
}

// dataFlag registers --data and --database, shared by every subcommand.
func dataFlag(fs *flag.FlagSet, c *config) {
	fs.StringVar(&c.data, "data", env("LAUNCHDIR_DATA", "./data"), "data directory holding the SQLite file (env LAUNCHDIR_DATA)")
	fs.StringVar(&c.database, "database", env("LAUNCHDIR_DATABASE_URL", ""),
		"a PostgreSQL database to use instead of the SQLite file under --data: postgres://user:password@host/name (env LAUNCHDIR_DATABASE_URL)")
}

// dbPath is the database in use: the SQLite file inside the data
// directory, or --database.
func (c *config) dbPath() string {
	if c.database != "" {
		return c.database
	}
	return filepath.Join(c.data, "launchdir.db")
}

// dbName names the database in messages: dbPath without a password.
func (c *config) dbName() string {
	if c.database != "" {
		return redactURL(c.database)
	}
	return c.dbPath()
}

// open opens the database, applying migrations.
func (c *config) open() (*storage.DB, error) {
	if c.database != "" && !storage.IsPostgresURL(c.database) {
		return nil, fmt.Errorf("--database (env LAUNCHDIR_DATABASE_URL): want a postgres:// or postgresql:// URL, got %q", redactURL(c.database))
	}
	db, err := storage.Open(c.dbPath(), storage.WithClock(c.now), storage.WithLogger(c.logger))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", c.dbName(), err)
	}
	return db, nil
}

// site describes the directory this process serves.
func (c *config) site() domain.Site {
	return domain.Site{
		Key:          "main",
		Name:         env("LAUNCHDIR_SITE_NAME", "Launchdir"),
		Purpose:      "A public directory of software products with weekly launch calendars, community leaderboards, awards and badges. Founders submit a product by its URL and launch it free or through a paid order.",
		BaseURL:      c.publicOrigin(),
		FreeWeeksMin: 6,
		FreeWeeksMax: 8,
	}
}

// publicOrigin is --base-url, or the listen address as an http URL (an
// unspecified address, 0.0.0.0 or ::, as localhost). It is the default
// origin: the one printed, and the one of URLs built outside a request.
func (c *config) publicOrigin() string {
	return c.origins().Default
}

// origins is where the service is reachable: --base-url alone, or without
// it the listen address and, on a loopback or unspecified listen address,
// every loopback name with the listener's port (domain.Origins).
func (c *config) origins() domain.Origins {
	if c.baseURL != "" {
		return domain.Origins{Default: strings.TrimRight(c.baseURL, "/")}
	}
	host, port, err := net.SplitHostPort(c.addr)
	if err != nil {
		return domain.Origins{Default: "http://" + c.addr}
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
