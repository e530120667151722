package extract_test

import "testing"

// TestAnyLanguage_TrialIsNotAFreePlan: a free trial beside a line that
// denies a free plan, in Turkish, Swedish, Czech, Japanese, Chinese and
// Korean, is a subscription, never freemium; prices per month written out
// ("290 Kč / měsíc") are recurring; a free plan at zero beside a paid one is
// freemium.
func TestAnyLanguage_TrialIsNotAFreePlan(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body, want string
	}{
		{"Turkish", "tr", "/fiyatlar", `<h1>Fiyatlar</h1><p>14 gün ücretsiz deneme. Ücretsiz paket yoktur.</p>
<table><tr><th>Paket</th><th>Aylık</th></tr><tr><td>Temel</td><td>299 TL</td></tr><tr><td>Pro</td><td>599 TL</td></tr></table>`, "subscription"},
		{"Swedish", "sv", "/priser", `<h1>Priser</h1><p>Prova i 14 dagar. Inget gratisabonnemang.</p>
<div><h2>Bas</h2><p>99 kr/mån</p></div><div><h2>Plus</h2><p>199 kr/mån</p></div>`, "subscription"},
		{"Czech month written out", "cs", "/cenik", `<h1>Ceník</h1><p>30 dní zdarma na zkoušku, poté podle tarifu.</p>
<div><h2>Živnostník</h2><p>290 Kč / měsíc</p></div><div><h2>Firma</h2><p>690 Kč / měsíc</p></div>`, "subscription"},
		{"Japanese", "ja", "/pricing", `<h1>料金</h1><p>無料プランはありません。</p>
<table><tr><th>プラン</th><th>月額</th></tr><tr><td>ライト</td><td>1,980円</td></tr><tr><td>ベーシック</td><td>4,980円</td></tr></table>`, "subscription"},
		{"Czech free plan", "cs", "/cenik", `<h1>Ceník</h1>
<div><h2>Zdarma</h2><p>0 Kč</p></div><div><h2>Firma</h2><p>690 Kč / měsíc</p></div>`, "freemium"},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := dr.Fields["pricing_model"].Text; got != c.want {
			t.Errorf("%s: pricing_model %q, want %q", c.name, got, c.want)
		}
	}
}
