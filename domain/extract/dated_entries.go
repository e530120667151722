package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// Dated entries by structure: changelog pages, news lists and dated table
// rows, read into milestones whatever words the site uses.

// datedHeadings reports whether a page is a changelog by its structure
// whatever it is called ("What changed", "Co nowego"): at least two of its
// headings below the title carry a date, or sit over a line that is one.
func datedHeadings(p *page) bool {
	// The home page's dated teasers are its blog's, not a changelog; a
	// blog's posts are read by blogMilestones.
	if p.kind == kindBlog || p.kind == kindPricing || p.kind == kindHome || blogIndex(p) {
		return false
	}
	n := 0
	for _, seg := range p.segs {
		if seg.level < 2 || seg.foreign {
			continue
		}
		if _, _, ok := findDate(seg.title, false); ok {
			n++
		} else if _, _, _, ok := dateUnderHeading(seg); ok {
			n++
		}
	}
	return n >= 2
}

// versionRe is a version tag opening a changelog title ("v2.0 — Route
// library", "1.4:"): the rest is the title. A patch release ("v1.4.1") with
// no title of its own is not a milestone.
var (
	thousandsRe = lazyMustCompile(`^\d{1,3}\.\d{3}\s+\p{L}`)
	versionRe   = lazyMustCompile(`^(?i:v(?:ersion|ersão|ersión|erze|ersiyon)?\.?\s?)?(\d+)\.(\d+)(?:\.(\d+))?\b\s*(?:[—–:|·-]\s*)?`)
)

// milestoneTitle strips a version tag from a title; ok is false for a
// patch release or a title that is only a version.
func milestoneTitle(title string) (string, bool) {
	m := versionRe.FindStringSubmatchIndex(title)
	if m == nil || thousandsRe.MatchString(title) {
		return title, true // no version; "10.000 kullanıcı" is a count
	}
	rest := strings.TrimSpace(title[m[1]:])
	patch := m[6] >= 0 && strings.Trim(title[m[6]:m[7]], "0") != ""
	if rest == "" {
		return title, !patch
	}
	return rest, !patch
}

// versionOnly reports whether a title is nothing but a version tag.
func versionOnly(title string) bool {
	m := versionRe.FindStringIndex(title)
	return m != nil && strings.TrimSpace(title[m[1]:]) == ""
}

// newsPathRe: a news or announcements index (not a blog), in the fourteen
// languages: a company's dated news are its milestones.
var newsPathRe = lazyMustCompile(`(?i)/(news|press|announcements|dongtai|xinwen|sosik|gongji|uutiset|ajankohtaista|tiedotteet|nyheder|hirek|ujdonsagok|stiri|noutati|berita|kabar|tin-tuc|tintuc|nea|anakoinoseis|neuigkeiten|aktuelles|actualites|nouveautes|noticias|novedades|notizie|novita|nieuws|novidades|aktualnosci|nowosci|nyheter|novinky|aktuality|duyurular|haberler|oshirase|お知らせ|ニュース|新闻|动态|소식|공지사항|뉴스)/?$`)

// datedEntries reads a news or announcements list by its structure:
// articles or list items each holding a <time> and a heading (or the link
// to the post). Two or more make a dated list; each is a milestone, dated by
// the time's datetime (or its text), quoted by the time's text, which states
// the year. A blog's list of posts is not a company's history.
func (s *site) datedEntries(p *page) []domain.DraftedMilestone {
	if blogIndex(p) || p.kind == kindHome {
		return nil
	}
	// On a page that is no news, updates or changelog page, a dated list is
	// the product's only where its entries name the product or a version:
	// customer stories, job ads and events carry dates too.
	if !changelogPage(p) && !newsy(p) {
		return readDatedEntries(p, s.ownEntry)
	}
	return readDatedEntries(p, nil)
}

// blogIndex reports whether p is a blog (not a news list): its entries
// are posts, milestones only when they name the product (blogMilestones).
func blogIndex(p *page) bool {
	return p.kind != kindHome && (p.kind == kindBlog && !newsPathRe.MatchString(p.base.Path) || strings.Contains(strings.ToLower(p.base.Path), "blog"))
}

// readDatedEntries reads the dated entries of p; with keep, only those
// whose title keep accepts (the others still make the list a dated list).
func readDatedEntries(p *page, keep func(string) bool) []domain.DraftedMilestone {
	var out []domain.DraftedMilestone
	notices := 0
	// An entry without <time> (and a table row of a date and a title) is
	// read only on a news, updates or changelog page (by its path or its
	// h1): elsewhere a date in a list is an event's, a post's or a document's.
	newsy := changelogPage(p) || newsy(p)
	forEach(p.doc, false, func(n *html.Node) bool {
		if n.DataAtom == atom.Tr && !foreign(n) {
			if m, ok := datedRow(p, n); ok && newsy {
				out = append(out, m)
			}
			return false
		}
		if n.DataAtom != atom.Article && n.DataAtom != atom.Li || foreign(n) {
			return true
		}
		var tm, head, link, bare *html.Node
		forEach(n, false, func(c *html.Node) bool {
			switch {
			case c.DataAtom == atom.Time && tm == nil:
				tm = c
			case headingLevel[c.DataAtom] > 0 && head == nil:
				head = c
			case c.DataAtom == atom.A && link == nil && attr(c, "href") != "":
				link = c
			case bare == nil && newsy && dateOnlyElement[c.DataAtom] && wholeDate(nodeText(c)):
				// no <time>: an element whose whole text is the date
				// ("<span class=date>2025.04.15</span>", "<p>12 maj 2024</p>")
				bare = c
				return false
			}
			return true
		})
		if tm == nil {
			tm = bare
		}
		if head == nil {
			head = link // an index entry: the link to the post and its date
		}
		if tm == nil || head == nil {
			return true
		}
		// Without <time>, the entry's link must be to this site's own post:
		// a dated link elsewhere is coverage or someone else's news.
		if tm == bare && link != nil && isUnder(link, n) && !sameSite(p, attr(link, "href")) {
			return false
		}
		// A patch release is no milestone, wherever its version is written.
		if tm == bare && patchTag.MatchString(nodeText(n)) {
			return false
		}
		if isUnder(tm, head) {
			return false // a dated heading: the changelog rules read it with the text under it
		}
		text, title := nodeText(tm), nodeText(head)
		date := ""
		if dt := strings.TrimSpace(attr(tm, "datetime")); isoDay.MatchString(dt) {
			date = dt[:10]
		} else if d, _, ok := findDate(text, false); ok {
			date = d
		}
		if date == "" || !strings.Contains(text, date[:4]) || title == "" {
			return false
		}
		// A patch release (with or without <time>), a maintenance notice or
		// an appearance in the media is news, not a milestone.
		// (They still make the list a dated list.)
		if notice(title) || keep != nil && !keep(title) {
			notices++
			return false
		}
		if t, ok := milestoneTitle(title); ok {
			out = append(out, domain.DraftedMilestone{Milestone: domain.Milestone{Date: date, Title: truncate(t, 200)},
				Evidence: []domain.Evidence{p.ev(text), p.ev(title)}})
		}
		return false
	})
	if len(out)+notices < 2 {
		return nil
	}
	return out
}

// noticeRe: a news entry that is a service notice (maintenance, an
// outage) or the product's appearance in the media, in the languages of
// the sets: neither is a step in the product's history.
var noticeRe = lazyMustCompile(`(?i)maintenance|outage|downtime|featured (?:in|on|by)|as seen (?:in|on)|interview|wartung|störung|mantenimiento|manutenzione|onderhoud|manutenção|` +
	`konserwacj|prace serwisowe|awari|wywiad|underhåll|driftstörning|intervju|údržb|odstávk|výpadek|rozhovor|bakım|kesinti|röportaj|huolto|huoltokatko|vedligehold|nedbrud|karbantartás|mentenanț|` +
	`pemeliharaan|gangguan|bảo trì|συντήρηση|メンテナンス|障害|紹介されました|掲載されました|取材|出演|维护|維護|停机|故障|报道|報道|采访|採訪|점검|장애|보도되었|소개되었|인터뷰|` +
	// events and holidays: a webinar to attend, an office closed
	`webinar|seminar|holiday (?:closure|hours|notice|break|schedule)|\bholidays\b|closed for|office hours|セミナー|ウェビナー|登壇|展示会|休業|年末年始|夏季休暇|研讨会|讲座|直播|假期|放假|春节|休假|웨비나|세미나|휴무|연휴`)

var isoDay = lazyMustCompile(`^(?:19|20)\d\d-\d\d-\d\d`)

// dateOnlyElement are the elements a news entry puts its date in when it has no <time>.
var dateOnlyElement = map[atom.Atom]bool{atom.Span: true, atom.Small: true, atom.B: true, atom.Strong: true, atom.Em: true, atom.P: true, atom.Div: true}

// wholeDate reports whether t is a date and nothing else, with a day or a
// month ("3 February 2025", "2025.04.15", "2024年5月"; a bare year is not
// a news entry's date).
func wholeDate(t string) bool {
	_, rest, ok := findDate(t, false)
	return ok && rest == "" && !yearOnly.MatchString(strings.TrimSpace(t))
}

// sameSite reports whether href, resolved on p, is on p's host.
func sameSite(p *page, href string) bool {
	u, err := p.base.Parse(href)
	return err == nil && strings.EqualFold(strings.TrimPrefix(u.Hostname(), "www."), strings.TrimPrefix(p.base.Hostname(), "www."))
}

// patchTag is a patch release's version ("v2.3.1", "1.4.2").
// (A dotted date, "2025.04.15" or "15.1.2025", is not: a version's major
// part has at most two digits and its patch part at most three.)
var patchTag = lazyMustCompile(`(?:^|[^\d.])v?\d{1,2}\.\d{1,3}\.0*[1-9]\d{0,2}(?:[^\d.]|$)`)

// newsHdr: the h1 of a company's news or updates page.
var newsHdr = lazyMustCompile(`(?i)^(?:(?:company |product |latest )?news|updates|product updates|announcements|press releases|neuigkeiten|aktuelles|actualités|nouveautés|noticias|novedades|notizie|novità|nieuws|novidades|` +
	`aktualności|nowości|nyheter|novinky|aktuality|haberler|duyurular|お知らせ|ニュース|新闻|新聞|动态|動態|产品动态|產品動態|最新消息|公告|소식|공지사항|뉴스)$`)

var yearOnly = lazyMustCompile(`^(?:19|20)\d\d\D{0,2}$`)

// datedRow reads a table row of a date cell and a title cell ("2025-01-20
// | 支持企业微信渠道"): the date cell holds nothing but the date.
func datedRow(p *page, tr *html.Node) (domain.DraftedMilestone, bool) {
	var cells []*html.Node
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Th || c.DataAtom == atom.Td {
			cells = append(cells, c)
		}
	}
	if len(cells) != 2 {
		return domain.DraftedMilestone{}, false
	}
	dt, title := nodeText(cells[0]), nodeText(cells[1])
	if !wholeDate(dt) || title == "" || wholeDate(title) {
		return domain.DraftedMilestone{}, false
	}
	d, _, _ := findDate(dt, false)
	t, ok := milestoneTitle(title)
	if !ok || notice(t) || d == "" || !strings.Contains(dt, d[:4]) {
		return domain.DraftedMilestone{}, false
	}
	return domain.DraftedMilestone{Milestone: domain.Milestone{Date: d, Title: truncate(t, 200)},
		Evidence: []domain.Evidence{p.ev(dt), p.ev(title)}}, true
}
