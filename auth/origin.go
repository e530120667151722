package auth

import (
	"context"
	"net/http"
	"net/url"

	"github.com/launchdir/launchdir/domain"
)

// WithOrigins wraps the whole service (auth, /v1, /mcp, the pages): each
// request's context carries the origin it is answered from
// (domain.WithOrigin), chosen by o from the request's Host. With one fixed
// origin (--base-url) that is always it; on a loopback listener without
// one, localhost, 127.0.0.1 and [::1] with the listener's port each answer
// as themselves, so the metadata, the issuer, token audiences and links
// match the address the client used. Any other Host gets the default.
func WithOrigins(o domain.Origins, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(domain.WithOrigin(r.Context(), o.ForHost(r.Host))))
	})
}

// origin is the origin of the request of ctx, or the configured one.
func (a *Auth) origin(ctx context.Context) string {
	if o, ok := domain.OriginFrom(ctx); ok {
		return o
	}
	return a.cfg.Origin
}

// IssuerFor is the issuer as the request of ctx sees it: its origin.
func (a *Auth) IssuerFor(ctx context.Context) string { return a.origin(ctx) }

// MCPResourceFor is the MCP server's resource identifier at the origin of
// the request of ctx; tokens sent to /mcp are checked against it.
func (a *Auth) MCPResourceFor(ctx context.Context) string { return a.origin(ctx) + domain.MCPPath }

// APIResourceFor is the REST API's resource identifier at the origin of the
// request of ctx.
func (a *Auth) APIResourceFor(ctx context.Context) string { return a.origin(ctx) + domain.APIPrefix }

// issuerOf is the issuer that goes with a resource: its origin (the
// resource was resolved at the origin the client used).
func issuerOf(resource string) string {
	u, err := url.Parse(resource)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
