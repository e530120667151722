package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// blogMilestones: a blog's index lists posts, and a post is a milestone
// only when its title names the product ("Tuntikirja 2.0: projektit",
// "Ferrytask now works with Slack"): advice posts, reviews of the year
// and customer stories are not the product's history.
func (s *site) blogMilestones() []domain.DraftedMilestone {
	var out []domain.DraftedMilestone
	for _, p := range s.pages {
		if blogIndex(p) {
			out = append(out, readDatedEntries(p, s.namedIn)...)
		}
	}
	return out
}

// namedIn reports whether t names the product as a word of its own, as
// written (its case), or inflected by up to three letters ("Tuntikirjan
// mobiilisovellus"): a longer word that starts with the name is another
// word ("tuntikirjanpitoon", bookkeeping of hours, beside Tuntikirja).
func (s *site) namedIn(t string) bool {
	if s.name == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(t[i:], s.name)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(s.name)
		i = end
		if r, _ := utf8.DecodeLastRuneInString(t[:start]); start > 0 && unicode.IsLetter(r) {
			continue
		}
		n := 0
		for _, r := range t[end:] {
			if !unicode.IsLetter(r) || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
				break
			}
			n++
		}
		if n <= 3 {
			return true
		}
	}
}

// pressPathRe and pressHdr: a press page, by its path or its h1.
var (
	pressPathRe = lazyMustCompile(`(?i)/(?:press|presse|pressroom|press-releases|pressreleases|newsroom|pressemeddelelser|pressmeddelanden|pressemitteilungen|persberichten|lehdisto|tiedotteet|sajto|presa|comunicate|siaran-pers|bao-chi|typos|boudo|prosrelease)/?$`)
	pressHdr    = lazyMustCompile(`(?i)^(?:press|press releases|newsroom|presse|pressemitteilungen|communiqués de presse|pressemeddelelser|pressmeddelanden|persberichten|lehdistö|lehdistötiedotteet|tiedotteet|` +
		`sajtó|sajtóközlemények|presă|comunicate de presă|siaran pers|báo chí|thông cáo báo chí|τύπος|δελτία τύπου|プレス|プレスリリース|新闻稿|新聞稿|보도자료|언론 보도)$`)
)

func pressPage(p *page) bool {
	if pressPathRe.MatchString(p.base.Path) {
		return true
	}
	for _, seg := range p.segs {
		if seg.level == 1 {
			return pressHdr.MatchString(seg.title)
		}
	}
	return false
}

// pressMilestones: the company's own press releases on a press page, as
// lines that open with their date ("12. marts 2024 — Fakturly lancerer
// ...", "October 2, 2024 — Inkwell 3 released"). A release names the
// product; a dated line that links to another site is coverage by others
// (traps), as is a line that does not name the product.
func (s *site) pressMilestones() []domain.DraftedMilestone {
	var out []domain.DraftedMilestone
	for _, p := range s.pages {
		if p.kind == kindHome || !pressPage(p) {
			continue
		}
		for _, l := range p.ownLines() {
			if l.tag != atom.Li && l.tag != atom.P || l.footer {
				continue
			}
			d, rest, ok := findDate(l.text, true)
			if !ok || rest == "" || !s.namedIn(rest) || linksElsewhere(p, l.node) || patchTag.MatchString(rest) || noticeRe.MatchString(rest) {
				continue
			}
			if t, ok := milestoneTitle(rest); ok {
				out = append(out, domain.DraftedMilestone{Milestone: domain.Milestone{Date: d, Title: truncate(t, 200)},
					Evidence: []domain.Evidence{p.ev(l.text)}})
			}
		}
	}
	return out
}

// linksElsewhere reports whether n holds a link to another site.
func linksElsewhere(p *page, n *html.Node) bool {
	if n == nil {
		return false
	}
	found := false
	forEach(n, false, func(c *html.Node) bool {
		if c.DataAtom == atom.A && attr(c, "href") != "" && !sameSite(p, attr(c, "href")) {
			found = true
		}
		return !found
	})
	return found
}

// detailsMilestones: a history list folded into a <details> element whose
// <summary> names it ("Η ιστορία μας", "Our history"): its entries that
// open with a date are milestones, as under a history heading.
func (s *site) detailsMilestones() []domain.DraftedMilestone {
	var out []domain.DraftedMilestone
	for _, p := range s.content() {
		if p.kind == kindPricing || blogIndex(p) {
			continue
		}
		var folds []*html.Node
		forEach(p.doc, false, func(n *html.Node) bool {
			if n.DataAtom != atom.Details || foreign(n) {
				return true
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.DataAtom == atom.Summary && historyHdr.MatchString(nodeText(c)) {
					folds = append(folds, n)
				}
			}
			return true
		})
		if len(folds) == 0 {
			continue
		}
		for _, seg := range p.segs {
			for _, l := range seg.lines {
				if l.tag != atom.Li && l.tag != atom.P || l.foreign || l.footer || !slices.ContainsFunc(folds, func(f *html.Node) bool { return isUnder(l.node, f) }) {
					continue
				}
				d, rest, ok := findDate(l.text, true)
				if !ok || rest == "" || patchTag.MatchString(rest) {
					continue
				}
				if t, ok := milestoneTitle(rest); ok {
					out = append(out, domain.DraftedMilestone{Milestone: domain.Milestone{Date: d, Title: truncate(t, 200)},
						Evidence: []domain.Evidence{p.ev(l.text)}})
				}
			}
		}
	}
	return out
}
