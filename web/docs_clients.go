package web

import (
	"encoding/base64"
	"html/template"
	"net/url"

	"github.com/launchdir/launchdir/domain"
)

// docsPage is the data of /docs: the site's info and Cursor's install link
// for its MCP server.
type docsPage struct {
	domain.SiteInfo
	CursorInstallURL template.URL
	// Toolsets are the MCP toolsets with their tools and cost (WithToolsets).
	Toolsets []domain.Toolset
}

// cursorInstallURL is Cursor's one-click install link for the MCP server at
// mcpURL (the same link tools.CursorDeeplink builds for /docs.md).
func cursorInstallURL(mcpURL string) string {
	cfg := base64.StdEncoding.EncodeToString([]byte(`{"url":"` + mcpURL + `"}`))
	return "cursor://anysphere.cursor-deeplink/mcp/install?name=launchdir&config=" + url.QueryEscape(cfg)
}
