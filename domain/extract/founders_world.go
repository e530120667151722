package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// Founders in languages the sentence rules have no words for (Norwegian,
// Finnish, Hungarian, Romanian, Vietnamese, Thai, Indonesian, Hebrew), and
// executives of a company-profile table in any language. Read by structure
// first: a profile table that names a founder or the representative also
// names the company's other executives (取締役CTO, 최고기술책임자); a
// card whose heading is a name and whose first line a founder's or
// executive's title; a team list's "Name – title" or "Name, title"; a Korean
// founding sentence with the titles after the names ("최민준 대표와 한지우
// CTO가 공동 창업"). Advisers, investors, board members, auditors and
// employees stay out (worldNotRole).

// worldRoleRe: founders' and executives' titles in those languages.
var worldRoleRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(?:` +
	`(?:med)?grunnlegger|(?:med)?gründer|daglig leder|administrerende direktør|teknisk (?:sjef|direktør)|teknologidirektør|` +
	`perustaja|perustajajäsen|toimitusjohtaja|teknologiajohtaja|teknologiajohtaja|` +
	`(?:társ)?alapító|ügyvezető|vezérigazgató|technológiai igazgató|` +
	`(?:co-?)?fondator|(?:co-?)?fondatoare|director general|director executiv|director tehnic|` +
	`nhà sáng lập|đồng sáng lập|người sáng lập|giám đốc điều hành|giám đốc công nghệ|` +
	`pendiri|salah satu pendiri|direktur utama|direktur teknologi|` +
	`co-?founder|founder|ceo|cto|coo|cfo|cpo)(?:$|[^\p{L}])` +
	// Thai and Hebrew: no word boundaries needed (Thai has no spaces;
	// Hebrew joins "and" to the next word: "ו-CTO", "ומנכ״לית")
	`|ผู้ร่วมก่อตั้ง|ผู้ก่อตั้ง|ประธานเจ้าหน้าที่บริหาร|กรรมการผู้จัดการ|` +
	`מייסד|מייסדת|מנכ"ל|מנכ״ל|מנכ׳׳ל|מנכ''ל|סמנכ"ל טכנולוגיות|סמנכ״ל טכנולוגיות`)

// cjkExecRe: the technical lead's (or chief executive's) title in a
// Japanese, Chinese or Korean profile label: CTO inside Han or Hangul
// ("取締役CTO"), or the title written out (최고기술책임자, 技術長).
var cjkExecRe = lazyMustCompile(`(?:^|[^A-Za-z])CTO(?:$|[^A-Za-z])|最高技術責任者|技術長|技术长|首席技术官|執行長|执行长|최고기술책임자`)

// worldNotRole: someone beside the company, whatever else the label says.
var worldNotRole = lazyMustCompile(`(?i)rådgiver|rådgivar|investor|styre(?:t|leder|medlem)|neuvonantaja|hallitu|sijoittaja|tanácsadó|befektető|könyvelő|` +
	`consilier|investitor|cố vấn|nhà đầu tư|ที่ปรึกษา|นักลงทุน|กรรมการอิสระ|penasihat|komisaris|יועץ|יועצת|משקיע|דירקטור|` +
	`社外|監査|株主|顧問|顾问|投資|投资|고문|투자|감사|사외|advis|mentor|board|auditor`)

// worldAboutPath: an about or company page named in those languages.
var worldAboutPath = lazyMustCompile(`(?i)/(?:om-oss|om|yritys|meista|meistä|tiimi|rolunk|rólunk|cegadatok|cégadatok|csapat|despre(?:-noi)?|echipa|` +
	`gioi-thieu|ve-chung-toi|doi-ngu|tentang(?:-kami)?|tim-kami|about|company|team)(?:[./]|$)`)

// worldTitle reports whether t is a founder's or executive's title in those
// languages (and not someone beside the company).
func worldTitle(t string) bool {
	return utf8.RuneCountInString(t) <= 60 && (worldRoleRe.MatchString(t) || hasRole(t)) && !worldNotRole.MatchString(t) && !notRole.MatchString(t)
}

// worldName reports whether t reads as a person's name in any script: one
// to four words of letters (and marks), capitalised where the script has
// capitals, or a name in Han or Hangul.
func worldName(t string) bool {
	t = strings.TrimSpace(t)
	if unspacedName(t) {
		return true
	}
	ws := strings.Fields(t)
	if len(ws) < 2 || len(ws) > 4 || utf8.RuneCountInString(t) > 40 || !personLike(t) {
		return false
	}
	for _, w := range ws {
		for _, r := range w {
			if !unicode.IsLetter(r) && !unicode.Is(unicode.M, r) && r != '-' && r != '\'' && r != '’' && r != '״' && r != '"' {
				return false
			}
		}
	}
	return true
}

// personSepRe: "Name – title", "Name — title", "Name, title", "Name | title".
var personSepRe = lazyMustCompile(`^(.{2,40}?)\s*(?:\s[–—-]\s|,\s|\s\|\s)\s*(.{2,60})$`)

// koreanFoundRe: Korean founders with their titles after the names, before
// the founding verb: "김서연 대표와 박준호 CTO가 함께 창업".
var (
	koreanFoundRe  = lazyMustCompile(`창업|설립`)
	koreanPersonRe = lazyMustCompile(`(\p{Hangul}{2,4})\s?(공동대표|대표이사|대표|CEO|CTO|COO|CFO|CPO)(?:와|과|가|이|,|\s)`)
)

// worldFounders adds the founders those structures name to the ones found
// so far (each name once, at most six).
func (s *site) worldFounders() {
	seen := map[string]bool{}
	for _, f := range s.out.Founders {
		seen[nameKey(f.Name)] = true
	}
	add := func(name, title string, ev ...domain.Evidence) {
		name = strings.TrimSpace(name)
		k := nameKey(name)
		if k == "" || seen[k] || k == nameKey(s.name) || len(s.out.Founders) >= 6 || notAName.MatchString(name) {
			return
		}
		seen[k] = true
		s.out.Founders = append(s.out.Founders, domain.DraftedFounder{Name: name, Title: title, Evidence: ev})
	}
	for _, p := range s.content() {
		about := p.kind == kindAbout || p.kind == kindTeam || worldAboutPath.MatchString(p.base.Path)
		// A profile table that names a founder or the representative names
		// the other executives too.
		rows := labelRows(p)
		leaders := false
		for _, r := range rows {
			l := strings.TrimSuffix(strings.TrimSpace(r.label), ":")
			if founderLabel.MatchString(l) || founderCompound(l) || worldRoleRe.MatchString(l) && !worldNotRole.MatchString(l) {
				leaders = true
			}
		}
		if leaders {
			for _, r := range rows {
				l := strings.TrimSuffix(strings.TrimSpace(r.label), ":")
				// rows the profile rule reads (founderLabel) are its own
				if utf8.RuneCountInString(l) > 30 || worldNotRole.MatchString(l) || notRole.MatchString(l) ||
					founderLabel.MatchString(l) || founderCompound(l) || !(worldRoleRe.MatchString(l) || cjkExecRe.MatchString(l)) {
					continue
				}
				for _, name := range nameListSepRe.Split(r.value, -1) {
					if worldName(name) {
						add(name, l, p.ev(r.label), p.ev(r.value))
					}
				}
			}
		}
		if !about && p.kind != kindHome {
			continue
		}
		// Cards and team lists are read here only in the languages the
		// founder rules have no words for: in the others those rules read
		// them, and what they leave out they leave out on purpose.
		cards := about && !coveredLanguage(s.req.Site.Language)
		for _, seg := range p.segs {
			if seg.foreign || otherHeading.MatchString(seg.title) || worldNotRole.MatchString(seg.title) {
				continue
			}
			var lines []line
			for _, l := range seg.lines {
				if !l.foreign && !l.footer {
					lines = append(lines, l)
				}
			}
			// a card: the heading a name, its first line the title
			if cards && seg.level >= 3 && worldName(seg.title) && len(lines) > 0 && len(lines) <= 3 && worldTitle(lines[0].text) && !s.atOtherCompany(lines[0].text) {
				add(seg.title, lines[0].text, p.ev(seg.title), p.ev(lines[0].text))
			}
			for _, l := range lines {
				// a team list: "Name – title", "Name, title"
				if m := personSepRe.FindStringSubmatch(l.text); cards && m != nil && len(l.text) <= 100 && worldName(m[1]) && worldTitle(m[2]) && !s.atOtherCompany(m[2]) {
					add(m[1], m[2], p.ev(l.text))
				}
				// a Korean founding sentence with the titles after the names
				if loc := koreanFoundRe.FindStringIndex(l.text); loc != nil {
					sent := sentenceAround(l.text, loc[0])
					before := sent[:max(0, strings.Index(sent, l.text[loc[0]:loc[1]]))]
					for _, m := range koreanPersonRe.FindAllStringSubmatch(before+" ", -1) {
						add(m[1], m[2], p.ev(sent))
					}
				}
			}
		}
	}
}

// atOtherCompany reports whether a title is a role at another company
// ("CEO at Acme" on a site that is not Acme's).
func (s *site) atOtherCompany(title string) bool {
	m := otherCo.FindStringSubmatch(title)
	return m != nil && nameKey(m[1]) != nameKey(s.name)
}

// coveredLanguage reports whether the founder rules have words for the
// language of a site (its primary subtag): the seven of the first sets and
// Polish, Swedish, Czech, Turkish, Japanese, Chinese, Korean; a site that
// names no language is taken as one of them.
func coveredLanguage(tag string) bool {
	base, _, _ := strings.Cut(strings.ToLower(tag), "-")
	switch base {
	case "", "en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "cs", "tr", "ja", "zh", "ko":
		return true
	}
	return false
}
