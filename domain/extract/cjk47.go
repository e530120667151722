package extract

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/launchdir/launchdir/domain"
)

// Prices as Chinese, Japanese and Korean sites write them, beside the
// forms of priceMore: amounts in full-width digits and separators
// ("１，９８０円", "￥３，３００", "＄１２"), as Japanese typesetting writes
// them, and amounts in units of ten thousand before the currency ("월 3만원",
// "5만 5천원", "1.5万円", "3萬元"). An amount in 億/억 (hundreds of millions)
// is never a plan's price and is left out.
const priceCJK = `|[０-９](?:[０-９，．,.]*[０-９])?\s?(?:円|원|元)` +
	`|(?:￥|¥|＄|\$|₩)\s?[０-９](?:[０-９，．,.]*[０-９])?` +
	`|[\d０-９](?:[\d０-９.,，．]*[\d０-９])?\s?(?:만|万|萬)(?:\s?[\d０-９]천)?\s?(?:원|円|元)`

// digits and nonzeroDigits are the digits of amounts, ASCII and full-width.
const (
	digits        = "0123456789０１２３４５６７８９"
	nonzeroDigits = "123456789１２３４５６７８９"
)

// hasDigit reports whether s holds a digit, ASCII or full-width.
func hasDigit(s string) bool { return strings.ContainsAny(s, digits) }

// hasNonzero reports whether an amount s is not zero ("１，９８０円", not "０円").
func hasNonzero(s string) bool { return strings.ContainsAny(s, nonzeroDigits) }

// leadingYear is the year a profile value opens with: "2018年4月", or an
// era year ("令和2年7月1日" is 2020, "平成30年2月" 2018, "民國111年" 2022);
// "" when the value opens with neither.
func leadingYear(value string) string {
	v := strings.TrimSpace(value)
	if y := yearRe.FindString(v); y != "" && strings.HasPrefix(v, y) {
		return y
	}
	if ys := domain.EraYears(v); len(ys) > 0 && eraOpens(v) {
		return strconv.Itoa(ys[0])
	}
	return ""
}

// eraOpens reports whether v opens with an era's name.
func eraOpens(v string) bool {
	for _, e := range []string{"令和", "平成", "昭和", "民國", "民国"} {
		if strings.HasPrefix(v, e) {
			return true
		}
	}
	return false
}

// yearOrEra is the first year a sentence writes, or the first era year
// ("於民國111年在台中創立" is 2022) when it writes none in the Gregorian calendar.
func yearOrEra(sent string) string {
	if y := yearRe.FindString(sent); y != "" {
		return y
	}
	if ys := domain.EraYears(sent); len(ys) > 0 {
		return strconv.Itoa(ys[0])
	}
	return ""
}

// chromeName is the class or id a site builder gives the page's own footer,
// header or navigation when it writes them as divs ("l-footer", "footer",
// "site-header", "gnb" as Korean agencies name the global navigation); a
// card's "card-footer" or "p-plan__header" is not the page's.
var chromeName = lazyMustCompile(`(?i)^(?:l-|site-|global-|page-|main-|g-)?(?:footer|header|gnb|navbar)$`)

// chromeBlock reports whether n is a div or section a builder names as the
// page's footer, header or navigation.
func chromeBlock(n *html.Node) bool {
	if n.Type != html.ElementNode || n.Data != "div" && n.Data != "section" {
		return false
	}
	if chromeName.MatchString(attr(n, "id")) {
		return true
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		if chromeName.MatchString(c) {
			return true
		}
	}
	return false
}

// seatVerbs are the words before a city in a Chinese sentence that says
// where a company sits ("总部位于上海市", "設在台北市", "于杭州市").
var seatVerbs = []string{"位于", "位於", "设在", "設在", "坐落于", "坐落於", "于", "於", "在"}

// afterSeatVerb is the city after the last seat verb of m ("总部位于上海市"
// is 上海市), or m.
func afterSeatVerb(m string) string {
	cut := -1
	for _, v := range seatVerbs {
		if i := strings.LastIndex(m, v); i >= 0 && i+len(v) > cut {
			cut = i + len(v)
		}
	}
	if cut > 0 && cut < len(m) {
		return m[cut:]
	}
	return m
}
