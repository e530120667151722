package web

// Stylesheet is the site's stylesheet (static/style.css), the one file the
// pages link to; the MCP App cards (web/apps, docs/apps.md) embed the same
// bytes, so the cards and the site share one stylesheet.
func Stylesheet() string {
	b, err := staticFS.ReadFile("static/style.css")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return string(b)
}
