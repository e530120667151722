package tools

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// exampleSite is the site the committed documents (docs/server.json,
// docs/clients.md) are generated for.
var exampleSite = domain.Site{Key: "main", Name: "Launchdir", BaseURL: "https://launchdir.example",
	Purpose: "A public directory of software products with weekly launch calendars."}

// discRules compiles one of the rule schemas of testdata/discovery.
func discRules(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "discovery", file))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(file, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(file)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return s
}

// discValidate reports the rule violations of the JSON document raw.
func discValidate(s *jsonschema.Schema, raw []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// TestDiscoveryRules_PublishedExamples holds the rule schemas to the
// formats' published examples (restated here): each valid one passes, each
// invalid one fails. A rule schema that accepts everything fails here.
func TestDiscoveryRules_PublishedExamples(t *testing.T) {
	t.Parallel()
	card := discRules(t, "server-card.rules.json")
	reg := discRules(t, "registry-server.rules.json")
	cat := discRules(t, "ai-catalog.rules.json")
	const v1 = `"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"`
	const regSchema = `"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"`
	for _, c := range []struct {
		name  string
		rules *jsonschema.Schema
		doc   string
		valid bool
	}{
		{"card minimal", card, `{` + v1 + `,"name":"example-org/minimal","version":"1.0.0","description":"Smallest valid card."}`, true},
		{"card templated remote", card, `{` + v1 + `,"name":"example-org/with-remote","version":"2.1.0","description":"d","title":"T",
			"websiteUrl":"https://example.com","remotes":[{"type":"streamable-http","url":"https://{tenant}.example.com/mcp",
			"headers":[{"name":"Authorization","isRequired":true,"isSecret":true,"value":"Bearer {token}","variables":{"token":{"isSecret":true}}}],
			"variables":{"tenant":{"isRequired":true,"default":"default"}},"supportedProtocolVersions":["2025-06-18","2025-11-25"]}]}`, true},
		{"card name without slash", card, `{` + v1 + `,"name":"no-slash-in-name","version":"1.0.0","description":"d"}`, false},
		{"card date-versioned schema", card, `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-11-25/server-card.schema.json","name":"a/b","version":"1.0.0","description":"d"}`, false},
		{"card registry schema name", card, `{"$schema":"https://static.modelcontextprotocol.io/schemas/v1/server.schema.json","name":"a/bc","version":"1.0.0","description":"d"}`, false},
		{"card missing name", card, `{` + v1 + `,"version":"1.0.0","description":"d"}`, false},
		{"card missing schema", card, `{"name":"example-org/no-schema","version":"1.0.0","description":"d"}`, false},
		{"card with packages", card, `{` + v1 + `,"name":"a/bc","version":"1.0.0","description":"d","packages":[{"registryType":"npm","identifier":"x"}]}`, false},
		{"card stdio remote", card, `{` + v1 + `,"name":"a/bc","version":"1.0.0","description":"d","remotes":[{"type":"stdio","url":"https://x.example/mcp"}]}`, false},
		{"card description over 100", card, `{` + v1 + `,"name":"a/bc","version":"1.0.0","description":"` + strings.Repeat("d", 101) + `"}`, false},
		{"card version range", card, `{` + v1 + `,"name":"a/bc","version":"^1.2.3","description":"d"}`, false},
		{"card reserved _meta prefix", card, `{` + v1 + `,"name":"a/bc","version":"1.0.0","description":"d","_meta":{"io.modelcontextprotocol.registry/x":{}}}`, false},
		{"registry remote", reg, `{` + regSchema + `,"name":"io.github.user/remote-weather","description":"Remote server.","version":"2.1.0",
			"remotes":[{"type":"streamable-http","url":"https://{host}/mcp","headers":[{"name":"Authorization","isSecret":true,"isRequired":true}],"variables":{"host":{"default":"api.example.com"}}}]}`, true},
		{"registry bad name", reg, `{` + regSchema + `,"name":"no-slash","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://x.example/sse"}]}`, false},
		{"registry missing name", reg, `{` + regSchema + `,"description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://x.example/sse"}]}`, false},
		{"registry description over 100", reg, `{` + regSchema + `,"name":"a/bc","description":"` + strings.Repeat("d", 101) + `","version":"1.0.0","remotes":[{"type":"sse","url":"https://x.example/sse"}]}`, false},
		{"registry neither remote nor package", reg, `{` + regSchema + `,"name":"a/bc","description":"d","version":"1.0.0"}`, false},
		{"catalog single server", cat, `{"specVersion":"1.0","entries":[{"identifier":"urn:air:example.com:mcp:weather","type":"application/mcp-server-card+json","url":"https://example.com/mcp/server-card"}]}`, true},
		{"catalog wrong type", cat, `{"specVersion":"1.0","entries":[{"identifier":"urn:air:example.com:mcp:weather","type":"application/json","url":"https://example.com/mcp/server-card"}]}`, false},
		{"catalog url and data", cat, `{"specVersion":"1.0","entries":[{"identifier":"urn:air:example.com:mcp:weather","type":"application/mcp-server-card+json","url":"https://example.com/c","data":{}}]}`, false},
	} {
		err := discValidate(c.rules, []byte(c.doc))
		if c.valid && err != nil {
			t.Errorf("%s: want valid, got %v", c.name, err)
		}
		if !c.valid && err == nil {
			t.Errorf("%s: want invalid, passed", c.name)
		}
	}
}

// discServer serves the whole stack as serve does for discovery: auth's
// routes, the discovery documents and the API (with /mcp) over the demo
// data, on 127.0.0.1. It returns the origin.
func discServer(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	db, err := storage.Open(fixtures.SeededFile(t, fixtures.DemoSeeded), storage.WithClock(time.Now)) // the demo data as of fixtures.Now, seeded once per test binary
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	site := domain.Site{Key: "main", Name: "Launchdir", Purpose: "A public directory of software launches.", BaseURL: base}
	now := time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)
	st, err := storage.NewStore(ctx, db, site)
	if err != nil {
		t.Fatal(err)
	}
	svc := domain.NewService(st, site, func() time.Time { return now })
	a, err := auth.New(auth.Config{Origin: base, SiteName: site.Name, Store: storage.NewAuthStore(db), Now: svc.Now})
	if err != nil {
		t.Fatal(err)
	}
	api := New(svc, Options{Now: svc.Now, Auth: a, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}).Handler()
	mux := http.NewServeMux()
	a.Register(mux)
	NewDiscovery(site, Catalog()).Register(mux)
	mux.Handle("/", api)
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)
	return base
}

func discGet(t *testing.T, u string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

// TestDiscovery_Documents fetches every discovery document from the real
// routes and holds each to its format's rules and to the server behind it.
func TestDiscovery_Documents(t *testing.T) {
	t.Parallel()
	base := discServer(t)
	mcpURL := base + domain.MCPPath
	docs := map[string][]byte{}
	for path, ctype := range map[string]string{
		ServerCardPath: ServerCardMediaType, WellKnownServerCardPath: ServerCardMediaType,
		WellKnownMCPCatalogPath: AICatalogMediaType, AICatalogPath: AICatalogMediaType,
		RegistryServerPath: "application/json", LLMsTxtPath: "text/plain; charset=utf-8", DocsMarkdownPath: "text/markdown; charset=utf-8",
	} {
		res, body := discGet(t, base+path)
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != ctype {
			t.Fatalf("GET %s: %d %q, want 200 %q", path, res.StatusCode, res.Header.Get("Content-Type"), ctype)
		}
		for h, want := range map[string]string{"Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=3600"} {
			if got := res.Header.Get(h); got != want {
				t.Errorf("GET %s: %s = %q, want %q", path, h, got, want)
			}
		}
		etag := res.Header.Get("ETag")
		if res2, _ := discGet(t, base+path, "If-None-Match", etag); etag == "" || res2.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s with If-None-Match %s: %d, want 304", path, etag, res2.StatusCode)
		}
		docs[path] = body
	}
	if !bytes.Equal(docs[ServerCardPath], docs[WellKnownServerCardPath]) {
		t.Error("the card at /mcp/server-card and at /.well-known/mcp/server-card.json differ")
	}

	// Formats.
	for path, rules := range map[string]string{ServerCardPath: "server-card.rules.json", WellKnownMCPCatalogPath: "ai-catalog.rules.json",
		AICatalogPath: "ai-catalog.rules.json", RegistryServerPath: "registry-server.rules.json"} {
		if err := discValidate(discRules(t, rules), docs[path]); err != nil {
			t.Errorf("%s breaks %s: %v\n%s", path, rules, err, docs[path])
		}
	}
	var card ServerCard
	var reg map[string]any
	json.Unmarshal(docs[ServerCardPath], &card)
	json.Unmarshal(docs[RegistryServerPath], &reg)
	if _, ok := reg["packages"]; ok {
		t.Error("server.json has packages; it describes a remote server only")
	}
	if len(card.Remotes) != 1 || card.Remotes[0].Type != "streamable-http" || card.Remotes[0].URL != mcpURL {
		t.Fatalf("card remotes = %+v, want one streamable-http remote at %s", card.Remotes, mcpURL)
	}
	sdk := mcp.SupportedProtocolVersions()
	for _, v := range card.Remotes[0].SupportedProtocolVersions {
		if !slices.Contains(sdk, v) {
			t.Errorf("card names protocol version %s, which go-sdk does not speak (%v)", v, sdk)
		}
	}
	if card.Name != "localhost/launchdir" || reg["name"] != card.Name {
		t.Errorf("names: card %q, server.json %v; want localhost/launchdir for a loopback site", card.Name, reg["name"])
	}

	// The card agrees with the live server (serverInfo, protocol versions).
	cs := discConnectFromOrigin(t, base)
	init := cs.InitializeResult()
	if init.ServerInfo.Version != card.Version || init.ServerInfo.Title != card.Title {
		t.Errorf("serverInfo %+v; card says version %q title %q", init.ServerInfo, card.Version, card.Title)
	}
	if !slices.Contains(card.Remotes[0].SupportedProtocolVersions, init.ProtocolVersion) {
		t.Errorf("negotiated %s, not among the card's %v", init.ProtocolVersion, card.Remotes[0].SupportedProtocolVersions)
	}
	// Each version the card names is one the server speaks.
	for _, v := range card.Remotes[0].SupportedProtocolVersions {
		client := mcp.NewClient(&mcp.Implementation{Name: "launchdir-discovery-test", Version: "1.0.0"}, nil)
		vs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: mcpURL, DisableStandaloneSSE: true},
			&mcp.ClientSessionOptions{ProtocolVersion: v})
		if err != nil {
			t.Errorf("connect with protocol version %s (named by the card): %v", v, err)
			continue
		}
		if got := vs.InitializeResult().ProtocolVersion; got != v {
			t.Errorf("asked for %s (named by the card), the server answered %s", v, got)
		}
		vs.Close()
	}
	var served []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		served = append(served, tool.Name)
	}
	var catalog []string
	for _, op := range Catalog() {
		catalog = append(catalog, op.Name)
	}
	slices.Sort(served)
	slices.Sort(catalog)
	if !slices.Equal(served, catalog) {
		t.Errorf("tools/list from the card's URL = %v, want the catalog %v", served, catalog)
	}

	// Every URL the documents name answers 200 from serve's router:
	// cmd/launchdir's TestServe_DiscoveryURLs.
}

// discConnectFromOrigin connects the go-sdk client given only the origin:
// the AI Catalog names the Server Card, the card names the MCP URL.
func discConnectFromOrigin(t *testing.T, origin string) *mcp.ClientSession {
	t.Helper()
	_, body := discGet(t, origin+AICatalogPath)
	var cat AICatalog
	if err := json.Unmarshal(body, &cat); err != nil || len(cat.Entries) == 0 {
		t.Fatalf("AI Catalog: %v %s", err, body)
	}
	res, body := discGet(t, cat.Entries[0].URL, "Accept", ServerCardMediaType)
	var card ServerCard
	if err := json.Unmarshal(body, &card); err != nil || res.StatusCode != 200 || len(card.Remotes) == 0 {
		t.Fatalf("card at %s: %d %v %s", cat.Entries[0].URL, res.StatusCode, err, body)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "launchdir-discovery-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: card.Remotes[0].URL, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connect to %s: %v", card.Remotes[0].URL, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestDiscovery_ServerName: the name is the reverse-DNS of the site's host.
func TestDiscovery_ServerName(t *testing.T) {
	t.Parallel()
	for base, want := range map[string]string{
		"https://launchdir.example":      "example.launchdir/launchdir",
		"https://dir.acme.co.uk:8443":    "uk.co.acme.dir/launchdir",
		"http://127.0.0.1:8080":          "localhost/launchdir",
		"http://[::1]:8080":              "localhost/launchdir",
		"http://localhost:8080":          "localhost/launchdir",
		"https://Launches.Example.COM/x": "com.example.launches/launchdir",
		"https://bücher.example.":        "example.xn--bcher-kva/launchdir",
	} {
		if got := ServerName(domain.Site{BaseURL: base}); got != want {
			t.Errorf("ServerName(%s) = %q, want %q", base, got, want)
		}
	}
	long := exampleSite
	long.Name = strings.Repeat("Länger Name ", 20)
	c := NewServerCard(long, ServerName(long))
	if !utf8.ValidString(c.Title) || utf8.RuneCountInString(c.Description) > 100 || utf8.RuneCountInString(c.Title) > 100 {
		t.Errorf("a long site name gives description %d and title %d characters (max 100)", len(c.Description), len(c.Title))
	}
}

// TestLLMsTxt_Format holds /llms.txt to llmstxt.org: an H1, a blockquote,
// then only H2 sections whose list items are links; and to the catalog:
// every tool is listed, each tool a flow names exists, and a renamed or
// added tool shows up.
func TestLLMsTxt_Format(t *testing.T) {
	t.Parallel()
	ops := Catalog()
	txt := LLMsTxt(exampleSite, ops)
	lines := strings.Split(strings.TrimRight(txt, "\n"), "\n")
	if lines[0] != "# Launchdir" || lines[1] != "" || !strings.HasPrefix(lines[2], "> ") {
		t.Fatalf("llms.txt must open with an H1 and a blockquote:\n%s", strings.Join(lines[:3], "\n"))
	}
	linkRE := regexp.MustCompile(`^- \[[^\]]+\]\(https://launchdir\.example/[^)\s]*\)(: .+)?$`)
	var sections []string
	for i, l := range lines[3:] {
		switch {
		case strings.HasPrefix(l, "# "), strings.HasPrefix(l, "### "):
			t.Errorf("line %d: only one H1 and H2 sections: %q", i+4, l)
		case strings.HasPrefix(l, "## "):
			sections = append(sections, l[3:])
		case len(sections) > 0 && l != "" && !linkRE.MatchString(l):
			t.Errorf("line %d in section %s is not a link item: %q", i+4, sections[len(sections)-1], l)
		}
	}
	if !slices.Equal(sections, []string{"Docs", "Tools", "Optional"}) {
		t.Errorf("sections = %v", sections)
	}
	for _, want := range []string{"https://launchdir.example/mcp", "https://launchdir.example/v1 ", "https://launchdir.example/v1/openapi.json",
		"`poll_after_seconds`", "`checkout_url`", "never ask for or pass on card details", "https://launchdir.example/docs.md"} {
		if !strings.Contains(txt, want) {
			t.Errorf("llms.txt does not say %q", want)
		}
	}
	names := map[string]bool{}
	for _, op := range ops {
		names[op.Name] = true
		if !strings.Contains(txt, "- ["+op.Name+"](") {
			t.Errorf("tool %s is not listed", op.Name)
		}
	}
	for _, name := range flowTools {
		if !names[name] {
			t.Errorf("the flows name %s, which is not in the catalog", name)
		}
	}
	for _, m := range regexp.MustCompile("`([a-z]+(?:_[a-z]+)+)`").FindAllStringSubmatch(typicalFlows(exampleSite), -1) {
		if !names[m[1]] && !strings.HasSuffix(m[1], "_seconds") && !strings.HasSuffix(m[1], "_url") {
			t.Errorf("the flows name `%s`, not a tool of the catalog", m[1])
		}
	}

	// Drift: rename one tool and add one; both documents follow.
	changed := slices.Clone(ops)
	changed[0].Name = "renamed_tool"
	added := ops[1]
	added.Name, added.Summary = "brand_new_tool", "A tool added to the catalog. More text."
	changed = append(changed, added)
	for doc, text := range map[string]string{"llms.txt": LLMsTxt(exampleSite, changed), "docs.md": DocsMarkdown(exampleSite, changed)} {
		for _, want := range []string{"renamed_tool", "brand_new_tool", "A tool added to the catalog."} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not follow the catalog: %q missing", doc, want)
			}
		}
		if strings.Contains(text, "["+ops[0].Name+"]") || strings.Contains(text, "### "+ops[0].Name+"\n") {
			t.Errorf("%s still lists the old name %s", doc, ops[0].Name)
		}
	}
}

// TestDocsMarkdown_Tools: /docs.md lists every tool under its own heading,
// which the llms.txt links point at.
func TestDocsMarkdown_Tools(t *testing.T) {
	t.Parallel()
	md := DocsMarkdown(exampleSite, Catalog())
	for _, op := range Catalog() {
		if !strings.Contains(md, "\n### "+op.Name+"\n") {
			t.Errorf("docs.md has no heading for %s", op.Name)
		}
	}
	if !strings.HasPrefix(md, "# The Launchdir API and MCP server\n") {
		t.Errorf("docs.md opens with %q", strings.SplitN(md, "\n", 2)[0])
	}
}

// discCommitted compares a committed file with its generated text, or
// rewrites it with -update.
func discCommitted(t *testing.T, path string, want []byte) {
	t.Helper()
	if *catUpdate {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s is not what the code generates (err %v); run go test ./tools -run TestDiscovery_Committed -update", path, err)
	}
}

// TestDiscovery_Committed keeps docs/server.json and docs/clients.md equal
// to what the code generates for https://launchdir.example, and holds
// server.json to the registry's rules.
func TestDiscovery_Committed(t *testing.T) {
	t.Parallel()
	reg, _ := json.MarshalIndent(NewRegistryServer(exampleSite, ServerName(exampleSite)), "", "  ")
	reg = append(reg, '\n')
	if err := discValidate(discRules(t, "registry-server.rules.json"), reg); err != nil {
		t.Errorf("server.json breaks the registry's rules: %v", err)
	}
	discCommitted(t, filepath.Join("..", "docs", "server.json"), reg)
	discCommitted(t, filepath.Join("..", "docs", "clients.md"), []byte(ClientsDoc(exampleSite)))
}

// TestClientsDoc_Snippets: every JSON snippet of the client set-up parses,
// names the MCP URL, and has the shape its client reads; the command lines
// name the URL; the Cursor link decodes to the URL.
func TestClientsDoc_Snippets(t *testing.T) {
	t.Parallel()
	md := ClientsDoc(exampleSite)
	u := "https://launchdir.example/mcp"
	blocks := regexp.MustCompile("(?s)```(json|sh)\n(.*?)```").FindAllStringSubmatch(md, -1)
	var jsons, cmds int
	for _, b := range blocks {
		if !strings.Contains(b[2], u) {
			t.Errorf("snippet does not name %s:\n%s", u, b[2])
		}
		switch b[1] {
		case "json":
			jsons++
			var v struct {
				Servers    map[string]struct{ Type, URL string } `json:"servers"`
				MCPServers map[string]struct{ URL string }       `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(b[2]), &v); err != nil {
				t.Errorf("JSON snippet does not parse: %v\n%s", err, b[2])
			}
			if s, ok := v.Servers["launchdir"]; ok && (s.Type != "http" || s.URL != u) {
				t.Errorf("VS Code entry = %+v", s)
			}
			if s, ok := v.MCPServers["launchdir"]; ok && s.URL != u {
				t.Errorf("Cursor entry = %+v", s)
			}
			if len(v.Servers)+len(v.MCPServers) != 1 {
				t.Errorf("JSON snippet is neither a VS Code nor a Cursor config:\n%s", b[2])
			}
		case "sh":
			cmds++
			if m := regexp.MustCompile(`code --add-mcp '([^']+)'`).FindStringSubmatch(b[2]); m != nil {
				var e struct{ Name, Type, URL string }
				if err := json.Unmarshal([]byte(m[1]), &e); err != nil || e.Type != "http" || e.URL != u || e.Name == "" {
					t.Errorf("code --add-mcp argument %s: %+v %v", m[1], e, err)
				}
			}
		}
	}
	if jsons != 2 || cmds != 3 {
		t.Errorf("%d JSON and %d command snippets, want 2 and 3", jsons, cmds)
	}
	for _, client := range []string{"## Claude Code", "## Claude (desktop", "## ChatGPT", "## VS Code", "## Cursor", "## MCP Inspector"} {
		if !strings.Contains(md, client) {
			t.Errorf("no section %q", client)
		}
	}
	link := regexp.MustCompile(`cursor://[^\s>]+`).FindString(md)
	cfg := discCursorConfig(t, link)
	if cfg != `{"url":"`+u+`"}` {
		t.Errorf("Cursor link %s carries %s", link, cfg)
	}
}

// discCursorConfig decodes the config of a Cursor install link.
func discCursorConfig(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "cursor" || u.Host != "anysphere.cursor-deeplink" || u.Path != "/mcp/install" || u.Query().Get("name") != "launchdir" {
		t.Fatalf("Cursor link %q: %v", link, err)
	}
	b, err := base64.StdEncoding.DecodeString(u.Query().Get("config"))
	if err != nil {
		t.Fatalf("Cursor link config: %v", err)
	}
	return string(b)
}
