package domain

import (
	"fmt"
	"strings"
)

// currencySymbols are the currencies written with a symbol before the amount.
var currencySymbols = map[string]string{"USD": "$", "EUR": "€", "GBP": "£"}

// FormatMoney shows cents of a currency as people read them: "$49.00",
// "€1,234.50", or "49.00 CHF" for a currency without a symbol here. The
// checkout page and the account page both use it.
func FormatMoney(currency string, cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	whole := fmt.Sprint(cents / 100)
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	n := fmt.Sprintf("%s.%02d", b.String(), cents%100)
	cur := strings.ToUpper(currency)
	if sym, ok := currencySymbols[cur]; ok {
		return sign + sym + n
	}
	if cur == "" {
		return sign + n
	}
	return sign + n + " " + cur
}
