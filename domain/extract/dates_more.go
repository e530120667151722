package extract

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/launchdir/launchdir/domain"
)

// monthNames35 are the month names (nominative and the forms dates write)
// of Finnish, Danish, Hungarian, Romanian, Indonesian and Greek, January
// first, from CLDR; findDate reads them like the others. Names another
// language already gives the same month (Danish "maj", Indonesian "mei")
// are not repeated.
var monthNames35 = [][]string{
	{"tammikuu", "tammikuuta", "január", "ianuarie", "ian", "ιανουάριος", "ιανουαρίου", "ιαν"},
	{"helmikuu", "helmikuuta", "február", "februarie", "febr", "φεβρουάριος", "φεβρουαρίου", "φεβ"},
	{"maaliskuu", "maaliskuuta", "marts", "március", "márc", "martie", "maret", "μάρτιος", "μαρτίου", "μαρ"},
	{"huhtikuu", "huhtikuuta", "április", "ápr", "aprilie", "απρίλιος", "απριλίου", "απρ"},
	{"toukokuu", "toukokuuta", "május", "máj", "μάιος", "μαΐου", "μαΐ", "μαιου", "μάη"},
	{"kesäkuu", "kesäkuuta", "június", "jún", "iunie", "ιούνιος", "ιουνίου", "ιουν"},
	{"heinäkuu", "heinäkuuta", "július", "júl", "iulie", "ιούλιος", "ιουλίου", "ιουλ"},
	{"elokuu", "elokuuta", "augusztus", "aug", "agustus", "αύγουστος", "αυγούστου", "αυγ"},
	{"syyskuu", "syyskuuta", "szeptember", "szept", "septembrie", "σεπτέμβριος", "σεπτεμβρίου", "σεπ"},
	{"lokakuu", "lokakuuta", "október", "okt", "octombrie", "οκτώβριος", "οκτωβρίου", "οκτ"},
	{"marraskuu", "marraskuuta", "noiembrie", "nopember", "νοέμβριος", "νοεμβρίου", "νοε"},
	{"joulukuu", "joulukuuta", "decembrie", "desember", "δεκέμβριος", "δεκεμβρίου", "δεκ"},
}

var (
	yMDOnce sync.Once
	// yMD: year, month name, day, as Hungarian writes a date ("2025.
	// március 4.", "2024. nov. 12.").
	yMD *regexp.Regexp
	// viDate: a Vietnamese date, the month by its number ("17 tháng 2,
	// 2025", "ngày 5 tháng 8 năm 2023", "tháng 8/2023", "tháng 8 năm 2023").
	viDMY = lazyMustCompile(`(?i)(?:^|[^\pL\d])(\d{1,2})\s+tháng\s+(\d{1,2}),?\s+(?:năm\s+)?((?:19|20)\d\d)\b`)
	viMY  = lazyMustCompile(`(?i)(?:^|[^\pL\d])tháng\s+(\d{1,2})\s*(?:/|,|năm)\s*((?:19|20)\d\d)\b`)
)

// findDateMore reads the date forms of the languages added in the dev35
// round; like findDate it returns YYYY-MM-DD and s without the date.
func findDateMore(s string, atStart bool) (date, rest string, ok bool) {
	yMDOnce.Do(func() {
		var alt []string
		for n := range monthNumbers {
			alt = append(alt, regexp.QuoteMeta(n))
		}
		// longest first, as in the other patterns
		for i := range alt {
			for j := i + 1; j < len(alt); j++ {
				if len(alt[j]) > len(alt[i]) || len(alt[j]) == len(alt[i]) && alt[j] < alt[i] {
					alt[i], alt[j] = alt[j], alt[i]
				}
			}
		}
		yMD = regexp.MustCompile(`(?i)(?:^|[^\pL\d])((?:19|20)\d\d)\.\s+(` + strings.Join(alt, "|") + `)\.?\s+(\d{1,2})\.?(?:[^\pL\d]|$)`)
	})
	for _, re := range []*regexp.Regexp{yMD, viDMY.Regexp(), viMY.Regexp()} {
		loc := re.FindStringSubmatchIndex(s)
		if loc == nil {
			continue
		}
		// The match may open with the one character before the date.
		start := loc[0]
		if r, n := utf8.DecodeRuneInString(s[start:]); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			start += n
		}
		if atStart && strings.TrimSpace(s[:start]) != "" {
			continue
		}
		end := loc[1]
		g := func(i int) string { return s[loc[2*i]:loc[2*i+1]] }
		switch re {
		case yMD:
			d, _ := strconv.Atoi(g(3))
			mo := monthNumbers[strings.ToLower(g(2))]
			if d < 1 || d > 31 || mo == 0 {
				continue
			}
			date = fmt.Sprintf("%s-%02d-%02d", g(1), mo, d)
			end = loc[7]
			if end < len(s) && s[end] == '.' {
				end++
			}
		case viDMY.Regexp():
			date = numDate(g(3), g(2), g(1))
		case viMY.Regexp():
			date = numDate(g(2), g(1), "")
		}
		if date == "" {
			continue
		}
		rest = trimDateSep(s[:start] + " " + s[end:])
		rest = domain.NormalizeSpace(strings.ReplaceAll(rest, "()", ""))
		return date, rest, true
	}
	return "", "", false
}

// trimDateSep strips the separators left around a line's text once its date
// is taken out ("2022 — ", "(March 2024)"), keeping a bracket the text
// itself closes: "ζωντανή συνομιλία (live chat)" keeps its ")".
func trimDateSep(s string) string {
	out := dateSep.ReplaceAllString(s, "")
	if strings.Count(out, "(") > strings.Count(out, ")") && strings.HasSuffix(strings.TrimSpace(s), ")") {
		out += ")"
	}
	return out
}

// setupFeeRe: a one-off fee beside the plans ("初期費用は0円", "설치비 0원",
// "no setup fee", "开通费 0 元"): a fee of zero is not a free plan.
var setupFeeRe = lazyMustCompile(`(?i)set-?up fees?|onboarding fees?|einrichtungsgebühr|frais d['’]installation|frais de mise en service|costo de instalación|初期費用|導入費用|設定費用|설치비|가입비|초기 비용|开通费|初装费|安装费`)

// blogPathMore: blog and news indexes (and the posts under them) named in
// other languages, as the fetcher follows them one level (indexSegs): a
// post is a blog page, whose facts are the post's subject's.
const blogPathMore = `|blogi|blogg|bloggen|uutiset|ajankohtaista|tiedotteet|nyheder|nyheter|hirek|ujdonsagok|stiri|noutati|berita|kabar|tin-tuc|tintuc|nea|anakoinoseis|oshirase|xinwen|dongtai|sosik|gongji`
