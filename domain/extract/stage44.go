package extract

import (
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// Stage said of other products, and traction in prose and fact sheets.
// A comparison section ("Why not a general GIS tool?", "Ledgerly or a
// spreadsheet?", "和传统记账软件有什么不同？") or a sentence about competitors
// ("Some of our competitors are still in beta", "General tools like
// MapForge are used by more than 50,000 teams", "市面上的记账软件已有超过 500
// 万家企业在用") states someone else's stage. A fact sheet's customers row
// ("Customers | More than 3,200 accounting firms") is traction whatever
// noun it counts.

var (
	// comparisonHeadingRe: a heading that compares the product with others.
	comparisonHeadingRe = lazyMustCompile(`(?i)\bvs\.?(?:\s|$)|\bversus\b|\bwhy not\b|\bcompared?\b|\bcomparison\b|\balternatives?\b|\bor an? [\p{L} -]{2,30}\?\s*$|` +
		`vergleich|im vergleich|comparaison|comparación|confronto|vergelijking|comparação|porównanie|jämför\p{L}*|srovnání|karşılaştırma|farkı|` +
		`有什么不同|有何不同|有什麼不同|对比|對比|比較|との違い|違い|차이|비교`)
	// competitorRe: a sentence about competitors or other tools.
	competitorRe = lazyMustCompile(`(?i)\bcompetitors?\b|\bother (?:tools|apps|products|vendors|platforms)\b|\b(?:tools|apps|products|platforms|vendors) like\b|` +
		`\bkonkurren|\bconcurren|\bcompetidor|\bkonkurencj|\bkonkurent|\brakip|競合|他社|市面上|竞品|竞争对手|競爭對手|경쟁사|타사`)
)

// otherProduct reports whether a stage sentence, in a section under title,
// is said of other products.
func otherProduct(title, sent string) bool {
	return comparisonHeadingRe.MatchString(title) || competitorRe.MatchString(sent)
}

// overCountRe: a count said to be passed ("more than 3,200", "mer än 2 300",
// "ponad 1 200", "über 5.000").
var overCountRe = lazyMustCompile(`(?i)(?:^|[^\p{L}])(?:more than|over|upwards of|mer än|över|fler än|ponad|przeszło|więcej niż|přes|více než|plus de|mehr als|über|más de|oltre|meer dan|mais de|yli|több mint|peste|lebih dari)\s+` + countPattern)

// customersLabelRe: a fact sheet's label of those who use the product.
var customersLabelRe = lazyMustCompile(`(?i)^(?:customers|clients|users|active users|teams|companies|kunden|nutzer(?:innen)?|utilisateurs|clientes|usuarios|clienti|utenti|klanten|gebruikers|kunder|användare|brugere|asiakkaat|käyttäjät|klienci|użytkownicy|zákazníci|uživatelé|müşteriler|kullanıcılar|` +
	`導入社数|導入企業数|利用者数|ユーザー数|会員数|导入企业|用户数|客户数|고객\s?수|사용자\s?수|고객사)\s*:?$`)

// factSheetStage: a fact sheet's customers row that counts 1,000 or more
// ("Customers | More than 3,200 accounting firms in 14 countries"): growing.
// A count passed in a sentence ("more than 40,000 freelancers send their
// invoices with X") is left to the traction patterns (stage_words.go),
// which want the count's noun or a verb of use beside it.
func (s *site) factSheetStage() (string, []domain.Evidence) {
	for _, p := range s.profilePages(kindHome, kindAbout) {
		if p.kind != kindHome && p.kind != kindAbout && p.kind != kindBlog {
			continue
		}
		for _, r := range labelRows(p) {
			if !customersLabelRe.MatchString(strings.TrimSpace(r.label)) {
				continue
			}
			v := domain.NormalizeSpace(r.value)
			if m := countRe.FindStringIndex(v); m != nil && (m[0] == 0 || overCountRe.MatchString(v[:m[1]])) && tractionCount(v[m[0]:m[1]]) >= 1000 {
				return "growing", []domain.Evidence{p.ev(r.label), p.ev(v)}
			}
		}
	}
	return "", nil
}

// launchBadgeRe: the whole text of a header badge that says the product is
// out ("We just launched", "Now live", "Now generally available").
var launchBadgeRe = lazyMustCompile(`(?i)^\s*(?:we(?:'ve|’ve| have)? just launched|just launched|now live|we(?:'re|’re| are) live|now generally available|generally available)\s*[!.🎉]*\s*$`)
