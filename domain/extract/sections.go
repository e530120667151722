package extract

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

var (
	faqHdr     = lazyMustCompile(`(?i)\bfaqs?\b|frequently asked|questions|häufige fragen|häufig gestellte fragen|fragen und antworten|foire aux questions|preguntas frecuentes|domande frequenti|veelgestelde vragen|veel gestelde vragen|perguntas frequentes|dúvidas frequentes|duvidas frequentes` + faqHdrMore + faqHdrWorld)
	featureHdr = lazyMustCompile(`(?i)\bfeatures?\b|what it does|what you get|what's inside|what’s inside|everything you need|capabilities|highlights|^what \S+ does|` +
		`funktionen|was \S+ (für sie |für dich )?(kann|macht|tut)|` +
		`fonctionnalités|fonctionnalites|ce que \S+ fait|` +
		`funciones|funcionalidades|características|caracteristicas|lo que \S+ hace|qué hace|` +
		`funzionalità|funzionalita|funzioni|cosa fa|` +
		`functies|mogelijkheden|wat \S+ (voor je |voor u )?doet|` +
		`recursos|o que (o |a )?\S+ faz|` +
		`alles,? was (sie|du) brauch|tout ce (dont|qu'il) vous|todo lo que (necesitas|necesita)|tutto (ciò|quello) che (ti|vi) serve|alles wat je nodig hebt|tudo (o )?que (você|voce) precisa` + featureHdrMore)
	featureCls = lazyMustCompile(`\bfeatures?\b|\bfeats?\b|functies|funktionen|fonctionnalites|funcionalidades|caracteristicas|funzionalita|recursos`)
	uspHdr     = lazyMustCompile(`(?i)\bwhy\b|benefits?|vorteile|advantages|what makes|reasons to|unlike|warum|pourquoi|avantages|por qué|por que|ventajas|perché|vantaggi|waarom|voordelen|vantagens`)
	historyHdr = lazyMustCompile(`(?i)timeline|milestones|history|journey|changelog|releases|release notes|` + changelogWords.String() +
		`|geschichte|unser weg|histoire|parcours|trajectoire|historia|trayectoria|storia|percorso|geschiedenis|onze weg|história|trajetória|trajetoria|jornada` + historyHdrMore)
)

// draftFAQs: JSON-LD FAQPage, <details>/<summary>, <dl> question lists and
// question headings (or accordion buttons) in FAQ sections with their answers.
func (s *site) draftFAQs() {
	var out []domain.DraftedFAQ
	seen := map[string]bool{}
	add := func(p *page, q, a string, qQuote, aQuote string) {
		q, a = domain.NormalizeSpace(q), domain.NormalizeSpace(a)
		if q == "" || a == "" || seen[strings.ToLower(q)] || len(out) == 20 {
			return
		}
		seen[strings.ToLower(q)] = true
		out = append(out, domain.DraftedFAQ{FAQ: domain.FAQ{Question: truncate(q, 300), Answer: truncate(a, 1500)},
			Evidence: []domain.Evidence{p.ev(truncate(qQuote, 300)), p.ev(truncate(aQuote, 1500))}})
	}
	for _, p := range s.byKind(kindFAQ, kindHome, kindPricing) {
		for _, o := range p.ld {
			if !hasType(o, "FAQPage") {
				continue
			}
			for _, q := range ldObjects(o, "mainEntity") {
				name := ldString(q, "name")
				for _, a := range ldObjects(q, "acceptedAnswer") {
					if t := ldString(a, "text"); t != "" {
						add(p, name, stripTags(t), name, t)
					}
				}
			}
		}
		for _, qa := range microdataFAQs(p) {
			add(p, qa[0], qa[1], qa[0], qa[1])
		}
		forEach(p.doc, false, func(n *html.Node) bool {
			if foreign(n) {
				return false
			}
			switch n.DataAtom {
			case atom.Details:
				var q, a []string
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.DataAtom == atom.Summary {
						q = append(q, nodeText(c))
					} else if c.Type == html.ElementNode {
						if t := nodeText(c); t != "" {
							a = append(a, t)
						}
					}
				}
				if len(q) == 1 && isQuestion(q[0]) {
					ans := strings.Join(a, " ")
					add(p, q[0], ans, q[0], ans)
				}
				return false
			case atom.Dl:
				faqish := p.kind == kindFAQ || faqHdr.MatchString(hint(n))
				var q string
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					switch c.DataAtom {
					case atom.Dt:
						q = nodeText(c)
					case atom.Dd:
						if q != "" && (faqish || isQuestion(q)) {
							a := nodeText(c)
							add(p, q, a, q, a)
						}
						q = ""
					}
				}
				return false
			}
			return true
		})
		// Question headings (or question lines) in FAQ sections; an answer
		// stops at its own block: the entry's wrapper, else the FAQ section,
		// never the footer or a footer-like line after the last answer.
		faqPage := fAQPage(p)
		for i, seg := range p.segs {
			if !(faqPage || faqHdr.MatchString(seg.title)) || seg.foreign {
				continue
			}
			var sect *html.Node
			if seg.level >= 2 {
				sect = headingBlock(seg.node)
			}
			for _, sub := range section(p.segs, i) {
				if sub != seg && sect != nil && !isUnder(sub.node, sect) {
					break
				}
				if isQuestion(sub.title) && len(sub.lines) > 0 && !sub.foreign {
					a := answerLines(sub.lines, 0, entryBlock(sub.node, sect))
					add(p, sub.title, a, sub.title, a)
				}
				for j, l := range sub.lines {
					if isQuestion(l.text) && l.tag != atom.Summary && l.tag != atom.Dt && j+1 < len(sub.lines) && inBlock(l, sect) {
						a := answerLines(sub.lines, j+1, sect)
						add(p, l.text, a, l.text, a)
					}
				}
			}
		}
	}
	s.out.FAQs = out
}

// isQuestion reports whether t ends with a question mark, the ASCII one or
// the full-width one of Chinese and Japanese ("可以在電腦上使用嗎？").
func isQuestion(t string) bool {
	t = strings.TrimSpace(t)
	return strings.HasSuffix(t, "?") || strings.HasSuffix(t, "？")
}

// answerLines joins up to three answer lines from i, stopping at the next
// question and at the end of the answer's block (inBlock).
func answerLines(ls []line, i int, block *html.Node) string {
	var a []string
	for ; i < len(ls) && len(a) < 3; i++ {
		// A footer-like line ("Follow us", "Founded in 2023 in Dublin") after
		// the answer's first line is the page's footer, not the answer.
		if strings.HasSuffix(ls[i].text, "?") || !inBlock(ls[i], block) || (len(a) > 0 && footerishRe.MatchString(ls[i].text)) {
			break
		}
		a = append(a, ls[i].text)
	}
	return strings.Join(a, " ")
}

var tagRe = lazyMustCompile(`<[^>]*>`)

func stripTags(s string) string { return domain.NormalizeSpace(tagRe.ReplaceAllString(s, " ")) }

// draftLists: features from feature sections (list items, or the titles of
// feature cards), usps from "why"/"benefits" lists. Plan contents in pricing
// sections are not product features.
func (s *site) draftLists() {
	var feat, usp domain.DraftedValue
	for _, p := range s.byKind(kindHome, kindFeatures) {
		for i, seg := range p.segs {
			if seg.foreign || p.kind == kindPricing || pricingHdr.MatchString(seg.title) || faqHdr.MatchString(seg.title) {
				continue
			}
			// "Why Flakehound?" is a list of reasons; other questions are FAQ entries.
			isUSP := uspHdr.MatchString(seg.title) && p.kind != kindAbout && p.kind != kindTeam
			isFeat := !isUSP && !strings.HasSuffix(seg.title, "?") && (featureHdr.MatchString(seg.title) || featureCls.MatchString(seg.hint))
			if !isUSP && !isFeat {
				continue
			}
			var items, quotes []string
			for _, sub := range section(p.segs, i) {
				for _, l := range sub.lines {
					if l.tag == atom.Li && !l.foreign && !speaksOfOthers(l.node) && !within(l.node, atom.Nav, atom.Footer, atom.Header) {
						items = append(items, listItemText(l.text))
						quotes = append(quotes, l.text)
					}
				}
				// A term-and-description list: the terms are the features.
				if terms := definitionTerms(sub.lines); isFeat && len(terms) > 0 {
					items = append(items, terms...)
					quotes = append(quotes, terms...)
				}
			}
			if len(items) == 0 {
				for _, sub := range section(p.segs, i)[1:] {
					if n := len(strings.Fields(sub.title)); n >= 1 && n <= 8 && !strings.HasSuffix(sub.title, "?") && !sub.foreign {
						items = append(items, sub.title)
					}
				}
				quotes = items
			}
			dst := &feat
			if isUSP {
				dst = &usp
			}
			for k, it := range items {
				dst.List = append(dst.List, it)
				dst.Evidence = append(dst.Evidence, p.ev(quotes[k]))
			}
		}
	}
	for _, p := range s.byKind(kindHome, kindFeatures) {
		if len(feat.List) > 0 && p.kind != kindPricing {
			tabFeatures(p, &feat)
		}
	}
	if len(feat.List) == 0 {
		feat = s.featurePages()
	}
	if len(feat.List) == 0 {
		feat = s.boldFeatures()
	}
	if len(feat.List) == 0 {
		feat = s.unlabelledFeatures()
	}
	if len(feat.List) == 0 {
		feat = s.ldFeatures()
	}
	s.set("features", feat)
	s.set("usps", usp)
}

var storyKeys = []struct {
	key string
	re  *lazyRegexp
}{
	{"why_started", lazyMustCompile(`(?i)why (we|i) (started|built|made|created|founded)|why .* exists|how it (all )?(started|began)|` +
		`warum wir|wie alles (begann|anfing)|pourquoi (nous avons|on a|j'ai)|comment tout a commencé|por qué (creamos|empezamos|fundamos|nació)|cómo empezó|` +
		`perché abbiamo|come è nato|come tutto è iniziato|waarom (we|wij|ik)|hoe het begon|por que (criamos|começamos|fundamos)|como tudo começou`)},
	{"problem", lazyMustCompile(`(?i)\bthe problem\b|^problem\b|^das problem|^le problème|^el problema|^il problema|^het probleem|^o problema`)},
	{"journey", lazyMustCompile(`(?i)journey|how we got here|unser weg|notre parcours|nuestro camino|il nostro percorso|onze reis|nossa jornada|nossa trajetória`)},
	{"challenges", lazyMustCompile(`(?i)challenge|herausforderung|défis|desafíos|retos|sfide|uitdaging|desafios`)},
	{"achievements", lazyMustCompile(`(?i)achievement|what we('ve| have) achieved|erfolge|réussites|logros|traguardi|successen|conquistas`)},
	{"lessons", lazyMustCompile(`(?i)lesson|what (we|i) learned|was wir gelernt|ce que nous avons appris|lecciones|lo que aprendimos|lezioni|cosa abbiamo imparato|lessen|wat we geleerd|lições|o que aprendemos`)},
	{"whats_next", lazyMustCompile(`(?i)what'?s next|what’s next|what is next|the future|roadmap|next steps|coming next|` +
		`wie es weitergeht|was kommt|die zukunft|la suite|et maintenant|l'avenir|próximos pasos|el futuro|prossimi passi|il futuro|wat komt er|de toekomst|próximos passos|o futuro`)},
	{"story", lazyMustCompile(`(?i)our story|my story|the story|^about\b|über uns|à propos|unsere geschichte|notre histoire|qui sommes-nous|nuestra historia|sobre nosotros|quiénes somos|la nostra storia|chi siamo|ons verhaal|over ons|nossa história|sobre nós|quem somos`)},
}

// aboutPathRe: an about or story page's path in the seven languages (the
// shared page kinds know the English and German ones).
var aboutPathRe = lazyMustCompile(`(?i)/(sobre|sobre-nos|sobre-nosotros|quienes-somos|nosotros|qui-sommes-nous|notre-histoire|chi-siamo|la-nostra-storia|over-ons|ons-verhaal|quem-somos|nossa-historia|historia|storia|histoire|geschichte)(/|\.html?$|$)`)

// draftStory: story sections from the about/team pages' narrative headings,
// with the paragraphs under them.
func (s *site) draftStory() {
	story := map[string]domain.DraftedSection{}
	for _, p := range s.content() {
		if p.kind != kindAbout && p.kind != kindTeam && !(p.kind == kindOther && aboutPathRe.MatchString(p.base.Path)) {
			continue
		}
		for _, seg := range p.segs {
			if seg.foreign || seg.title == "" {
				continue
			}
			for _, k := range storyKeys {
				if _, done := story[k.key]; done || !k.re.MatchString(seg.title) {
					continue
				}
				var sec domain.DraftedSection
				for _, l := range seg.lines {
					if l.tag == atom.Li || l.foreign || l.footer || len(strings.Fields(l.text)) < 6 || len(sec.Evidence) == 5 {
						continue
					}
					if sec.Text != "" {
						sec.Text += "\n\n"
					}
					sec.Text += l.text
					sec.Evidence = append(sec.Evidence, p.ev(l.text))
				}
				if sec.Text != "" {
					story[k.key] = sec
				}
				break
			}
		}
	}
	if len(story) > 0 {
		s.out.Story = story
	}
}

var (
	months  = `(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`
	isoDate = lazyMustCompile(`\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b`)
	mdyDate = lazyMustCompile(`\b` + months + `\.?\s+(\d{1,2}),?\s+((?:19|20)\d\d)\b`)
	dmyDate = lazyMustCompile(`\b(\d{1,2})\.?\s+` + months + `\.?\s+((?:19|20)\d\d)\b`)
	myDate  = lazyMustCompile(`\b` + months + `\.?\s+((?:19|20)\d\d)\b`)
	yDate   = lazyMustCompile(`^((?:19|20)\d\d)\s*[—–:-]\s*`)
	// Numeric dates: "18. 3. 2024", "18.03.2024" (day, month, year); "2022.03",
	// "2022.03.15", "2022/3" (year first, as Korean and Chinese sites write);
	// "03.2019", "3/2019" (month and year).
	dmyNumDate = lazyMustCompile(`(?:^|[^\d.])(\d{1,2})\.\s?(\d{1,2})\.\s?((?:19|20)\d\d)(?:[^\d.]|$)`)
	ymNumDate  = lazyMustCompile(`(?:^|[^\d.])((?:19|20)\d\d)[./](\d{1,2})(?:[./](\d{1,2}))?\.?(?:[^\d.]|$)`)
	myNumDate  = lazyMustCompile(`(?:^|[^\d.])(\d{1,2})[./]((?:19|20)\d\d)(?:[^\d.]|$)`)
	dateSep    = lazyMustCompile(`^[\s()\[\]—–:,-]+|[\s()\[\]—–:,-]+$`)
)

func monthNum(m string) int {
	return strings.Index("janfebmaraprmayjunjulaugsepoctnovdec", strings.ToLower(m[:3]))/3 + 1
}

// findDate returns a date in s as YYYY-MM-DD (first of the month or year
// when the site gives no day) and s without it.
func findDate(s string, atStart bool) (date, rest string, ok bool) {
	if !hasYear(s) {
		return "", "", false
	}
	try := func(re *lazyRegexp, f func(m []string) string) bool {
		loc := re.FindStringSubmatchIndex(s)
		if loc == nil || (atStart && loc[0] != 0) {
			return false
		}
		m := make([]string, len(loc)/2)
		for i := range m {
			if loc[2*i] >= 0 {
				m[i] = s[loc[2*i]:loc[2*i+1]]
			}
		}
		date = f(m)
		rest = trimDateSep(s[:loc[0]] + " " + s[loc[1]:])
		rest = domain.NormalizeSpace(strings.ReplaceAll(rest, "()", ""))
		return true
	}
	var n int
	switch {
	case try(isoDate, func(m []string) string { return m[1] + "-" + m[2] + "-" + m[3] }):
	case try(mdyDate, func(m []string) string {
		_, _ = fmt.Sscan(m[2], &n) // the pattern matched digits
		return fmt.Sprintf("%s-%02d-%02d", m[3], monthNum(m[1]), n)
	}):
	case try(dmyDate, func(m []string) string {
		_, _ = fmt.Sscan(m[1], &n) // the pattern matched digits
		return fmt.Sprintf("%s-%02d-%02d", m[3], monthNum(m[2]), n)
	}):
	default:
		// Day-month-year in the seven languages before the bare month-year forms.
		if d, r, ok := findLocalDate(s, atStart); ok {
			return d, r, true
		}
		switch {
		case try(cjkDateRe, cjkDateString): // "2021年3月", "2021년 3월 15일"
		case try(dmyNumDate, func(m []string) string { return numDate(m[3], m[2], m[1]) }) && date != "":
		case try(ymNumDate, func(m []string) string { return numDate(m[1], m[2], m[3]) }) && date != "":
		case try(myNumDate, func(m []string) string { return numDate(m[2], m[1], "") }) && date != "":
		case try(myDate, func(m []string) string { return fmt.Sprintf("%s-%02d-01", m[2], monthNum(m[1])) }):
		case try(yDate, func(m []string) string { return m[1] + "-01-01" }):
		default:
			return "", "", false
		}
	}
	return date, rest, true
}

// numDate is YYYY-MM-DD of a numeric date's parts ("" when the month or day
// is out of range: "2.10.2019" of a version is no date).
func numDate(y, m, d string) string {
	mo, _ := strconv.Atoi(m)
	day := 1
	if d != "" {
		day, _ = strconv.Atoi(d)
	}
	if mo < 1 || mo > 12 || day < 1 || day > 31 {
		return ""
	}
	return fmt.Sprintf("%s-%02d-%02d", y, mo, day)
}

// draftMilestones: dated entries of changelogs (a date in the heading) and of
// timeline or milestone lists (a date opening the item). Blog posts are not milestones.
func (s *site) draftMilestones() {
	var out []domain.DraftedMilestone
	// add appends a milestone and reports whether it did.
	add := func(p *page, date, title, desc, quote string) bool {
		if len(out) == 50 || title == "" {
			return false
		}
		title, ok := milestoneTitle(title)
		if !ok || notice(title) {
			return false // a patch release, a bare version tag, a notice or an event
		}
		// A heading that is only a version ("v4.2.0", "Verze 3.1") over its
		// description: the description says what the release brought.
		moved := versionOnly(title)
		if moved {
			if desc == "" {
				return false
			}
			title, desc = desc, ""
			if notice(title) {
				return false
			}
		}
		m := domain.DraftedMilestone{Milestone: domain.Milestone{Date: date, Title: truncate(title, 200), Description: truncate(desc, 1000)},
			Evidence: []domain.Evidence{p.ev(quote)}}
		if desc != "" {
			m.Evidence = append(m.Evidence, p.ev(desc))
		}
		if moved {
			m.Evidence = append(m.Evidence, p.ev(title))
		}
		out = append(out, m)
		return true
	}
	// A news index (not a blog) is read for its dated entries only.
	for _, p := range s.pages {
		if p.kind == kindBlog && newsPathRe.MatchString(p.base.Path) {
			out = append(out, s.datedEntries(p)...)
			for _, e := range datedBlocks(p) {
				if add(p, e.date, e.rest, "", e.quote) {
					out[len(out)-1].Evidence = append(out[len(out)-1].Evidence, p.ev(e.rest))
				}
			}
		}
	}
	out = append(out, s.blogMilestones()...)
	out = append(out, s.pressMilestones()...)
	out = append(out, s.detailsMilestones()...)
	for _, p := range s.content() {
		for _, e := range timelineLists(p) {
			if add(p, e.date, e.rest, "", e.quote) && !strings.Contains(e.quote, e.rest) {
				out[len(out)-1].Evidence = append(out[len(out)-1].Evidence, p.ev(e.rest))
			}
		}
		for _, e := range datedBlocks(p) {
			if add(p, e.date, e.rest, "", e.quote) {
				out[len(out)-1].Evidence = append(out[len(out)-1].Evidence, p.ev(e.rest))
			}
		}
		changelog := changelogPage(p) || datedHeadings(p)
		// A page that is a changelog only by its dated headings (no changelog
		// or news name) is the product's history only where an entry names
		// the product or a version: customer stories and events are dated too.
		// A history heading ("Meilensteine") over them says they are.
		ownOnly := changelog && !changelogPage(p) && !newsy(p) && !slices.ContainsFunc(p.segs, func(seg *segment) bool {
			return historyHdr.MatchString(seg.title)
		})
		out = append(out, s.datedEntries(p)...)
		// The dated headings of a changelog are read with their own text
		// below; the section of the page's title does not read them again
		// (which would pair a date with a description, or keep a patch release).
		handled := map[*segment]bool{}
		for i, seg := range p.segs {
			if changelog && seg.level >= 2 && !seg.foreign {
				_, _, ok1 := findDate(seg.title, false)
				_, _, _, ok2 := dateUnderHeading(seg)
				var prev *segment
				if i > 0 {
					prev = p.segs[i-1]
				}
				_, _, _, ok3 := dateAboveHeading(prev, seg)
				handled[seg] = ok1 || ok2 || ok3
			}
		}
		for i, seg := range p.segs {
			if seg.foreign {
				continue
			}
			if changelog && seg.level >= 2 {
				if d, rest, ok := findDate(seg.title, false); ok {
					desc := ""
					if len(seg.lines) > 0 {
						desc = seg.lines[0].text
					}
					if rest == "" {
						rest, desc = desc, ""
					}
					if !ownOnly || s.ownEntry(rest) {
						add(p, d, rest, desc, seg.title)
					}
					continue
				}
				// A heading over a line that is only its date ("<time>March 12, 2024</time>").
				if d, dateLine, desc, ok := dateUnderHeading(seg); ok {
					if ownOnly && !s.ownEntry(seg.title) {
						continue
					}
					if add(p, d, seg.title, desc, dateLine) {
						out[len(out)-1].Evidence = append(out[len(out)-1].Evidence, p.ev(seg.title))
					}
					continue
				}
				// An entry's date above its heading, inside the entry.
				if i > 0 {
					if d, dateLine, desc, ok := dateAboveHeading(p.segs[i-1], seg); ok {
						if ownOnly && !s.ownEntry(seg.title) {
							continue
						}
						if add(p, d, seg.title, desc, dateLine) {
							out[len(out)-1].Evidence = append(out[len(out)-1].Evidence, p.ev(seg.title))
						}
						continue
					}
				}
			}
			if !(changelog || historyHdr.MatchString(seg.title)) {
				continue
			}
			for _, sub := range section(p.segs, i) {
				if sub != seg && handled[sub] {
					continue
				}
				// A dated heading inside a timeline ("3. März 2024") over its entry.
				if sub != seg && !sub.foreign && !changelog {
					if d, rest, ok := findDate(sub.title, true); ok {
						desc := ""
						if len(sub.lines) > 0 && !sub.lines[0].footer {
							desc = sub.lines[0].text
						}
						if rest == "" {
							rest, desc = desc, ""
						}
						add(p, d, rest, desc, sub.title)
						continue
					}
				}
				for j, l := range sub.lines {
					if l.tag != atom.Li && l.tag != atom.P && l.tag != atom.Dt && l.tag != atom.Th && l.tag != atom.Td {
						continue
					}
					d, rest, ok := findDate(l.text, true)
					if !ok && l.tag == atom.Dt {
						d, rest, ok = bareDate(l.text)
					}
					if !ok && (l.tag == atom.Li || l.tag == atom.P) {
						d, rest, ok = leadingDate(l.node, l.text)
					}
					if !ok || l.foreign {
						continue
					}
					// A term that is only the date ("2019") over its description.
					// A history table's date cell before its entry ("2016年4月 | 会社設立").
					next := atom.Dd
					if l.tag == atom.Th || l.tag == atom.Td {
						next = atom.Td
					}
					if rest == "" && j+1 < len(sub.lines) && (sub.lines[j+1].tag == next || sub.lines[j+1].tag == atom.P && next == atom.Dd) && !sub.lines[j+1].footer {
						if add(p, d, sub.lines[j+1].text, "", l.text) {
							out[len(out)-1].Evidence = append(out[len(out)-1].Evidence, p.ev(sub.lines[j+1].text))
						}
						continue
					}
					add(p, d, rest, "", l.text)
				}
			}
		}
	}
	s.out.Milestones = dedupeMilestones(out)
}

func dedupeMilestones(ms []domain.DraftedMilestone) []domain.DraftedMilestone {
	var out []domain.DraftedMilestone
	seen := map[string]bool{}
	dayPage := map[string]string{} // a day-exact date -> the page it was first drafted from
	for _, m := range ms {
		k := m.Date + "\x00" + strings.ToLower(m.Title)
		if seen[k] {
			continue
		}
		// One event told on two pages (a site's language versions, a news
		// list and its changelog) under the same exact day is one milestone.
		if len(m.Date) == 10 && !strings.HasSuffix(m.Date, "-01-01") && len(m.Evidence) > 0 {
			if pg, ok := dayPage[m.Date]; ok && pg != m.Evidence[0].URL {
				continue
			}
			dayPage[m.Date] = m.Evidence[0].URL
		}
		seen[k] = true
		out = append(out, m)
	}
	return out
}
