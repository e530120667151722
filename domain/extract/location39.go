package extract

import (
	"strings"
)

// ownSubjectRe: "Tallow is made in Lisbon, Portugal", "We're based ...": the
// product or "we" as the subject before a participle of place.
var ownSubjectRe = lazyMustCompile(`(?i)^(?:we|we're|we’re|we are|it|it's|it’s|[\p{L}\d .'’&-]{1,40}?)\s*(?:is|are|was|were|'s|’s)?\s+`)

// withoutOwnSubject strips the product's name or "we" with its verb from
// the start of a line ("Tallow is made in Lisbon" reads as "made in
// Lisbon"); a line whose subject is anything else is returned unchanged.
func (s *site) withoutOwnSubject(part string) string {
	m := ownSubjectRe.FindString(part)
	if m == "" {
		return part
	}
	subj := strings.ToLower(strings.TrimSpace(m))
	for _, v := range []string{" is", " are", " was", " were", "'s", "’s"} {
		subj = strings.TrimSpace(strings.TrimSuffix(subj, v))
	}
	switch {
	case subj == "we" || subj == "we're" || subj == "we’re" || subj == "we are" || subj == "it" || subj == "it's" || subj == "it’s":
	case s.name != "" && subj == strings.ToLower(s.name):
	default:
		return part
	}
	return part[len(m):]
}

// cjkLegalForm: a company's legal form in Japanese, Chinese and Korean
// (株式会社, 有限公司, 주식회사, ㈜).
var cjkLegalForm = lazyMustCompile(`株式会社|合同会社|有限会社|有限公司|股份有限公司|주식회사|유한회사|㈜|\(주\)`)

// imprintLine reports whether a line is the company's own imprint: a
// footer's line, or a line that names the company with its legal form
// beside the rest ("Copperleaf LLC · 1120 NW Couch St, Portland, OR 97209",
// "주식회사 모아노트 | 부산광역시 …") wherever the site put it (many sites mark
// no footer). Another company's line (a host's, under a Hosting heading) is not.
func (s *site) imprintLine(seg *segment, l line) bool {
	if hostWords.MatchString(seg.title) {
		return false
	}
	return l.footer || (legalForm.MatchString(l.text) || cjkLegalForm.MatchString(l.text)) && s.mentionsName(l.text)
}

// streetEnd: a place name that ends like a street ("Couch St", "Pike
// Street", "Main Rd"): a street line, not a town after its postcode.
var streetEnd = lazyMustCompile(`(?i)\s(?:st|st\.|street|rd|rd\.|road|ave|ave\.|avenue|blvd|lane|ln|way|drive|dr)$`)
