package extract

import "regexp"

// People who are not the product's founders, however their cards look.

var (
	// jobTitleRe: a text made of job-title words ("Customer Success Lead",
	// "Senior Product Designer", "Head Designer"). It is capitalised like a
	// name and as long as one, but it is a position: an open role's card, a
	// card's title line.
	jobTitleRe = regexp.MustCompile(`^(?:Customer|Head|Senior|Junior|Lead|Chief|Principal|Staff|Product|Marketing|Sales|Support|Operations|Account|Community|Content|Software|Frontend|Backend|Growth)\b|` +
		`\b(?:Lead|Manager|Engineer|Designer|Developer|Director|Officer|Specialist|Coordinator|Analyst|Consultant|Assistant|Associate|Representative|Architect|Scientist|Recruiter|Editor|Intern|Advocate|Strategist|Marketer)$`)

	// praiseHeading: a heading in the users' praise ("Loved by founders of
	// 400 studios", "Trusted by teams at", "Von Gründern geliebt"): the
	// people under it are customers, whatever title their cards give.
	praiseHeading = regexp.MustCompile(`(?i)\b(?:loved|loves|love|trusted|lieben|geliebt|vertrauen|aiment|adoré|adorad[oa]s?|adoran|amano|amato|amata)\b`)
)

// customersHeading reports whether a section heading names the team or the
// founders only as the product's users ("Loved by founders of ...").
func customersHeading(title string) bool {
	return teamHeading.MatchString(title) && praiseHeading.MatchString(title)
}
