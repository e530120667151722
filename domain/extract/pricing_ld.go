package extract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// ldPeriodCodes are the billing periods a JSON-LD UnitPriceSpecification
// states by code rather than words: UN/CEFACT unit codes (MON a month,
// ANN a year) and ISO 8601 durations (billingDuration "P1M", "P1Y").
// domain.Ground knows the same codes (ldBillingCodes).
var ldPeriodCodes = map[string]bool{"MON": true, "ANN": true, "P1M": true, "P1Y": true}

// ldModel: the pricing model from the product's JSON-LD offers when no
// page said it in words: a paid offer whose price specification recurs
// (unitCode MON or ANN, billingDuration P1M or P1Y, a unitText with a
// period) is a subscription. An offer of zero beside it says nothing
// here: a free plan is drafted from what the page shows ("$0" or "Free").
// Offers that are all of zero (price "0" with its currency) are free.
func (s *site) ldModel() (domain.DraftedValue, bool) {
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !ldApp(o) {
				continue
			}
			var quote, price string
			zero, paid := false, false
			var free []domain.Evidence
			for _, off := range ldObjects(o, "offers") {
				pr := ldNumber(off, "price")
				if pr != "" && strings.Trim(pr, "0.,") == "" {
					zero = true
					// quoted only as the data's own strings ("0", "USD")
					if str, _ := off["price"].(string); str != "" && free == nil {
						if cur := ldString(off, "priceCurrency"); cur != "" {
							free = []domain.Evidence{p.ev(str), p.ev(cur)}
						}
					}
					continue
				}
				if pr != "" {
					paid = true
				}
				for _, spec := range ldObjects(off, "priceSpecification") {
					if pr == "" {
						pr = ldNumber(spec, "price")
					}
					q := ""
					for _, k := range []string{"unitCode", "billingDuration"} {
						if c := ldString(spec, k); ldPeriodCodes[strings.ToUpper(c)] {
							q = c
						}
					}
					if ut := ldString(spec, "unitText"); q == "" && periodRe.MatchString(ut) {
						q = ut
					}
					if q != "" && pr != "" && quote == "" {
						quote, price = q, pr
					}
				}
			}
			if quote != "" && !zero {
				return domain.DraftedValue{Text: "subscription", Evidence: []domain.Evidence{p.ev(quote), p.ev(price)}}, true
			}
			if !paid && free != nil {
				return domain.DraftedValue{Text: "free", Evidence: free}, true
			}
		}
	}
	return domain.DraftedValue{}, false
}

// currencyForms are the ways pages write a currency that JSON-LD names by
// its ISO 4217 code: "99 kr" for SEK, "1.290 Kč" for CZK, "₺149" for TRY.
var currencyForms = map[string][]string{
	"SEK": {"kr", ":-"}, "NOK": {"kr", ",-"}, "DKK": {"kr", ",-"}, "ISK": {"kr"},
	"CZK": {"kč"}, "PLN": {"zł"}, "TRY": {"₺", "tl"}, "JPY": {"¥", "￥", "円"},
	"KRW": {"₩", "원"}, "CNY": {"¥", "￥", "元"}, "RMB": {"¥", "￥", "元"},
	"EUR": {"€", "euro"}, "USD": {"$"}, "GBP": {"£"}, "CHF": {"chf", "fr."},
	"HUF": {"ft"}, "RON": {"lei"}, "INR": {"₹", "rs"}, "BRL": {"r$"},
}

// amountValue is the number an amount stands for, whatever its separators
// ("1.290", "1 290", "4,900", "9,90"); ok is false when s holds none.
func amountValue(s string) (float64, bool) {
	digits := strings.Map(func(r rune) rune {
		if (r >= '0' && r <= '9') || r == '.' || r == ',' {
			return r
		}
		return -1
	}, s)
	digits = strings.Trim(digits, ".,")
	if digits == "" {
		return 0, false
	}
	// A separator followed by one or two digits at the end is the decimal
	// point; every other separator groups thousands.
	frac := ""
	if i := strings.LastIndexAny(digits, ".,"); i >= 0 && len(digits)-i-1 <= 2 {
		digits, frac = digits[:i], digits[i+1:]
	}
	digits = strings.NewReplacer(".", "", ",", "").Replace(digits)
	v, err := strconv.ParseFloat(digits+"."+frac+"0", 64)
	return v, err == nil
}

// shownPrice finds where a page shows a JSON-LD offer's price: a price on a
// line of a product page whose amount equals price and whose currency is
// written in one of cur's forms (or as the code itself). It returns the
// price as the page writes it ("99 kr") and the line to quote.
func (s *site) shownPrice(price, cur string) (shown string, p *page, quote string, ok bool) {
	want, ok := amountValue(price)
	if !ok {
		return "", nil, "", false
	}
	forms := append([]string{strings.ToLower(cur)}, currencyForms[strings.ToUpper(cur)]...)
	for _, p := range s.content() {
		for _, seg := range p.segs {
			for _, l := range seg.lines {
				if l.foreign {
					continue
				}
				for _, m := range priceRe.FindAllString(l.text, -1) {
					v, ok := amountValue(m)
					if !ok || v != want {
						continue
					}
					low := strings.ToLower(m)
					if slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(low, f) }) {
						return m, p, l.text, true
					}
				}
			}
		}
	}
	return "", nil, "", false
}
