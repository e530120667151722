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
		{domain.MCPPath, a.cfg.SiteName + " MCP server"},
		{domain.APIPrefix, a.cfg.SiteName + " REST API"},
	} {
		mux.HandleFunc("GET "+wellKnownResource+r.path, func(w http.ResponseWriter, req *http.Request) {
			origin := a.origin(req.Context())
			body, _ := json.Marshal(resourceMetadata{
				Resource:               origin + r.path,
				AuthorizationServers:   []string{origin},
				ScopesSupported:        domain.AllScopes,
				BearerMethodsSupported: []string{"header"},
				ResourceName:           r.name,
				ResourceDocumentation:  origin + domain.DocsPath,
			})
			writePublicJSON(w, body)
		})
		mux.HandleFunc("OPTIONS "+wellKnownResource+r.path, preflightGET)
	}
}

// writePublicJSON writes a public JSON document that browser-based clients
// may read from any origin.
func writePublicJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Cache-Control", "public, max-age=300")
	w.Write(body)
}
