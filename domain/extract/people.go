package extract

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

const nameRe = `\p{Lu}[\p{L}'’-]+(?:[ \t]\p{Lu}[\p{L}'’-]+){1,2}`

var (
	foundVerb  = lazyMustCompile(`(?i)\b(founded|established|incorporated|started|gegründet|fondée?|fundad[ao]|opgericht|grundades)\b`)
	yearRe     = lazyMustCompile(`\b(19[5-9]\d|20[0-4]\d)\b`)
	selfRe     = lazyMustCompile(`(?i)\b(we|our|us|i|my|wir|unser|nous)\b`)
	copyrightR = lazyMustCompile(`(?i)©|\(c\)|copyright|all rights reserved`)

	personRe   = lazyMustCompile(`^` + nameRe + `$`)
	notAName   = lazyMustCompile(`(?i)^(our|the|meet|about|why|what|how|team|get|see|join|contact|pricing|why|built|made|frequently)\b`)
	basedIn    = lazyMustCompile(`(?i)\b(based|headquartered|located)\s+in\s+`)
	otherParty = lazyMustCompile(`(?i)customer|client|partner|investor|data cent(er|re)|server`)
)

func (s *site) mentionsName(t string) bool {
	return s.name != "" && strings.Contains(strings.ToLower(t), strings.ToLower(s.name))
}

// draftFounders: people from JSON-LD founder, founding statements ("founded in
// 2019 by A and B", "I'm A, the maker of X") and team cards whose title is a
// founder's or an executive's. Investors, advisors and board members are
// not founders; people quoted in testimonials are not looked at.
func (s *site) draftFounders() {
	var out []domain.DraftedFounder
	idx := map[string]int{}
	add := func(name, title, bio string, ev []domain.Evidence, socials domain.Socials, card bool) {
		name = domain.NormalizeSpace(name)
		key := nameKey(name)
		if key == "" || compact(name) != "" && compact(name) == s.brand || key == nameKey(s.name) || notAName.MatchString(name) {
			return
		}
		i, ok := idx[key]
		if !ok {
			if len(out) == 6 {
				return
			}
			idx[key] = len(out)
			out = append(out, domain.DraftedFounder{Name: name})
			i = len(out) - 1
		}
		f := &out[i]
		if title != "" && (f.Title == "" || card) {
			f.Title = title
		}
		if bio != "" && f.Bio == "" {
			f.Bio = bio
		}
		for k, v := range socials {
			if f.Socials == nil {
				f.Socials = domain.Socials{}
			}
			f.Socials[k] = v
		}
		f.Evidence = append(f.Evidence, ev...)
	}
	for _, p := range s.content() {
		for _, o := range p.ld {
			// "founder" (schema.org) and the "founders" some sites write; a
			// plain string is a name.
			founders := append(ldObjects(o, "founder"), ldObjects(o, "founders")...)
			for _, key := range []string{"founder", "founders"} {
				for _, name := range ldStrings(o, key) {
					founders = append(founders, map[string]any{"name": name})
				}
			}
			// The organisation's employees and members whose jobTitle is a
			// founder's or executive's ("Co-founder & CEO"); advisers and
			// investors are not (roleIn).
			if hasType(o, "Organization", "Corporation", "LocalBusiness") {
				for _, key := range []string{"employee", "employees", "member"} {
					for _, e := range ldObjects(o, key) {
						if jt := ldString(e, "jobTitle"); jt != "" && s.roleIn(jt) != "" {
							founders = append(founders, e)
						}
					}
				}
			}
			for _, f := range founders {
				name := ldString(f, "name")
				if name == "" {
					continue
				}
				ev := []domain.Evidence{p.ev(name)}
				title := ldString(f, "jobTitle")
				if title != "" {
					ev = append(ev, p.ev(title))
				}
				add(name, title, "", ev, nil, false)
			}
		}
	}
	// Founding statements in sentences, on every content page (testimonials,
	// quotes and footers are not read).
	isForeign := foreignMemo()
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		for _, seg := range p.segs {
			if seg.foreign {
				continue
			}
			texts := []string{seg.title}
			for _, l := range seg.lines {
				// a footer line only when it names the product ("Pebblepost
				// is made by Lena Fischer and Jonas Berg")
				if !l.foreign && (!l.footer || s.mentionsName(l.text)) && !isForeign(l.node) {
					texts = append(texts, l.text)
				}
			}
			for _, t := range texts {
				s.founderStatements(p, isTeamPage(p), t, func(name, title string, ev []domain.Evidence) {
					add(name, title, "", ev, nil, false)
				})
			}
		}
	}
	// Team sections: about and team pages, and sections headed as the team.
	for _, p := range s.byKind(kindTeam, kindAbout) {
		s.teamPeople(p, isTeamPage(p), isForeign, func(name, title, bio string, ev []domain.Evidence, card bool, seg *segment) {
			var socials domain.Socials
			if seg != nil {
				socials = s.personLinks(p, seg.node)
			}
			add(name, title, bio, ev, socials, card)
		})
	}
	s.out.Founders = out
}

// personLinks returns the social links in a person's card: the heading's
// closest ancestor that holds links and no other person.
func (s *site) personLinks(p *page, heading *html.Node) domain.Socials {
	for card := heading.Parent; card != nil && card.DataAtom != atom.Body; card = card.Parent {
		headings := 0
		var links []string
		forEach(card, false, func(n *html.Node) bool {
			if headingLevel[n.DataAtom] > 0 {
				headings++
			}
			if n.DataAtom == atom.A {
				links = append(links, p.resolve(attr(n, "href")))
			}
			return true
		})
		if headings > 1 {
			return nil
		}
		if len(links) > 0 {
			out := domain.Socials{}
			for _, l := range links {
				if pl, ok := platformOf(l, true); ok && (pl != "custom" || out[pl] == "") {
					out[pl] = l // a person's first Bluesky or Mastodon profile
				}
			}
			if len(out) == 0 {
				return nil
			}
			return out
		}
	}
	return nil
}
