package auth

import (
	"encoding/json"
	"net/http"

	"github.com/launchdir/launchdir/domain"
)

// resourceMetadata is the RFC 9728 protected resource metadata document.
type resourceMetadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers"`
	ScopesSupported        []string `json:"scopes_supported"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	ResourceName           string   `json:"resource_name,omitempty"`
	ResourceDocumentation  string   `json:"resource_documentation,omitempty"`
}

// registerResource serves the protected resource metadata of /mcp and /v1
// at their path-inserted well-known URLs; resource is byte-equal to the URL
// clients use, at the request's origin.
func (a *Auth) registerResource(mux *http.ServeMux) {
	for _, r := range []struct{ path, name string }{
		{domain.MCPPath, " MCP server"},
		{domain.APIPrefix, " REST API"},
	} {
		mux.HandleFunc("GET "+wellKnownResource+r.path, func(w http.ResponseWriter, req *http.Request) {
			origin := a.origin(req.Context())
			resource := origin + r.path
			if r.path == domain.MCPPath && req.URL.RawQuery != "" && len(req.URL.RawQuery) <= maxResourceQuery {
				// RFC 9728 3.1: the metadata of https://host/mcp?toolsets=x is at
				// /.well-known/oauth-protected-resource/mcp?toolsets=x, and its
				// resource is byte-equal to the URL the client uses (go-sdk
				// checks it). The selection is not part of the token's
				// audience: parseResource reads it as /mcp (docs/toolsets.md).
				resource += "?" + req.URL.RawQuery
			}
			body, _ := json.Marshal(resourceMetadata{
				Resource:               resource,
				AuthorizationServers:   []string{origin},
				ScopesSupported:        domain.AllScopes,
				BearerMethodsSupported: []string{"header"},
				ResourceName:           a.siteName(req.Context()) + r.name,
				ResourceDocumentation:  origin + domain.DocsPath,
			})
			writePublicJSON(w, body)
		})
		mux.HandleFunc("OPTIONS "+wellKnownResource+r.path, preflightGET)
	}
}

// maxResourceQuery is the longest query of /mcp (a toolset selection) the
// metadata document echoes in its resource.
const maxResourceQuery = 200

// writePublicJSON writes a public JSON document that browser-based clients
// may read from any origin.
func writePublicJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(body)
}
