package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/storage"
)

// authConfig is the sign-in configuration of serve: an optional OpenID
// Connect provider (email-link sign-in is always on) and optional SMTP (mail
// always goes to the outbox table too).
type authConfig struct {
	oidcIssuer, oidcClientID, oidcClientSecret, oidcName string
	smtpHost, smtpUser, smtpPass, smtpFrom               string
	smtpPort                                             int
	// oauthLimit and failures are serve's per-network budgets (limits.go).
	oauthLimit, failures *ratelimit.Limiter
	// mailLog receives, without SMTP, each message as plain lines (serve:
	// its stderr, next to the log), so a sign-in link can be copied.
	mailLog io.Writer
}

func authFlags(fs *flag.FlagSet, a *authConfig) {
	fs.StringVar(&a.oidcIssuer, "oidc-issuer", env("LAUNCHDIR_OIDC_ISSUER", ""), "OpenID Connect provider issuer URL for sign-in (env LAUNCHDIR_OIDC_ISSUER; empty: email-link sign-in only)")
	fs.StringVar(&a.oidcClientID, "oidc-client-id", env("LAUNCHDIR_OIDC_CLIENT_ID", ""), "OpenID Connect client id (env LAUNCHDIR_OIDC_CLIENT_ID)")
	fs.StringVar(&a.oidcClientSecret, "oidc-client-secret", env("LAUNCHDIR_OIDC_CLIENT_SECRET", ""), "OpenID Connect client secret (env LAUNCHDIR_OIDC_CLIENT_SECRET)")
	fs.StringVar(&a.oidcName, "oidc-name", env("LAUNCHDIR_OIDC_NAME", "your identity provider"), "provider name on the sign-in button (env LAUNCHDIR_OIDC_NAME)")
	fs.StringVar(&a.smtpHost, "smtp-host", env("LAUNCHDIR_SMTP_HOST", ""), "SMTP server for mail (env LAUNCHDIR_SMTP_HOST; empty: mail is written to the outbox table and the log)")
	fs.IntVar(&a.smtpPort, "smtp-port", 587, "SMTP port (env LAUNCHDIR_SMTP_PORT)")
	fs.StringVar(&a.smtpUser, "smtp-user", env("LAUNCHDIR_SMTP_USER", ""), "SMTP user (env LAUNCHDIR_SMTP_USER)")
	fs.StringVar(&a.smtpPass, "smtp-password", env("LAUNCHDIR_SMTP_PASSWORD", ""), "SMTP password (env LAUNCHDIR_SMTP_PASSWORD)")
	fs.StringVar(&a.smtpFrom, "smtp-from", env("LAUNCHDIR_SMTP_FROM", ""), "sender address (env LAUNCHDIR_SMTP_FROM)")
}

// newAuth builds the auth service over db for the site's origin; invites,
// when not nil, serves the co-founder invite page.
func newAuth(c *config, a *authConfig, db *storage.DB, logger *slog.Logger, invites auth.InvitePages) (*auth.Auth, error) {
	cfg := auth.Config{Origin: c.publicOrigin(), SiteName: c.site().Name, Store: storage.NewAuthStore(db), Logger: logger, Invites: invites, Account: db, Now: db.Now}
	if sp, ok := invites.(*servicePages); ok {
		// The mail names the site as the site team named it last.
		cfg.SiteNameNow = sp.siteName
		// /account lists the person's orders through the Service.
		cfg.Orders = sp
	}
	if a != nil {
		cfg.OAuthLimit, cfg.Failures = a.oauthLimit, a.failures
		cfg.MailLog = a.mailLog
	}
	if a != nil && a.oidcIssuer != "" {
		if a.oidcClientID == "" {
			return nil, errors.New("--oidc-issuer needs --oidc-client-id (and usually --oidc-client-secret)")
		}
		cfg.OIDC = &auth.OIDCProvider{Issuer: a.oidcIssuer, ClientID: a.oidcClientID, ClientSecret: a.oidcClientSecret, Name: a.oidcName}
	}
	if a != nil && a.smtpHost != "" {
		if a.smtpFrom == "" {
			return nil, errors.New("--smtp-host needs --smtp-from")
		}
		m, err := auth.NewSMTPMailer(auth.SMTPConfig{Host: a.smtpHost, Port: a.smtpPort, Username: a.smtpUser, Password: a.smtpPass, From: a.smtpFrom})
		if err != nil {
			return nil, fmt.Errorf("smtp: %w", err)
		}
		cfg.Mailer = m
	}
	return auth.New(cfg)
}

// apikeyCmd is "launchdir apikey create --email ADDRESS [--name NAME]": it
// creates an API key for the account with that email (creating the account
// when none exists) and prints the key once.
func apikeyCmd(ctx context.Context, now func() time.Time, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New(`apikey: say what to do: "launchdir apikey create --email ADDRESS [--name NAME]"`)
	}
	c := config{now: now, logger: commandLogger(stderr)}
	var email, name string
	fs := flag.NewFlagSet("apikey create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataFlag(fs, &c)
	fs.StringVar(&email, "email", "", "email address of the account (created when it does not exist)")
	fs.StringVar(&name, "name", "operator", "name of the key, shown on the account page")
	fs.StringVar(&c.baseURL, "base-url", env("LAUNCHDIR_BASE_URL", ""), "public origin (env LAUNCHDIR_BASE_URL)")
	fs.StringVar(&c.addr, "addr", env("LAUNCHDIR_ADDR", "127.0.0.1:8080"), "listen address used to derive the origin (env LAUNCHDIR_ADDR)")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if email == "" {
		return errors.New("apikey create: --email is required")
	}
	db, err := c.open()
	if err != nil {
		return err
	}
	defer db.Close()
	a, err := newAuth(&c, nil, db, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		return err
	}
	key, k, err := a.CreateAPIKey(ctx, email, name)
	if err != nil {
		return fmt.Errorf("apikey create: %w", err)
	}
	fmt.Fprintf(stderr, "created API key %q (id %d) for %s; it is shown only now:\n", k.Name, k.ID, email)
	fmt.Fprintln(stdout, key)
	return nil
}
