package extract

import (
	"net/url"
	"strings"
)

// githubOwner reports whether org is the GitHub account that owns the
// repository repo ("github.com/hearthos" owns "github.com/hearthos/wiki").
func githubOwner(org, repo string) bool {
	o, r := urlSegs(org), urlSegs(repo)
	return len(o) == 1 && len(r) == 2 && strings.EqualFold(o[0], r[0])
}

func urlSegs(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	return strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
}

// siteBuilders are the services whose own profiles their themes and badges
// link from every site built with them ("Made in Webflow", a Shopify theme's
// default Pinterest link).
var siteBuilders = map[string]bool{"webflow": true, "framer": true, "shopify": true, "wix": true, "squarespace": true,
	"wordpress": true, "wordpressdotcom": true, "elementor": true, "carrd": true, "tilda": true, "tildapublishing": true,
	"notionhq": true, "ghost": true, "hubspot": true, "godaddy": true, "weebly": true, "jimdo": true, "strikingly": true,
	"readymag": true, "durable": true, "hostinger": true, "webnode": true, "bubble": true, "softr": true, "typedream": true}

// builderAccount reports whether a profile link is a site builder's own
// account, not the site's (unless the site is the builder's).
func (s *site) builderAccount(raw string) bool {
	segs := urlSegs(raw)
	if len(segs) == 0 {
		return false
	}
	h := compact(strings.TrimPrefix(segs[len(segs)-1], "@"))
	return siteBuilders[h] && h != s.brand
}
