package domain

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"
)

// Trophy badges (docs/trophies.md "Trophy badges"): every verified trophy of
// a public listing, and every award won here, has an embeddable badge at
// /badges/{slug}/trophies/{key}.svg in the shapes, modes and sizes of the
// listing badges (get_badges). Pending, rejected and unconfirmed trophies
// have none (404).

// TrophyBadgeKind is the renderer's kind of a trophy badge.
const TrophyBadgeKind = "trophy"

// TrophyBadge is a verified trophy's badge in the cabinet answer.
type TrophyBadge struct {
	Label     string `json:"label"`
	SVGURL    string `json:"svg_url" jsonschema_description:"SVG image; add shape, mode and size as in get_badges."`
	EmbedHTML string `json:"embed_html" jsonschema_description:"The image linked to the listing's page here."`
}

// TrophyBadgeKey is the stable key of t's badge address: the trophy_id of a
// trophy won elsewhere, week-MONDAY of a Launch of the Week award and
// programme-SLUG of a programme win (one entry per listing and programme).
// "" when t has none.
func TrophyBadgeKey(t Trophy) string {
	if t.ID > 0 {
		return strconv.FormatInt(t.ID, 10)
	}
	if t.Source != "here" {
		return ""
	}
	u, err := url.Parse(t.AwardURL)
	if err != nil {
		return ""
	}
	if rest, ok := strings.CutPrefix(u.Path, "/weeks/"); ok && rest != "" && !strings.Contains(rest, "/") {
		return "week-" + rest
	}
	if rest, ok := strings.CutPrefix(u.Path, "/programmes/"); ok && rest != "" && !strings.Contains(rest, "/") {
		return "programme-" + rest
	}
	return ""
}

// TrophyBadgeTitle is what a trophy badge names: "#1 Product of the Week"
// (the rank is not repeated when the title has it).
func TrophyBadgeTitle(t Trophy) string {
	if t.Rank > 0 && !strings.Contains(t.Title, "#"+strconv.Itoa(t.Rank)) {
		return "#" + strconv.Itoa(t.Rank) + " " + t.Title
	}
	return t.Title
}

// TrophyBadgeSVGURL is the address of a trophy badge image.
func (s Site) TrophyBadgeSVGURL(slug, key, shape, mode, size string) string {
	q := url.Values{"shape": {shape}, "mode": {mode}, "size": {size}}
	return s.URL(fmt.Sprintf("/badges/%s/trophies/%s.svg?%s", url.PathEscape(slug), url.PathEscape(key), q.Encode()))
}

// trophyPlatform is where t was won: the site's name now for awards here.
func trophyPlatform(site Site, t Trophy) string {
	if t.Source == "here" {
		return site.Name
	}
	return t.Platform
}

// TrophyBadgeFor is t's badge (default style) on listing slug named name;
// nil unless t is verified and has a key.
func TrophyBadgeFor(site Site, slug, name string, t Trophy) *TrophyBadge {
	key := TrophyBadgeKey(t)
	if t.State != TrophyVerified || key == "" {
		return nil
	}
	label := TrophyBadgeTitle(t) + " - " + trophyPlatform(site, t)
	svg := site.TrophyBadgeSVGURL(slug, key, "standard", "auto", "m")
	w, h := BadgeDims("standard", "m")
	embed := fmt.Sprintf(`<a href="%s" target="_blank" rel="noopener"><img src="%s" alt="%s" width="%d" height="%d"></a>`,
		html.EscapeString(site.ListingPageURL(slug)), html.EscapeString(svg), html.EscapeString(name+" - "+label), w, h)
	return &TrophyBadge{Label: label, SVGURL: svg, EmbedHTML: embed}
}

// addTrophyBadges sets the badge of every verified entry of c.
func (s *Service) addTrophyBadges(ctx context.Context, c *TrophyCabinet) {
	site := s.SiteNow(ctx)
	for i := range c.Items {
		c.Items[i].Badge = TrophyBadgeFor(site, c.Listing, c.Name, c.Items[i])
	}
}

// TrophyBadgeFacts is what a trophy badge image shows.
type TrophyBadgeFacts struct {
	Product  string // the listing's name
	Title    string // "#1 Product of the Week"
	Platform string // "Product Hunt", or the site's name for awards here
	Site     string // the site's name now
	Rank     int
}

// GetTrophyBadge returns what the badge of trophy key of public listing slug
// shows; ENotFound when the listing is not public or the trophy is not one
// of its verified trophies or awards.
func (s *Service) GetTrophyBadge(ctx context.Context, slug, key string) (*TrophyBadgeFacts, error) {
	c, err := s.GetTrophyCabinet(ctx, GetTrophyCabinetInput{Slug: slug})
	if err != nil {
		return nil, err
	}
	site := s.SiteNow(ctx)
	for _, t := range c.Items {
		if t.State == TrophyVerified && TrophyBadgeKey(t) == key {
			return &TrophyBadgeFacts{Product: c.Name, Title: TrophyBadgeTitle(t), Platform: trophyPlatform(site, t), Site: site.Name, Rank: t.Rank}, nil
		}
	}
	return nil, Errorf(ENotFound, "Listing %q has no verified trophy %q; only verified trophies have badges.", slug, key)
}
