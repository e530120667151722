// Package app is the one wiring path of launchdir: internal/wiring builds
// the service's core (storage, the domain Service, the console, auth and
// the job runner) from a typed Config and the outside world's adapters,
// and app composes the REST/MCP router and the web pages on top. serve and
// the admin subcommands call Open; the test harnesses of tools and web,
// which cannot import app (it imports them), call wiring.Open. Tests
// replace only the outside world (Adapters).
package app

import (
	"context"
	"net/http"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/internal/wiring"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/tools"
	"github.com/launchdir/launchdir/web"
)

// Adapters are the outside world the service talks to (wiring.Adapters).
type Adapters = wiring.Adapters

// App is the service built by Open: the core and its HTTP front ends.
type App struct {
	*wiring.Core
	// Handler serves every route as serve serves them: the origins a
	// request may name and the trusted proxies applied.
	Handler http.Handler
}

// Open validates cfg, opens the database (applying migrations; with
// cfg.Demo loading the demo data into an empty one) and builds the service
// over it (wiring.Open), then the REST/MCP router and the pages. It runs no
// job: Start does. A configuration or wiring mistake is an error here, at
// start.
func Open(ctx context.Context, cfg Config, ad Adapters) (*App, error) {
	core, err := wiring.Open(ctx, cfg, ad)
	if err != nil {
		return nil, err
	}
	a := &App{Core: core}
	a.Handler = a.routes(ad)
	return a, nil
}

// routes builds the REST/MCP router, the discovery documents, the Stripe
// webhook and the pages over the core.
func (a *App) routes(ad Adapters) http.Handler {
	c, svc, lim, logger := &a.Config, a.Service, a.Limits, a.Logger()
	api := tools.New(svc, tools.Options{RateLimit: c.RateLimit, RateBurst: c.RateBurst, Logger: logger, Auth: a.Auth,
		Idem: storage.NewIdemStore(a.DB), Failures: lim.Failures, Session: lim.MCP, Now: a.DB.Now,
		RequestTimeout: c.RequestTimeout}).Handler()
	mux := http.NewServeMux()
	a.Auth.Register(mux)
	mux.Handle("/v1/", api)
	mux.Handle("/v1", api)
	mux.Handle("/mcp", api)
	// The discovery documents: Server Card, AI Catalog, registry
	// server.json, /llms.txt and /docs.md (docs/discovery.md), on the web
	// pages' per-network budget.
	tools.NewDiscovery(c.Site(), tools.Catalog()).RateLimit(lim.Pages).SiteNow(svc.SiteNow).Register(mux)
	if a.Stripe != nil {
		mux.Handle("POST /webhooks/stripe", a.Stripe.Webhook(svc.ConfirmPayment, logger))
	}
	webOpts := []web.Option{web.WithLogger(logger), web.WithConsole(a.Console), web.WithAdmin(a.Auth.SignedInEmail),
		web.WithAccount(a.Auth.SignedInUser), web.WithViews(a.Store), web.WithToolsets(tools.Toolsets(tools.Catalog())),
		web.WithRateLimit(lim.Pages)}
	if a.Team == 0 && c.Origins().LoopbackPort != "" && ad.AdminHint != "" {
		// A local instance without admins: /admin says how to become one.
		webOpts = append(webOpts, web.WithAdminHint(ad.AdminHint))
	}
	mux.Handle("/", web.New(svc, webOpts...))
	return auth.WithOrigins(c.Origins(), ratelimit.TrustProxies(lim.Trusted, mux))
}
