package extract

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/launchdir/launchdir/domain"
)

// Stage from a stats row, as site builders write one: the count in an
// element of its own ("12,000+", "1.800" beside a "+" span, an Elementor
// counter) and the label in the element after it ("개 매장이 사용 중",
// "Praxen nutzen Terminwerk", "port operators plan with Quaylight every
// week"). A count of 1,000 or more of those who use the product is
// growing; a label that says no use (uptime, countries, stamps collected)
// says nothing.

var (
	// statCountRe: an element's whole text that is a count.
	statCountRe = lazyMustCompile(`^` + countPattern + `$`)
	// statUseRe: a label's words of use, in the languages of the sets; the
	// product's name in the label says it too.
	statUseRe = lazyMustCompile(`(?i)\b(?:use|uses|using|rely|nutzen|nutzt|verwenden|vertrauen|utilisent|usan|usano|utilizzano|gebruiken|usam|` +
		`używa\p{L}*|korzysta\p{L}*|använder|používá\p{L}*|kullanıyor|käyttävät)\b|사용|이용|利用|使用|導入|在用`)
)

// statStage returns growing and its evidence when a home or about page's
// stats row counts 1,000 or more of the product's users.
func (s *site) statStage() (string, []domain.Evidence) {
	for _, p := range s.byKind(kindHome, kindAbout) {
		if p.kind != kindHome && p.kind != kindAbout {
			continue
		}
		slug, ev := "", []domain.Evidence(nil)
		forEach(p.doc, false, func(n *html.Node) bool {
			if slug != "" || foreign(n) {
				return false
			}
			t := domain.NormalizeSpace(nodeText(n))
			if !statCountRe.MatchString(t) || tractionCount(t) < 1000 {
				return true
			}
			label := siblingElement(n, 1)
			if label == nil {
				return false
			}
			lt := domain.NormalizeSpace(nodeText(label))
			if lt == "" || utf8.RuneCountInString(lt) > 60 || !statUseRe.MatchString(lt) && !s.mentionsName(lt) {
				return false
			}
			num := firstText(n)
			slug, ev = "growing", []domain.Evidence{p.ev(num), p.ev(lt)}
			return false
		})
		if slug != "" {
			return slug, ev
		}
	}
	// a fact sheet's customers row
	return s.factSheetStage()
}

// firstText returns the first non-blank text under n, trimmed.
func firstText(n *html.Node) string {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			if t := strings.TrimSpace(c.Data); t != "" {
				return t
			}
		}
		if c.Type == html.ElementNode {
			if t := firstText(c); t != "" {
				return t
			}
		}
	}
	return ""
}
