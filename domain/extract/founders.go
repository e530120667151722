package extract

import (
	"strings"
	"unicode"

	"github.com/launchdir/launchdir/domain"
)

// Founders and their roles in seven languages (en, de, fr, es, it, nl, pt).
// docs/extract-f1.md lists the statements read and the traps kept out.

// personNamePattern is a person's name: two or three capitalised words, with the
// lower-case particles names carry between them ("Femke van der Berg",
// "João da Silva").
const personNamePattern = `\p{Lu}[\p{L}'’-]+(?:[ \t]+(?:(?:van|von|de|der|den|du|da|das|do|dos|di|del|della|le|la|ter|ten|zu|af)[ \t]+){0,2}\p{Lu}[\p{L}'’-]+){1,2}`

// roleWords are founders' and executives' titles in seven languages.
const roleWords = `co-?founders?|cofounders?|founders?|founding ceo|` +
	`(?:mit|co-?)?gründer(?:in)?|geschäftsführer(?:in)?|inhaber(?:in)?|vorstandsvorsitzende[r]?|` +
	`(?:co-?)?fondat(?:eur|rice)s?|présidente?|pdg|directeur général|directrice générale|directeur technique|directrice technique|gérante?|` +
	`(?:co-?)?fundador(?:a|es|as)?|director(?:a)? (?:general|ejecutiv[oa]|técnic[oa]|de tecnología|de producto|de operaciones)|consejer[oa] delegad[oa]|` +
	`(?:co-?)?fondat(?:ore|rice|ori)|amministrat(?:ore|rice) delegat[oa]|direttore (?:generale|tecnico)|direttrice (?:generale|tecnica)|` +
	`(?:mede-?)?oprichter|oprichtster|algemeen directeur|eigenaar|` +
	`diretor(?:a)? (?:executiv[oa]|geral|técnic[oa]|de tecnologia|de produto|de operações)|` +
	`ceo|cto|coo|cpo|cfo|cmo|cio|chief [\p{L} ]{2,30}?officer|chief executive|president|presidente|managing director|owner` + roleWordsMore

var (
	personNameRe = lazyMustCompile(`^` + personNamePattern + `$`)
	nameAt       = lazyMustCompile(`^` + personNamePattern)
	roleRe       = lazyMustCompile(`(?i)(?:^|[^\p{L}])(?:` + roleWords + `)(?:$|[^\p{L}])`)
	notRole      = lazyMustCompile(`(?i)product owner|vice|wice|doradc|inwestor|rådgivare|investerare|poradce|danışman|yatırımcı|顧問|投资人|投資家|社外|고문|투자자|deputy|assistant|assistent|stellvertret|adjoint|adjunt|sostitut|plaatsvervangend|invest|advis|board|angel|backer|non-executive|mentor|berater|beirat|aufsichtsrat|conseil|administrat(?:eur|rice)|inversor|inversionista|asesor|consulente|consiglier|investeerder|adviseur|commissaris|raad van|conselh|consultor|former|ehemalig|ancien|antigu[oa]|\bex-|previously|formerly|intern\b|praktikant|stagiaire|becari[oa]|stagista|stagiair|estagiári`)
	// otherCo: "founder of OtherCo", "CEO at OtherCo", "eigenaar van X":
	// a role at a named company, which is the product only when it is the site's name.
	otherCo = lazyMustCompile(`(?:^|\s)(?i:of|at|@|bei|von|vom|chez|de|du|des|en|di|della|del|dello|presso|bij|van|em|da|do|na|no|für|for|pour|para|per|voor)\s+(?:(?i:the|la|le|l'|les|el|los|las|il|lo|der|die|das|het|a|o|os|as)\s+)?(\p{Lu}[\p{L}\d'’&.-]*(?:\s+\p{Lu}[\p{L}\d'’&.-]*)*)`)
	// otherHeading: a section about people who are not the company's founders.
	otherHeading = lazyMustCompile(`(?i)invest|advis|backed|backer|board|beirat|berater|aufsichtsrat|investisseur|conseil|inversor|asesor|investitor|consulent|investeerder|adviseur|investidor|conselh|mentor|partner|kunden|client|customer|testimonial|témoignage|avis|opinion|testimonio|recension|dicono|ervaring|depoiment|review|press|presse|prensa|stampa|imprensa|blog`)
	// teamPathRe: an about or team page in seven languages.
	teamPathRe = lazyMustCompile(`(?i)(about|team|people|founders|leadership|company|ueber|über|uber-uns|unternehmen|a-propos|à-propos|qui-sommes|equipe|équipe|nosotros|quienes|quiénes|equipo|sobre|quem-somos|chi-siamo|squadra|azienda|over-ons|wie-zijn|bedrijf|empresa|entreprise` + aboutPathMore + `)`)
	// teamHeading: a section of any page that introduces the team.
	teamHeading  = lazyMustCompile(`(?i)team|founder|people|leadership|gründer|fondat|équipe|equipe|equipo|fundador|squadra|oprichter|mensen|who we are|wer wir sind|qui sommes|quiénes somos|chi siamo|wie zijn|quem somos` + teamHeadingMore)
	quoteClassRe = lazyMustCompile(`testimon|review|quote|kunden|stimmen|avis|temoignage|opinion|recensioni|ervaring|depoimento|referenz`)
	nameStop     = lazyMustCompile(`(?i)\b(team|inc|gmbh|ltd|llc|sas|sarl|srl|spa|bv|ag|company|group|labs|capital|ventures|partners|account|university|research|studio|software|free|plan|pro|app)\b`)

	// byVerb: a founding verb and, within the same clause, the word that
	// introduces who did it ("founded in 2023 in Bologna, Italy, by").
	byVerb = lazyMustCompile(`(?i:co-?founded|founded|started|established|created|launched|made|built|gegründet|ins leben gerufen|fondée?s?|créée?s?|lancée?s?|fundad[oa]s?|cread[oa]s?|lanzad[oa]s?|fondat[oa]|creat[oa]|lanciat[oa]|avviat[oa]|opgericht|gestart|opgezet|criad[oa]s?|lançad[oa]s?|grundades|grundad|grundat|założon[aey]|založen[aáoé]?)[\p{L}\d ,'’-]{0,60}?\s(by|von|par|por|da|door|pela|pelo|av|przez)\s+`)
	// verbFirst: the founding verb, a few words of time or place, then the
	// founders ("Kursownię założyli w 2020 roku A i B", "založili v roce 2019 A a B").
	verbFirst = lazyMustCompile(`(?i:(?:^|[^\p{L}])(założyli|założyły|założył|założyła|založili|založil|založila|grundade))(?:\s+[\p{Ll}\d][\p{L}\d.]*,?){0,6}\s+`)
	// verbLast: "von A und B gegründet", "door A en B opgericht".
	verbLast = lazyMustCompile(`\s(von|door)\s+`)
	lastVerb = lazyMustCompile(`^[^.!?;:]{0,40}?\s(?:gegründet|opgericht|ins Leben gerufen)`)
	// appos: "Our founder, Jane Doe," in seven languages.
	appos = lazyMustCompile(`(?i:\b(?:our|unser(?:e|en)?|notre|nos|nuestr[oa]s?|(?:il|la) nostr[oa]|onze|noss[oa]s?)\s+)((?i:co-?founder|founder|(?:mit)?gründer(?:in)?|(?:co-?)?fondat(?:eur|rice|ore)|(?:co-?)?fundador(?:a)?|(?:mede-?)?oprichter|ceo|geschäftsführer(?:in)?|présidente?))\s*,?\s+(` + personNamePattern + `)`)
	// selfIntroRe: "I'm A" in seven languages; firstFounded: "I started X".
	selfIntroRe  = lazyMustCompile(`(?:^|[^\p{L}])(?:I'm|I am|I’m|[Ii]ch bin|[Jj]e suis|[Jj]e m'appelle|[Jj]e m’appelle|[Mm]oi c'est|[Mm]oi, c'est|[Ss]oy|[Mm]e llamo|[Ss]ono|[Mm]i chiamo|[Ii]k ben|[Ee]u sou|[Ss]ou|[Mm]e chamo|[Mm]eu nome é)\s+(` + personNamePattern + `)`)
	firstFounded = lazyMustCompile(`(?i)\b(?:i|ich|j'ai|j’ai|yo|io|ik|eu)\s+(?:\S+\s+){0,4}?(?:co-?founded|founded|started|built|build|make|created|launched|gegründet|fondé|créé|lancé|fundé|creé|lancé|fondato|creato|avviato|opgericht|gestart|fundei|criei|lancei|comecei)\b`)

	makerWordRe = lazyMustCompile(`(?i)\b(?:maker|creator|developer|person|woman|man|one|macher(?:in)?|entwickler(?:in)?|schöpfer(?:in)?|créat(?:eur|rice)|développeu(?:r|se)|cread(?:or|ora)|desarrollad(?:or|ora)|creat(?:ore|rice)|sviluppat(?:ore|rice)|bedenker|ontwikkelaar|maker|criad(?:or|ora)|desenvolved(?:or|ora))\s+(?:of|behind|von|hinter|de|d'|du|derrière|detrás de|di|dietro|van|achter|d[aoe]|por trás d[aoe])\s*`)
	// subjVerb: "A (CEO) and B (CTO) started X", after the list of names.
	subjVerb  = lazyMustCompile(`^\s+(?:(?:have|had|hat|haben|ont|han|hanno|hebben|heeft|têm|tinham)\s+)?(?:(?:[\p{L}\d]+\s+){0,3}?)(?:co-?founded|founded|started|launched|created|built|gründete[n]?|gegründet|fondé|fondèrent|fonda|créé|lancé|fundaron|fundó|crearon|fundado|creado|fondato|fondarono|fondò|creato|avviato|richtten|richtte|opgericht|fundaram|fundou|criaram|criado|criou)\b`)
	sentStart = lazyMustCompile(`(?:^|[.!?]\s+)`)
	atOther   = lazyMustCompile(`^\s*(?:,|–|—|-|\||@|at|bei|chez|en|presso|bij|na|em)\s*(\p{Lu}[\p{L}\d'’&.-]*)`)
	// founderLabelRe: "Founders: A and B", "Geschäftsführer: A" (a label, a colon, the names).
	founderLabelRe = lazyMustCompile(`^(?i:(co-?founders?|founders?|(?:mit)?gründer(?:in|innen)?|geschäftsführer(?:in)?|geschäftsführung|(?:co-?)?fondat(?:eur|rice)s?|(?:co-?)?fundador(?:a|es|as)?|(?:co-?)?fondator(?:e|i|rice)|(?:mede-?)?oprichters?))\s*:\s*`)
	// roleName: "Acme co-founder Jane Doe", "Gründerin Katrin Meißner erzählt".
	roleName      = lazyMustCompile(`((?i:co-?founder|founder|(?:mit)?gründer(?:in)?|(?:co-?)?fondat(?:eur|rice|ore)|(?:co-?)?fundador(?:a)?|(?:mede-?)?oprichter)(?:\s+(?:and|&|und|et|y|e|en)\s+(?:CEO|CTO|COO|Geschäftsführer(?:in)?|PDG|présidente?))?)\s+(` + personNamePattern + `)`)
	weAre         = lazyMustCompile(`(?:^|[^\p{L}])(?:We are|We're|We’re|Wir sind|Nous sommes|Somos|Siamo|Wij zijn|We zijn)\s+`)
	founderWordRe = lazyMustCompile(`(?i)founder|gründer|fondat|fundador|oprichter`)
	// foundersHeading: a section that introduces the founders themselves.
	foundersHeading = lazyMustCompile(`^(?i:(?:meet\s+)?(?:the|our)\s+(?:co-?)?founders?|(?:co-?)?founders?|(?:die|unsere|unser)\s+gründer(?:in|innen)?|gründer(?:team|innen)?|(?:les|nos|le|la|notre)\s+(?:co)?fondat(?:eur|rice)s?|(?:co)?fondat(?:eur|rice)s|(?:los|las|nuestr[oa]s?|el|la)\s+(?:co)?fundador(?:es|as|a)?|(?:i|il|la|i nostri)\s+fondator[ei]|fondatori|(?:de|onze)\s+oprichters?|(?:os|as|nossos|nossas|o|a)\s+(?:co)?fundador(?:es|as|a)?|conheça os fundadores|lernen sie die gründer kennen|rencontrez les fondateurs|conoce a los fundadores|conosci i fondatori|maak kennis met de oprichters)\s*[.!:]?$`)
	// forHeading: "Loved by founders", "Built for teams" speak of customers.
	forHeading = lazyMustCompile(`(?i)\b(?:by|for|für|pour|para|per|voor|loved|trusted|love|lieben|aiment|adoran|amano)\b`)
	// weWordRe: a sentence about the company itself.
	weWordRe = lazyMustCompile(`(?i)\b(?:we|our|us|wir|unser\w*|nous|notre|nos|nosotros|nuestr[oa]s?|noi|nostr[oa]|wij|ons|onze|nós|noss[oa]s?|the company|das unternehmen|l'entreprise|la empresa|l'azienda|het bedrijf|a empresa)\b`)
	// strongFoundVerbRe: verbs that only ever say a company was founded (not "created", "started").
	strongFoundVerbRe = lazyMustCompile(`(?i)found|gegründet|leben gerufen|fond|fundad|opgericht|grund|założ|založ`)
	// isRole: "A is our co-founder and CEO" in seven languages.
	isRole    = lazyMustCompile(`(` + personNamePattern + `)\s+(?:is|ist|est|es|è|é)\s+((?:(?:the|our|unser(?:e|er)?|notre|nuestr[oa]|(?:il|la) nostr[oa]|onze|noss[oa]|(?:a|o|la|le|el|il|de|die|der|een|un|una|une|um|uma))\s+)?[^,.;:()!?]{2,60})`)
	roleSepRe = lazyMustCompile(`^\s*(?:,|–|—|-|\||:|·|/)\s*`)
	roleEnd   = lazyMustCompile(`[.;:!?()]`)
	paren     = lazyMustCompile(`^\s*\(([^()]{1,60})\)`)
	commaRole = lazyMustCompile(`^\s*,\s*([^,.;:()]{1,60}?)\s*(?:[,.;)]|$)`)
	listSep   = map[string]*lazyRegexp{}
)

func init() {
	for agent, conj := range nameConjunctions {
		// "A, ..., et par B": the agent word may stand again after the conjunction
		again := `(?:(?:by|von|par|por|da|door|av|przez|pela|pelo)\s+)?`
		listSep[agent] = lazyMustCompile(`^(?:\s*,\s*(?:(?:` + conj + `)\s+` + again + `)?|\s+(?:` + conj + `)\s+` + again + `)`)
	}
}

// nameConjunctions is the word that joins names after each agent word.
var nameConjunctions = map[string]string{
	"*": `and|und|et|y|e|en|&`, "by": `and|&`, "av": `och|&`, "przez": `i|oraz|&`, "pl": `i|oraz|&`, "cs": `a|&`, "sv": `och|&`, "von": `und|&`, "par": `et|&`, "por": `y|e|&`, "da": `e|&`, "door": `en|&`, "pela": `e|&`, "pelo": `e|&`,
}

// Words one of which a line must hold before a pattern is tried on it.
var (
	verbHints  = []string{"found", "made", "start", "establish", "creat", "built", "launch", "gründe", "gegründet", "leben gerufen", "fond", "créé", "lancé", "fundad", "fundar", "fundó", "fundou", "cread", "crear", "lanzad", "lanciat", "avviat", "opgericht", "richt", "gestart", "opgezet", "criad", "criar", "criou", "lançad", "grund", "założ", "založ"}
	roleHints  = []string{"founder", "gründer", "fondat", "fundador", "oprichter", "ceo", "geschäftsführer", "président"}
	weHints    = []string{"we are", "we're", "we’re", "wir sind", "nous sommes", "somos", "siamo", "wij zijn", "we zijn"}
	introHints = []string{"i'm", "i am", "i’m", "ich bin", "je suis", "je m", "moi", "soy", "me llamo", "sono", "mi chiamo", "ik ben", "sou", "me chamo", "meu nome"}
)

func hasAnyWord(lower string, words []string) bool {
	for _, w := range words {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

func findAll(ok bool, re *lazyRegexp, t string) [][]int {
	if !ok {
		return nil
	}
	return re.FindAllStringSubmatchIndex(t, -1)
}

func findAllIdx(ok bool, re *lazyRegexp, t string) [][]int {
	if !ok {
		return nil
	}
	return re.FindAllStringIndex(t, -1)
}

// hasUpper2 reports whether t has two capitalised words in a row (lower-case
// particles between them allowed), as every name does.
func hasUpper2(t string) bool {
	prevUpper := false
	for _, w := range strings.Fields(t) {
		if nameParticles[w] {
			continue
		}
		up := startsUpper(w)
		if up && prevUpper {
			return true
		}
		prevUpper = up
	}
	return false
}

var nameParticles = map[string]bool{"van": true, "von": true, "de": true, "der": true, "den": true, "du": true, "da": true, "das": true, "do": true, "dos": true, "di": true, "del": true, "della": true, "le": true, "la": true, "ter": true, "ten": true, "zu": true, "af": true}

// listedPerson is a name with the role a statement gives it.
type listedPerson struct {
	name, role string
}

// isName reports whether t is a person's name and nothing else.
func (s *site) isPersonName(t string) bool {
	return len(t) < 80 && startsUpper(t) && personNameRe.MatchString(t) && !notAName.MatchString(t) && !nameStop.MatchString(t) &&
		!hasRole(t) && !jobTitleRe.MatchString(t) && compact(t) != s.brand && !s.mentionsName(t)
}

// isCardName is isPersonName for a person's card or a team list, where a
// name may also be written in Han or Hangul ("王磊", "佐藤 健太", "김지훈").
func (s *site) isCardName(t string) bool {
	return s.isPersonName(t) || unspacedName(t) && !hasRole(t) && !founderLabel.MatchString(t) && nameKey(t) != nameKey(s.name) && !s.mentionsName(t)
}

// hasRole reports whether t holds a founder's or executive's title in any
// of the languages.
func hasRole(t string) bool {
	return roleRe.MatchString(t) || cjkRoleRe.MatchString(t)
}

// roleIn returns the role t states when t is a founder's or executive's
// title at this company, "" otherwise.
func (s *site) roleIn(t string) string {
	t = strings.TrimSpace(t)
	if t == "" || len(t) > 90 || !hasRole(t) || notRole.MatchString(t) {
		return ""
	}
	for _, m := range otherCo.FindAllStringSubmatch(t, -1) {
		if !s.mentionsName(m[1]) && !hasRole(m[1]) && !departmentRe.MatchString(m[1]) {
			return "" // "founder of Globex", not "Founder & Head of Design"
		}
	}
	// "Founder, Hale Bikes": a role at another company
	for _, part := range strings.Split(t, ",")[1:] {
		part = strings.TrimSpace(part)
		if startsUpper(part) && !hasRole(part) && !s.mentionsName(part) && !departmentRe.MatchString(part) {
			return ""
		}
	}
	return t
}

// lineRole cuts the role from the rest of a "Name, Role" line: the
// comma-separated parts that are titles ("co-founder and CEO, ran three
// restaurants" gives "co-founder and CEO"). A part naming another company
// ("CEO, Acme Corp") makes it no role.
func (s *site) lineRole(rest string) string {
	if i := roleEnd.FindStringIndex(rest); i != nil {
		rest = rest[:i[0]]
	}
	parts := strings.Split(rest, ",")
	first := strings.TrimSpace(parts[0])
	if s.roleIn(first) == "" {
		return ""
	}
	keep := []string{first}
	for _, part := range parts[1:] {
		part = strings.TrimSpace(part)
		if part == "" {
			break
		}
		if hasRole(part) {
			if s.roleIn(part) == "" {
				return ""
			}
			keep = append(keep, part)
			continue
		}
		if startsUpper(part) && !s.mentionsName(part) && !departmentRe.MatchString(part) {
			return "" // "CEO, Acme Corp": a role at another company
		}
		break
	}
	return strings.Join(keep, ", ")
}

// startsUpper reports whether t starts with a capital letter.
func startsUpper(t string) bool {
	for _, r := range t {
		return unicode.IsUpper(r)
	}
	return false
}

// nameList reads names joined by the conjunction of the agent word, each
// maybe with its role: "A (CEO) and B (CTO)", "A, CEO, and B, CTO", "A y B".
// It stops at the first piece that is neither; end is where the last name
// (and its role) ends.
func (s *site) nameList(t, agent string) (out []listedPerson, end int) {
	sep := listSep[agent]
	pos := 0
	for {
		m := nameAt.FindString(t[pos:])
		if m == "" || !s.isPersonName(m) {
			break
		}
		p := listedPerson{name: m}
		pos += len(m)
		rest := t[pos:]
		if r := paren.FindStringSubmatchIndex(rest); r != nil {
			role := rest[r[2]:r[3]]
			if notRole.MatchString(role) {
				break // "A (investor)"
			}
			p.role = s.roleIn(role)
			pos += r[1]
		} else if r := commaRole.FindStringSubmatchIndex(rest); r != nil && roleRe.MatchString(rest[r[2]:r[3]]) {
			role := rest[r[2]:r[3]]
			if s.roleIn(role) == "" {
				break
			}
			p.role = strings.TrimSpace(role)
			pos += r[3]
			// "A, notre présidente, ancienne auxiliaire, et par B": an
			// apposition after the role, before the next name
			if a := apposition.FindStringIndex(t[pos:]); a != nil {
				pos += a[1] - 1
			}
		} else if r := apposition.FindStringSubmatchIndex(rest); r != nil && len(out) == 0 {
			// "A, nauczycielka matematyki, i B, programista": a lower-case
			// apposition (a profession) between the first name and the next
			pos += r[1] - 1
		}
		out = append(out, p)
		end = pos
		sp := sep.FindString(t[pos:])
		if sp == "" {
			break
		}
		pos += len(sp)
	}
	return out, end
}

// apposition: ", a lower-case phrase of one to four words," after a name.
var apposition = lazyMustCompile(`^,\s+\p{Ll}[\p{L}-]*(?:\s+\p{Ll}[\p{L}-]*){0,3}\s*,`)

// founderStatements reads founders from sentences on any content page.
func (s *site) founderStatements(p *page, about bool, t string, add func(name, title string, ev []domain.Evidence)) {
	emit := func(people []listedPerson, at int, strong bool) {
		sent := sentenceAround(t, at)
		if sent == "" {
			sent = t
		}
		// "Templates created by Jane Doe": the sentence must be about the
		// company (its name, "we", "the company") unless the page is.
		if (!about || !strong) && !s.mentionsName(sent) && !weWordRe.MatchString(sent) {
			return
		}
		for _, x := range people {
			if !strings.Contains(sent, x.name) {
				sent = t
			}
		}
		for _, x := range people {
			add(x.name, x.role, []domain.Evidence{p.ev(sent)})
		}
	}
	// Cheap word checks first: the regexps below are only run on lines that
	// hold one of their words (a page has hundreds of lines, few about people).
	if !hasUpper2(t) {
		return
	}
	lt := strings.ToLower(t)
	verb := hasAnyWord(lt, verbHints)
	role := hasAnyWord(lt, roleHints)
	for _, m := range findAll(verb, byVerb, t) {
		agent := t[m[2]:m[3]]
		people, _ := s.nameList(t[m[1]:], agent)
		emit(people, m[0], strongFoundVerbRe.MatchString(t[m[0]:m[1]]))
	}
	for _, m := range findAll(verb, verbFirst, t) {
		agent := map[byte]string{'z': "pl", 'g': "sv"}[strings.ToLower(t[m[2]:m[3]])[0]]
		if strings.Contains(strings.ToLower(t[m[2]:m[3]]), "založ") {
			agent = "cs"
		}
		people, _ := s.nameList(t[m[1]:], agent)
		emit(people, m[2], true)
	}
	// "A (CEO) and B (CTO) started X": a sentence that opens with the names
	// and says, after them, that they founded the product.
	for _, m := range findAllIdx(verb, sentStart, t) {
		people, end := s.nameList(t[m[1]:], "*")
		if len(people) == 0 {
			continue
		}
		rest := t[m[1]+end:]
		v := subjVerb.FindStringIndex(rest)
		if v == nil {
			continue
		}
		tail := rest
		if e := sentenceEnd.FindStringIndex(rest); e != nil {
			tail = rest[:e[0]]
		}
		if !s.mentionsName(tail) {
			continue // "A and B founded OtherCo"
		}
		emit(people, m[1], true)
	}
	if verb && strings.Contains(t, "gegründet") || strings.Contains(t, "opgericht") || strings.Contains(t, "ins Leben gerufen") {
		for _, m := range verbLast.FindAllStringSubmatchIndex(t, -1) {
			agent := t[m[2]:m[3]]
			people, end := s.nameList(t[m[1]:], agent)
			if len(people) > 0 && lastVerb.MatchString(t[m[1]+end:]) {
				emit(people, m[0], true)
			}
		}
	}
	if m := founderLabelRe.FindStringSubmatch(t); m != nil {
		people, _ := s.nameList(t[len(m[0]):], "*")
		for _, x := range people {
			title := x.role
			if title == "" && len(people) == 1 {
				title = m[1]
			}
			add(x.name, title, []domain.Evidence{p.ev(sentenceAround(t, 0))})
		}
	}
	for _, m := range findAll(role, roleName, t) {
		name := t[m[4]:m[5]]
		before := strings.TrimSpace(t[:m[0]])
		before = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(before, "-"), "'s"), "’s")
		own := s.name != "" && strings.HasSuffix(strings.ToLower(before), strings.ToLower(s.name))
		start := (before == "" || strings.ContainsAny(before[len(before)-1:], ".!?")) && len(strings.Fields(t)) >= 5
		if (own || start) && s.isPersonName(name) {
			add(name, t[m[2]:m[3]], []domain.Evidence{p.ev(sentenceAround(t, m[0]))})
		}
	}
	for _, m := range findAllIdx(hasAnyWord(lt, weHints), weAre, t) {
		people, end := s.nameList(t[m[1]:], "*")
		if len(people) < 2 {
			continue
		}
		sent := sentenceAround(t, m[1])
		rest := t[m[1]:]
		if e := sentenceEnd.FindStringIndex(rest); e != nil {
			rest = rest[:e[0]]
		}
		_ = end
		// "We are A and B, the founders of Acme" (not of another company)
		if !founderWordRe.MatchString(rest) {
			continue
		}
		if o := otherCo.FindStringSubmatch(rest); o != nil && !s.mentionsName(o[1]) {
			continue
		}
		for _, x := range people {
			add(x.name, "", []domain.Evidence{p.ev(sent)})
		}
	}
	// "Jane Doe is our co-founder and CEO", "Katrin ist Geschäftsführerin von X"
	for _, m := range findAll(role, isRole, t) {
		name := t[m[2]:m[3]]
		phrase := t[m[4]:m[5]]
		last := roleRe.FindAllStringIndex(phrase, -1)
		if len(last) == 0 || !s.isPersonName(name) {
			continue
		}
		// the title ends with its last role word ("co-founder and CEO")
		title := strings.TrimRight(phrase[:last[len(last)-1][1]], " ,;.&")
		if s.roleIn(phrase) == "" || s.roleIn(title) == "" {
			continue // "is the CEO of Globex", "is an advisor"
		}
		if !about && !s.mentionsName(phrase) && !weWordRe.MatchString(phrase) {
			continue // "Jane Doe is a CEO who …" off the about pages: whose?
		}
		add(name, title, []domain.Evidence{p.ev(sentenceAround(t, m[0]))})
	}
	for _, m := range findAll(role, appos, t) {
		name := t[m[4]:m[5]]
		if s.isPersonName(name) {
			add(name, t[m[2]:m[3]], []domain.Evidence{p.ev(sentenceAround(t, m[0]))})
		}
	}
	for _, m := range findAll(hasAnyWord(lt, introHints), selfIntroRe, t) {
		name := t[m[2]:m[3]]
		if !s.isPersonName(name) {
			continue
		}
		intro := sentenceAround(t, m[0])
		ev := []domain.Evidence{p.ev(intro)}
		role := ""
		// "I'm A, founder of X": the role in the same sentence, at this company.
		if i := strings.Index(intro, name); i >= 0 {
			after := strings.TrimLeft(intro[i+len(name):], " ,")
			after = strings.TrimPrefix(strings.TrimPrefix(after, "the "), "a ")
			if r := s.lineRole(after); r != "" {
				role = r
				// "founder of Acme": the title is "founder"
				if m := otherCo.FindStringSubmatchIndex(r); m != nil && s.mentionsName(r[m[2]:m[3]]) && m[0] > 0 {
					role = strings.TrimSpace(r[:m[0]])
				}
			}
		}
		if role == "" && makerWordRe.MatchString(intro) && s.mentionsName(intro) {
			// "I'm A, the maker of X": no title, the intro says it all.
			add(name, "", ev)
			continue
		}
		if role == "" {
			// "... I started X in 2022": a first-person founding sentence naming the product.
			rest := t[m[1]:]
			f := firstFounded.FindStringIndex(rest)
			if f == nil {
				continue
			}
			sent := sentenceAround(rest, f[0])
			after := strings.TrimPrefix(strings.TrimSpace(rest[f[1]:]), "the ")
			if !s.mentionsName(rest[f[0]:f[1]]) && !(s.name != "" && strings.HasPrefix(strings.ToLower(after), strings.ToLower(s.name))) {
				continue // "I started using X" is a customer's
			}
			if len(rest[:f[0]]) > 300 {
				continue
			}
			if sent != intro {
				ev = append(ev, p.ev(sent))
			}
		}
		add(name, role, ev)
	}
}

// isQuotedLine reports whether t is a quotation (a testimonial's words before its author).
func isQuotedLine(t string) bool {
	return strings.ContainsAny(firstRune(t), "\"“”„«»‘’'") || strings.HasSuffix(t, "”") || strings.HasSuffix(t, "\"") || strings.HasSuffix(t, "»")
}

func firstRune(t string) string {
	for _, r := range t {
		return string(r)
	}
	return ""
}

// isTeamPage reports whether p introduces the company (about, team, company
// pages in seven languages).
func isTeamPage(p *page) bool {
	return p.kind == kindAbout || p.kind == kindTeam || (p.kind != kindHome && p.kind != kindBlog && teamPathRe.MatchString(p.base.Path))
}
