package extract

import (
	"strings"
)

// Word lists and patterns of the company facts (founding year, place, stage)
// in English, German, French, Spanish, Italian, Dutch and Portuguese. Go's \b
// is ASCII only ("fondé" would never end a word), so word edges are written as
// (?:^|[^\p{L}]) ... (?:[^\p{L}]|$) and the word itself is group 1.

// foundVerbRe: founding verbs and participles.
var foundVerbRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(founded|co-founded|established|incorporated|started|` +
	`gegründet|gründeten|fondée?s?|fondé|fondés|créée?s?|fundad[ao]s?|fundamos|fundei|fondat[ao]|fondammo|` +
	`opgericht|richtten|criad[ao]|grundades)(?:[^\p{L}]|$)`)

// selfWordRe: the company speaking of itself ("we", "our", "wir", "nous", "noi", "wij", "nós" ...).
// English "I" is selfIRe's: it is a self word only in English (selfWord).
var selfWordRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(we|our|us|my|wir|unser\p{L}*|ich|nous|notre|je|j|nosotr[ao]s|nuestr[ao]s?|` +
	`hemos|fundamos|noi|nostr[ao]|abbiamo|fondammo|wij|ons|onze|ik|nós|noss[ao]s?|somos|fundei)(?:[^\p{L}]|$)`)

// selfIRe is "I" as a word ("I started", "I'm"); englishRe a word or
// contraction that only an English sentence has among the languages that
// write a bare "i" (Danish, Norwegian and Swedish "i" is "in", Italian
// "i" is "the").
var (
	selfIRe   = lazyMustCompile(`(?i)(?:^|[^\p{L}])i(?:[^\p{L}]|$)`)
	englishRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(?:the|and|was|were|have|has|had|my|me|it|this|that|with|from|after|when|founded|started|built|launched)(?:[^\p{L}]|$)|(?:^|[^\p{L}])i['’](?:m|ve|d|ll)(?:[^\p{L}]|$)`)
)

// selfWord reports whether text (a subject, or a sentence) has the company
// speaking of itself: one of selfWordRe's words, or "I" where the page's
// language is English or sentence (the one text is part of) is English:
// "Grundlagt i 2019 i København" and "I 2012 startet Solskinn Bakeri" are
// not the company's own words, "I started Tallyho in 2020" is.
func (s *site) selfWord(p *page, text, sentence string) bool {
	if selfWordRe.MatchString(text) {
		return true
	}
	if !selfIRe.MatchString(text) {
		return false
	}
	lang, _, _ := strings.Cut(strings.ToLower(s.pageLang(p)), "-")
	return lang == "en" || englishRe.MatchString(sentence)
}

// otherPartyRe: a sentence about someone else: a customer, partner, investor,
// host or data centre.
var otherPartyRe = lazyMustCompile(`(?i)customer|client|partner|investor|data cent(er|re)|server|hosting|kunde|kundin|` +
	`rechenzentrum|investisseur|hébergeur|cliente|socio|inversor|investitore|ospitat|klant|investeerder|investidor|parceir|hospedad`)

// teamWordRe: words that make a team or the company the subject ("our team is based in").
var teamWordRe = lazyMustCompile(`(?i)team|équipe|equipo|equipa|squadra|company|startup|unternehmen|firma|entreprise|société|` +
	`empresa|azienda|società|bedrijf|studio`)

// copyrightRe: copyright lines in the seven languages; a year there dates the page.
var copyrightRe = lazyMustCompile(`(?i)©|\(c\)|copyright|all rights reserved|alle rechte vorbehalten|tous droits réservés|` +
	`todos los derechos reservados|tutti i diritti riservati|alle rechten voorbehouden|todos os direitos reservados`)

// byWord: what may follow the place of a founding statement ("in Leeds by
// two sailors", "à Lyon par", "in Leipzig gegründet").
var byWord = lazyMustCompile(`(?i)^(by|von|durch|par|por|da|door|pelo|pela|pelos|and|und|et|y|e|en|after|nach|après|después|dopo|na|após|gegründet|opgericht|founded|with|mit|avec|con|met|com|in|im|en|em|nel|a|à)$`)

// prep: prepositions that introduce a place ("in Berlin", "à Lyon", "en
// Valencia", "a Torino", "em Recife", "te Utrecht").
var placeRe = lazyMustCompile(`(?:^|[\s(])(in|à|au|aux|a|en|em|no|na|nel|te|aus)\s+((?:(?:the|der|die|la|le|el|il|lo|o|os|het|de|l')\s*)?` +
	`\p{Lu}[\p{L}'’.-]*(?:\s+(?:\p{Lu}[\p{L}'’.-]*|(?:am|an|der|de|di|da|do|dos|das|del|sur|upon|la|le)\b)){0,3})`)

// monthWords: month names, which follow "in" like a place ("founded in March 2020").
var monthWords = map[string]bool{}

func init() {
	for _, m := range strings.Fields(`january february march april may june july august september october november december
		januar jänner februar märz mai juni juli oktober dezember
		janvier février mars avril mai juin juillet août septembre octobre novembre décembre
		enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre
		gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre
		januari februari maart april mei juni juli augustus oktober
		janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro`) {
		monthWords[m] = true
	}
}

// notPlace: capitalised words that follow "in" and are no place.
var notPlace = lazyMustCompile(`(?i)^(the|der|die|das|le|la|les|el|il|lo|o|os|het|de|y combinator|q[1-4]|h[12]|summer|spring|autumn|fall|winter|sommer|frühjahr|herbst|beta|alpha)$`)

// basedInLoc: statements of where the company is, in the seven languages.
var basedInLoc = lazyMustCompile(`(?i)(?:^|[^\p{L}])((?:based|headquartered|located|situated)(?: out of| in)|(?:team|company|startup|studio|we are|we're|we’re) from|` +
	`mit sitz in|sitz in|ansässig in|zu hause in|(?:basée?s?|installée?s?|située?s?|implantée?s?) (?:à|en)|siège (?:social )?(?:est )?à|` +
	`con sede (?:en|a|in)|ubicad[ao]s? en|basad[ao]s? en|situad[ao]s? en|ubicat[ao] a|basat[ao] a|sediad[ao]s? em|com sede em|baseada em|` +
	`gevestigd (?:in|te)|gebaseerd in|zitten in|vanuit)\s`)

// seatLabelRe: the seat or headquarters as a label ("Sitz der Gesellschaft: Leipzig").
var seatLabelRe = lazyMustCompile(`(?i)^(?:sitz der gesellschaft|sitz|firmensitz|hauptsitz|siège social|siège|domicilio social|` +
	`sede legale|sede social|sede|statutaire zetel|vestigingsplaats|headquarters|hq|registered office)\s*:\s*`)

// madeIn: "Made in Leipzig", "Fait avec soin à Lyon", "Hecho en Sevilla".
var madeIn = lazyMustCompile(`(?i)^(?:proudly )?(?:made|built|crafted|hergestellt|entwickelt|gemacht|fait|conçu|hecho|fatto|gemaakt|feito)` +
	`(?: (?:with|mit|avec|con|met|com) [^.,]{1,20}?)? (?:in|à|en|a|em)\s`)

// sinceLabel: "Since 2019" standing alone (a badge), in the seven languages.
var sinceLabel = lazyMustCompile(`(?i)^(?:since|seit|depuis|desde|dal|sinds|est\.?|established|gegründet|gründungsjahr:?|` +
	`année de création\s?:?|año de fundación:?|anno di fondazione:?|oprichtingsjaar:?|ano de fundação:?|founded:?)\s*((?:19|20)\d\d)$`)

// hostWords: an address or place of a host, data centre or registrar, not the company's.
var hostWords = lazyMustCompile(`(?i)host|hébergement|hébergeur|rechenzentrum|data ?cent|server|alojamiento|proveedor|ospitat|hospedagem|` +
	`hospedad|datenschutzbeauftragt|registrar|aufsichtsbehörde|streitbeilegung|schlichtung|tribunal|court|gericht|kamer van koophandel`)

// streetRe: words of a street line.
var streetRe = lazyMustCompile(`(?i)(?:str\.|straße|strasse|weg|gasse|platz|allee|ring|damm|ufer|rue|avenue|boulevard|bd|chemin|place|quai|cours|` +
	`calle|avenida|av\.|paseo|plaza|carrer|camino|via|viale|piazza|corso|largo|vicolo|straat|laan|gracht|plein|kade|singel|dijk|markt|` +
	`rua|travessa|praça|alameda|rodovia|street|st\.|road|rd\.|lane|square|suite|floor)`)

// legalForm: a company's legal form, which marks a block as the company's address.
var legalForm = lazyMustCompile(`(?:^|[^\p{L}])(GmbH|AG|UG|KG|e\.K\.|SAS|SARL|SASU|SA|S\.A\.|S\.L\.|S\.L\.U\.|SL|S\.r\.l\.|Srl|S\.p\.A\.|SpA|` +
	`B\.V\.|BV|N\.V\.|Ltda\.?|Lda\.?|Ltd\.?|Limited|Inc\.?|LLC|OÜ|ApS|AB|Oy)(?:[^\p{L}]|$)`)

// postcodeRe: a "postcode city" part: 04109 Leipzig, 1012 AB Amsterdam, 75002
// Paris, 28013 Madrid, 20121 Milano (MI), 01310-100 São Paulo, 1250-096 Lisboa,
// D-04109 Leipzig, 1060 Wien.
var postcodeRe = lazyMustCompile(`^(?:[A-Z]{1,2}-)?(?:\d{5}-\d{3}|\d{4}-\d{3}|\d{4}\s?[A-Z]{2}|\d{4,5})\s+` +
	`(\p{Lu}[\p{L}'’.-]*(?:[\s-]+(?:\p{Lu}[\p{L}'’.-]*|(?:am|an|der|im|de|di|da|do|dos|das|del|sur|en|la|le|sul)\b)){0,3})(?:\s+(?i:cedex)(?:\s*\d{1,2})?)?(?:\s*\([^()]{1,30}\))?$`)

// uSZip: "NY 10001" after a city part ("New York, NY 10001").
var uSZip = lazyMustCompile(`^[A-Z]{2}\s+\d{5}(?:-\d{4})?$`)

// lineSepRe split a line into parts: "Firma S.L. · Calle 18, 46004 Valencia · mail".
var lineSepRe = lazyMustCompile(`\s+[·|•–—]\s+`)

// legalPage: imprint, legal notice and contact pages in the seven languages.
var legalPage = lazyMustCompile(`(?i)impressum|imprint|legal|mentions|aviso|note-legali|colofon|colophon|contact|kontakt|contatt|contacto|` +
	`contato|termos|juridisch|disclaimer`)

// hasWord reports whether the lower-case word w (letters only) occurs in s as a whole word.
func hasWord(s, w string) bool {
	s = strings.ToLower(s)
	for i := strings.Index(s, w); i >= 0; {
		before := i == 0 || !isLetter(s[:i], true)
		after := i+len(w) == len(s) || !isLetter(s[i+len(w):], false)
		if before && after {
			return true
		}
		j := strings.Index(s[i+1:], w)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func isLetter(s string, last bool) bool {
	r := []rune(s)
	if len(r) == 0 {
		return false
	}
	c := r[0]
	if last {
		c = r[len(r)-1]
	}
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c > 127 && strings.ToUpper(string(c)) != strings.ToLower(string(c))
}

// singularRe: the first person singular ("I started Palettely in 2022").
var singularRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(i|ich|je|j|ik|yo|io|eu|fundé|fundei|fondai)(?:[^\p{L}]|$)`)

// makerIntro: a maker introducing themselves ("Hi, I'm Noa, a designer in …").
var makerIntro = lazyMustCompile(`(?i)(?:^|[^\p{L}])(i'm|i’m|i am|ich bin|je suis|soy|sono|ik ben|sou)\s`)

// pastPlace: a place the person was, not is ("worked at a lab in Cairo", "born in").
var pastPlace = lazyMustCompile(`(?i)worked|used to|formerly|previously|studied|born|grew up|moved|arbeitete|geboren|studierte|` +
	`travaillé|né|née|trabajé|nací|nacido|lavorato|nato|nata|gewerkt|geboren|trabalhei|nasci|nascid`)

// cityPostcode: a British or Irish "City POSTCODE" part ("Edinburgh EH2 2PR", "London EC1V 9HX").
var cityPostcode = lazyMustCompile(`^(\p{Lu}[\p{L}'’.-]*(?:[\s-]+\p{Lu}[\p{L}'’.-]*){0,2})\s+[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$`)

// usStateRe: a two-letter state or province code ("PE", "TX", "MI").
var usStateRe = lazyMustCompile(`^[A-Z]{2}$`)

// cityState: "Recife - PE", "Curitiba/PR", "Austin – TX".
var cityState = lazyMustCompile(`^(\p{Lu}[\p{L}'’.-]*(?:\s+(?:\p{Lu}[\p{L}'’.-]*|(?:de|do|da|dos|das)\b)){0,3})\s*[-/–]\s*[A-Z]{2}$`)

// regionNames: continents, regions, states and provinces, and words that follow
// "based in" without naming a city ("a remote team based in Europe", "founded
// in 2019 in California"). A city is a city; these give no city.
var regionNames = map[string]bool{}

func init() {
	for _, r := range strings.Split(`europe|europa|asia|asien|asie|ásia|africa|afrika|afrique|áfrica|america|amerika|amérique|américa|`+
		`north america|south america|latin america|latam|emea|apac|dach|benelux|nordics|scandinavia|skandinavien|scandinavie|`+
		`escandinavia|the eu|eu|remote|worldwide|online|silicon valley|bay area|the bay area|`+
		`alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|hawaii|idaho|illinois|indiana|`+
		`iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts|michigan|minnesota|mississippi|missouri|montana|nebraska|`+
		`nevada|new hampshire|new jersey|new mexico|north carolina|north dakota|ohio|oklahoma|oregon|pennsylvania|rhode island|`+
		`south carolina|south dakota|tennessee|texas|utah|vermont|virginia|west virginia|wisconsin|wyoming|`+
		`ontario|quebec|québec|british columbia|alberta|bavaria|bayern|baden-württemberg|nordrhein-westfalen|sachsen|hessen|`+
		`catalonia|catalunya|cataluña|andalusia|andalucía|lombardy|lombardia|tuscany|toscana|brittany|bretagne|`+
		`île-de-france|flanders|vlaanderen|wallonia|wallonie|randstad|minas gerais|rio grande do sul|santa catarina`, "|") {
		regionNames[r] = true
	}
}

// bornVerb: "X was born in 2020", "X è nata nel 2020", "X est née en 2020",
// "X nació en 2019", "X nasceu em 2020": a founding only with the product as
// subject (a person is born too).
var bornVerb = lazyMustCompile(`(?i)(?:^|[^\p{L}])(was born|née|né|nat[ao]|nasce|nació|nasceu|ontstond|ontstaan)(?:[^\p{L}]|$)`)

// coord: a coordinating word that starts another clause.
var coord = lazyMustCompile(`(?i)(?:^|[^\p{L}])(and|und|et|y|e|but|aber|mais|pero|ma|maar|mas)(?:[^\p{L}]|$)`)

// madeWith: "made with love in", "fait avec soin à", "hecho con cariño en".
var madeWith = lazyMustCompile(`(?i) (with|mit|avec|con|met|com) `)
