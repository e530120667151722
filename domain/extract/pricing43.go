package extract

import (
	"cmp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// Plans stated several to a sentence or list item, and names written before
// a price in Japanese, Korean and Chinese.
var (
	// cjkPlanName is a plan's name with its plan word right before a price,
	// and the particle and period word between them: "ライトプランは月額",
	// "베이직 플랜은 월", "专业版每月", "프로 요금제(월". The name keeps its plan word.
	cjkPlanName = lazyMustCompile(`([\p{Han}\p{Katakana}\p{Hangul}ー・A-Za-z0-9]+\s?(?:プラン|コース|플랜|요금제|套餐|版))\s*(?:は|では|なら|が|の料金は|은|는|이|가|：|:|为|是)?\s*[(（]?\s*(?:月額|年額|月々|월|매월|연|每月|每年)?\s*$`)
	// hangulTopicName is a Korean plan's name with its topic particle and
	// period word right before a price, with no plan word: "베이직은 월".
	hangulTopicName = lazyMustCompile(`(?:^|[^\p{Hangul}])(\p{Hangul}{1,8}?)(?:은|는)\s*(?:월|매월|연|연간)?\s*$`)
	// costWord is a word for the price itself, never a plan's name
	// ("요금은 월 9,900원": the fee is).
	costWord = lazyMustCompile(`비용|이용료|금액|요금|가격|費用|料金|価格|价格|费用`)
	// afterName is a plan named after its price: "$29 a month for the
	// Standard plan", "... for Premium".
	afterName = lazyMustCompile(`^[^.;!?]*?\bfor (?:the |our )?(\p{Lu}[\p{L}\d+-]*)(?: (?:plan|tier|edition))?(?:[^\p{L}]|$)`)
	// leadName is a capitalised name and its verb ending a prefix, for names
	// that are also filler words elsewhere ("Solo is £12": "solo" means
	// "only" in Spanish and Italian).
	leadName = lazyMustCompile(`(?:^|[\s,;])(\p{Lu}[\p{L}\d+-]*)\s+(?:is|costs?|kostet|ist|coûte|est|cuesta|es|costa|è|kost|custa|é)\s*[:–-]?\s*$`)
	// seriesLead ends what may stand before the second and later names of a
	// series of plans in one sentence: the previous price's qualifier, then a
	// separator or a conjunction ("..., Team is $49", "... och Max 599 kr",
	// "、スタンダードプランは").
	seriesLead = lazyMustCompile(`(?i)(?:[,;、，；–-]\s*(?:(?:` + seriesConj + `)\s+)?|\s(?:` + seriesConj + `)\s+)$`)
	// phraseTail is a conjunction or separator a cut price phrase ends with.
	phraseTail = lazyMustCompile(`(?i)(?:[\s,;、，；–-]+(?:` + seriesConj + `))?[\s,;、，；–-]*$`)
)

// seriesConj are the conjunctions of a series ("and", "och", "oraz", "và").
const seriesConj = `and|or|och|og|und|oder|et|ou|y|o|e|en|of|ve|veya|oraz|lub|i|a|nebo|ja|és|și|và|dan`

// proseItems names the plans and prices of one price sentence: its first
// price, with the plan named before it if any ("Starter is $19 per month"),
// and every later price whose own plan is named right before it in a series
// (", Team is $49 per month, and Business is $99 per month"; "Bas 149
// kr/mån, Plus 299 kr/mån och Max 599 kr/mån"). A later price with no name
// of its own (an overage, "or $79 per year") is part of the phrase before it
// or no plan.
func proseItems(s, brand string) []string {
	var starts, ends []int
	for _, m := range priceRe.FindAllStringIndex(s, -1) {
		if hasNonzero(s[m[0]:m[1]]) {
			starts, ends = append(starts, m[0]), append(ends, m[1])
		}
	}
	if len(starts) == 0 {
		return nil
	}
	names := []string{}
	var at, nameAt []int
	for k := range starts {
		from := 0
		if k > 0 {
			from = ends[k-1]
		}
		prefix := s[from:starts[k]]
		name := planName(prefix)
		if name != "" && isBrand(name, brand) {
			name = ""
		}
		if k > 0 {
			i := strings.LastIndex(prefix, name)
			// The previous price's qualifier stays short: "$19 per month
			// for one location, Team is $49".
			if name == "" || i < 0 || !seriesLead.MatchString(prefix[:i]) || len(strings.Fields(prefix[:i])) > 8 {
				continue
			}
			nameAt = append(nameAt, from+i)
		} else {
			nameAt = append(nameAt, 0)
		}
		names, at = append(names, name), append(at, starts[k])
	}
	if len(names) == 1 && names[0] == "" && len(starts) > 1 {
		if after := afterNames(s, starts, ends); after != nil {
			return after
		}
	}
	out := make([]string, 0, len(names))
	for i, name := range names {
		cut := len(s)
		if i+1 < len(names) {
			cut = nameAt[i+1]
		}
		phrase := pricePhrase(s[at[i]:cut])
		// A kana or Hangul particle or copula right after the amount ends
		// the phrase: "4,980円です", "19,900원입니다" keep only the amount.
		if m := priceRe.FindStringIndex(s[at[i]:cut]); m != nil {
			if r, _ := utf8.DecodeRuneInString(s[at[i]+m[1] : cut]); unicode.In(r, unicode.Hiragana, unicode.Hangul) {
				phrase = s[at[i] : at[i]+m[1]]
			}
		}
		if i+1 < len(names) {
			phrase = phraseTail.ReplaceAllString(phrase, "")
		}
		if name != "" {
			phrase = name + ": " + phrase
		}
		out = append(out, phrase)
	}
	return out
}

// isBrand reports whether a name is the product's own (brand is compacted).
func isBrand(name, brand string) bool {
	c := compact(name)
	return c != "" && c == brand
}

// clauseSplit splits a plan's line into its clauses.
var clauseSplit = lazyMustCompile(`[,;]\s`)

// clausePrice is the price a plan's line states: an amount (shortPrice), or
// else a short clause that says "free" or "contact sales" ("free, for up to
// 3 editors", "priced per contract; contact sales").
func clausePrice(rest string) (string, bool) {
	if planPrice(rest) {
		return shortPrice(rest), true
	}
	for _, c := range clauseSplit.Split(rest, -1) {
		if c = strings.TrimSpace(c); c != "" && len(c) <= 30 && shortFreeOrContact.MatchString(c) {
			return c, true
		}
	}
	return "", false
}

// withOnce notes a one-time payment stated in the short sentence after a
// plan's price ("$89" then "One-time payment. Two computers, ..."): the plan
// is bought once, not subscribed to.
func withOnce(pl plan, next string) plan {
	if pl.period != "" || periodRe.MatchString(pl.priceLine) || priceRe.MatchString(next) {
		return pl
	}
	if sen := splitSentences(next); len(sen) > 0 && len(strings.Fields(sen[0])) <= 6 && oneTimeRe.MatchString(sen[0]) {
		pl.once = sen[0]
	}
	return pl
}

// freeLimit states free use up to a limit, in a feature list or a sentence
// ("Free for up to 3 users", "Kostenlos für bis zu 5 Rechnungen im Monat"):
// a free plan, unless the limit is a duration (a trial).
var (
	freeLimit    = lazyMustCompile(`(?i)\b(?:free|kostenlos|gratuit[eo]?|gratuita|gratis|grátis)\s+(?:for\s+|für\s+|pour\s+|para\s+|per\s+|voor\s+)?(?:up to|bis zu|jusqu'à|jusqu’à|hasta|fino a|tot|até)\s+\d[\d.,]*\s+(\p{L}+)`)
	durationWord = lazyMustCompile(`(?i)^(days?|weeks?|months?|years?|tage?n?|wochen|monate?n?|jahre?n?|jours?|semaines?|mois|ans?|días?|semanas?|meses|años?|giorni|settimane|mesi|anni|dagen|weken|maanden|jaar|dias|anos)$`)
)

// freeUpTo reports whether s states free use up to a limit that is not a
// duration, neither asked nor denied up to the limit ("No, it is not free
// for up to ..."; "Free for up to 3 users, with no time limit" states it).
func freeUpTo(s string) bool {
	m := freeLimit.FindStringSubmatchIndex(s)
	return m != nil && !durationWord.MatchString(s[m[2]:m[3]]) && !isQuestion(s) && !negationRe.MatchString(s[:m[1]])
}

// iconName is the name of a plan card that names its plan only by an icon:
// the aria-label or title of an element with no text before the price
// (<svg role="img" aria-label="Sprout">, <span title="Forest"><img alt="">).
func iconName(card, price *html.Node) string {
	name, stop := "", false
	// An icon is often an svg, which reading skips as graphics: walk all
	// elements, leaving out only hidden ones that are not svg.
	forEach(card, true, func(n *html.Node) bool {
		if stop || name != "" || n.DataAtom != atom.Svg && htmltext.Hidden(n) {
			return false
		}
		if n == price {
			stop = true
			return false
		}
		label := domain.NormalizeSpace(cmp.Or(attr(n, "aria-label"), attr(n, "title")))
		if label != "" && n.DataAtom != atom.A && nodeText(n) == "" && len(strings.Fields(label)) <= 3 && !strings.ContainsAny(label, "0123456789") {
			name = label
			return false
		}
		return true
	})
	return name
}

// afterNames names the plans of a sentence that names each after its price
// ("It's $29 a month for the Standard plan and $79 a month for Premium"):
// every price must have its own name before the next price, else nil.
func afterNames(s string, starts, ends []int) []string {
	out := make([]string, 0, len(starts))
	for k := range starts {
		next := len(s)
		if k+1 < len(starts) {
			next = starts[k+1]
		}
		m := afterName.FindStringSubmatchIndex(s[ends[k]:next])
		if m == nil {
			return nil
		}
		// the phrase stops at "for": "$29 a month"
		forAt := ends[k] + strings.LastIndex(s[ends[k]:ends[k]+m[2]], "for")
		out = append(out, s[ends[k]+m[2]:ends[k]+m[3]]+": "+phraseTail.ReplaceAllString(pricePhrase(s[starts[k]:forAt]), ""))
	}
	return out
}

// proseUnderPricing reports whether a price line under a heading that names
// pricing ("Pricing", "Simple pricing", "价格") is prose, not a plan card's
// price: a long line, several sentences or several prices. The heading is
// then no plan's name.
func proseUnderPricing(title, line string) bool {
	return pricingHdr.MatchString(title) && (utf8.RuneCountInString(line) > 40 || len(splitSentences(line)) > 1 || len(priceRe.FindAllStringIndex(line, 2)) > 1)
}
