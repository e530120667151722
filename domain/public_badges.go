package domain

import (
	"context"
	"fmt"
	"html"
	"net/url"
)

// Badge options.
var (
	BadgeShapes = []string{"standard", "outline", "pill", "banner", "square"}
	BadgeModes  = []string{"light", "dark", "auto"}
	BadgeSizes  = []string{"s", "m", "l"}
)

// BadgeDims returns the pixel width and height of a badge shape at a size.
func BadgeDims(shape, size string) (w, h int) {
	base := map[string][2]int{"standard": {250, 54}, "outline": {250, 54}, "pill": {220, 44}, "banner": {468, 60}, "square": {120, 120}}[shape]
	if base == [2]int{} {
		base = [2]int{250, 54}
	}
	scale := map[string]float64{"s": 0.75, "m": 1, "l": 1.25}[size]
	if scale == 0 {
		scale = 1
	}
	return int(float64(base[0]) * scale), int(float64(base[1]) * scale)
}

// BadgeFacts is what decides which badges a listing may show.
type BadgeFacts struct {
	Slug    string
	Name    string
	Tagline string
	URL     string // the homepage
	Status  string // live, scheduled or awaiting_badge
	// LaunchWeek is the Monday (YYYY-MM-DD) of its launch week, "" when none.
	LaunchWeek string
	Launched   bool
	Featured   bool
	Verified   bool
	Awards     []AwardRef
}

// BadgeKinds names the badges and their labels.
var BadgeKinds = map[string]string{
	"listed":             "Listed on",
	"launched":           "Launched on",
	"featured":           "Featured on",
	"verified":           "Verified on",
	"launch-of-the-week": "Launch of the Week on",
}

// GetBadgesInput is the input of get_badges (GET /listings/{slug}/badges).
type GetBadgesInput struct {
	Slug  string `json:"slug" jsonschema:"maxLength=220,pattern=^[a-z0-9][a-z0-9-]{0\\,219}$" jsonschema_description:"The listing's slug."`
	Shape string `json:"shape,omitempty" jsonschema:"enum=standard,enum=outline,enum=pill,enum=banner,enum=square,default=standard"`
	Mode  string `json:"mode,omitempty" jsonschema:"enum=light,enum=dark,enum=auto,default=auto" jsonschema_description:"auto follows the viewer's light or dark preference."`
	Size  string `json:"size,omitempty" jsonschema:"enum=s,enum=m,enum=l,default=m"`
}

// BadgeStyle is one style of a badge image.
type BadgeStyle struct {
	Shape  string `json:"shape"`
	Mode   string `json:"mode"`
	Size   string `json:"size"`
	SVGURL string `json:"svg_url"`
}

// Badge is one badge a listing may show.
type Badge struct {
	Kind      string       `json:"kind" jsonschema:"enum=listed,enum=launched,enum=featured,enum=verified,enum=launch-of-the-week"`
	Label     string       `json:"label"`
	SVGURL    string       `json:"svg_url" jsonschema_description:"SVG image in the requested shape, mode and size."`
	Width     int          `json:"width"`
	Height    int          `json:"height"`
	EmbedHTML string       `json:"embed_html" jsonschema_description:"HTML to paste into a page: the image linked to the listing's page here."`
	Styles    []BadgeStyle `json:"styles" jsonschema_description:"The same badge in every shape, mode and size."`
}

// GetBadgesOutput lists the badges a listing may show.
type GetBadgesOutput struct {
	Listing string  `json:"listing" jsonschema_description:"The listing's slug."`
	Name    string  `json:"name" jsonschema_description:"The listing's name."`
	PageURL string  `json:"page_url" jsonschema_description:"Every badge links here; the free launch looks for this link."`
	Shape   string  `json:"shape"`
	Mode    string  `json:"mode"`
	Size    string  `json:"size"`
	Items   []Badge `json:"items"`
}

// BadgeSVGURL is the address of a badge image.
func (s Site) BadgeSVGURL(slug, kind, shape, mode, size string) string {
	q := url.Values{"shape": {shape}, "mode": {mode}, "size": {size}}
	return s.URL(fmt.Sprintf("/badges/%s/%s.svg?%s", url.PathEscape(slug), kind, q.Encode()))
}

// BadgeEmbedHTML is the HTML that shows a badge: its image linked to the
// listing's page (the link the free launch looks for).
func (s Site) BadgeEmbedHTML(slug, name, kind, shape, mode, size string) string {
	w, h := BadgeDims(shape, size)
	alt := fmt.Sprintf("%s - %s %s", name, BadgeKinds[kind], s.Name)
	return fmt.Sprintf(`<a href="%s" target="_blank" rel="noopener"><img src="%s" alt="%s" width="%d" height="%d"></a>`,
		html.EscapeString(s.ListingPageURL(slug)), html.EscapeString(s.BadgeSVGURL(slug, kind, shape, mode, size)), html.EscapeString(alt), w, h)
}

// GetBadges returns the badges a listing may show with embed code and SVG URLs.
func (s *Service) GetBadges(ctx context.Context, in GetBadgesInput) (GetBadgesOutput, error) {
	f, err := s.Store.BadgeFacts(ctx, in.Slug)
	if err != nil {
		return GetBadgesOutput{}, err
	}
	shape, mode, size := or(in.Shape, "standard"), or(in.Mode, "auto"), or(in.Size, "m")
	site := s.SiteNow(ctx) // the name as set now; the links follow the host name the client used
	out := GetBadgesOutput{Listing: f.Slug, Name: f.Name, PageURL: site.ListingPageURL(f.Slug), Shape: shape, Mode: mode, Size: size}
	for _, kind := range AllowedBadges(f) {
		w, h := BadgeDims(shape, size)
		svg := site.BadgeSVGURL(f.Slug, kind, shape, mode, size)
		b := Badge{Kind: kind, Label: BadgeKinds[kind] + " " + site.Name, SVGURL: svg, Width: w, Height: h,
			EmbedHTML: site.BadgeEmbedHTML(f.Slug, f.Name, kind, shape, mode, size)}
		for _, sh := range BadgeShapes {
			for _, m := range BadgeModes {
				for _, sz := range BadgeSizes {
					b.Styles = append(b.Styles, BadgeStyle{Shape: sh, Mode: m, Size: sz, SVGURL: site.BadgeSVGURL(f.Slug, kind, sh, m, sz)})
				}
			}
		}
		out.Items = append(out.Items, b)
	}
	out.Items = nonNil(out.Items)
	return out, nil
}

// AllowedBadges returns the badge kinds a listing may show, in display order.
func AllowedBadges(f *BadgeFacts) []string {
	kinds := []string{"listed"}
	if f.Launched {
		kinds = append(kinds, "launched")
	}
	if f.Featured {
		kinds = append(kinds, "featured")
	}
	if f.Verified {
		kinds = append(kinds, "verified")
	}
	if len(f.Awards) > 0 {
		kinds = append(kinds, "launch-of-the-week")
	}
	return kinds
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// UpcomingListing is the public page of a listing that waits in the free
// queue for our badge (awaiting_badge): it is not in the directory yet, but
// the badge on its homepage links here (docs/free-launch.md "The badge
// before launch"). It shows only what the owner published by queueing it:
// the name, tagline, homepage and planned week.
type UpcomingListing struct {
	Slug, Name, Tagline, URL string
	// LaunchWeek is the planned week's Monday (YYYY-MM-DD).
	LaunchWeek string
}

// GetUpcomingListing returns the upcoming page of an awaiting_badge
// listing; any other slug is not_found (a public listing has its full page).
func (s *Service) GetUpcomingListing(ctx context.Context, slug string) (*UpcomingListing, error) {
	f, err := s.Store.BadgeFacts(ctx, slug)
	if err != nil {
		return nil, err
	}
	if f.Status != ListingAwaitingBadge {
		return nil, NotFound("listing", slug)
	}
	return &UpcomingListing{Slug: f.Slug, Name: f.Name, Tagline: f.Tagline, URL: f.URL, LaunchWeek: f.LaunchWeek}, nil
}
