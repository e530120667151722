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
	// periodWorld: "/ hó", "/ kk", "/ lună", "/tháng", "/เดือน", "/bulan",
	// "per måned", "לחודש".
	periodWorld = `|/\s?(?:hó|hónap|kk|kuukausi|lună|luna|tháng|เดือน|bulan|måned|mnd)(?:[^\p{L}]|$)|per måned|i måneden|kuukaudessa|havonta|pe lună|mỗi tháng|ต่อเดือน|per bulan|לחודש|בחודש`
	// freeWorld: a free plan's price word ("Ingyenes", "Miễn phí", "ฟรี");
	// not Finnish "ilmainen" nor Hebrew "חינם", which those sites say of trials.
	freeWorld = `|ingyenes|miễn phí|ฟรี`
)

// pricingHdrWorld: a pricing heading or page title in those languages
// ("Hinnat", "Árak", "Prețuri", "Bảng giá", "Harga", "מחירים", "ราคา").
const pricingHdrWorld = `|(?:^|[^\p{L}])(?:hinnat|hinnasto|árak|árazás|prețuri|preturi|bảng giá|harga|מחירים)(?:[^\p{L}]|$)|ราคา`
