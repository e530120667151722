package tools

import (
	"context"
	"net/url"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/web/apps"
)

// MCP Apps (docs/apps.md): the io.modelcontextprotocol/ui
// extension. The server advertises it, lists a ui:// resource per card of
// web/apps whose tools are in the toolset selection, and links each tool to
// its card with _meta.ui.resourceUri. A host without the extension ignores
// both: the tool results are the same as without it.

// appToolMeta is the _meta of a tool that has a card, nil otherwise: the
// spec's _meta.ui.resourceUri and the deprecated flat "ui/resourceUri",
// which the official server helper (ext-apps registerAppTool) still sends
// for older hosts.
func appToolMeta(tool string) mcp.Meta {
	c, ok := apps.ForTool(tool)
	if !ok {
		return nil
	}
	return mcp.Meta{"ui": map[string]any{"resourceUri": c.URI()}, apps.LegacyResourceURIKey: c.URI()}
}

// addApps advertises the extension in caps; call it before mcp.NewServer.
func addAppsCapability(caps *mcp.ServerCapabilities) {
	caps.AddExtension(apps.Extension, map[string]any{"mimeTypes": []string{apps.MIMEType}})
}

// addAppResources registers the cards of the tools sel serves.
func (s *Server) addAppResources(srv *mcp.Server, sel selection) {
	for _, c := range apps.Cards {
		if !s.selectsAnyOf(sel, c.Tools) {
			continue
		}
		page := cardHTML(c)
		srv.AddResource(&mcp.Resource{
			URI: c.URI(), Name: c.Name, Title: c.Title, Description: c.Description,
			MIMEType: apps.MIMEType, Size: int64(len(page)),
		}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
				URI: c.URI(), MIMEType: apps.MIMEType, Text: page, Meta: s.appResourceMeta(c),
			}}}, nil
		})
	}
}

// cardPages holds each card's document (apps.Card.HTML: the site's
// stylesheet and the cards' script bundle, about 0.8 s of a test binary's
// CPU when every server built its own), by the card's URI, name and title:
// it depends on nothing else, so every server of the process shares it.
var cardPages sync.Map

// cardHTML is c.HTML(), built once per process.
func cardHTML(c apps.Card) string {
	key := c.URI() + "\x00" + c.Name + "\x00" + c.Title
	if page, ok := cardPages.Load(key); ok {
		return page.(string)
	}
	page, _ := cardPages.LoadOrStore(key, c.HTML())
	return page.(string)
}

// appResourceMeta is a card's _meta.ui: the badge picker loads its previews
// from the site's own origin (resourceDomains of the CSP metadata); no card
// loads anything else or connects anywhere (it reaches the server through
// the host).
func (s *Server) appResourceMeta(c apps.Card) mcp.Meta {
	ui := map[string]any{"prefersBorder": true}
	if c.SiteImages {
		if u, err := url.Parse(s.svc.Site.URL("/")); err == nil && u.Host != "" {
			ui["csp"] = map[string]any{"resourceDomains": []string{u.Scheme + "://" + u.Host}}
		}
	}
	return mcp.Meta{"ui": ui}
}

// selectsAnyOf reports whether sel serves one of the named tools.
func (s *Server) selectsAnyOf(sel selection, names []string) bool {
	for _, b := range s.ops {
		for _, n := range names {
			if b.Name == n && sel.has(b.Spec) {
				return true
			}
		}
	}
	return false
}
