package web

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// svgRoot is the root element of a badge as encoding/xml reads it.
type svgRoot struct {
	XMLName xml.Name `xml:"http://www.w3.org/2000/svg svg"`
	Width   string   `xml:"width,attr"`
	Height  string   `xml:"height,attr"`
	ViewBox string   `xml:"viewBox,attr"`
	Title   string   `xml:"title"`
	Texts   []string `xml:"g>text"`
}

// checkSVG parses body as XML (every token, then the root) and checks the
// dimensions against domain.BadgeDims.
func checkSVG(t *testing.T, body []byte, shape, size string) svgRoot {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(body))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("badge %s/%s is not well-formed XML: %v\n%s", shape, size, err, body)
		}
	}
	var root svgRoot
	if err := xml.Unmarshal(body, &root); err != nil {
		t.Fatalf("badge %s/%s: %v", shape, size, err)
	}
	w, h := domain.BadgeDims(shape, size)
	if root.Width != fmt.Sprint(w) || root.Height != fmt.Sprint(h) || root.ViewBox != fmt.Sprintf("0 0 %d %d", w, h) {
		t.Errorf("badge %s/%s: width=%q height=%q viewBox=%q, want %d x %d", shape, size, root.Width, root.Height, root.ViewBox, w, h)
	}
	return root
}

func TestRenderBadge_EveryStyle(t *testing.T) {
	t.Parallel()
	for kind := range domain.BadgeKinds {
		for _, shape := range domain.BadgeShapes {
			for _, mode := range domain.BadgeModes {
				for _, size := range domain.BadgeSizes {
					body := renderBadge(badgeSpec{Kind: kind, Site: "Launchdir", Product: "Acme", Rank: 2, Shape: shape, Mode: mode, Size: size})
					root := checkSVG(t, body, shape, size)
					if !strings.Contains(root.Title, domain.BadgeKinds[kind]+" Launchdir") {
						t.Errorf("%s %s: title %q does not name the badge", kind, shape, root.Title)
					}
					joined := strings.Join(root.Texts, "|")
					if !strings.Contains(joined, "Launchdir") || !strings.Contains(joined, strings.ToUpper(domain.BadgeKinds[kind])) {
						t.Errorf("%s %s: texts %q lack the label or site name", kind, shape, joined)
					}
					hasMedia := bytes.Contains(body, []byte("@media (prefers-color-scheme: dark)"))
					if hasMedia != (mode == "auto") {
						t.Errorf("%s %s %s: dark media query present=%v", kind, shape, mode, hasMedia)
					}
				}
			}
		}
	}
}

func TestRenderBadge_ModesDiffer(t *testing.T) {
	t.Parallel()
	light := renderBadge(badgeSpec{Kind: "listed", Site: "X", Shape: "standard", Mode: "light", Size: "m"})
	dark := renderBadge(badgeSpec{Kind: "listed", Site: "X", Shape: "standard", Mode: "dark", Size: "m"})
	if !bytes.Contains(light, []byte(lightColors.bg)) || bytes.Contains(light, []byte(darkColors.bg)) {
		t.Errorf("light badge does not use only the light background")
	}
	if !bytes.Contains(dark, []byte(darkColors.bg)) || bytes.Contains(dark, []byte(lightColors.bg)) {
		t.Errorf("dark badge does not use only the dark background")
	}
	outline := renderBadge(badgeSpec{Kind: "listed", Site: "X", Shape: "outline", Mode: "light", Size: "m"})
	if !bytes.Contains(outline, []byte(".bg{fill:none;stroke:"+lightColors.accent)) {
		t.Errorf("outline badge is not an accent outline: %s", outline)
	}
}

func TestRenderBadge_EscapesText(t *testing.T) {
	t.Parallel()
	evil := `Tom & Jerry's <script>alert("x")</script>` + "\x01"
	for _, shape := range domain.BadgeShapes {
		body := renderBadge(badgeSpec{Kind: "launched", Site: evil, Product: evil, Shape: shape, Mode: "auto", Size: "l"})
		if bytes.Contains(body, []byte("<script")) {
			t.Fatalf("%s: unescaped markup in badge: %s", shape, body)
		}
		root := checkSVG(t, body, shape, "l")
		if !strings.Contains(root.Title, `Tom & Jerry's <script>`) {
			t.Errorf("%s: title %q did not round-trip the escaped name", shape, root.Title)
		}
	}
}

func TestRenderBadge_RankAndFit(t *testing.T) {
	t.Parallel()
	body := renderBadge(badgeSpec{Kind: "launch-of-the-week", Site: "Launchdir", Rank: 3, Shape: "pill", Mode: "light", Size: "s"})
	if !bytes.Contains(body, []byte(">#3<")) {
		t.Errorf("launch-of-the-week badge does not show the rank: %s", body)
	}
	long := renderBadge(badgeSpec{Kind: "listed", Site: strings.Repeat("Very long directory name ", 4), Shape: "square", Mode: "light", Size: "m"})
	if !bytes.Contains(long, []byte(`lengthAdjust="spacingAndGlyphs"`)) {
		t.Errorf("a long site name is not fitted into the square badge")
	}
	short := renderBadge(badgeSpec{Kind: "listed", Site: "Ld", Shape: "standard", Mode: "light", Size: "m"})
	if bytes.Contains(short, []byte(`textLength`)) {
		t.Errorf("a short site name was squeezed: %s", short)
	}
}
