package domain

import (
	"context"
	"net"
	"net/url"
	"slices"
	"strings"
)

// Public paths of the service, relative to the site's origin.
const (
	APIPrefix   = "/v1"
	MCPPath     = "/mcp"
	OpenAPIPath = "/v1/openapi.json"
	DocsPath    = "/docs"
	// AccountPath is the signed-in account page (API keys, connected apps).
	AccountPath = "/account"
	// SignInPath is the sign-in page for people.
	SignInPath = "/signin"
)

// URL joins the site's public origin and a path.
func (s Site) URL(path string) string { return strings.TrimRight(s.BaseURL, "/") + path }

// In returns the site as the request of ctx sees it: BaseURL is the origin
// the request used (WithOrigin) when it carries one, else the default
// origin. Every URL built for a response or for mail sent during a request
// goes through it; background jobs have no request origin and use the
// default.
func (s Site) In(ctx context.Context) Site {
	if o, ok := OriginFrom(ctx); ok {
		s.BaseURL = o
	}
	return s
}

// Origins says where the service is reachable. With a configured public
// origin (--base-url) there is one, Default. Without one, on a loopback
// listener, LoopbackPort is the listener's port and a request that names a
// loopback host (localhost, 127.0.0.1, [::1]) with that port is answered
// from that origin, so that the URLs it gets (OAuth metadata, links, mail)
// match the address the client used; any other Host gets Default, so a
// Host header never puts a foreign name into links.
type Origins struct {
	Default      string // scheme://host[:port], no trailing slash
	LoopbackPort string // "" when Default is the only origin
}

// ForHost returns the origin of a request whose Host header is host.
func (o Origins) ForHost(host string) string {
	if o.LoopbackPort == "" {
		return o.Default
	}
	h, p, err := net.SplitHostPort(host)
	if err != nil || p != o.LoopbackPort {
		return o.Default
	}
	switch strings.ToLower(h) {
	case "localhost", "127.0.0.1":
		return "http://" + strings.ToLower(h) + ":" + p
	case "::1":
		return "http://[::1]:" + p
	}
	return o.Default
}

type originKey struct{}

// WithOrigin returns ctx carrying the public origin a request used (one
// chosen by Origins.ForHost, never the raw Host header).
func WithOrigin(ctx context.Context, origin string) context.Context {
	return context.WithValue(ctx, originKey{}, origin)
}

// OriginFrom returns the origin WithOrigin put into ctx.
func OriginFrom(ctx context.Context) (string, bool) {
	o, ok := ctx.Value(originKey{}).(string)
	return o, ok && o != ""
}

// ListingPageURL is the public page of a listing on this site.
func (s Site) ListingPageURL(slug string) string { return s.URL("/listings/" + url.PathEscape(slug)) }

// CategoryPageURL is the public page of a category.
func (s Site) CategoryPageURL(slug string) string {
	return s.URL("/categories/" + url.PathEscape(slug))
}

// FounderPageURL is the public page of a founder.
func (s Site) FounderPageURL(slug string) string { return s.URL("/founders/" + url.PathEscape(slug)) }

// BlogPageURL is the public page of a blog post.
func (s Site) BlogPageURL(slug string) string { return s.URL("/blog/" + url.PathEscape(slug)) }

// SiteInfo describes the site and where its interfaces are.
type SiteInfo struct {
	Name             string            `json:"name"`
	Purpose          string            `json:"purpose"`
	URL              string            `json:"url" jsonschema_description:"The site's home page."`
	APIBaseURL       string            `json:"api_base_url" jsonschema_description:"Root of the REST API; already contains /v1."`
	OpenAPIURL       string            `json:"openapi_url"`
	MCPURL           string            `json:"mcp_url" jsonschema_description:"Model Context Protocol server (Streamable HTTP)."`
	DocsURL          string            `json:"docs_url"`
	LiveListings     int               `json:"live_listings"`
	UpcomingListings int               `json:"upcoming_listings"`
	Categories       int               `json:"categories"`
	Stages           []Stage           `json:"stages" jsonschema_description:"Business stage slugs usable in search_listings."`
	WeekRule         string            `json:"week_rule"`
	Rankings         map[string]string `json:"rankings" jsonschema_description:"The separate ranking systems and what each means."`
	PublicURLs       map[string]string `json:"public_urls" jsonschema_description:"Pages for people: launches, leaderboards, founders, blog, awards."`
}

// Stage is a business stage.
type Stage struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// Stages are the business stages, earliest first.
var Stages = []Stage{
	{"idea", "Idea"}, {"pre-launch", "Pre-launch"}, {"beta", "Beta"}, {"launched", "Launched"},
	{"growing", "Growing"}, {"profitable", "Profitable"}, {"acquired", "Acquired"},
}

// IsStage tells whether slug is the slug of one of Stages.
func IsStage(slug string) bool {
	return slices.ContainsFunc(Stages, func(st Stage) bool { return st.Slug == slug })
}

// StageSlugs lists the slugs of Stages, comma-separated, for a message.
func StageSlugs() string {
	out := make([]string, len(Stages))
	for i, st := range Stages {
		out[i] = st.Slug
	}
	return strings.Join(out, ", ")
}

// GetSiteInfo describes the site, its counts and where its API, docs and MCP server are.
func (s *Service) GetSiteInfo(ctx context.Context, _ Empty) (SiteInfo, error) {
	st, err := s.Store.SiteStats(ctx)
	if err != nil {
		return SiteInfo{}, err
	}
	site := s.SiteNow(ctx)
	return SiteInfo{
		Name: site.Name, Purpose: site.Purpose, URL: site.URL("/"),
		APIBaseURL: site.URL(APIPrefix), OpenAPIURL: site.URL(OpenAPIPath), MCPURL: site.URL(MCPPath),
		DocsURL: site.URL(DocsPath), LiveListings: st.LiveListings, UpcomingListings: st.UpcomingListings,
		Categories: st.Categories, Stages: Stages,
		WeekRule: "Launch weeks run Monday 00:00 to Sunday 24:00 UTC; a date names the week it falls in.",
		Rankings: map[string]string{
			"community":     "Community votes from people on the site, weekly or all-time. Awards follow community votes only. There is no voting through the API.",
			"billboard":     "PAID ranking by money contributed; always present it as paid.",
			"domain-rating": "Domain Rating of the product's website from a third-party SEO provider.",
			"revenue":       "Monthly revenue reported by founders.",
		},
		PublicURLs: map[string]string{
			"launches":     site.URL("/launches"),
			"leaderboards": site.URL("/leaderboards/community-weekly"),
			"founders":     site.URL("/founders"),
			"blog":         site.URL("/blog"),
			"awards":       site.URL("/awards"),
			"categories":   site.URL("/categories"),
		},
	}, nil
}
