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
// clients use.
func (a *Auth) registerResource(mux *http.ServeMux) {
	for _, r := range []struct{ resource, name string }{
		{a.MCPResource(), a.cfg.SiteName + " MCP server"},
		{a.APIResource(), a.cfg.SiteName + " REST API"},
	} {
		doc := resourceMetadata{
			Resource:               r.resource,
			AuthorizationServers:   []string{a.Issuer()},
			ScopesSupported:        domain.AllScopes,
			BearerMethodsSupported: []string{"header"},
			ResourceName:           r.name,
			ResourceDocumentation:  a.cfg.Origin + domain.DocsPath,
		}
		body, _ := json.Marshal(doc)
		path := a.ResourceMetadataURL(r.resource)[len(a.cfg.Origin):]
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, _ *http.Request) {
			writePublicJSON(w, body)
		})
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
