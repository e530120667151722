package web

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// badgeSpec is everything a badge image shows.
type badgeSpec struct {
	Kind    string // listed, launched, featured, verified, launch-of-the-week
	Site    string // the directory's name
	Product string // the listing's name
	Rank    int    // best Launch of the Week rank, for launch-of-the-week; the trophy's rank
	// Label replaces the kind's words on the small line (trophy badges:
	// "#1 Product of the Week"); Site is then where it was won.
	Label string
	By    string // the directory's name, on a trophy badge won elsewhere
	Shape string
	Mode  string
	Size  string
}

// palette is one colour scheme of a badge.
type palette struct{ bg, border, fg, muted, accent, glyph string }

var (
	lightColors = palette{bg: "#ffffff", border: "#d0d7de", fg: "#1f2328", muted: "#59636e", accent: "#e8590c", glyph: "#ffffff"}
	darkColors  = palette{bg: "#161b22", border: "#3d444d", fg: "#f0f6fc", muted: "#9198a1", accent: "#ff8a3d", glyph: "#161b22"}
)

// css writes the badge's class rules for one palette. Outline badges have no
// fill and an accent border.
func (p palette) css(outline bool) string {
	bg, border := p.bg, p.border
	if outline {
		bg, border = "none", p.accent
	}
	return fmt.Sprintf(".bg{fill:%s;stroke:%s}.t1{fill:%s}.t2{fill:%s}.t3{fill:%s}.ic{fill:%s}.gl{fill:%s}.gs{fill:none;stroke:%s}",
		bg, border, p.muted, p.fg, p.muted, p.accent, p.glyph, p.glyph)
}

// badgeLayout places the parts of a badge in the shape's base (size m) coordinates.
type badgeLayout struct {
	w, h, rx           float64
	cx, cy, r          float64 // icon circle
	tx, labelY, nameY  float64 // text start (or centre for square) and baselines
	labelFS, nameFS    float64
	textW              float64 // room for the texts
	anchor             string
	productX, productW float64 // banner only: the product name, right-aligned at productX
}

func layoutFor(shape string) badgeLayout {
	switch shape {
	case "pill":
		return badgeLayout{w: 220, h: 44, rx: 22, cx: 22, cy: 22, r: 14, tx: 42, labelY: 18, nameY: 34, labelFS: 8, nameFS: 15, textW: 162, anchor: "start"}
	case "banner":
		return badgeLayout{w: 468, h: 60, rx: 6, cx: 30, cy: 30, r: 19, tx: 60, labelY: 25, nameY: 46, labelFS: 10, nameFS: 20, textW: 180, anchor: "start",
			productX: 452, productW: 200}
	case "square":
		return badgeLayout{w: 120, h: 120, rx: 12, cx: 60, cy: 38, r: 22, tx: 60, labelY: 78, nameY: 100, labelFS: 8.5, nameFS: 16, textW: 104, anchor: "middle"}
	}
	return badgeLayout{w: 250, h: 54, rx: 8, cx: 27, cy: 27, r: 17, tx: 52, labelY: 22, nameY: 41, labelFS: 9, nameFS: 18, textW: 186, anchor: "start"}
}

// esc escapes text for XML content and attribute values; characters XML cannot
// carry become U+FFFD.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// fitText returns a textLength attribute when text at font size fs would
// overflow width (a rough width estimate for sans-serif fonts).
func fitText(text string, fs, width, perChar float64) string {
	est := float64(utf8.RuneCountInString(text)) * fs * perChar
	if est <= width {
		return ""
	}
	return fmt.Sprintf(` textLength="%s" lengthAdjust="spacingAndGlyphs"`, num(width))
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// glyph draws the kind's mark inside the icon circle.
func glyph(kind string, rank int, l badgeLayout) string {
	cx, cy, u := l.cx, l.cy, l.r/17 // u scales a mark drawn for r=17
	p := func(x, y float64) string { return num(cx+x*u) + " " + num(cy+y*u) }
	switch kind {
	case "verified":
		return `<path class="gs" stroke-width="` + num(3*u) + `" stroke-linecap="round" stroke-linejoin="round" d="M` +
			p(-7, 0) + " L" + p(-2, 5) + " L" + p(7, -5) + `"/>`
	case "featured":
		var pts []string
		for _, v := range [][2]float64{{0, -9}, {2.6, -3.2}, {8.6, -2.8}, {4, 1.2}, {5.4, 7.4}, {0, 4}, {-5.4, 7.4}, {-4, 1.2}, {-8.6, -2.8}, {-2.6, -3.2}} {
			pts = append(pts, p(v[0], v[1]))
		}
		return `<polygon class="gl" points="` + strings.Join(pts, " ") + `"/>`
	case domain.TrophyBadgeKind:
		if rank == 0 {
			return glyph("featured", 0, l)
		}
		fallthrough
	case "launch-of-the-week":
		label := "#1"
		if rank > 0 {
			label = "#" + strconv.Itoa(rank)
		}
		return fmt.Sprintf(`<text class="gl" x="%s" y="%s" text-anchor="middle" font-size="%s" font-weight="700">%s</text>`,
			num(cx), num(cy+5*u), num(14*u), esc(label))
	}
	// listed and launched: an arrow pointing up.
	return `<path class="gl" d="M` + p(0, -9) + " L" + p(8, 1) + " L" + p(3, 1) + " L" + p(3, 9) + " L" + p(-3, 9) + " L" + p(-3, 1) + " L" + p(-8, 1) + ` Z"/>`
}

// renderBadge draws a badge as a standalone SVG document whose width, height and
// viewBox are domain.BadgeDims for its shape and size.
func renderBadge(b badgeSpec) []byte {
	w, h := domain.BadgeDims(b.Shape, b.Size)
	l := layoutFor(b.Shape)
	scale := float64(w) / l.w
	outline := b.Shape == "outline"

	var style string
	switch b.Mode {
	case "dark":
		style = darkColors.css(outline)
	case "light":
		style = lightColors.css(outline)
	default: // auto follows the viewer's preference
		style = lightColors.css(outline) + "@media (prefers-color-scheme: dark){" + darkColors.css(outline) + "}"
	}

	prefix := domain.BadgeKinds[b.Kind]
	title := prefix + " " + b.Site
	if b.Label != "" {
		prefix = b.Label
		title = prefix + " - " + b.Site
		if b.By != "" && b.By != b.Site {
			title += ", verified by " + b.By
		}
	}
	label := strings.ToUpper(prefix)
	if b.Product != "" {
		title = b.Product + ": " + title
	}
	font := `font-family="system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"`

	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`, w, h, w, h, esc(title))
	fmt.Fprintf(&s, `<title>%s</title><style>%s</style>`, esc(title), style)
	fmt.Fprintf(&s, `<g transform="scale(%s)" %s>`, num(scale), font)
	fmt.Fprintf(&s, `<rect class="bg" x="0.75" y="0.75" width="%s" height="%s" rx="%s" stroke-width="1.5"/>`, num(l.w-1.5), num(l.h-1.5), num(l.rx))
	fmt.Fprintf(&s, `<circle class="ic" cx="%s" cy="%s" r="%s"/>`, num(l.cx), num(l.cy), num(l.r))
	s.WriteString(glyph(b.Kind, b.Rank, l))
	fmt.Fprintf(&s, `<text class="t1" x="%s" y="%s" font-size="%s" font-weight="600" letter-spacing="0.6" text-anchor="%s"%s>%s</text>`,
		num(l.tx), num(l.labelY), num(l.labelFS), l.anchor, fitText(label, l.labelFS, l.textW, 0.72), esc(label))
	fmt.Fprintf(&s, `<text class="t2" x="%s" y="%s" font-size="%s" font-weight="700" text-anchor="%s"%s>%s</text>`,
		num(l.tx), num(l.nameY), num(l.nameFS), l.anchor, fitText(b.Site, l.nameFS, l.textW, 0.62), esc(b.Site))
	if l.productW > 0 && b.Product != "" {
		fmt.Fprintf(&s, `<text class="t3" x="%s" y="%s" font-size="15" font-weight="500" text-anchor="end"%s>%s</text>`,
			num(l.productX), num(l.h/2+5), fitText(b.Product, 15, l.productW, 0.6), esc(b.Product))
	}
	s.WriteString(`</g></svg>`)
	return []byte(s.String())
}

// badge serves GET /badges/{slug}/{kind}.svg?shape=&mode=&size=. A listing
// that does not exist or may not show the badge is 404; a bad option is 400.
func (h *handler) badge(w http.ResponseWriter, r *http.Request) {
	slug, ok := h.badgeSlug(w, r)
	if !ok {
		return
	}
	kind, isSVG := strings.CutSuffix(r.PathValue("file"), ".svg")
	if _, known := domain.BadgeKinds[kind]; !isSVG || !known {
		h.badgeNotFound(w, r, "")
		return
	}
	spec := badgeSpec{Kind: kind, Site: h.svc.SiteNow(r.Context()).Name}
	if !h.badgeStyle(w, r, &spec) {
		return
	}
	ctx := r.Context()
	badges, err := h.svc.GetBadges(ctx, domain.GetBadgesInput{Slug: slug, Shape: spec.Shape, Mode: spec.Mode, Size: spec.Size})
	if err != nil {
		h.badgeFail(w, r, err)
		return
	}
	if !slices.ContainsFunc(badges.Items, func(b domain.Badge) bool { return b.Kind == kind }) {
		h.badgeNotFound(w, r, "This listing does not have that badge.")
		return
	}
	l, err := h.svc.GetListing(ctx, domain.SlugInput{Slug: slug})
	if nf := (*domain.ListingNotFound)(nil); errors.As(err, &nf) {
		// Waiting for this very badge in the free queue: not in the
		// directory yet, but its badge shows (docs/free-launch.md).
		up, uerr := h.svc.GetUpcomingListing(ctx, slug)
		if uerr != nil {
			h.badgeFail(w, r, err)
			return
		}
		l, err = &domain.Listing{}, nil
		l.Name = up.Name
	}
	if err != nil {
		h.badgeFail(w, r, err)
		return
	}
	spec.Product = l.Name
	if kind == "launch-of-the-week" {
		for _, a := range l.Awards {
			if spec.Rank == 0 || a.Rank < spec.Rank {
				spec.Rank = a.Rank
			}
		}
	}
	h.serveBadge(w, r, renderBadge(spec))
}

// badgeStyle reads the query's shape, mode and size into spec (defaults:
// standard, auto, m); a value that is not one of the options is a 400
// naming the parameter, and false.
func (h *handler) badgeStyle(w http.ResponseWriter, r *http.Request, spec *badgeSpec) bool {
	q := r.URL.Query()
	spec.Shape, spec.Mode, spec.Size = q.Get("shape"), q.Get("mode"), q.Get("size")
	for _, opt := range []struct {
		name string
		val  *string
		def  string
		all  []string
	}{{"shape", &spec.Shape, "standard", domain.BadgeShapes}, {"mode", &spec.Mode, "auto", domain.BadgeModes}, {"size", &spec.Size, "m", domain.BadgeSizes}} {
		if *opt.val == "" {
			*opt.val = opt.def
		}
		if !slices.Contains(opt.all, *opt.val) {
			h.badgeFail(w, r, domain.Invalid(opt.name, "enum", "%s must be one of %s.", opt.name, strings.Join(opt.all, ", ")))
			return false
		}
	}
	return true
}

// serveBadge writes a badge image, embeddable anywhere, with its ETag.
func (h *handler) serveBadge(w http.ResponseWriter, r *http.Request, body []byte) {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`

	hd := w.Header()
	hd.Del("X-Frame-Options") // a badge is meant to be embedded elsewhere
	hd.Set("Content-Security-Policy", badgeCSP)
	hd.Set("Cross-Origin-Resource-Policy", "cross-origin")
	hd.Set("Content-Type", "image/svg+xml")
	hd.Set("Cache-Control", "public, max-age=3600")
	hd.Set("ETag", etag)
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, etag) {
		w.WriteHeader(statusNotModified)
		return
	}
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
