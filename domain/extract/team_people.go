package extract

// The people of a page's team sections (moved from founders.go unchanged).

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// teamPeople reads the lines of a page's team sections: "Name, Role" and
// "Name – Role" lines, a name line followed by a role line (cards without
// headings, figcaptions, tables), and a name heading followed by a role line.
func (s *site) teamPeople(p *page, aboutPage bool, isForeign func(*html.Node) bool, add func(name, title, bio string, ev []domain.Evidence, card bool, seg *segment)) {
	skipBelow := 0                        // inside a section about other people (investors, customers) of this level
	teamLevel := -1                       // inside a section introducing the team (on pages that are not about pages)
	foundersLevel, foundersTitle := 0, "" // inside a section introducing the founders
	var prevLast line                     // the last line of the segment before, as read (a role above the next name heading)
	for _, seg := range p.segs {
		above := prevLast
		prevLast = line{}
		if n := len(seg.lines); n > 0 && !seg.foreign {
			if l := seg.lines[n-1]; !l.foreign && !l.footer && !isForeign(l.node) {
				prevLast = l
			}
		}
		if skipBelow > 0 && seg.level > skipBelow {
			continue
		}
		skipBelow = 0
		if teamLevel >= 0 && seg.level > 0 && seg.level <= teamLevel {
			teamLevel = -1
		}
		if seg.level > 0 && (otherHeading.MatchString(seg.title) && !teamHeading.MatchString(seg.title) || customersHeading(seg.title)) {
			skipBelow = seg.level
			continue
		}
		if seg.level > 0 && teamLevel < 0 && teamHeading.MatchString(seg.title) && !forHeading.MatchString(seg.title) {
			teamLevel = seg.level
		}
		if seg.level > 0 && seg.level <= foundersLevel {
			foundersLevel = 0
		}
		if seg.level > 0 && foundersHeading.MatchString(seg.title) {
			foundersLevel, foundersTitle = seg.level, seg.title
			teamLevel = seg.level
		}
		if seg.foreign || (!aboutPage && teamLevel < 0) {
			continue
		}
		// under "Meet the founders": a name heading, or a line that is only a name
		if foundersLevel > 0 && !seg.foreign {
			if seg.level > foundersLevel && s.isCardName(seg.title) {
				add(seg.title, "", "", []domain.Evidence{p.ev(foundersTitle), p.ev(seg.title)}, false, seg)
			}
			for _, l := range seg.lines {
				if !l.foreign && !l.footer && s.isCardName(l.text) && !s.isSplitName(l) {
					add(l.text, "", "", []domain.Evidence{p.ev(foundersTitle), p.ev(l.text)}, false, nil)
				}
			}
		}
		var lines []line
		for _, l := range seg.lines {
			if l.foreign || l.footer || isForeign(l.node) {
				lines = append(lines, line{}) // keeps positions apart
				continue
			}
			lines = append(lines, l)
		}
		// a role line above a name heading in the same card ("<p>代表取締役CEO／共同創業者</p><h3>高橋 健</h3>"):
		// the role and the heading are children of one element, so the role
		// below the card before (another person's) is not taken.
		if seg.level >= 2 && above.node != nil && seg.node != nil && above.node.Parent == seg.node.Parent && s.isCardName(seg.title) &&
			(len(lines) == 0 || s.roleIn(lines[0].text) == "") {
			if role := s.roleIn(above.text); role != "" {
				add(seg.title, role, "", []domain.Evidence{p.ev(role), p.ev(seg.title)}, true, seg)
				continue
			}
		}
		// a name heading with the role as its first line
		if seg.level >= 2 && len(lines) > 0 && s.isCardName(seg.title) {
			if role := s.roleIn(lines[0].text); role != "" {
				ev := []domain.Evidence{p.ev(seg.title), p.ev(role)}
				bio := ""
				if len(lines) > 1 && len(strings.Fields(lines[1].text)) >= 5 {
					bio = lines[1].text
					ev = append(ev, p.ev(bio))
				}
				add(seg.title, role, bio, ev, true, seg)
				continue
			}
		}
		for i, l := range lines {
			if l.text == "" {
				continue
			}
			// a name line, then a role line; not a profile table's or a
			// definition list's next label ("대표이사 | 박민수", then "공동창업자 | 이서연")
			if s.isCardName(l.text) && i+1 < len(lines) && lines[i+1].text != "" && !(i > 0 && isQuotedLine(lines[i-1].text)) &&
				lines[i+1].tag != atom.Th && lines[i+1].tag != atom.Dt && l.tag != atom.Th && l.tag != atom.Dt && !acrossCards(l.node, lines[i+1].node) {
				if role := s.roleIn(lines[i+1].text); role != "" {
					add(l.text, role, "", []domain.Evidence{p.ev(l.text), p.ev(role)}, true, nil)
					continue
				}
			}
			// "Name, Role" / "Name (Role)", maybe several: "A (oprichter) en B (mede-oprichter)"
			// Every name must carry its role, and no company may follow
			// ("Kim Ode, CTO, Globex Corp" is someone else's CTO).
			if people, end := s.nameList(l.text, "*"); len(people) > 0 && people[0].role != "" {
				all := true
				for _, x := range people {
					all = all && x.role != ""
				}
				if m := atOther.FindStringSubmatch(l.text[end:]); m != nil && !s.mentionsName(m[1]) {
					all = false
				}
				for _, x := range people {
					if all {
						add(x.name, x.role, "", []domain.Evidence{p.ev(sentenceAround(l.text, strings.Index(l.text, x.name)))}, true, nil)
					}
				}
				continue
			}
			// "Name – Role", "Name | Role"
			name := nameAt.FindString(l.text)
			if name == "" || !s.isPersonName(name) {
				continue
			}
			if sp := roleSepRe.FindString(l.text[len(name):]); sp != "" {
				if role := s.lineRole(l.text[len(name)+len(sp):]); role != "" {
					add(name, role, "", []domain.Evidence{p.ev(sentenceAround(l.text, 0))}, true, nil)
				}
			}
		}
	}
}

// foreignMemo returns a test for lines inside testimonial boxes named in
// any of the seven languages (class or id of the node or an ancestor),
// remembering the answer for every node it walks.
func foreignMemo() func(*html.Node) bool {
	memo := map[*html.Node]bool{}
	var at func(n *html.Node) bool
	at = func(n *html.Node) bool {
		if n == nil || n.Type != html.ElementNode {
			return false
		}
		if v, ok := memo[n]; ok {
			return v
		}
		v := quoteClassRe.MatchString(strings.ToLower(attr(n, "class")+" "+attr(n, "id"))) || at(n.Parent)
		memo[n] = v
		return v
	}
	return at
}
