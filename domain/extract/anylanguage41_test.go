package extract_test

import "testing"

// TestAnyLanguage41_StageAsStated: stage as site builders' markup and
// about stories state it: a stats row whose count and label are elements
// of their own (a shadcn card row, an Elementor counter), not a row that
// counts no users or fewer than 1,000; a private beta followed by a public
// launch in one sentence; a Turkish "since we went live"; a waitlist form
// whose e-mail input sits inside its label (Framer).
func TestAnyLanguage41_StageAsStated(t *testing.T) {
	home := func(lang, body string) string {
		return `<html lang="` + lang + `"><head><title>Acme</title></head><body><div class="nav"><a href="/">Acme</a></div>` + body + `</body></html>`
	}
	for _, c := range []struct {
		name, lang, body, want string
	}{
		{"a stats row beside a launch anniversary", "ko", `<div class="pill">정식 출시 1주년</div><h1>종이 쿠폰 없이</h1>
<div class="grid"><div class="flex flex-col"><p class="text-4xl font-bold">12,000<span class="text-primary">+</span></p><p class="text-sm">개 매장이 사용 중</p></div>
<div class="flex flex-col"><p class="text-4xl font-bold">180만</p><p class="text-sm">누적 적립</p></div></div>`, "growing"},
		{"an Elementor counter", "de", `<h1>Termine online</h1><div class="elementor-counter"><div class="elementor-counter-number-wrapper"><span class="elementor-counter-number-prefix"></span><span class="elementor-counter-number" data-to-value="1800">1.800</span><span class="elementor-counter-number-suffix">+</span></div><div class="elementor-counter-title">Praxen nutzen Acme</div></div>`, "growing"},
		{"a stats row that counts no users", "en", `<h1>Berths</h1><div class="stats"><div class="stats_item"><div class="stats_number">41,000</div><div class="stats_label">ships planned last year</div></div></div>`, ""},
		{"fewer than a thousand", "en", `<h1>Berths</h1><div class="stats"><div class="stats_item"><div class="stats_number">600+</div><div class="stats_label">teams use Acme</div></div></div>`, ""},
		{"private beta, then a public launch", "en", `<h1>Contracts</h1><p>We ran a private beta with eleven companies through 2023 and launched Acme publicly in January 2024.</p>`, "launched"},
		{"a Framer waitlist form, the input inside its label", "fi", `<header class="framer-hero"><h1 class="framer-text">Kenen vuoro mökillä?</h1><form class="framer-form" action="/f" method="POST"><label class="framer-form-text-input"><input type="email" name="email" placeholder="sähköpostiosoite" required></label><button type="submit" class="framer-form-button">Liity odotuslistalle</button></form></header>`, "pre-launch"},
		{"yayına aldığımızdan beri", "tr", `<h1>Stok</h1><p>2023 baharında yayına aldığımızdan beri Acme'yi her gün biraz daha iyi yapıyoruz.</p>`, "launched"},
	} {
		dr := draftLang(t, c.lang, "/", home(c.lang, c.body))
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q (%v)", c.name, got, c.want, dr.Fields["stage"].Evidence)
		}
	}
}
