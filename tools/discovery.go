package tools

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/idna"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
)

// Discovery documents (docs/discovery.md): what a client or a registry reads
// before it connects. Each is generated from the site settings and the
// operation catalog, at the origin of the request that asks for it.
const (
	// ServerCardPath is the MCP Server Card at <streamable-http-url>/server-card,
	// the location the server-card extension reserves.
	ServerCardPath = domain.MCPPath + "/server-card"
	// WellKnownServerCardPath is the same card at a site-wide well-known URL.
	WellKnownServerCardPath = "/.well-known/mcp/server-card.json"
	// WellKnownMCPCatalogPath is an AI Catalog listing the card.
	WellKnownMCPCatalogPath = "/.well-known/mcp/catalog.json"
	// AICatalogPath is the AI Catalog at the well-known URI the extension's
	// discovery document names for domain-level discovery.
	AICatalogPath = "/.well-known/ai-catalog.json"
	// RegistryServerPath is the MCP registry server.json of this instance.
	RegistryServerPath = "/.well-known/mcp/server.json"
	// LLMsTxtPath is the llmstxt.org summary; DocsMarkdownPath the markdown
	// twin of /docs.
	LLMsTxtPath      = "/llms.txt"
	DocsMarkdownPath = domain.DocsPath + ".md"

	// ServerCardSchema is the $schema of a Server Card (extension schema v1).
	ServerCardSchema = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
	// RegistryServerSchema is the $schema of a registry server.json: the
	// newest released version of the registry's server.json format.
	RegistryServerSchema = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
	// ServerCardMediaType is the media type of a Server Card.
	ServerCardMediaType = "application/mcp-server-card+json"
	// AICatalogMediaType is the media type of an AI Catalog.
	AICatalogMediaType = "application/ai-catalog+json"

	// serverShortName is the part of the server's name after the slash.
	serverShortName = "launchdir"
	// authMetaKey is the _meta key of the card's sign-in description.
	authMetaKey = "io.github.launchdir/authorization"
	// protectedResourcePath is the RFC 9728 metadata of /mcp (served by auth).
	protectedResourcePath = "/.well-known/oauth-protected-resource" + domain.MCPPath
	// authServerMetadataPath is the RFC 8414 metadata (served by auth).
	authServerMetadataPath = "/.well-known/oauth-authorization-server"
)

// ServerCard is an MCP Server Card (the server-card extension of SEP-2127).
type ServerCard struct {
	Schema      string         `json:"$schema"`
	Name        string         `json:"name"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description"`
	Version     string         `json:"version"`
	WebsiteURL  string         `json:"websiteUrl,omitempty"`
	Remotes     []Remote       `json:"remotes"`
	Meta        map[string]any `json:"_meta,omitempty"`
}

// Remote is a remote endpoint of a card or a registry server.json.
type Remote struct {
	Type                      string   `json:"type"`
	URL                       string   `json:"url"`
	Headers                   []Header `json:"headers,omitempty"`
	SupportedProtocolVersions []string `json:"supportedProtocolVersions,omitempty"`
}

// Header is a KeyValueInput describing an HTTP header a client may send.
type Header struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	IsRequired  bool   `json:"isRequired"`
	IsSecret    bool   `json:"isSecret"`
}

// CardAuth is what the card says about signing in (its _meta entry).
type CardAuth struct {
	Type                        string   `json:"type"`
	ProtectedResourceMetadata   string   `json:"protected_resource_metadata"`
	AuthorizationServer         string   `json:"authorization_server"`
	AuthorizationServerMetadata string   `json:"authorization_server_metadata"`
	Scopes                      []string `json:"scopes"`
	Required                    string   `json:"required"`
	APIKeys                     string   `json:"api_keys"`
}

// RegistryServer is the registry's server.json of a remote-only server.
type RegistryServer struct {
	Schema      string   `json:"$schema"`
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description"`
	Version     string   `json:"version"`
	WebsiteURL  string   `json:"websiteUrl,omitempty"`
	Remotes     []Remote `json:"remotes"`
}

// AICatalog is an AI Catalog with one entry per MCP server of the site.
type AICatalog struct {
	SpecVersion string           `json:"specVersion"`
	Entries     []AICatalogEntry `json:"entries"`
}

// AICatalogEntry points at a Server Card.
type AICatalogEntry struct {
	Identifier string `json:"identifier"`
	Type       string `json:"type"`
	URL        string `json:"url"`
}

// ServerName is the server's name in reverse-DNS form: the host of the
// site's default origin reversed ("launchdir.example" gives
// "example.launchdir/launchdir"); a loopback or IP host gives
// "localhost/launchdir". It does not depend on the origin a request used.
func ServerName(site domain.Site) string {
	return reverseHost(site) + "/" + serverShortName
}

func siteHost(site domain.Site) string {
	u, err := url.Parse(site.BaseURL)
	if err != nil || u.Hostname() == "" {
		return "localhost"
	}
	h := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if net.ParseIP(h) != nil {
		return "localhost"
	}
	// An internationalized name in its ASCII (punycode) form, which the
	// name's pattern allows.
	if a, err := idna.Lookup.ToASCII(h); err == nil && a != "" {
		return a
	}
	return "localhost"
}

func reverseHost(site domain.Site) string {
	labels := strings.Split(siteHost(site), ".")
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return strings.Join(labels, ".")
}

// serverDescription is the card's description: at most 100 characters.
func serverDescription(site domain.Site) string {
	d := site.Name + " launch directory: search, compare and submit software products; weekly launches."
	if len(d) > 100 {
		d = "Software launch directory: search, compare and submit products; weekly launches."
	}
	return d
}

// serverTitle is the site's name clipped to the card's 100 characters.
func serverTitle(site domain.Site) string {
	if r := []rune(site.Name); len(r) > 100 {
		return string(r[:100])
	}
	return site.Name
}

// NewServerCard is the Server Card of site (BaseURL: the origin to name).
// name is the stable ServerName.
func NewServerCard(site domain.Site, name string) ServerCard {
	return ServerCard{
		Schema: ServerCardSchema, Name: name, Title: serverTitle(site),
		Description: serverDescription(site), Version: Version, WebsiteURL: site.URL(domain.DocsPath),
		Remotes: []Remote{{
			Type: "streamable-http", URL: site.URL(domain.MCPPath), Headers: []Header{authHeader()},
			SupportedProtocolVersions: append([]string(nil), MCPProtocolVersions...),
		}},
		Meta: map[string]any{authMetaKey: CardAuth{
			Type:                        "oauth2.1",
			ProtectedResourceMetadata:   site.URL(protectedResourcePath),
			AuthorizationServer:         site.URL(""),
			AuthorizationServerMetadata: site.URL(authServerMetadataPath),
			Scopes:                      append([]string(nil), domain.AllScopes...),
			Required: "Only for the tools of " + signInGroups(Catalog()) + "; reading the directory needs no sign-in. " +
				"A call without a valid token to such a tool gets 401 with a WWW-Authenticate header naming the protected resource metadata.",
			APIKeys: "An API key made at " + site.URL(domain.AccountPath) + " is accepted as the bearer token too.",
		}},
	}
}

func authHeader() Header {
	return Header{Name: "Authorization", IsRequired: false, IsSecret: true,
		Description: "Bearer token: an OAuth 2.1 access token of this service or an API key; only the tools of " + signInGroups(Catalog()) + " need one."}
}

// NewRegistryServer is the registry server.json of site: one
// streamable-http remote, no package.
func NewRegistryServer(site domain.Site, name string) RegistryServer {
	return RegistryServer{
		Schema: RegistryServerSchema, Name: name, Title: serverTitle(site),
		Description: serverDescription(site), Version: Version, WebsiteURL: site.URL(domain.DocsPath),
		Remotes: []Remote{{Type: "streamable-http", URL: site.URL(domain.MCPPath), Headers: []Header{authHeader()}}},
	}
}

// NewAICatalog is the AI Catalog of site, pointing at its Server Card.
func NewAICatalog(site domain.Site, base domain.Site) AICatalog {
	return AICatalog{SpecVersion: "1.0", Entries: []AICatalogEntry{{
		Identifier: "urn:air:" + siteHost(base) + ":mcp:" + serverShortName,
		Type:       ServerCardMediaType, URL: site.URL(ServerCardPath),
	}}}
}

// Discovery serves the discovery documents of a site.
type Discovery struct {
	site  domain.Site
	ops   []Operation
	limit *ratelimit.Limiter
	// current is the site a request sees with the name in effect now
	// (domain.Service.SiteNow); nil: site.In.
	current func(context.Context) domain.Site
}

// NewDiscovery serves the documents of site over the catalog ops
// (normally Catalog()).
func NewDiscovery(site domain.Site, ops []Operation) *Discovery {
	return &Discovery{site: site, ops: ops}
}

// SiteNow makes the documents name the site as f answers it at each request
// (serve passes domain.Service.SiteNow, so a name the site team sets on
// /admin/settings is in them at once) and returns d.
func (d *Discovery) SiteNow(f func(context.Context) domain.Site) *Discovery {
	d.current = f
	return d
}

// RateLimit counts every request for a discovery document against l (a
// per-network budget; serve passes the web pages' one) and returns d.
func (d *Discovery) RateLimit(l *ratelimit.Limiter) *Discovery {
	d.limit = l
	return d
}

// Register adds the discovery routes to mux. None of them overlaps a
// route of auth, web or the API (/mcp is an exact pattern there).
func (d *Discovery) Register(mux *http.ServeMux) {
	card := func(s domain.Site) any { return NewServerCard(s, ServerName(d.site)) }
	catalog := func(s domain.Site) any { return NewAICatalog(s, d.site) }
	d.json(mux, ServerCardPath, ServerCardMediaType, card)
	d.json(mux, WellKnownServerCardPath, ServerCardMediaType, card)
	d.json(mux, WellKnownMCPCatalogPath, AICatalogMediaType, catalog)
	d.json(mux, AICatalogPath, AICatalogMediaType, catalog)
	d.json(mux, RegistryServerPath, "application/json", func(s domain.Site) any { return NewRegistryServer(s, ServerName(d.site)) })
	d.text(mux, LLMsTxtPath, "text/plain; charset=utf-8", func(s domain.Site) string { return LLMsTxt(s, d.ops) })
	d.text(mux, DocsMarkdownPath, "text/markdown; charset=utf-8", func(s domain.Site) string { return DocsMarkdown(s, d.ops) })
}

func (d *Discovery) siteOf(ctx context.Context) domain.Site {
	if d.current != nil {
		return d.current(ctx)
	}
	return d.site.In(ctx)
}

func (d *Discovery) json(mux *http.ServeMux, path, mediaType string, doc func(domain.Site) any) {
	d.text(mux, path, mediaType, func(s domain.Site) string {
		b, err := json.MarshalIndent(doc(s), "", "  ")
		if err != nil {
			panic(err) // plain structs: cannot fail
		}
		return string(b) + "\n"
	})
}

// text serves a generated public document with the CORS and caching
// headers of the server-card extension: any origin may GET it, it is
// cacheable for an hour, and an ETag lets a client revalidate (304). The
// ETag is the body's digest and there is no Last-Modified: the body changes
// with the site's name setting, not with the process's start.
func (d *Discovery) text(mux *http.ServeMux, path, mediaType string, doc func(domain.Site) string) {
	mux.Handle("GET "+path, d.limited(func(w http.ResponseWriter, r *http.Request) {
		body := []byte(doc(d.siteOf(r.Context())))
		sum := sha256.Sum256(body)
		h := w.Header()
		publicHeaders(h)
		h.Set("Content-Type", mediaType)
		h.Set("Cache-Control", "public, max-age=3600")
		h.Set("ETag", `"`+hex.EncodeToString(sum[:12])+`"`)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	}))
	mux.Handle("OPTIONS "+path, d.limited(func(w http.ResponseWriter, r *http.Request) {
		publicHeaders(w.Header())
		w.Header().Set("Access-Control-Max-Age", "86400")
		w.WriteHeader(http.StatusNoContent)
	}))
}

func (d *Discovery) limited(h http.HandlerFunc) http.Handler {
	if d.limit == nil {
		return h
	}
	return d.limit.Handler(h)
}

func publicHeaders(h http.Header) {
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "GET")
	h.Set("Access-Control-Allow-Headers", "Content-Type, If-None-Match")
	h.Set("Access-Control-Expose-Headers", "ETag")
}

// signInGroups names the groups (OpenAPI tags) of the operations that need
// a scope, in catalog order: "Account, Drafts, ... and Orders".
func signInGroups(ops []Operation) string {
	var tags []string
	for _, op := range ops {
		if op.Scope != "" && !slices.Contains(tags, op.Tag) {
			tags = append(tags, op.Tag)
		}
	}
	if len(tags) < 2 {
		return strings.Join(tags, "")
	}
	return strings.Join(tags[:len(tags)-1], ", ") + " and " + tags[len(tags)-1]
}
