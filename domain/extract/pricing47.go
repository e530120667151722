package extract

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Forms of one-time and metered prices in Chinese, Japanese and Korean,
// added to oneTimeRe and usageRe (pricing.go) as alternatives: a licence
// bought once ("買い切り", "买断", "一次性付费", "일시불", "평생 이용권"), a
// price per unit ("0.045 元/条", "/次", "按量计费", "従量課金", "1通あたり",
// "건당", "종량제").
const (
	oneTimeCJK = `|買い切り|買切り?|一括購入|永久ライセンス|买断|買斷|一次性(?:付费|付費|购买|購買|买断)|永久授权|永久授權|일시불|평생 (?:이용권|라이선스)|영구 라이선스`
	usageCJK   = `|/\s?(?:条|條|次|通|件|건|회)(?:[^\p{L}]|$)|按量|按用量|按次|従量|1通あたり|1件あたり|건당|종량제|사용량 기준`
)

// extraCharges drops the one-time and metered charges that are no plan's
// price when two or more plans are named, one with a price, and a recurring
// price is stated (an add-on per minute, a one-time onboarding fee, a self-hosted
// licence, a fee per message beside monthly plans): the plans are the
// product's pricing, the charges are extras. When one of the charges is a
// plan's own line ("$89" over "One-time payment.", "0.045 元/条" in the
// price table), they all stay.
func extraCharges(lines []pline, plans []plan, recurs bool) []pline {
	named, paid := map[string]bool{}, false
	for _, pl := range plans {
		if !addOnLabel.MatchString(pl.name) {
			named[strings.ToLower(pl.name)] = true
			nz, _ := hasPrices(pl.price)
			paid = paid || nz
		}
	}
	if !recurs || !paid || len(named) < 2 {
		return lines
	}
	planLine := func(c pline) bool {
		return slices.ContainsFunc(plans, func(pl plan) bool {
			return pl.p == c.p && !addOnLabel.MatchString(pl.name) &&
				(pl.once == c.l || holdsWhole(c.l, pl.priceLine) || holdsWhole(pl.priceLine, c.l))
		})
	}
	if slices.ContainsFunc(lines, planLine) {
		return lines
	}
	return nil
}

// periodHead is the period that opens a longer line below a price, up to
// its first comma or separator ("/month, up to 100 listeners" is "/month",
// "／月・ユーザー無制限" is "／月"), or "" when the line does not open with a
// period of at most four words.
func periodHead(line string) string {
	head := line
	if i := strings.IndexAny(line, ",;·，、・(（"); i > 0 {
		head = strings.TrimSpace(line[:i])
	}
	if head == line || len(strings.Fields(head)) > 4 {
		return ""
	}
	if loc := periodRe.FindStringIndex(head); loc == nil || loc[0] != 0 {
		return ""
	}
	return head
}

// proseParagraph reports whether a line with a price is a paragraph rather
// than a card's price line: several sentences, or more than fifteen words
// ("Need an on-premise licence? Self-hosted Acme is a one-time $2,400 fee
// plus support, talk to us."). The line before it is no plan's name.
func proseParagraph(s string) bool {
	return len(splitSentences(s)) > 1 || len(strings.Fields(s)) > 15
}

// holdsWhole reports whether s holds part as a whole amount: not the tail
// of a longer number ("2000元/次" holds "0元" only as the end of 2000).
func holdsWhole(s, part string) bool {
	for off := 0; part != ""; {
		i := strings.Index(s[off:], part)
		if i < 0 {
			return false
		}
		i += off
		if r, _ := utf8.DecodeLastRuneInString(s[:i]); i == 0 || !strings.ContainsRune(digits+".,，．", r) {
			return true
		}
		off = i + 1
	}
	return false
}
