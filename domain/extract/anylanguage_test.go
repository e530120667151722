package extract_test

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// founderList is "Name/Title" of each drafted founder.
func founderList(dr *domain.Drafted) []string {
	var out []string
	for _, f := range dr.Founders {
		out = append(out, f.Name+"/"+f.Title)
	}
	return out
}

// TestAnyLanguage_Founders: founders in role cards with titles in Polish,
// Korean and Chinese (names in Hangul and Han), in a Japanese profile row
// naming the representative director, in Swedish and Polish founding
// sentences, and in a definition list naming one person twice; employees,
// designers and advisers beside them are not founders.
func TestAnyLanguage_Founders(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"Polish role cards", "pl", "/o-nas", `<h1>O nas</h1><h2>Zespół</h2>
<div><h3>Tomasz Zieliński</h3><p>Współzałożyciel, prezes zarządu</p></div>
<div><h3>Piotr Wróbel</h3><p>Programista</p></div>
<h2>Doradcy</h2><div><h3>Marek Sikora</h3><p>Doradca, inwestor</p></div>`,
			[]string{"Tomasz Zieliński/Współzałożyciel, prezes zarządu"}},
		{"Korean cards", "ko", "/about", `<h1>회사 소개</h1><h2>팀</h2>
<div><h3>이민준</h3><p>대표</p></div><div><h3>최수아</h3><p>공동창업자 · CTO</p></div><div><h3>정하늘</h3><p>디자이너</p></div>`,
			[]string{"이민준/대표", "최수아/공동창업자 · CTO"}},
		{"Chinese cards", "zh", "/about", `<h1>关于我们</h1><h2>创始团队</h2>
<div><h3>张伟</h3><p>创始人兼 CEO</p></div><div><h3>李娜</h3><p>联合创始人兼 CTO</p></div>`,
			[]string{"张伟/创始人兼 CEO", "李娜/联合创始人兼 CTO"}},
		{"Japanese profile row", "ja", "/company/", `<h1>会社概要</h1><table><tr><th>設立</th><td>2016年4月</td></tr>
<tr><th>代表取締役</th><td>山田 太郎</td></tr></table>`,
			[]string{"山田 太郎/代表取締役"}},
		{"Swedish sentence", "sv", "/om-oss", `<h1>Om oss</h1><p>Acme grundades 2022 i Uppsala av Sara Lindqvist och Erik Berg, två lärare.</p>`,
			[]string{"Sara Lindqvist/", "Erik Berg/"}},
		{"Polish verb first", "pl", "/kim-jestesmy", `<h1>Kim jesteśmy</h1><p>Firmę założyli w 2020 roku Ewa Mazur i Paweł Wójcik, wcześniej nauczyciele.</p>`,
			[]string{"Ewa Mazur/", "Paweł Wójcik/"}},
		{"Swedish definition list", "sv", "/foretaget", `<h1>Företaget</h1><dl><dt>Grundare</dt><dd>Karin Ek och Johan Ström</dd><dt>VD</dt><dd>Karin Ek</dd></dl>`,
			[]string{"Karin Ek/Grundare", "Johan Ström/Grundare"}},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		if got := founderList(dr); strings.Join(got, "; ") != strings.Join(c.want, "; ") {
			t.Errorf("%s: founders %q, want %q", c.name, got, c.want)
		}
	}
}
