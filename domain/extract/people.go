package extract

import (
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

const nameRe = `\p{Lu}[\p{L}'’-]+(?:[ \t]\p{Lu}[\p{L}'’-]+){1,2}`

var (
	foundVerb  = regexp.MustCompile(`(?i)\b(founded|established|incorporated|started|gegründet|fondée?|fundad[ao]|opgericht|grundades)\b`)
	yearRe     = regexp.MustCompile(`\b(19[5-9]\d|20[0-4]\d)\b`)
	selfRe     = regexp.MustCompile(`(?i)\b(we|our|us|i|my|wir|unser|nous)\b`)
	copyrightR = regexp.MustCompile(`(?i)©|\(c\)|copyright|all rights reserved`)

	personRe   = regexp.MustCompile(`^` + nameRe + `$`)
	foundedBy  = regexp.MustCompile(`(?i:founded|started|established|created|built)(?:\s+in\s+\d{4})?(?:\s+in\s+\p{Lu}\p{L}+)?\s+by\s+(` + nameRe + `(?:(?:,\s*|\s+and\s+|\s*&\s*)` + nameRe + `)*)`)
	vonGegr    = regexp.MustCompile(`von\s+(` + nameRe + `(?:\s+und\s+` + nameRe + `)*)\s+gegründet`)
	firstPers  = regexp.MustCompile(`(?:I'm|I am|I’m|Hi, I'm|Hi, I’m)\s+(` + nameRe + `),?\s+(?:the\s+|a\s+)?(?i:co-?founder|founder|maker|creator|developer behind)`)
	nameRole   = regexp.MustCompile(`^(` + nameRe + `),\s+(?:the\s+|our\s+)?((?i:co-?founder|founder|ceo|cto|coo|cpo|cfo|chief)[^,.;:]{0,60})`)
	nameSplit  = regexp.MustCompile(`,\s*|\s+and\s+|\s*&\s*|\s+und\s+`)
	founderTtl = regexp.MustCompile(`(?i)\b(co-?founder|founder|ceo|cto|coo|cpo|cfo|chief [a-z]+ officer|president|owner|gründer(in)?|geschäftsführer(in)?|fondateur|fondatrice)\b`)
	notFounder = regexp.MustCompile(`(?i)invest|advis|board|angel|backer|non-executive|partner at|venture|mentor|founder of|founders of`)
	notAName   = regexp.MustCompile(`(?i)^(our|the|meet|about|why|what|how|team|get|see|join|contact|pricing|why|built|made|frequently)\b`)
	basedIn    = regexp.MustCompile(`(?i)\b(based|headquartered|located)\s+in\s+`)
	otherParty = regexp.MustCompile(`(?i)customer|client|partner|investor|data cent(er|re)|server`)
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
		key := compact(name)
		if key == "" || key == s.brand || notAName.MatchString(name) {
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
			for _, f := range ldObjects(o, "founder") {
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
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		for _, seg := range p.segs {
			texts := []string{seg.title}
			for _, l := range seg.lines {
				if !l.foreign && !l.footer {
					texts = append(texts, l.text)
				}
			}
			if seg.foreign {
				continue
			}
			for _, t := range texts {
				for _, re := range []*regexp.Regexp{foundedBy, vonGegr, firstPers} {
					for _, m := range re.FindAllStringSubmatchIndex(t, -1) {
						sent := sentenceAround(t, m[0])
						if !strings.Contains(sent, t[m[2]:m[3]]) {
							sent = t
						}
						for _, name := range nameSplit.Split(t[m[2]:m[3]], -1) {
							add(name, "", "", []domain.Evidence{p.ev(sent)}, nil, false)
						}
					}
				}
			}
		}
	}
	for _, p := range s.byKind(kindTeam, kindAbout) {
		if p.kind != kindTeam && p.kind != kindAbout {
			break
		}
		// "Maria González, co-founder and CEO, ran three restaurants ..."
		for _, seg := range p.segs {
			for _, l := range seg.lines {
				if m := nameRole.FindStringSubmatch(l.text); m != nil && !l.foreign && !seg.foreign && !notFounder.MatchString(m[2]) {
					role := strings.TrimSpace(m[2])
					add(m[1], role, "", []domain.Evidence{p.ev(sentenceAround(l.text, 0))}, nil, false)
				}
			}
		}
		for _, seg := range p.segs {
			if seg.level < 2 || seg.foreign || len(seg.lines) == 0 || !personRe.MatchString(seg.title) || notAName.MatchString(seg.title) {
				continue
			}
			title := seg.lines[0].text
			if len(title) > 80 || !founderTtl.MatchString(title) || notFounder.MatchString(title) {
				continue
			}
			ev := []domain.Evidence{p.ev(seg.title), p.ev(title)}
			bio := ""
			if len(seg.lines) > 1 && len(strings.Fields(seg.lines[1].text)) >= 5 {
				bio = seg.lines[1].text
				ev = append(ev, p.ev(bio))
			}
			add(seg.title, title, bio, ev, s.personLinks(p, seg.node), true)
		}
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
				if pl, ok := platformOf(l, true); ok {
					out[pl] = l
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
