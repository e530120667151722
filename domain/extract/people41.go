package extract

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// People who are not the product's founders, however their cards look.

var (
	// jobTitleRe: a text made of job-title words ("Customer Success Lead",
	// "Senior Product Designer", "Head Designer"). It is capitalised like a
	// name and as long as one, but it is a position: an open role's card, a
	// card's title line.
	jobTitleRe = lazyMustCompile(`^(?:Customer|Head|Senior|Junior|Lead|Chief|Principal|Staff|Product|Marketing|Sales|Support|Operations|Account|Community|Content|Software|Frontend|Backend|Growth)\b|` +
		`\b(?:Lead|Manager|Engineer|Designer|Developer|Director|Officer|Specialist|Coordinator|Analyst|Consultant|Assistant|Associate|Representative|Architect|Scientist|Recruiter|Editor|Intern|Advocate|Strategist|Marketer)$`)

	// praiseHeading: a heading in the users' praise ("Loved by founders of
	// 400 studios", "Trusted by teams at", "Von Gründern geliebt"): the
	// people under it are customers, whatever title their cards give.
	praiseHeading = lazyMustCompile(`(?i)\b(?:loved|loves|love|trusted|lieben|geliebt|vertrauen|aiment|adoré|adorad[oa]s?|adoran|amano|amato|amata)\b`)
)

// customersHeading reports whether a section heading names the team or the
// founders only as the product's users ("Loved by founders of ...").
func customersHeading(title string) bool {
	return teamHeading.MatchString(title) && praiseHeading.MatchString(title)
}

// quoteCaption reports whether n is in the caption of a figure that holds a
// blockquote: the attribution of a quotation, the form HTML gives it
// ("<figure><blockquote>…</blockquote><figcaption>Name, Role</figcaption>
// </figure>"), whoever is quoted.
func quoteCaption(n *html.Node) bool {
	for a := n; a != nil; a = a.Parent {
		if a.Type != html.ElementNode || a.DataAtom != atom.Figcaption {
			continue
		}
		fig := a.Parent
		if fig == nil || fig.DataAtom != atom.Figure {
			return false
		}
		quoted := false
		forEach(fig, false, func(c *html.Node) bool {
			quoted = quoted || c.DataAtom == atom.Blockquote
			return !quoted
		})
		return quoted
	}
	return false
}

// acrossCards reports whether two lines' elements sit in two sibling cards
// of a list: the children of their closest common ancestor that hold them
// are elements of one tag and class, and each holds more text than its line
// (a member list item of role, name and romanised name). A name line and
// the role line after it are then two people's.
func acrossCards(a, b *html.Node) bool {
	if a == nil || b == nil {
		return false
	}
	for ca := a; ca.Parent != nil; ca = ca.Parent {
		for cb := b; cb.Parent != nil; cb = cb.Parent {
			if ca.Parent != cb.Parent {
				continue
			}
			if ca == cb || ca.Type != html.ElementNode || cb.Type != html.ElementNode {
				return false
			}
			return ca != a && cb != b && ca.DataAtom == cb.DataAtom && attr(ca, "class") == attr(cb, "class") &&
				nodeText(ca) != nodeText(a) && nodeText(cb) != nodeText(b)
		}
	}
	return false
}

// romanised reports whether pieces[j], right after the Han or Hangul name
// pieces[i], is that name in Latin letters ("森川 由紀" then "Yuki
// Morikawa"): the same person, not a second one in the card.
func romanised(pieces []cardPiece, i, j int) bool {
	return j == i+1 && unspacedName(pieces[i].text) && personNameRe.MatchString(pieces[j].text)
}

// knownFounderTitle reports whether a text in the card of someone already
// drafted as a founder (named in a founding sentence) is that person's
// title, whatever its words ("Teknisk chef", "vývoj", "Chief Executive"):
// a short label that is no name, no sentence and no adviser's or
// investor's role.
func (s *site) knownFounderTitle(t string) bool {
	return s.cardTitle(t) || utf8.RuneCountInString(t) <= 40 && len(strings.Fields(t)) <= 4 && !strings.ContainsAny(t, ".!?:;“”\"0123456789") &&
		!s.isCardName(t) && !isQuotedLine(t) && !notRole.MatchString(t) && !worldNotRole.MatchString(t) && !s.mentionsName(t)
}
