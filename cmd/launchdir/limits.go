package main

import (
	"flag"
	"fmt"
	"net/netip"
	"time"

	"github.com/launchdir/launchdir/auth/ratelimit"
)

// limitConfig is the per-network budgets of serve (docs/ratelimits.md); the
// per-client operation limit is config.rateLimit.
type limitConfig struct {
	failures, oauth, mcp, pages int
	trustedProxies              string
}

// The windows of the per-network budgets; the flags set the quotas.
const (
	failuresWindow = 15 * time.Minute
	oauthWindow    = time.Minute
	mcpWindow      = time.Minute
	pagesWindow    = time.Minute
)

func limitFlags(fs *flag.FlagSet, l *limitConfig) {
	fs.IntVar(&l.failures, "rate-failures", 20, "failed credentials (bad bearer tokens and API keys, refused /token and /revoke requests, invalid sign-in links) per network per 15 minutes; then credentials from that network get 429 until the window ends, 0 = off (env LAUNCHDIR_RATE_FAILURES)")
	fs.IntVar(&l.oauth, "rate-oauth", 60, "requests per network per minute to /authorize, /token, /register and /revoke, 0 = off (env LAUNCHDIR_RATE_OAUTH)")
	fs.IntVar(&l.mcp, "rate-mcp", 300, "MCP requests other than tools/call (initialize, tools/list, ping, notifications) per network per minute, 0 = off (env LAUNCHDIR_RATE_MCP)")
	fs.IntVar(&l.pages, "rate-pages", 600, "web page requests per network per minute, 0 = off (env LAUNCHDIR_RATE_PAGES)")
	fs.StringVar(&l.trustedProxies, "trusted-proxies", env("LAUNCHDIR_TRUSTED_PROXIES", ""), "comma-separated CIDRs of reverse proxies whose X-Forwarded-For names the client; empty: the client is the TCP peer (env LAUNCHDIR_TRUSTED_PROXIES)")
}

// limits are the per-network limiters built from limitConfig; a nil
// limiter is off.
type limits struct {
	failures, oauth, mcp, pages *ratelimit.Limiter
	trusted                     []netip.Prefix
}

// newLimits builds the limiters on the clock now.
func newLimits(l *limitConfig, now func() time.Time) (*limits, error) {
	trusted, err := ratelimit.ParsePrefixes(l.trustedProxies)
	if err != nil {
		return nil, fmt.Errorf("--trusted-proxies: %w", err)
	}
	return &limits{
		failures: ratelimit.New(ratelimit.Policy{Name: "failures", Quota: l.failures, Window: failuresWindow}, now),
		oauth:    ratelimit.New(ratelimit.Policy{Name: "oauth", Quota: l.oauth, Window: oauthWindow}, now),
		mcp:      ratelimit.New(ratelimit.Policy{Name: "mcp", Quota: l.mcp, Window: mcpWindow}, now),
		pages:    ratelimit.New(ratelimit.Policy{Name: "pages", Quota: l.pages, Window: pagesWindow}, now),
		trusted:  trusted,
	}, nil
}
