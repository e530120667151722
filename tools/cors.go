package tools

import (
	"net/http"
	"strings"
)

// CORS for browser-based MCP clients and web clients of the REST API. Any
// origin is allowed: authentication is by bearer token, never by cookie, so
// no credentials are allowed cross-origin.
var (
	corsAllowMethods  = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
	corsAllowHeaders  = "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, Idempotency-Key, X-MCP-Toolsets, X-MCP-Readonly"
	corsExposeHeaders = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Retry-After, RateLimit, RateLimit-Policy, Idempotent-Replayed"
)

// cors answers preflight requests and adds the CORS response headers.
// A preflight is answered before the MCP handler, so its DNS-rebinding and
// content-type checks apply only to the real request.
func cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if r.Header.Get("Origin") != "" {
			h.Set("Access-Control-Allow-Origin", "*")
			h.Set("Access-Control-Expose-Headers", corsExposeHeaders)
			h.Add("Vary", "Origin")
		}
		if r.Method == http.MethodOptions {
			if r.Header.Get("Access-Control-Request-Method") != "" {
				h.Set("Access-Control-Allow-Methods", corsAllowMethods)
				// Echo the requested headers that we allow (Mcp-Param-* are per-tool).
				h.Set("Access-Control-Allow-Headers", allowedRequestHeaders(r.Header.Get("Access-Control-Request-Headers")))
				h.Set("Access-Control-Max-Age", "86400")
			}
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// allowedRequestHeaders is the fixed allow list plus any requested
// Mcp-Param-* headers (SEP-2243 parameter headers).
func allowedRequestHeaders(requested string) string {
	out := corsAllowHeaders
	for _, h := range strings.Split(requested, ",") {
		h = strings.TrimSpace(h)
		if len(h) > len("mcp-param-") && strings.EqualFold(h[:len("mcp-param-")], "mcp-param-") {
			out += ", " + h
		}
	}
	return out
}
