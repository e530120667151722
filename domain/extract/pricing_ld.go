package extract

import (
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
func (s *site) ldModel() (domain.DraftedValue, bool) {
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !ldApp(o) {
				continue
			}
			var quote, price string
			zero := false
			for _, off := range ldObjects(o, "offers") {
				pr := ldNumber(off, "price")
				if pr != "" && strings.Trim(pr, "0.,") == "" {
					zero = true
					continue
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
		}
	}
	return domain.DraftedValue{}, false
}
