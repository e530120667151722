package tools

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/launchdir/launchdir/web"
	"github.com/launchdir/launchdir/web/apps"
)

// outsideTag finds markup that makes a browser fetch something: an external
// script, stylesheet, image or frame; outsideCSS a stylesheet's @import or
// url() of another host (fonts, images). What the script does when it runs
// is counted in the browser (TestApps_CardsInAHost, e2e tier).
var (
	outsideTag = regexp.MustCompile(`(?i)<script[^>]+src=|<link[^>]+href=|<img[^>]+src=|<iframe`)
	outsideCSS = regexp.MustCompile(`(?i)@import|url\(\s*['"]?(https?:)?//`)
)

// TestApps_ResourcesListedReadAndLinked: every card is a ui:// resource of
// resources/list with the MCP App MIME type and its size, resources/read
// serves that many bytes of self-contained HTML with the site's stylesheet
// in it, the tools of the card link to it by _meta.ui.resourceUri, and the
// server advertises the extension (both protocol eras).
func TestApps_ResourcesListedReadAndLinked(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	for _, version := range []string{"", "2025-11-25"} {
		cs := tsConnect(t, e, "", version, nil)
		ctx := context.Background()
		if version != "" {
			caps := cs.InitializeResult().Capabilities
			ext, ok := caps.Extensions[apps.Extension].(map[string]any)
			if !ok || !slices.Contains(ext["mimeTypes"].([]any), any(apps.MIMEType)) {
				t.Fatalf("initialize: extensions = %#v, want %s with mimeTypes [%s]", caps.Extensions, apps.Extension, apps.MIMEType)
			}
		}
		list, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var uris []string
		for _, r := range list.Resources {
			uris = append(uris, r.URI)
		}
		var want []string
		for _, c := range apps.Cards {
			want = append(want, c.URI())
		}
		slices.Sort(want) // the SDK lists resources by URI
		if !slices.Equal(uris, want) {
			t.Fatalf("resources/list = %v, want %v", uris, want)
		}
		_, byName := tsList(t, cs)
		style := web.Stylesheet()
		for _, c := range apps.Cards {
			r := list.Resources[slices.Index(uris, c.URI())]
			if r.MIMEType != apps.MIMEType || r.Title == "" || r.Description == "" {
				t.Errorf("%s listed as %+v", c.URI(), r)
			}
			got, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: c.URI()})
			if err != nil {
				t.Fatalf("resources/read %s: %v", c.URI(), err)
			}
			if len(got.Contents) != 1 {
				t.Fatalf("%s: %d contents", c.URI(), len(got.Contents))
			}
			rc := got.Contents[0]
			if rc.URI != c.URI() || rc.MIMEType != apps.MIMEType {
				t.Errorf("%s read as uri %q mime %q", c.URI(), rc.URI, rc.MIMEType)
			}
			if int64(len(rc.Text)) != r.Size {
				t.Errorf("%s: listed size %d, read %d bytes", c.URI(), r.Size, len(rc.Text))
			}
			if !strings.Contains(rc.Text, style) || !strings.Contains(rc.Text, `data-card="`+c.Name+`"`) {
				t.Errorf("%s: the site's stylesheet or its data-card is missing", c.URI())
			}
			if rc.Text != c.HTML() { // the document built once per process (cardHTML) is the card's
				t.Errorf("%s: resources/read answers %d bytes, not the card's document (%d bytes)", c.URI(), len(rc.Text), len(c.HTML()))
			}
			head, _, _ := strings.Cut(rc.Text, "<script>")
			if m := outsideTag.FindString(rc.Text) + outsideCSS.FindString(head); m != "" {
				t.Errorf("%s loads something from outside: %q", c.URI(), m)
			}
			if n := strings.Count(rc.Text, "</script"); n != 1 {
				t.Errorf("%s: %d </script, want 1 (the bundle must not close its script element)", c.URI(), n)
			}
			t.Logf("%s: %d bytes", c.URI(), len(rc.Text))
			for _, tool := range c.Tools {
				tl := byName[tool]
				if tl == nil {
					t.Fatalf("%s links to %s, which tools/list does not have", c.URI(), tool)
				}
				ui, _ := tl.Meta["ui"].(map[string]any)
				if ui == nil || ui["resourceUri"] != c.URI() {
					t.Errorf("%s: _meta = %v, want ui.resourceUri %s", tool, tl.Meta, c.URI())
				}
				// The deprecated flat key too, as the ext-apps server helper
				// (registerAppTool) sends it for hosts that still read it.
				if tl.Meta[apps.LegacyResourceURIKey] != c.URI() {
					t.Errorf("%s: _meta = %v, want %q %s too", tool, tl.Meta, apps.LegacyResourceURIKey, c.URI())
				}
			}
		}
		// A tool without a card has no _meta.
		for name, tl := range byName {
			if _, ok := apps.ForTool(name); !ok && tl.Meta != nil {
				t.Errorf("%s has _meta %v but no card", name, tl.Meta)
			}
		}
		// A ui:// address that is not a card is the SDK's resource-not-found.
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://launchdir/nope.html"}); err == nil {
			t.Error("resources/read of an unknown ui:// resource succeeded")
		}
	}
}

// TestApps_ToolsetSelection: a card is listed only when one of its tools is
// in the selection, and reading one that is not is an error.
func TestApps_ToolsetSelection(t *testing.T) {
	t.Parallel()
	e := catTestServer(t, Options{}, false)
	cases := []struct {
		query string
		want  []string
	}{
		{"?toolsets=public", []string{"listings", "rankings", "badges"}},
		{"?toolsets=orders", []string{"checkout"}},
		{"?toolsets=drafts", []string{"draft"}},
		{"?toolsets=account", nil},
		{"?toolsets=public,drafts", []string{"listings", "rankings", "draft", "badges"}},
	}
	for _, tc := range cases {
		cs := tsConnect(t, e, tc.query, "", nil)
		list, err := cs.ListResources(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range list.Resources {
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(r.URI, "ui://launchdir/"), ".html"))
		}
		slices.Sort(tc.want) // the SDK lists resources by URI
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: resources %v, want %v", tc.query, got, tc.want)
		}
		if !slices.Contains(tc.want, "checkout") {
			if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "ui://launchdir/checkout.html"}); err == nil {
				t.Errorf("%s: the checkout card is readable without the orders tools", tc.query)
			}
		}
	}
}

// paidFreeSelection is the selection docs/apps.md gives directories that do
// not allow selling from inside the assistant: every group but orders.
const paidFreeSelection = "public,account,drafts,listings,claims,trophies,webhooks"

// TestApps_SelectionWithoutPaidTools: the documented selection without the
// paid tools serves every tool of the other groups and no tool that only
// the orders group has (quote_order, create_checkout, get_order: the ones
// that quote, sell or show a checkout); no tool links to the checkout card,
// which is neither listed nor readable. docs/apps.md gives this selection.
func TestApps_SelectionWithoutPaidTools(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/apps.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "?toolsets="+paidFreeSelection) {
		t.Errorf("docs/apps.md does not give the selection ?toolsets=%s", paidFreeSelection)
	}
	ops := Catalog()
	inGroup := map[string]map[string]bool{} // toolset -> tools
	for _, ts := range Toolsets(ops) {
		inGroup[ts.Name] = map[string]bool{}
		for _, n := range ts.Tools {
			inGroup[ts.Name][n] = true
		}
	}
	var want, paid []string
	for _, op := range ops {
		other := false
		for _, g := range strings.Split(paidFreeSelection, ",") {
			other = other || inGroup[g][op.Name]
		}
		if other {
			want = append(want, op.Name)
		} else if inGroup["orders"][op.Name] {
			paid = append(paid, op.Name)
		}
	}
	if !slices.Contains(paid, "create_checkout") || !slices.Contains(paid, "quote_order") {
		t.Fatalf("orders-only tools %v: the catalog changed", paid)
	}
	slices.Sort(want)
	e := catTestServer(t, Options{}, false)
	for _, tc := range []struct {
		name, query string
		hdr         map[string]string
	}{
		{"query", "?toolsets=" + paidFreeSelection, nil},
		{"header", "", map[string]string{ToolsetsHeader: paidFreeSelection}},
	} {
		cs := tsConnect(t, e, tc.query, "", tc.hdr)
		names, byName := tsList(t, cs)
		got := slices.Sorted(slices.Values(names))
		if !slices.Equal(got, want) {
			t.Errorf("%s: tools/list %v, want %v", tc.name, got, want)
		}
		for _, n := range paid {
			if byName[n] != nil {
				t.Errorf("%s: the paid tool %s is served", tc.name, n)
			}
		}
		for n, tl := range byName {
			if c, ok := apps.ForTool(n); ok && c.Name == "checkout" {
				t.Errorf("%s: %s links to the checkout card (%v)", tc.name, n, tl.Meta)
			}
		}
		list, err := cs.ListResources(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var cards []string
		for _, r := range list.Resources {
			cards = append(cards, r.URI)
		}
		if slices.Contains(cards, "ui://launchdir/checkout.html") || len(cards) != len(apps.Cards)-1 {
			t.Errorf("%s: resources %v, want every card but checkout", tc.name, cards)
		}
		if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "ui://launchdir/checkout.html"}); err == nil {
			t.Errorf("%s: the checkout card is readable", tc.name)
		}
		t.Logf("%s: %d tools, cards %v; left out %v", tc.name, len(got), cards, paid)
	}
}
