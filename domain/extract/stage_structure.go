package extract

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Stage from page structure, when no sentence states it (draftStage): a
// "Beta" badge beside the logo, an early-access call to action (beta), a
// waitlist form as the way in (pre-launch), a changelog or news entry that
// announces version 1.0 (launched). The words are few and the same in most
// languages (beta, β, 1.0); the structure says whose they are: the site's
// header, a form with an e-mail field, an entry of the site's own changelog.
// Prices alone state no stage (the truth tables of every earlier set say
// so: a pricing page took "launched" onto 30 sites whose truth has none).

// badgeRe: the whole text of a badge beside the logo.
var badgeRe = lazyMustCompile(`(?i)^\s*(?:beta|bêta|béta|βeta|β|β版|ベータ版?|베타|бета|בטא|เบต้า|公测版?|內測版?|测试版|測試版|open beta|public beta|private beta|early access)\s*$`)

// earlyAccessRe: a call to action for early access (a product that lets
// people in a few at a time: beta).
var earlyAccessRe = lazyMustCompile(`(?i)\b(?:request|get|apply for|join)\s+(?:early|beta) access\b|accès anticipé|acceso anticipado|früh(?:en|er)? zugang|early[- ]access-zugang|accesso anticipato|vroege toegang|acesso antecipado|wczesn\p{L}* dost[eę]p|tidig åtkomst|předběžn\p{L}* přístup|erken erişim|先行(?:アクセス|利用)|얼리 ?액세스|抢先体验|搶先體驗`)

// waitlistRe: a waitlist (pre-launch) in the languages of the sets; the
// form with an e-mail field around it is what makes it the way in.
var waitlistRe = lazyMustCompile(`(?i)wait[- ]?list|warteliste|liste d['’]attente|lista de espera|lista d['’]attesa|wachtlijst|list\p{L}* oczekując\p{L}*|väntelista|venteliste|ventelisten|čekací listin\p{L}*|pořadník|bekleme listesi|odotuslista|várólist\p{L}*|listă de așteptare|daftar tunggu|danh sách chờ|ウェイトリスト|ウェイティングリスト|대기자 ?명단|대기 ?명단|候补名单|候補名單|等候名单|רשימת המתנה`)

// launchSoonRe: a launch still ahead, said beside a form that takes an
// e-mail address ("Launching spring 2026", "Notify me at launch").
var launchSoonRe = lazyMustCompile(`(?i)\blaunching (?:soon|in|this|next|on|early|late|spring|summer|autumn|fall|winter|q[1-4]|(?:19|20)\d\d)\b|\bnotify me (?:at|when (?:we|you|it) launch)|\bget notified (?:at|when (?:we|you|it) launch)|\bopens? (?:soon|in (?:january|february|march|april|may|june|july|august|september|october|november|december|(?:19|20)\d\d))\b`)

// millionsRe: traction counted in millions ("Over 1.2 million gardeners use
// Gardenly", "used by 3M+ people"): the noun before a verb of use, whatever
// it is, or "used by" before the count.
var millionsRe = lazyMustCompile(`(?i)(?:^|[^\p{L}\d])\d+(?:[.,]\d+)?\s?(?:million|m|billion|bn)\+?\s+\p{L}+(?:\s\p{L}+)?\s+(?:already\s+)?(?:use|trust|rely on|love|choose)\b|\b(?:used|trusted|loved|chosen) by (?:over |more than |)\d+(?:[.,]\d+)?\s?(?:million|m|billion|bn)\+?\s`)

// millionsStage: a count in millions of those who use the product (growing).
func (s *site) millionsStage() (string, []domain.Evidence) {
	for _, p := range s.byKind(kindHome, kindAbout) {
		if p.kind != kindHome && p.kind != kindAbout || changelogPage(p) {
			continue
		}
		for _, l := range p.ownLines() {
			if l.footer {
				continue
			}
			if m := millionsRe.FindStringIndex(l.text); m != nil && !limitBefore(l.text[:m[0]]) {
				return "growing", []domain.Evidence{p.ev(sentenceAround(l.text, m[0]))}
			}
		}
	}
	return "", nil
}

// releaseRe: version 1.0 named in a changelog or news entry ("v1.0",
// "Version 1.0", "Tidewell 1.0 released", "달력메이트 1.0 정식 출시"); not a
// patch (1.0.3) or a later minor version.
var releaseRe = lazyMustCompile(`(?:^|[^\d.])[vV]?1\.0(?:\.0)?(?:$|[^\d.])`)

// structureStage drafts the stage from the page structure when nothing
// else stated it.
func (s *site) structureStage() {
	if _, ok := s.out.Fields["stage"]; ok || !s.wants("stage") {
		return
	}
	for _, try := range []func() (string, []domain.Evidence){s.millionsStage, s.badgeStage, s.topBadgeStage, s.earlyAccessStage, s.waitlistStage, s.releaseStage} {
		slug, ev := try()
		if slug == "" || !s.stageAllowed(slug) {
			continue
		}
		s.set("stage", domain.DraftedValue{Text: slug, Evidence: ev})
		return
	}
}

func (s *site) stageAllowed(slug string) bool {
	if len(s.req.Stages) == 0 {
		return true
	}
	for _, v := range s.req.Stages {
		if v == slug {
			return true
		}
	}
	return false
}

// siteHeader returns the page's header elements (<header>, role=banner)
// outside <article> and <main>, where a site puts its logo and badges.
func siteHeader(p *page) []*html.Node {
	var out []*html.Node
	forEach(p.doc, false, func(n *html.Node) bool {
		if n.DataAtom == atom.Article || n.DataAtom == atom.Main {
			return false
		}
		if n.DataAtom == atom.Header || strings.EqualFold(attr(n, "role"), "banner") {
			out = append(out, n)
			return false
		}
		return true
	})
	return out
}

// badgeStage: a short element in the site's header whose whole text is a
// beta word ("<span class="pill">Beta</span>", "β版"), not a navigation
// link to another page.
func (s *site) badgeStage() (string, []domain.Evidence) {
	if p := s.homePage(); p != nil {
		for _, h := range siteHeader(p) {
			var found, slug string
			forEach(h, false, func(n *html.Node) bool {
				if found != "" || n.DataAtom == atom.Nav {
					return false
				}
				switch n.DataAtom {
				case atom.Span, atom.Sup, atom.Small, atom.Em, atom.Strong, atom.Mark, atom.B, atom.I, atom.Div, atom.P:
				default:
					return true
				}
				t := strings.TrimSpace(nodeText(n))
				switch {
				case linkedElsewhere(p, n):
					return true
				case badgeRe.MatchString(t):
					slug = "beta"
				case launchBadgeRe.MatchString(t):
					slug = "launched" // stage44.go
				default:
					return true
				}
				found = t
				return false
			})
			if found != "" {
				return slug, []domain.Evidence{p.ev(found)}
			}
		}
	}
	return "", nil
}

// linkedElsewhere reports whether n is inside a link to a page other than
// the home page (a "Beta" menu entry leads to a beta programme's page).
func linkedElsewhere(p *page, n *html.Node) bool {
	for a := n; a != nil; a = a.Parent {
		if a.DataAtom == atom.A {
			href := strings.TrimSpace(attr(a, "href"))
			if href == "" {
				return false
			}
			u := p.resolve(href)
			return u != "" && !strings.HasSuffix(strings.TrimSuffix(strings.SplitN(u, "#", 2)[0], "/"), p.base.Host)
		}
	}
	return false
}

// earlyAccessStage: a link or button in the home page's header or body
// (not its footer, not a quote) that asks for early access.
func (s *site) earlyAccessStage() (string, []domain.Evidence) {
	if p := s.homePage(); p != nil {
		var found string
		forEach(p.doc, false, func(n *html.Node) bool {
			if found != "" || n.DataAtom == atom.Footer || n.DataAtom == atom.Blockquote {
				return false
			}
			if n.DataAtom != atom.A && n.DataAtom != atom.Button {
				return true
			}
			if t := strings.TrimSpace(nodeText(n)); len(t) <= 60 && earlyAccessRe.MatchString(t) && !foreign(n) {
				found = t
			}
			return false
		})
		if found != "" {
			return "beta", []domain.Evidence{p.ev(found)}
		}
	}
	return "", nil
}

// waitlistStage: a form on the home page with an e-mail field whose
// button, label or heading names a waitlist.
func (s *site) waitlistStage() (string, []domain.Evidence) {
	if p := s.homePage(); p != nil {
		var found string
		forEach(p.doc, false, func(n *html.Node) bool {
			if found != "" || n.DataAtom == atom.Footer {
				return false
			}
			if n.DataAtom != atom.Form {
				return true
			}
			email := false
			var texts []string
			forEach(n, false, func(c *html.Node) bool {
				switch c.DataAtom {
				case atom.Input:
					if strings.EqualFold(attr(c, "type"), "email") || strings.Contains(strings.ToLower(attr(c, "name")), "mail") {
						email = true
					}
					if strings.EqualFold(attr(c, "type"), "submit") {
						texts = append(texts, attr(c, "value"))
					}
				case atom.Button, atom.P, atom.H2, atom.H3, atom.Legend:
					texts = append(texts, nodeText(c))
					return false
				case atom.Label: // its text, and the input a Framer or Webflow form puts inside it
					texts = append(texts, nodeText(c))
				}
				return true
			})
			if !email {
				return false
			}
			// the section the form stands in: its heading and lines ("Launching spring 2026")
			if sec := n.Parent; sec != nil && sec.DataAtom != atom.Body && sec.DataAtom != atom.Main {
				for c := sec.FirstChild; c != nil; c = c.NextSibling {
					if headingLevel[c.DataAtom] > 0 || c.DataAtom == atom.P || c.DataAtom == atom.Div || c.DataAtom == atom.Span {
						texts = append(texts, nodeText(c))
					}
				}
			}
			for _, t := range texts {
				if t = strings.TrimSpace(t); t != "" && len(t) <= 120 && (waitlistRe.MatchString(t) || launchSoonRe.MatchString(t) || launchSoonMore.MatchString(t)) {
					found = t
					break
				}
			}
			return false
		})
		if found != "" {
			return "pre-launch", []domain.Evidence{p.ev(found)}
		}
	}
	return "", nil
}

// releaseStage: an entry of the site's own changelog or news list that
// names version 1.0: the product is out (launched).
func (s *site) releaseStage() (string, []domain.Evidence) {
	for _, p := range s.pages {
		if !(changelogPage(p) || p.kind == kindBlog && newsPathRe.MatchString(p.base.Path)) {
			continue
		}
		for _, seg := range p.segs {
			if seg.foreign {
				continue
			}
			texts := []string{seg.title}
			for _, l := range seg.lines {
				if !l.foreign && !l.footer {
					texts = append(texts, l.text)
				}
			}
			for _, t := range texts {
				// the entry announces it in words ("Tidewell 1.0 released",
				// "Version 1.0 disponible pour tous"), not a bare "v1.0.0 (2023-06-30)"
				if len(t) <= 200 && releaseRe.MatchString(t) && releaseWords(t) {
					return "launched", []domain.Evidence{p.ev(sentenceAround(t, releaseRe.FindStringIndex(t)[0]))}
				}
			}
		}
	}
	return "", nil
}

// releaseWords reports whether a line naming 1.0 says more than the version
// and its date: two words of letters besides "v", "version" and the date.
func releaseWords(t string) bool {
	n := 0
	for _, w := range strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if lw := strings.ToLower(w); lw != "v" && lw != "version" && lw != "versión" && lw != "versione" && lw != "versão" && lw != "verze" && lw != "wersja" && len([]rune(w)) > 1 {
			n++
		}
	}
	return n >= 2
}

// homePage is the page read as the home page (the first of its kind), or
// nil when the draft has none.
func (s *site) homePage() *page {
	if ps := s.byKind(kindHome); len(ps) > 0 && ps[0].kind == kindHome {
		return ps[0]
	}
	return nil
}
