package extract

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
)

// textWords counts the words of s as a reader would: fields between spaces,
// and in scripts written without spaces (Han, Hiragana, Katakana) about one
// word for every two characters, so that "キンタイは小さな会社のためのクラウド勤怠管理サービスです。"
// is a sentence of many words, not one.
func textWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		cjk := 0
		for _, r := range f {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
				cjk++
			}
		}
		n += max(1, (cjk+1)/2)
	}
	return n
}

// ldApp reports whether a JSON-LD object describes the product itself.
func ldApp(o map[string]any) bool {
	return hasType(o, "SoftwareApplication", "WebApplication", "MobileApplication", "Product", "Service", "SoftwareSourceCode")
}

// ldFeatures: the product's JSON-LD featureList (a list, or one string of
// items separated by commas or new lines), when no page lists its features.
func (s *site) ldFeatures() domain.DraftedValue {
	var v domain.DraftedValue
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !ldApp(o) {
				continue
			}
			for _, f := range ldStrings(o, "featureList") {
				items := []string{f}
				if strings.ContainsAny(f, ",\n;") {
					items = strings.FieldsFunc(f, func(r rune) bool { return r == ',' || r == ';' || r == '\n' })
				}
				for _, it := range items {
					if it = strings.TrimSpace(it); it != "" && textWords(it) <= 12 {
						v.List = append(v.List, it)
					}
				}
				v.Evidence = append(v.Evidence, p.ev(f))
			}
		}
		if len(v.List) > 0 {
			return v
		}
	}
	return domain.DraftedValue{}
}

// ldOffers: a pricing summary from the product's JSON-LD offers when no
// page shows plans: "Bas: 99 SEK; Plus: 199 SEK". Each part is quoted as the
// data states it (the offer's name, its price, its currency).
func (s *site) ldOffers() domain.DraftedValue {
	var v domain.DraftedValue
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !ldApp(o) {
				continue
			}
			for _, off := range ldObjects(o, "offers") {
				price, cur := ldNumber(off, "price"), ldString(off, "priceCurrency")
				if price == "" {
					if hi := ldNumber(off, "highPrice"); hi != "" && hi != "0" {
						price = hi
					}
				}
				if price == "" || cur == "" || strings.Trim(price, "0.,") == "" {
					continue
				}
				// The price as the page shows it ("99 kr"), when it does;
				// else as the data states it ("99 SEK").
				part := price + " " + cur
				if shown, sp, line, ok := s.shownPrice(price, cur); ok {
					part = shown
					v.Evidence = append(v.Evidence, sp.ev(line))
				} else {
					v.Evidence = append(v.Evidence, p.ev(price), p.ev(cur))
				}
				if n := ldString(off, "name"); n != "" && len(n) <= 40 {
					part = n + ": " + part
					v.Evidence = append(v.Evidence, p.ev(n))
				}
				if v.Text != "" {
					v.Text += "; "
				}
				v.Text += part
			}
		}
		if v.Text != "" {
			return v
		}
	}
	return domain.DraftedValue{}
}

// ldNumber is a JSON-LD value that may be written as a string ("99") or a
// number (99), as page data holds it.
func ldNumber(o map[string]any, key string) string {
	switch n := o[key].(type) {
	case string:
		return domain.NormalizeSpace(n)
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	}
	return ""
}

// ldAppCategories maps Schema.org's applicationCategory values to names of
// the directory's category tree; a type that says too little
// (BusinessApplication, UtilitiesApplication) maps to nothing.
var ldAppCategories = map[string]string{
	"financeapplication": "Finance", "designapplication": "Design", "developerapplication": "Developer Tools",
	"educationalapplication": "Education", "educationapplication": "Education",
}

// ldCategory: the primary category from the product's JSON-LD
// applicationCategory, when the site's words named none.
func (s *site) ldCategory() {
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !ldApp(o) {
				continue
			}
			for _, c := range ldStrings(o, "applicationCategory") {
				key := strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(c, "https://schema.org/"), "http://schema.org/"))
				name := ldAppCategories[key]
				if name != "" && slices.ContainsFunc(s.req.Categories, func(k domain.CategoryChoice) bool { return k.Name == name }) {
					s.set("categories", domain.DraftedValue{List: []string{name}, Evidence: []domain.Evidence{p.ev(c)}})
					return
				}
			}
		}
	}
}

// labelRow is one label/value pair of a page's profile table (<tr><th>
// label</th><td>value</td></tr>, two-cell rows) or definition list
// (<dt>/<dd>): a company profile states founding year, founders and seat
// that way in every language.
type labelRow struct{ label, value string }

func labelRows(p *page) []labelRow {
	var out []labelRow
	forEach(p.doc, false, func(n *html.Node) bool {
		if foreign(n) {
			return false
		}
		switch n.DataAtom {
		case atom.Tr:
			var cells []*html.Node
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.DataAtom == atom.Th || c.DataAtom == atom.Td {
					cells = append(cells, c)
				}
			}
			if len(cells) == 2 {
				out = append(out, labelRow{nodeText(cells[0]), nodeText(cells[1])})
			}
			return false
		case atom.Dt:
			for d := n.NextSibling; d != nil; d = d.NextSibling {
				if d.Type != html.ElementNode {
					continue
				}
				if d.DataAtom == atom.Dd {
					out = append(out, labelRow{nodeText(n), nodeText(d)})
				}
				break
			}
			return false
		}
		return true
	})
	return out
}

var (
	// foundedLabel, founderLabel, addressLabelRe: the labels of a
	// profile's founding year, founders and seat, in the seven languages and
	// the wordless ones.
	foundedLabel = lazyMustCompile(`(?i)^(founded|year founded|established|gegründet|gründung(sjahr)?|fondée?|création|fundada|fundado|fundación|fondata|fondazione|opgericht|oprichting|fundação|` +
		`rok założenia|data założenia|założon\p{L}*|grundad|grundades|grundat|grundår|rok založení|založen\p{L}*|vznik|kuruluş( yılı| tarihi)?|設立|創業|創立|成立|成立时间|成立時間|설립|설립일|창립)\s*:?$`)
	founderLabel = lazyMustCompile(`(?i)^((co-?)?founders?|(mit)?gründer(in|innen)?|(co)?fondat(eur|rice)s?|(co)?fundador(a|es)?|(co-?)?fondat(ore|rice|ori)|(mede-?)?oprichters?|` +
		`założyciel\p{L}*|współzałożyciel\p{L}*|grundare|medgrundare|zakladatel\p{L}*|spoluzakladatel\p{L}*|kurucu(lar)?|kurucu ortak|創業者|創立者|设立者|创始人|創辦人|창업자|공동창업자|설립자|` +
		`ceo|vd|verkställande direktör|prezes( zarządu)?|jednatel(ka)?|genel müdür|代表取締役( ?社長)?|代表者|代表|社長|대표( ?이사)?|대표자|法定代表人|总经理|董事长)\s*:?$`)
	addressLabelRe = lazyMustCompile(`(?i)^(address|headquarters|head office|seat|sitz|anschrift|adresse|siège( social)?|dirección|domicilio( social)?|sede|indirizzo|adres|vestiging|endereço|` +
		`siedziba|adress|besöksadress|sídlo|adresa|merkez|所在地|住所|本社|地址|总部|總部|주소|본사)\s*:?$`)
	cityPart = lazyMustCompile(`^(?:[A-Z]{1,2}-)?\d[\d -]{2,8}\d?\s+(\p{Lu}[\p{L}'’.-]*(?:[ /-]\p{Lu}[\p{L}'’.-]*){0,3})(?:\s+\d{1,2})?$`)
	// foundSelfRe: the founding verb said by the founders themselves or
	// of them ("2021 yılında Ankara'da kurulduk", "Firmę założyli w 2020 A i B").
	foundSelfRe     = lazyMustCompile(`(?i)kurulduk|kurduk|założyliśmy|założyłam|założyłem|założyli|założyły|grundade vi|vi grundade|jsme založili|založili jsme|založili|설립했습니다|創業しました|設立しました`)
	foundVerbMoreRe = lazyMustCompile(`(?i)kurduk|założyl\p{L}*|założył\p{L}*|založil\p{L}*|grundade|kuruldu|kurulmuştur|założon\p{L}*|powstał\p{L}*|grundades|grundad|založen\p{L}*|vznikl\p{L}*|設立|創業|創立|成立|创立|创办|創辦|설립|창립|창업`)
)

// profileYear: the founding year of a profile row ("Rok założenia |
// 2019", "設立 | 2018年4月").
func (s *site) profileYear() (domain.DraftedValue, bool) {
	for _, p := range s.profilePages(kindAbout, kindContact, kindTeam, kindHome) {
		for _, r := range labelRows(p) {
			if !foundedLabel.MatchString(strings.TrimSpace(r.label)) {
				continue
			}
			if y := leadingYear(r.value); y != "" {
				return domain.DraftedValue{Text: y, Evidence: []domain.Evidence{p.ev(r.label), p.ev(r.value)}}, true
			}
		}
	}
	return domain.DraftedValue{}, false
}

// foundingSentence: a founding sentence in the wordless languages
// ("Randevum, 2021 yılında İstanbul’da kuruldu.", "公司成立于2017年"): the
// verb and a year in one sentence that names the product or starts with
// the verb; never a copyright line or someone else's words.
func (s *site) foundingSentence() (domain.DraftedValue, bool) {
	for _, p := range s.byKind(kindAbout, kindTeam, kindHome) {
		for _, l := range p.ownLines() {
			m := foundVerbMoreRe.FindStringIndex(l.text)
			if m == nil || copyrightRe.MatchString(l.text) {
				continue
			}
			sent := sentenceAround(l.text, m[0])
			y := yearOrEra(sent)
			self := (p.kind == kindAbout || p.kind == kindTeam) && foundSelfRe.MatchString(sent)
			if y == "" || !(s.mentionsName(sent) || self || strings.HasPrefix(sent, l.text[m[0]:m[1]]) || strings.HasPrefix(sent, "公司")) {
				continue
			}
			return domain.DraftedValue{Text: y, Evidence: []domain.Evidence{p.ev(sent)}}, true
		}
	}
	return domain.DraftedValue{}, false
}

// profileLocs: the seat of a profile row as a place: the country a part
// names (in any language CLDR names it in) and the city of its "postcode
// city" part ("00-850 Warszawa", "411 19 Göteborg", "120 00 Praha 2",
// "34710 Kadıköy/İstanbul": the province after the slash).
func (s *site) profileLocs() []loc {
	var out []loc
	for _, p := range s.byKind(kindAbout, kindContact, kindTeam, kindHome) {
		for _, r := range labelRows(p) {
			if !addressLabelRe.MatchString(strings.TrimSpace(r.label)) || hostWords.MatchString(r.value) {
				continue
			}
			if l, ok := addressRowLoc(p, r.value); ok {
				// a seat row without the country's name: its postcode's form
				// names it, as for footer addresses (postalLocs)
				if c, ok := domain.PostalCountry(r.value, s.req.Site.Language); ok && l.country == "" {
					l.country, l.countryQuote = c, r.value
				}
				out = append(out, l)
			}
		}
	}
	return out
}

func addressRowLoc(p *page, text string) (loc, bool) {
	l := loc{p: p}
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(strings.TrimRight(part, "."))
		if code, ok := domain.CountryCode(part); ok && len(part) > 2 && l.country == "" {
			l.country, l.countryQuote = code, text
			continue
		}
		if m := cityPart.FindStringSubmatch(part); m != nil && l.city == "" {
			name := m[1]
			if i := strings.LastIndex(name, "/"); i >= 0 {
				name = name[i+1:]
			}
			// "512 Congress Ave", "500 Yonge St": a street's number and name, not a postcode and city
			if _, isCountry := domain.CountryCode(name); !isCountry && personLike(name) && !streetName(name) && !streetEnd.MatchString(" "+name) {
				l.city, l.cityQuote = name, text
			}
		}
	}
	if l.city == "" {
		if c := cjkCity(text); c != "" {
			l.city, l.cityQuote = c, text
		}
	}
	// Japan's postal mark before a postcode names the country (the gate knows it too).
	if l.country == "" && jpPostcodeRe.MatchString(text) {
		l.country, l.countryQuote = "JP", text
	}
	return l, l.city != "" || l.country != ""
}

var jpPostcodeRe = lazyMustCompile(`〒\s?\d{3}-?\d{4}`)

// profileFounders: founders named in a profile row ("Założycielka | Anna
// Nowak", "Kurucu: Emre Demir"), the label as their title.
func (s *site) profileFounders() {
	if len(s.out.Founders) > 0 {
		return
	}
	seen := map[string]bool{}
	for _, p := range s.profilePages(kindAbout, kindTeam, kindContact, kindHome) {
		for _, r := range labelRows(p) {
			label := strings.TrimSuffix(strings.TrimSpace(r.label), ":")
			if !founderLabel.MatchString(label) && !founderCompound(label) {
				continue
			}
			for _, name := range nameListSepRe.Split(r.value, -1) {
				// "Ruth Adeyemi (CEO)": the title in parentheses is the person's own
				name, title := nameWithTitle(name)
				if title == "" || advisoryWordRe.MatchString(title) {
					title = label
				}
				if name == "" || textWords(name) > 4 || !(personLike(name) || unspacedName(name)) || nameKey(name) == nameKey(s.name) || seen[nameKey(name)] {
					continue
				}
				seen[nameKey(name)] = true
				s.out.Founders = append(s.out.Founders, domain.DraftedFounder{Name: name, Title: title,
					Evidence: []domain.Evidence{p.ev(r.label), p.ev(r.value)}})
			}
		}
		if len(s.out.Founders) > 0 {
			return
		}
	}
}

// founderPartRe: a founder in a compound title ("創辦人暨執行長",
// "共同創辦人暨技術長", "Co-founder & CEO", "Kurucu Ortak ve CTO").
var founderPartRe = lazyMustCompile(`(?i)(?:co-?)?founder|gründer|fondat(?:eur|rice|ore)|fundador|oprichter|założyciel|grundare|zakladatel|kurucu|` +
	`創業者|創立者|创始人|創始人|創辦人|创办人|창업자|설립자`)

// advisoryWordRe: a label of someone beside the company (adviser,
// investor, board member, mentor), never a founder's whatever else it says.
var advisoryWordRe = lazyMustCompile(`(?i)advis|investor|mentor|board|berater|顧問|顾问|投資|投资|고문|투자|doradca|rådgivare|poradce|danışman|yatırımcı`)

// founderCompound reports whether a profile label is a short compound title
// naming a founder: a founder's word joined to another title.
func founderCompound(label string) bool {
	return utf8.RuneCountInString(label) <= 30 && textWords(label) <= 5 && founderPartRe.MatchString(label) && !advisoryWordRe.MatchString(label)
}

// nameListSepRe separates the names of one profile value.
var nameListSepRe = lazyMustCompile(`\s*(?:,|、|&|/|;)\s*|\s+(?:and|und|et|y|e|en|i|och|a|ve|og)\s+`)

// unspacedName: a name in Han or Hangul of two to four characters.
func unspacedName(s string) bool {
	n := 0
	for _, r := range s {
		if !unicode.In(r, unicode.Han, unicode.Hangul) && r != ' ' {
			return false
		}
		if r != ' ' {
			n++
		}
	}
	return n >= 2 && n <= 5
}

// isQuotation reports whether a line is a quotation or its attribution, the
// way testimonials are written in any language when no class name says so:
// the whole line between quotation marks (“…”, „…”, «…», "…", 「…」). (Its
// attribution line, "— Zeynep Kaya, İzmir", is left to the founder rules,
// which know a testimonial's name is not a founder's.)
func isQuotation(t string) bool {
	r := []rune(strings.TrimSpace(t))
	if len(r) < 3 {
		return false
	}
	open, close := r[0], r[len(r)-1]
	if close == '.' || close == '!' {
		close = r[len(r)-2]
	}
	pairs := map[rune]string{'“': "”“\"", '„': "”“\"", '«': "»", '"': "\"”", '「': "」", '『': "』", '‘': "’"}
	if c, ok := pairs[open]; ok && strings.ContainsRune(c, close) {
		return true
	}
	return false
}

// quotedCard reports whether n sits in a small card (at most four
// blocks) one of whose blocks is a whole quotation: a testimonial card, its
// name, role and company included.
func quotedCard(n *html.Node) bool {
	if n == nil || n.Parent == nil || n.Parent.Type != html.ElementNode || n.Parent.DataAtom == atom.Body {
		return false
	}
	kids := 0
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			if kids++; kids > 4 {
				return false
			}
		}
	}
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && isQuotation(nodeText(c)) {
			return true
		}
	}
	return false
}
