package extract

import (
	"net/url"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/unicode/norm"

	"github.com/launchdir/launchdir/domain"
)

// titleSep splits "Name | Tagline", "Name — Tagline", "Page · Name", "Name: tagline",
// and the full-width separators of Japanese and Chinese titles, which need no
// spaces ("キンタイ｜勤怠管理", "云表单：在线表单", "Fakturka｜Faktury online").
var titleSep = lazyMustCompile(`\s+[|–—·•-]\s+|:\s+|\s*[｜]\s*|\s*：\s*|\s*【|】\s*`)

// legalSuffix is a company form after the brand ("Notably Labs, Lda.", "Taktwerk GmbH").
var legalSuffix = lazyMustCompile(`(?i)[, ]+(inc|llc|ltd|limited|gmbh|ag|ab|bv|b\.v|sas|sarl|lda|pty|oy|aps|plc)\.?(\s.*)?$`)

var genericTitle = lazyMustCompile(`(?i)^(home|homepage|welcome|start|index|startseite|accueil)$`)

// findName returns the product's name: the application or product in JSON-LD,
// og:site_name, application-name, the title part the pages share, the home
// title's first part, the organisation's name without its company form.
func (s *site) findName() (string, []domain.Evidence) {
	home := s.pages[0]
	for _, o := range home.ld {
		if hasType(o, "SoftwareApplication", "WebApplication", "MobileApplication", "Product", "WebSite") {
			if n := ldString(o, "name"); n != "" && len(n) <= 60 {
				return n, []domain.Evidence{home.ev(n)}
			}
		}
	}
	for _, key := range []string{"og:site_name", "application-name"} {
		if n := home.meta[key]; n != "" && len(n) <= 60 {
			return n, []domain.Evidence{home.ev(n)}
		}
	}
	// The title part most pages share is the brand ("Pricing | Gatewise").
	// A tie goes to the part seen first (the home page's title is read
	// first, its brand usually first): never to a map's order, so one site
	// always gets one name.
	count := map[string]int{}
	var order []string
	for _, p := range s.content() {
		seen := map[string]bool{}
		for _, part := range titleSep.Split(p.wp.Title, -1) {
			part = strings.TrimSpace(part)
			if part != "" && !seen[part] {
				seen[part] = true
				if count[part] == 0 {
					order = append(order, part)
				}
				count[part]++
			}
		}
	}
	best := ""
	for _, part := range order {
		if n := count[part]; n >= 2 && n > count[best] && len(strings.Fields(part)) <= 4 && !genericTitle.MatchString(part) {
			best = part
		}
	}
	if best != "" {
		return best, []domain.Evidence{s.pageWithTitle(best).ev(best)}
	}
	for _, part := range titleSep.Split(home.wp.Title, -1) {
		part = strings.TrimSpace(part)
		if part != "" && len(strings.Fields(part)) <= 4 && !genericTitle.MatchString(part) {
			return part, []domain.Evidence{home.ev(part)}
		}
	}
	for _, o := range home.ld {
		if hasType(o, "Organization", "Corporation", "LocalBusiness") {
			if n := ldString(o, "name"); n != "" {
				short := strings.TrimSpace(legalSuffix.ReplaceAllString(n, ""))
				if short == "" {
					short = n
				}
				return short, []domain.Evidence{home.ev(short)}
			}
		}
	}
	return "", nil
}

func (s *site) pageWithTitle(part string) *page {
	for _, p := range s.pages {
		if strings.Contains(p.wp.Title, part) {
			return p
		}
	}
	return s.pages[0]
}

// ownHosts are the host names the site calls its own: the crawled hosts and
// og:url / JSON-LD url (a site served from a staging host still names its domain).
func (s *site) ownHosts() []string {
	var hosts []string
	add := func(raw string) {
		if u, err := url.Parse(raw); err == nil && u.Hostname() != "" {
			hosts = append(hosts, strings.TrimPrefix(strings.ToLower(u.Hostname()), "www."))
		}
	}
	for _, p := range s.pages {
		add(p.wp.URL)
		add(p.meta["og:url"])
		for _, o := range p.ld {
			add(ldString(o, "url"))
		}
	}
	return hosts
}

// ownDomain reports whether host (or an e-mail domain) belongs to the product:
// one of its hosts or a domain whose name holds the brand ("ledgerly.io" for Ledgerly).
func (s *site) ownDomain(host string) bool {
	host = strings.TrimPrefix(strings.ToLower(host), "www.")
	for _, h := range s.hosts {
		if host == h || strings.HasSuffix(host, "."+h) {
			return true
		}
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	if len(s.brand) < 3 {
		// A name with (almost) no Latin letters ("キンタイ", "메모리", "云表单")
		// cannot be matched against a domain; the site's own address links
		// (mailto in its own text, never a testimonial's) are its own unless
		// they are a mail provider's or a big platform's.
		return compact(s.name) == "" && s.name != "" && !freeMail[strings.Join(labels[len(labels)-2:], ".")]
	}
	folded := compact(foldMarks(s.name)) // "Dotazník" is dotaznik.cz, "Łódka" lodka.pl
	for _, l := range labels[:len(labels)-1] {
		c := compact(l)
		if c == s.brand || strings.HasPrefix(c, s.brand) || (len(c) >= 4 && strings.HasPrefix(s.brand, c)) {
			return true
		}
		if len(folded) >= 3 && (c == folded || strings.HasPrefix(c, folded) || (len(c) >= 4 && strings.HasPrefix(folded, c))) {
			return true
		}
	}
	return false
}

// foldMarks writes s without its diacritics, as domain names do ("í" is
// "i", "ł" is "l", "ß" is "ss").
func foldMarks(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == 'ł' || r == 'Ł':
			b.WriteRune('l')
		case r == 'ø' || r == 'Ø':
			b.WriteRune('o')
		case r == 'ß':
			b.WriteString("ss")
		case r == 'ı':
			b.WriteRune('i')
		case r == 'đ' || r == 'Đ':
			b.WriteRune('d')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// draftIdentity fills tagline, short_description, description, keywords and logo_url.
func (s *site) draftIdentity() {
	home := s.pages[0]
	s.set("tagline", s.tagline(home))

	// short_description: the page's own summary (meta/OG/JSON-LD description).
	for _, key := range []string{"description", "og:description", "twitter:description"} {
		if d := home.meta[key]; textWords(d) >= 5 {
			s.set("short_description", domain.DraftedValue{Text: d, Evidence: []domain.Evidence{home.ev(d)}})
			break
		}
	}
	paras := s.introParagraphs(home)
	if _, ok := s.out.Fields["short_description"]; !ok && len(paras) > 0 && len(paras[0]) <= 500 {
		s.set("short_description", domain.DraftedValue{Text: paras[0], Evidence: []domain.Evidence{home.ev(paras[0])}})
	}
	// No summary and no long paragraph (a single-page app's fallback, a
	// short landing page): the hero's lead that names the product.
	if _, ok := s.out.Fields["short_description"]; !ok {
		// Its first sentence only: what follows is often another matter ("Our servers are in Frankfurt.").
		if _, lead := s.heroText(home); lead != "" {
			if first := sentenceAround(lead, 0); len(first) <= 300 && textWords(first) >= 5 && s.mentionsName(first) {
				s.set("short_description", domain.DraftedValue{Text: first, Evidence: []domain.Evidence{home.ev(first)}})
			}
		}
	}
	// A thin home page (a logo, a picture, a button) leaves the tagline and
	// the summary to the product page: its hero and its meta description.
	s.leadOverSlogan(home)
	s.thinHome()
	s.taglineCase()

	// description: the JSON-LD description when it is long, else the home
	// page's opening paragraphs.
	var desc domain.DraftedValue
	for _, o := range home.ld {
		if d := ldString(o, "description"); len(d) >= 200 {
			desc = domain.DraftedValue{Text: d, Evidence: []domain.Evidence{home.ev(d)}}
			break
		}
	}
	if desc.Text == "" {
		for i, para := range paras {
			if i == 3 {
				break
			}
			desc.Text += para + "\n\n"
			desc.Evidence = append(desc.Evidence, home.ev(para))
		}
	}
	s.set("description", desc)

	if kw := home.meta["keywords"]; kw != "" {
		var list []string
		for _, k := range strings.Split(kw, ",") {
			if k = strings.TrimSpace(k); k != "" {
				list = append(list, k)
			}
		}
		s.set("keywords", domain.DraftedValue{List: list, Evidence: []domain.Evidence{home.ev(kw)}})
	}
	s.set("logo_url", s.logo())
}

// tagline: the home page's main heading, unless it is only the name; then the
// part of the title (or og:title) that is not the name.
func (s *site) tagline(home *page) domain.DraftedValue {
	for _, seg := range home.segs {
		if seg.level == 1 && !seg.foreign {
			n := textWords(seg.title)
			if n >= 2 && n <= 16 && !strings.EqualFold(seg.title, s.name) && !welcomeRe.MatchString(seg.title) {
				return domain.DraftedValue{Text: seg.title, Evidence: []domain.Evidence{home.ev(seg.title)}}
			}
			break
		}
	}
	// a div or a paragraph styled as the main heading (builder46.go)
	if t := styledHeading(home); t != "" && !strings.EqualFold(t, s.name) && !welcomeRe.MatchString(t) {
		return domain.DraftedValue{Text: t, Evidence: []domain.Evidence{home.ev(t)}}
	}
	for _, t := range []string{home.wp.Title, home.meta["og:title"], home.meta["twitter:title"]} {
		parts := titleSep.Split(t, -1)
		if len(parts) < 2 {
			continue
		}
		for _, part := range parts {
			part = strings.TrimSpace(part)
			if !strings.EqualFold(part, s.name) && textWords(part) >= 2 {
				return domain.DraftedValue{Text: part, Evidence: []domain.Evidence{home.ev(part)}}
			}
		}
	}
	return domain.DraftedValue{}
}

// introParagraphs are the home page's paragraphs of some length outside
// navigation, footers and testimonials, in order.
func (s *site) introParagraphs(home *page) []string {
	var out []string
	for _, seg := range home.segs {
		// FAQ answers and plan descriptions are not the product's description.
		if seg.foreign || faqHdr.MatchString(seg.title) || pricingHdr.MatchString(seg.title) || strings.HasSuffix(seg.title, "?") {
			continue
		}
		for _, l := range seg.lines {
			if l.foreign || l.footer || l.tag == atom.Li || l.tag == atom.Td || l.tag == atom.Dd ||
				within(l.node, atom.Nav, atom.Header, atom.Footer, atom.Details, atom.Dl, atom.Table) {
				continue
			}
			if n := textWords(l.text); n >= 12 {
				out = append(out, l.text)
			}
		}
	}
	return out
}

var logoHint = lazyMustCompile(`(?i)logo|brand`)

// logo: the organisation's JSON-LD logo, else the header image that is the
// logo (by class, alt text or file name; its alt text is the quote), else the
// touch icon.
func (s *site) logo() domain.DraftedValue {
	for _, p := range s.content() {
		for _, o := range p.ld {
			if l := ldString(o, "logo"); l != "" {
				return domain.DraftedValue{Text: p.resolve(l), Evidence: []domain.Evidence{p.ev(l)}}
			}
		}
	}
	home := s.pages[0]
	var found domain.DraftedValue
	forEach(home.doc, false, func(n *html.Node) bool {
		if found.Text != "" {
			return false
		}
		if n.DataAtom != atom.Img || foreign(n) || !within(n, atom.Header, atom.Nav) && !logoHint.MatchString(hint(n)) {
			return true
		}
		alt := domain.NormalizeSpace(attr(n, "alt"))
		src := attr(n, "src")
		if alt == "" || src == "" {
			return true
		}
		// The alt text is the name: compared letter by letter in any script
		// ("客服宝" has no ASCII letters for compact to keep).
		if logoHint.MatchString(alt+" "+src+" "+hint(n)) || (s.brand != "" && compact(alt) == s.brand) || (nameKey(s.name) != "" && nameKey(alt) == nameKey(s.name)) {
			// The address is the value; the page's data lists it (htmltext
			// keeps the src of logo-like images), the alt text names it.
			// A relative address is quoted as written: the gate
			// resolves it against the page to the value.
			u := home.resolve(src)
			found = domain.DraftedValue{Text: u, Evidence: []domain.Evidence{home.ev(strings.TrimSpace(src)), home.ev(alt)}}
		}
		return true
	})
	if found.Text != "" {
		return found
	}
	forEach(home.doc, true, func(n *html.Node) bool {
		if found.Text == "" && n.DataAtom == atom.Link && strings.Contains(strings.ToLower(attr(n, "rel")), "apple-touch-icon") {
			if u := home.resolve(attr(n, "href")); u != "" {
				found = domain.DraftedValue{Text: u, Evidence: []domain.Evidence{home.ev(strings.TrimSpace(attr(n, "href")))}}
			}
		}
		return true
	})
	return found
}

// freeMail are mail providers and platforms whose addresses a site may show
// without being theirs.
var freeMail = map[string]bool{"gmail.com": true, "googlemail.com": true, "outlook.com": true, "hotmail.com": true,
	"yahoo.com": true, "icloud.com": true, "proton.me": true, "protonmail.com": true, "qq.com": true, "163.com": true,
	"126.com": true, "naver.com": true, "daum.net": true, "yahoo.co.jp": true, "gmx.de": true, "web.de": true,
	"wp.pl": true, "o2.pl": true, "seznam.cz": true, "example.com": true}
