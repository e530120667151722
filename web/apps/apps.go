// Package apps holds the MCP App cards (docs/apps.md): the
// ui:// resources an MCP host that speaks the io.modelcontextprotocol/ui
// extension renders in a sandboxed iframe beside a tool's result.
//
// Every card is one self-contained HTML document: the site's stylesheet
// (web.Stylesheet, the same bytes the site serves), the few card rules of
// src/card.css, and the one script bundle dist/cards.js, built from src/ with
// the official @modelcontextprotocol/ext-apps App class by
// `npm --prefix web/apps ci && npm --prefix web/apps run build`
// (pinned esbuild; TestAppsBundle_MatchesSources, e2e tier, fails when the
// committed bundle drifts from its sources). The card a document shows is
// its body's data-card attribute.
package apps

import (
	_ "embed"
	"html"
	"regexp"
	"strings"

	"github.com/launchdir/launchdir/web"
)

// MIMEType is the MIME type of an MCP App (SEP-1865).
const MIMEType = "text/html;profile=mcp-app"

// Extension is the MCP extension identifier of MCP Apps.
const Extension = "io.modelcontextprotocol/ui"

// LegacyResourceURIKey is the deprecated flat _meta key that links a tool to
// its card ("ui/resourceUri"), from before _meta.ui.resourceUri. The
// official server helper (ext-apps registerAppTool) still sends both so
// that older hosts find the card; so does launchdir (docs/apps.md).
const LegacyResourceURIKey = "ui/resourceUri"

//go:embed dist/cards.js
var bundle string

//go:embed src/card.css
var cardCSS string

// Card is one ui:// resource and the tools whose results it shows.
type Card struct {
	Name, Title, Description string
	// Tools are the tools linked to the card by _meta.ui.resourceUri.
	Tools []string
	// SiteImages: the card shows images of the site's own origin (the badge
	// previews), declared in the resource's CSP metadata.
	SiteImages bool
}

// URI is the card's ui:// address.
func (c Card) URI() string { return "ui://launchdir/" + c.Name + ".html" }

// Cards are the cards, in the order resources/list gives them.
var Cards = []Card{
	{Name: "listings", Title: "Listings",
		Description: "Listing and search results as cards: name, monogram, tagline, category, votes and a link to the page.",
		Tools:       []string{"search_listings", "list_launches", "get_listing", "get_alternatives"}},
	{Name: "rankings", Title: "This week and leaderboards",
		Description: "A launch week or a leaderboard as ranked rows, as on the site; the billboard marked PAID.",
		Tools:       []string{"get_launch_week", "get_leaderboard"}},
	{Name: "draft", Title: "Draft review",
		Description: "A drafted profile field by field with its state and evidence quotes; accept, edit, lock, clear or restore a field, and save the draft.",
		Tools:       []string{"get_draft", "update_draft"}},
	{Name: "checkout", Title: "Checkout hand-off",
		Description: "A quote or an order: its lines, VAT and total, and one button that opens the checkout page in the browser.",
		Tools:       []string{"quote_order", "create_checkout", "get_order"}},
	{Name: "badges", Title: "Badge picker",
		Description: "The badges of a listing: shape, mode and size with a live preview, and the embed code to copy.",
		Tools:       []string{"get_badges"}, SiteImages: true},
}

// ForTool is the card linked to a tool, if any.
func ForTool(tool string) (Card, bool) {
	for _, c := range Cards {
		for _, t := range c.Tools {
			if t == tool {
				return c, true
			}
		}
	}
	return Card{}, false
}

// HTML is the card's document.
func (c Card) HTML() string {
	var b strings.Builder
	b.Grow(len(bundle) + 32<<10)
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8">` +
		`<meta name="viewport" content="width=device-width,initial-scale=1"><title>`)
	b.WriteString(html.EscapeString(c.Title))
	b.WriteString("</title><style>\n")
	b.WriteString(web.Stylesheet())
	b.WriteString(themeCSS)
	b.WriteString(cardCSS)
	b.WriteString(`</style></head><body class="mcp-card" data-card="`)
	b.WriteString(html.EscapeString(c.Name))
	b.WriteString(`"><main id="app" aria-live="polite"><p class="meta">Loading…</p></main><script>`)
	// esbuild escapes "</script" in what it emits; this keeps it so.
	b.WriteString(strings.ReplaceAll(bundle, "</script", `<\/script`))
	b.WriteString("</script></body></html>\n")
	return b.String()
}

// themeCSS makes a card follow the host's theme (hostContext.theme, which
// the card sets as data-theme on its root; docs/apps.md): the site's light
// and dark colour variables under :root[data-theme=light|dark], which win
// over the stylesheet's prefers-color-scheme rules. They are read from the
// site's stylesheet, so there is one copy of the colours.
var themeCSS = themeRules(web.Stylesheet())

// rootVars finds a ":root { --name:value; ... }" rule's declarations: the
// first is the light theme, the one inside the prefers-color-scheme: dark
// media query the dark one.
var (
	rootVars  = regexp.MustCompile(`(?m)^\s*:root\s*\{([^}]*)\}`)
	darkVars  = regexp.MustCompile(`@media\s*\(prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{([^}]*)\}`)
	colorDecl = regexp.MustCompile(`--[\w-]+\s*:\s*[^;]+;`)
)

// themeRules is themeCSS of a stylesheet; "" when the stylesheet has no
// light and dark :root variables (TestThemeRules fails then).
func themeRules(css string) string {
	light, dark := rootVars.FindStringSubmatch(css), darkVars.FindStringSubmatch(css)
	if light == nil || dark == nil {
		return ""
	}
	vars := func(decls string) string { return strings.Join(colorDecl.FindAllString(decls, -1), "") }
	return ":root[data-theme=light]{" + vars(light[1]) + "color-scheme:light}\n" +
		":root[data-theme=dark]{" + vars(dark[1]) + "color-scheme:dark}\n"
}
