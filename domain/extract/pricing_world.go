package extract

// Prices in the currencies and periods of the languages the pricing words
// did not cover (Hungarian forint, Romanian lei, Vietnamese đồng, Thai baht,
// Indonesian rupiah, Israeli shekel; Norwegian, Finnish, Hungarian,
// Romanian, Vietnamese, Thai, Indonesian and Hebrew months); they are added
// to priceRe, periodRe and freeRe (pricing.go) as alternatives.
const (
	// priceWorld: "1 490 Ft", "25 lei", "49.000đ", "199 บาท", "Rp99.000", "₪79".
	priceWorld = `|\d(?:[\d.,']*\d)?\s?(?:Ft\b|lei\b|đ|₫|บาท|฿|₪|(?:HUF|RON|VND|THB|IDR|ILS)\b)` +
		`|(?:Rp\.?|₪|฿|(?:HUF|RON|VND|THB|IDR|ILS)\s)\s?\d(?:[\d.,]*\d)?`
	// freeWorld: a free plan's price word ("Ingyenes", "Miễn phí", "ฟรี");
	// not Finnish "ilmainen" nor Hebrew "חינם", which those sites say of trials.
	freeWorld = `|ingyenes|miễn phí|ฟรี`
)

// pricingHdrWorld: a pricing heading or page title in those languages
// ("Hinnat", "Árak", "Prețuri", "Bảng giá", "Harga", "מחירים", "ราคา").
const pricingHdrWorld = `|(?:^|[^\p{L}])(?:hinnat|hinnasto|árak|árazás|prețuri|preturi|bảng giá|harga|מחירים)(?:[^\p{L}]|$)|ราคา`

// onRequestWorld: a tier priced on request in languages without word lists
// ("Pris på forespørsel", "Kontakta oss", "Na zapytanie", "Cena na dotaz",
// "Bize ulaşın", "要お見積もり", "联系销售", "별도 문의", "도입 문의", and in
// English "Get a quote"), added to
// shortFreeOrContact (pricing_prose.go) as alternatives.
const onRequestWorld = `|pris på (forespørsel|förfrågan|begäran|anmodning)|kontakt(a)? oss|ta kontakt|begär offert|få et tilbud|na zapytanie|wycena indywidualna|skontaktuj się( z nami)?|cena na (dotaz|vyžádání)|individuální cena|kontaktujte nás|bize ulaşın|teklif alın|size özel fiyat|hinta pyynnöstä|ota yhteyttä|árajánlat|egyedi ár|` +
	`要お見積もり|要見積もり|お見積もり|お問い合わせ|要相談|联系销售|联系我们|咨询客服|面议|按需定制|(?:\p{Hangul}{1,6} ?)?문의(?:하기|하세요)?|` +
	// English quotes: "Get a quote", "Price on request"
	`(?:get|request|ask for) a quote|(?:price )?on request`
