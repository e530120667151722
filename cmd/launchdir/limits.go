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

func limitFlags(fs *flag.FlagSet, l *limitConfig) {
	fs.IntVar(&l.failures, "rate-failures", ratelimit.DefaultFailures.Quota, "failed attempts of one credential (a bad bearer token or API key, a refused /token or /revoke client credential with its code or token, an invalid sign-in link) per network per 15 minutes; then that credential from that network gets 429 until the window ends, other credentials are still checked, 0 = off (env LAUNCHDIR_RATE_FAILURES)")
	fs.IntVar(&l.oauth, "rate-oauth", ratelimit.DefaultOAuth.Quota, "requests per network per minute to /authorize, /token, /register and /revoke, 0 = off (env LAUNCHDIR_RATE_OAUTH)")
	fs.IntVar(&l.mcp, "rate-mcp", ratelimit.DefaultMCP.Quota, "MCP requests other than tools/call (initialize, tools/list, ping, notifications) per network per minute, 0 = off (env LAUNCHDIR_RATE_MCP)")
	fs.IntVar(&l.pages, "rate-pages", ratelimit.DefaultPages.Quota, "web page requests per network per minute, 0 = off (env LAUNCHDIR_RATE_PAGES)")
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
		failures: ratelimit.New(withQuota(ratelimit.DefaultFailures, l.failures), now),
		oauth:    ratelimit.New(withQuota(ratelimit.DefaultOAuth, l.oauth), now),
		mcp:      ratelimit.New(withQuota(ratelimit.DefaultMCP, l.mcp), now),
		pages:    ratelimit.New(withQuota(ratelimit.DefaultPages, l.pages), now),
		trusted:  trusted,
	}, nil
}

// withQuota is p with the quota a flag set.
func withQuota(p ratelimit.Policy, quota int) ratelimit.Policy {
	p.Quota = quota
	return p
}
