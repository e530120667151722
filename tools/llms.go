package tools

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// The tools the typical flows name. Each must be in the catalog the
// documents are made from (discovery_test.go holds them to it).
var flowTools = []string{
	"search_listings", "get_listing", "compare_listings", "get_launch_week",
	"submit_listing", "get_draft", "submit_draft", "quote_order", "create_checkout", "get_order",
}

// LLMsTxt is /llms.txt (llmstxt.org): an H1 with the site's name, a
// blockquote summary, a few paragraphs on where the interfaces are and the
// typical flows, then sections of links. The tool list is the catalog ops.
func LLMsTxt(site domain.Site, ops []Operation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", site.Name)
	fmt.Fprintf(&b, "> %s\n\n", oneLine(site.Purpose))
	fmt.Fprintf(&b, "Programs use %s through one catalog of %d operations, served two ways: a remote MCP server "+
		"(Streamable HTTP) at %s, where each operation is a tool, and a REST API under %s described by the OpenAPI 3.1 "+
		"document at %s, where each operation is the operationId of the same name. Reading needs no sign-in; the operations of "+
		"%s need an OAuth 2.1 access token of this service (or an API key from %s).\n\n",
		site.Name, len(ops), site.URL(domain.MCPPath), site.URL(domain.APIPrefix), site.URL(domain.OpenAPIPath), signInGroups(ops), site.URL(domain.AccountPath))
	b.WriteString(typicalFlows(site))
	b.WriteString("\n## Docs\n\n")
	fmt.Fprintf(&b, "- [API and MCP docs](%s): the REST API, the MCP server, client set-up (Claude, ChatGPT, VS Code, Cursor, MCP Inspector), every tool\n", site.URL(DocsMarkdownPath))
	fmt.Fprintf(&b, "- [OpenAPI 3.1 document](%s): every operation, parameter, response and error of the REST API\n", site.URL(domain.OpenAPIPath))
	fmt.Fprintf(&b, "- [MCP Server Card](%s): name, version, the Streamable HTTP URL, protocol versions and sign-in of the MCP server\n", site.URL(ServerCardPath))
	fmt.Fprintf(&b, "- [MCP registry server.json](%s): this instance in the MCP registry's format\n", site.URL(RegistryServerPath))
	b.WriteString("\n## Tools\n\n")
	for _, op := range ops {
		fmt.Fprintf(&b, "- [%s](%s#%s): %s %s%s (%s). %s\n", op.Name, site.URL(DocsMarkdownPath), op.Name,
			op.Method, domain.APIPrefix, op.Path, scopeNote(op), firstSentence(op.Summary))
	}
	b.WriteString("\n## Optional\n\n")
	for _, p := range []struct{ name, path, note string }{
		{"Launches", "/launches", "this week's and upcoming launches"},
		{"Community leaderboard", "/leaderboards/community-weekly", "this week's community votes"},
		{"Categories", "/categories", "every category"},
		{"Founders", "/founders", "the founders behind the listings"},
		{"Blog", "/blog", "posts of the site"},
	} {
		fmt.Fprintf(&b, "- [%s](%s): %s\n", p.name, site.URL(p.path), p.note)
	}
	return b.String()
}

// typicalFlows is the "how to use it" text shared by llms.txt and docs.md.
func typicalFlows(site domain.Site) string {
	return "Typical flows:\n\n" +
		"1. Find products: `search_listings` (a query, filters for category, stage and week), then `get_listing` for one, " +
		"`compare_listings` for two, `get_launch_week` for what launches in a week.\n" +
		"2. Submit a product: `submit_listing` with its URL starts a draft and answers at once; the draft is built in the " +
		"background, so call `get_draft` again every `poll_after_seconds` seconds (as the answer says) until it is complete, " +
		"then show it to the person, fix it with `update_draft` and send it with `submit_draft`.\n" +
		"3. Pay for a launch or the billboard: `quote_order` shows the price; `create_checkout` answers a `checkout_url`. " +
		"Hand that link to the person, who pays on " + site.Name + "'s own checkout page; never ask for or pass on card " +
		"details. Then `get_order` shows the state. The billboard is a paid ranking: present it as paid.\n"
}

func scopeNote(op Operation) string {
	if op.Scope == "" {
		return "public"
	}
	return "needs scope " + op.Scope
}

// firstSentence is the first sentence of s on one line.
func firstSentence(s string) string {
	s = oneLine(s)
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// DocsMarkdown is /docs.md, the markdown twin of /docs: the same sections
// (REST API, MCP server, client set-up) and every tool of the catalog.
func DocsMarkdown(site domain.Site, ops []Operation) string {
	var b strings.Builder
	mcpURL := site.URL(domain.MCPPath)
	fmt.Fprintf(&b, "# The %s API and MCP server\n\n", site.Name)
	fmt.Fprintf(&b, "%s\n\n", oneLine(site.Purpose))
	b.WriteString("Everything on the site can be read by programs too, in two ways that share one catalog of operations: " +
		"a REST API and a Model Context Protocol (MCP) server for AI assistants. Reading needs no sign-in.\n\n")
	b.WriteString("## REST API\n\n")
	fmt.Fprintf(&b, "- Base URL: `%s` (JSON in, JSON out).\n", site.URL(domain.APIPrefix))
	fmt.Fprintf(&b, "- OpenAPI 3.1 document: %s\n", site.URL(domain.OpenAPIPath))
	b.WriteString("- Lists take `page` and `per_page` and answer with an `items` array.\n" +
		"- Errors are RFC 9457 `application/problem+json` with a stable `code`; a 400 names each failing field and rule; " +
		"too many requests get 429 with `Retry-After`.\n\n")
	fmt.Fprintf(&b, "```sh\ncurl '%s/site'\ncurl '%s/listings?q=note+taking&per_page=5'\n```\n\n", site.URL(domain.APIPrefix), site.URL(domain.APIPrefix))
	b.WriteString("## MCP server\n\n")
	fmt.Fprintf(&b, "- URL: `%s` (Streamable HTTP; protocol versions %s).\n", mcpURL, strings.Join(MCPProtocolVersions, ", "))
	fmt.Fprintf(&b, "- Server Card: %s (also at %s); AI Catalog: %s.\n", site.URL(ServerCardPath), site.URL(WellKnownServerCardPath), site.URL(AICatalogPath))
	fmt.Fprintf(&b, "- Sign-in: OAuth 2.1 (protected resource metadata at %s, scopes %s); an API key from %s works as the bearer token too.\n\n",
		site.URL(protectedResourcePath), strings.Join(domain.AllScopes, ", "), site.URL(domain.AccountPath))
	b.WriteString(typicalFlows(site))
	b.WriteString("\n")
	b.WriteString(ClientSetupMarkdown(site))
	b.WriteString("\n## Tools\n\n")
	for _, op := range ops {
		fmt.Fprintf(&b, "### %s\n\n", op.Name)
		fmt.Fprintf(&b, "%s. `%s %s%s`, %s.\n\n%s\n\n", op.Title, op.Method, domain.APIPrefix, op.Path, scopeNote(op), oneLine(op.Summary))
	}
	return b.String()
}

// ClientSetupMarkdown is the client set-up section of /docs.md, and with
// https://launchdir.example as the origin, docs/clients.md (the test
// clients_doc_test.go keeps that file equal to it).
func ClientSetupMarkdown(site domain.Site) string {
	u := site.URL(domain.MCPPath)
	name := serverShortName
	return "## Connect a client\n\n" +
		"Every client below connects to `" + u + "` over Streamable HTTP. Reading the directory works at once. The first time a tool " +
		"needs your account, the client opens " + site.Name + "'s sign-in page in your browser (an email link, or your identity provider " +
		"where one is set up) and then its consent page: *Allow \"<client name>\" to use your " + site.Name + " account?*, with the app's " +
		"name, where it sends you back to, and what it will be able to do (read your account, write your listings and drafts, create " +
		"orders). Choose **Allow**; you can disconnect the app at any time on " + site.URL(domain.AccountPath) + ".\n\n" +
		"### Claude Code\n\n" +
		"```sh\nclaude mcp add --transport http " + name + " " + u + "\n```\n\n" +
		"Then run `/mcp` in Claude Code, choose `" + name + "` and **Authenticate** when a tool needs your account; the browser opens the " +
		"sign-in and consent pages.\n\n" +
		"### Claude (desktop and claude.ai)\n\n" +
		"Settings → Connectors → **Add custom connector**; name `" + name + "`, remote MCP server URL `" + u + "`; **Add**, then **Connect**. " +
		"The browser opens the sign-in and consent pages. Turn the connector on for a chat from the tools menu of the message box.\n\n" +
		"### ChatGPT (connectors, developer mode)\n\n" +
		"Settings → Apps & Connectors → Advanced settings → turn on **Developer mode**. Then Settings → Apps & Connectors → **Create**: " +
		"name `" + name + "`, MCP server URL `" + u + "`, authentication **OAuth**; tick that you trust the app and **Create**. ChatGPT " +
		"registers itself with " + site.Name + " and opens the sign-in and consent pages. In a chat, choose Developer mode from the **+** menu " +
		"and pick the connector.\n\n" +
		"### VS Code (GitHub Copilot agent mode)\n\n" +
		"Add the server to the workspace's `.vscode/mcp.json`:\n\n" +
		"```json\n{\n  \"servers\": {\n    \"" + name + "\": {\n      \"type\": \"http\",\n      \"url\": \"" + u + "\"\n    }\n  }\n}\n```\n\n" +
		"or from a terminal:\n\n" +
		"```sh\ncode --add-mcp '{\"name\":\"" + name + "\",\"type\":\"http\",\"url\":\"" + u + "\"}'\n```\n\n" +
		"Start it from the **Start** link above the entry (or MCP: List Servers); when a tool needs your account VS Code asks " +
		"*The MCP Server Definition '" + name + "' wants to authenticate*: **Allow** opens the sign-in and consent pages.\n\n" +
		"### Cursor\n\n" +
		"Add the server to `~/.cursor/mcp.json` (every project) or `.cursor/mcp.json` (one project):\n\n" +
		"```json\n{\n  \"mcpServers\": {\n    \"" + name + "\": {\n      \"url\": \"" + u + "\"\n    }\n  }\n}\n```\n\n" +
		"or open the install link <" + CursorDeeplink(u) + ">. In Settings → Tools & MCP the server shows **Needs login** when a tool " +
		"needs your account: click it and the browser opens the sign-in and consent pages.\n\n" +
		"### MCP Inspector\n\n" +
		"```sh\nnpx @modelcontextprotocol/inspector --cli " + u + " --transport http --method tools/list\n```\n\n" +
		"lists the tools from the command line (the Inspector needs Node.js 22.19 or later). Without `--cli` the Inspector opens in the browser: choose transport Streamable HTTP, " +
		"enter `" + u + "` and **Connect**; when a tool needs your account, the Inspector's OAuth flow opens the sign-in and consent pages.\n\n" +
		"### Any other client\n\n" +
		"Give it the MCP URL. A client that discovers servers can start from the origin alone: " + site.URL(AICatalogPath) +
		" lists the Server Card " + site.URL(ServerCardPath) + ", which names the MCP URL and how sign-in works.\n"
}

// CursorDeeplink is Cursor's one-click install link for the MCP server at u:
// cursor://anysphere.cursor-deeplink/mcp/install?name=...&config=<base64 of {"url":u}>.
func CursorDeeplink(u string) string {
	cfg := base64.StdEncoding.EncodeToString([]byte(`{"url":"` + u + `"}`))
	return "cursor://anysphere.cursor-deeplink/mcp/install?name=" + serverShortName + "&config=" + url.QueryEscape(cfg)
}

// ClientsDoc is docs/clients.md for site: the client set-up of /docs.md
// under a title of its own.
func ClientsDoc(site domain.Site) string {
	return "# Connecting MCP clients to " + site.Name + "\n\n" +
		"<!-- Generated by tools.ClientsDoc for " + site.URL("") + "; a running instance serves the same text with its own " +
		"URLs in " + DocsMarkdownPath + ". Regenerate: go test ./tools -run TestDiscovery_Committed -update -->\n\n" +
		"Replace `" + site.URL("") + "` with the origin of your instance (the `Web:` line `launchdir serve` prints).\n\n" +
		strings.ReplaceAll(strings.Replace(ClientSetupMarkdown(site), "## Connect a client\n\n", "", 1), "\n### ", "\n## ")
}
