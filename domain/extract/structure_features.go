package extract

import (
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/launchdir/launchdir/domain"
)

// Features by the structure of the pages that show them: the panels of a
// tab set (all but one hidden until a tab is chosen) and feature pages
// linked one by one below a features path.

// tabFeatures adds to feat the headings of a tab set's panels when one of
// them is already a feature: a hidden panel is shown by its tab, so its
// heading is a feature as much as the visible one's ("Live bank feeds"
// visible, "Receipt capture" and "MTD VAT returns" behind their tabs).
func tabFeatures(p *page, feat *domain.DraftedValue) {
	var heads []string
	forEach(p.doc, true, func(n *html.Node) bool {
		if attr(n, "role") != "tabpanel" || foreign(n) {
			return true
		}
		forEach(n, true, func(h *html.Node) bool {
			if headingLevel[h.DataAtom] > 0 {
				heads = append(heads, domain.NormalizeSpace(nodeText(h)))
				return false
			}
			return true
		})
		return false
	})
	if len(heads) < 2 || !slices.ContainsFunc(heads, func(h string) bool { return slices.Contains(feat.List, h) }) {
		return
	}
	for _, h := range heads {
		if h != "" && !slices.Contains(feat.List, h) && len(strings.Fields(h)) <= 8 {
			feat.List = append(feat.List, h)
			feat.Evidence = append(feat.Evidence, p.ev(h))
		}
	}
}

// featurePages are the h1 headings of two or more pages one level below
// a features page's path ("/features/routing", "/features/analytics"): each
// page is one feature.
func (s *site) featurePages() domain.DraftedValue {
	var v domain.DraftedValue
	for _, p := range s.content() {
		if p.kind != kindFeatures {
			continue
		}
		parts := strings.Split(strings.Trim(p.base.Path, "/"), "/")
		if len(parts) != 2 || !kindPath(kindFeatures, parts[0]) {
			continue
		}
		for _, seg := range p.segs {
			if seg.level == 1 && !seg.foreign && seg.title != "" && len(strings.Fields(seg.title)) <= 6 && !slices.Contains(v.List, seg.title) {
				v.List = append(v.List, seg.title)
				v.Evidence = append(v.Evidence, p.ev(seg.title))
				break
			}
		}
	}
	if len(v.List) < 2 {
		return domain.DraftedValue{}
	}
	return v
}

// kindPath reports whether a path segment names a page of the kind.
func kindPath(kind, seg string) bool {
	for _, k := range kindPatterns {
		if k.kind == kind {
			return k.re.MatchString(seg)
		}
	}
	return false
}
