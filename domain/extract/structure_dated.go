package extract

import (
	"regexp"
	"slices"
)

// Dated entries that are not the product's own events, whatever path they
// come by (changelog headings, news lists, dated table rows, timelines).

// newsy reports whether p is a news or updates page by its path or its h1.
func newsy(p *page) bool {
	return newsPathRe.MatchString(p.base.Path) || slices.ContainsFunc(p.segs, func(seg *segment) bool {
		return seg.level == 1 && newsHdr.MatchString(seg.title)
	})
}

// notice reports whether a dated entry's title is a service notice, an
// appearance in the media, or an event (a webinar, a seminar, a trade fair,
// a conference): news of a day, not a step in the product's history.
func notice(title string) bool {
	return patchTag.MatchString(title) || noticeRe.MatchString(title) || eventRe.MatchString(title)
}

// eventRe: an event to attend (a trade fair, a conference, a meetup) in the
// languages of the sets.
var eventRe = regexp.MustCompile(`(?i)trade (?:fair|show)|conference|meetup|meet us at|join us at|\bmesse\b|salon professionnel|\bferia\b|\bfiera\b|\bbeurs\b|` +
	`\btarg(?:i|ach|ów|u)\b|konferencj|spotkaj(?:my)? się|mässa|mässan|konferens|veletrh|konferenc|\bfuar|konferans|messut|messer|vásár|târg|pameran|hội chợ|hội thảo|展示会|カンファレンス|展会|博览会|峰会|박람회|컨퍼런스|전시회`)

// ownEntry reports whether a dated heading on a page that is a changelog
// only by its structure names the product or a version.
func (s *site) ownEntry(title string) bool {
	return s.namedIn(title) || versionRe.MatchString(title)
}
