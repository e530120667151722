package apps

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/web"
)

// TestThemeRules: every card carries the site's light and dark colour
// variables under :root[data-theme=light] and :root[data-theme=dark] (what
// the card sets from the host's hostContext.theme), read from the site's
// stylesheet: every variable of its light :root under light, every one of
// its dark media query under dark.
func TestThemeRules(t *testing.T) {
	css := web.Stylesheet()
	light, dark := rootVars.FindStringSubmatch(css), darkVars.FindStringSubmatch(css)
	if light == nil || dark == nil {
		t.Fatal("the site's stylesheet has no light :root or no dark :root in a prefers-color-scheme: dark media query")
	}
	for _, c := range Cards {
		page := c.HTML()
		for theme, decls := range map[string]string{"light": light[1], "dark": dark[1]} {
			sel := ":root[data-theme=" + theme + "]{"
			i := strings.Index(page, sel)
			if i < 0 {
				t.Fatalf("%s: no %s rule", c.Name, sel)
			}
			rule, _, _ := strings.Cut(page[i+len(sel):], "}")
			vars := colorDecl.FindAllString(decls, -1)
			if len(vars) < 5 {
				t.Fatalf("%s theme: %d variables in the site's stylesheet", theme, len(vars))
			}
			for _, v := range vars {
				if !strings.Contains(rule, v) {
					t.Errorf("%s: %s lacks %s", c.Name, sel, v)
				}
			}
			if !strings.Contains(rule, "color-scheme:"+theme) {
				t.Errorf("%s: %s does not set color-scheme:%s", c.Name, sel, theme)
			}
		}
	}
}

// TestDraftFieldOrder: the draft card lists the fields in the profile's
// order, domain.DraftFieldNames (src/draft.js FIELD_ORDER).
func TestDraftFieldOrder(t *testing.T) {
	src, err := os.ReadFile("src/draft.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)FIELD_ORDER = \[(.*?)\]`).FindSubmatch(src)
	if m == nil {
		t.Fatal("src/draft.js has no FIELD_ORDER")
	}
	var got []string
	for _, q := range regexp.MustCompile(`"([a-z_]+)"`).FindAllSubmatch(m[1], -1) {
		got = append(got, string(q[1]))
	}
	if !slices.Equal(got, domain.DraftFieldNames) {
		t.Errorf("src/draft.js FIELD_ORDER = %v, want domain.DraftFieldNames %v", got, domain.DraftFieldNames)
	}
}

// TestDraftFieldNames: the draft card names every profile field as the
// site's pages do (web.FactName; src/draft.js NAMES), not as code
// ("Usps", "Logo url" before).
func TestDraftFieldNames(t *testing.T) {
	src, err := os.ReadFile("src/draft.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)NAMES = \{(.*?)\}`).FindSubmatch(src)
	if m == nil {
		t.Fatal("src/draft.js has no NAMES")
	}
	got := map[string]string{}
	for _, kv := range regexp.MustCompile(`([a-z_]+): "([^"]*)"`).FindAllSubmatch(m[1], -1) {
		got[string(kv[1])] = string(kv[2])
	}
	for _, f := range domain.DraftFieldNames {
		if got[f] != web.FactName(f) {
			t.Errorf("src/draft.js names %s %q, the site %q", f, got[f], web.FactName(f))
		}
	}
	if len(got) != len(domain.DraftFieldNames) {
		t.Errorf("src/draft.js NAMES has %d fields, want the %d of domain.DraftFieldNames", len(got), len(domain.DraftFieldNames))
	}
}
