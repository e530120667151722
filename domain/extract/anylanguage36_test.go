package extract_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
)

// TestAnyLanguage36_Categories: the primary category from the site's own
// words in languages without word lists before (Norwegian, Finnish,
// Hungarian, Romanian, Vietnamese, Thai, Indonesian, Hebrew) and kinds of
// product the lists missed (a household budget 家計簿 / 가계부, video
// courses, flashcards in traditional Chinese, a novel-writing app). A page
// that names no category in words we know gets none: nothing is guessed.
func TestAnyLanguage36_Categories(t *testing.T) {
	for _, tc := range []struct{ lang, title, body, want string }{
		{"nb", "Pengeglimt – husholdningsbudsjett for hele familien", `<h1>Full oversikt over familiens økonomi</h1>`, "Expense Tracking"},
		{"fi", "Kurssikone | Verkkokurssialusta kouluttajille", `<h1>Myy verkkokursseja</h1>`, "Online Courses"},
		{"hu", "Szókártya – szókártyák és okos ismétlés", `<h1>Tanulj gyorsabban</h1>`, "Flashcards & Study"},
		{"ro", "Romanier — aplicație de scriere pentru romancieri", `<h1>Scrie-ți romanul</h1>`, "Writing Assistants"},
		{"vi", "Sổ Chi Tiêu - Ứng dụng quản lý chi tiêu gia đình", `<h1>Quản lý chi tiêu thật dễ dàng</h1>`, "Expense Tracking"},
		{"th", "งานดี | แอปจัดการงานสำหรับทีม", `<h1>จัดการงานของทีมในที่เดียว</h1>`, "Task Management"},
		{"id", "Tim – kelola pelanggan untuk toko", `<h1>Kenali pelanggan Anda</h1>`, "CRM"},
		{"he", "פניות – מערכת לניהול פניות שירות לקוחות", `<h1>כל הפניות במקום אחד</h1>`, "Help Desk"},
		{"ja", "カケイボックス｜家計簿アプリ", `<h1>レシートを撮るだけ</h1>`, "Expense Tracking"},
		{"ko", "쏙가계부 - 우리 가족 가계부 앱", `<h1>우리 집 살림</h1>`, "Expense Tracking"},
		{"zh-TW", "學伴鴨｜用單字卡背單字", `<h1>背單字</h1>`, "Flashcards & Study"},
		{"pl", "Lekcjomat — kursy wideo dla nauczycieli", `<h1>Lekcje dla nauczycieli</h1>`, "Online Courses"},
		{"en", "Inkwell — a quiet place to write your book", `<h1>A distraction-free writing app for novelists</h1>`, "Writing Assistants"},
		{"fi", "Kotisivu | Tervetuloa", `<h1>Hyvää päivää</h1><p>Olemme pieni yritys Tampereella.</p>`, ""},
	} {
		dr := draftPages(t, "/", `<html lang="`+tc.lang+`"><head><title>`+tc.title+`</title></head><body>`+tc.body+`</body></html>`)
		got := dr.Fields["categories"].List
		if tc.want == "" {
			if len(got) > 0 {
				t.Errorf("%s: categories %q, want none", tc.title, got)
			}
			continue
		}
		if len(got) == 0 || got[0] != tc.want {
			t.Errorf("%s: categories %q, want %q first", tc.title, got, tc.want)
		}
	}
}

// draftLang drafts in-memory pages ("path", "html" pairs) of a site whose
// home page declares lang, as the fetcher records it; what the gate drops
// fails the test.
func draftLang(t *testing.T, lang string, pages ...string) *domain.Drafted {
	t.Helper()
	var wp []domain.WebPage
	for i := 0; i+1 < len(pages); i += 2 {
		wp = append(wp, htmltext.Page("https://acme.example"+pages[i], pages[i+1]))
	}
	cats := loadCategories(t)
	site := siteOf(wp...)
	site.Language = lang
	req := domain.DraftRequest{Site: site, Categories: cats.Categories, Stages: cats.Stages}
	dr := draft(t, req)
	kept, dropped := domain.Ground(req, dr)
	if len(dropped) > 0 {
		t.Errorf("domain.Ground dropped %q", dropped)
	}
	return kept
}

// TestAnyLanguage36_Founders: founders in structures of languages the
// founder rules have no words for, and executives of a Japanese or Korean
// company profile: role cards (heading a name, first line the title), team
// lists "Name – title" / "Name, title", a profile table with Hungarian or
// Thai labels, 取締役CTO beside 代表取締役, 최고기술책임자 beside 대표이사, a
// Korean founding sentence with the titles after the names. Advisers,
// investors, outside directors, auditors, bookkeepers and employees are
// never taken.
func TestAnyLanguage36_Founders(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want, not              []string
	}{
		{"Norwegian cards", "nb", "/om-oss", `<h1>Om oss</h1><div><h3>Ingrid Berg</h3><p>Gründer og daglig leder</p></div>
<div><h3>Lars Haugen</h3><p>Medgründer og teknisk sjef</p></div><div><h3>Sofie Dahl</h3><p>Kundeansvarlig</p></div><div><h3>Kari Nilsen</h3><p>Rådgiver</p></div>`,
			[]string{"Ingrid Berg", "Lars Haugen"}, []string{"Sofie Dahl", "Kari Nilsen"}},
		{"Finnish list", "fi", "/yritys", `<h1>Yritys</h1><h2>Tiimi</h2><ul><li><strong>Aino Virtanen</strong>, toimitusjohtaja ja perustaja</li>
<li><strong>Mikko Laine</strong>, perustaja ja teknologiajohtaja</li><li><strong>Sanna Korhonen</strong>, asiakkuuspäällikkö</li></ul>
<h2>Neuvonantajat</h2><p>Pekka Mäkinen, neuvonantaja</p>`,
			[]string{"Aino Virtanen", "Mikko Laine"}, []string{"Sanna Korhonen", "Pekka Mäkinen"}},
		{"Hungarian table", "hu", "/cegadatok", `<h1>Cégadatok</h1><table><tr><th>Alapító, ügyvezető</th><td>Nagy Eszter</td></tr>
<tr><th>Társalapító</th><td>Kovács Bence</td></tr><tr><th>Befektető</th><td>Duna Ventures Zrt.</td></tr><tr><th>Könyvelő</th><td>Tóth Gábor</td></tr></table>`,
			[]string{"Nagy Eszter", "Kovács Bence"}, []string{"Duna Ventures Zrt.", "Tóth Gábor"}},
		{"Vietnamese list", "vi", "/gioi-thieu", `<h1>Giới thiệu</h1><h2>Đội ngũ</h2><ul><li>Nguyễn Minh Anh – Nhà sáng lập &amp; CEO</li>
<li>Trần Quốc Bảo – Đồng sáng lập &amp; CTO</li><li>Lê Văn Hùng – Cố vấn</li></ul>`,
			[]string{"Nguyễn Minh Anh", "Trần Quốc Bảo"}, []string{"Lê Văn Hùng"}},
		{"Thai table", "th", "/about", `<h1>เกี่ยวกับเรา</h1><table><tr><th>ผู้ร่วมก่อตั้งและ CEO</th><td>ปิยะ วงศ์สวัสดิ์</td></tr>
<tr><th>ผู้ร่วมก่อตั้งและ CTO</th><td>นภา ศรีสุข</td></tr><tr><th>ที่ปรึกษา</th><td>ธนา ทองดี</td></tr></table>`,
			[]string{"ปิยะ วงศ์สวัสดิ์", "นภา ศรีสุข"}, []string{"ธนา ทองดี"}},
		{"Hebrew list", "he", "/about", `<h1>אודות</h1><h2>הצוות</h2><ul><li>נועה כהן – מייסדת ומנכ״לית</li><li>אורי לוי – מייסד שותף ו-CTO</li>
<li>יעל פרץ – מנהלת מוצר</li><li>דוד מזרחי – יועץ</li></ul>`,
			[]string{"נועה כהן", "אורי לוי"}, []string{"יעל פרץ", "דוד מזרחי"}},
		{"Japanese profile", "ja", "/company", `<h1>会社概要</h1><table><tr><th>代表取締役</th><td>高橋 誠</td></tr><tr><th>取締役CTO</th><td>伊藤 美咲</td></tr>
<tr><th>社外取締役</th><td>渡辺 隆</td></tr><tr><th>監査役</th><td>中村 恵子</td></tr><tr><th>主要株主</th><td>みらいキャピタル</td></tr></table>`,
			[]string{"高橋 誠", "伊藤 美咲"}, []string{"渡辺 隆", "中村 恵子", "みらいキャピタル"}},
		{"Korean sentence", "ko", "/about", `<h1>회사 소개</h1><p>고객박스는 2020년 부산에서 최민준 대표와 한지우 CTO가 공동 창업했습니다.</p><h2>투자사</h2><p>해운대벤처스</p>`,
			[]string{"최민준", "한지우"}, []string{"해운대벤처스"}},
		{"Korean profile", "ko", "/about", `<h1>회사 소개</h1><table><tr><th>대표이사</th><td>김서연</td></tr><tr><th>최고기술책임자</th><td>박준호</td></tr>
<tr><th>고문</th><td>이정민</td></tr><tr><th>투자사</th><td>한빛인베스트먼트</td></tr></table>`,
			[]string{"김서연", "박준호"}, []string{"이정민", "한빛인베스트먼트"}},
	} {
		home := `<html lang="` + c.lang + `"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme.</p><a href="` + c.path + `">?</a></body></html>`
		dr := draftLang(t, c.lang, "/", home, c.path, `<html lang="`+c.lang+`"><head><title>Acme</title></head><body>`+c.body+`</body></html>`)
		got := founderList(dr)
		for _, w := range c.want {
			if !slices.ContainsFunc(dr.Founders, func(f domain.DraftedFounder) bool { return f.Name == w }) {
				t.Errorf("%s: founders %q, want %q among them", c.name, got, w)
			}
		}
		for _, n := range c.not {
			if slices.ContainsFunc(dr.Founders, func(f domain.DraftedFounder) bool { return strings.Contains(f.Name, n) || strings.Contains(n, f.Name) }) {
				t.Errorf("%s: founders %q take %q", c.name, got, n)
			}
		}
	}
}

// TestAnyLanguage36_Location: city and country from addresses in forms the
// address rules did not read: the city before its postcode (Indonesian,
// Thai), the city ending an address without postcode (Hebrew, Vietnamese),
// a Hungarian seat row, a Korean or zh-TW address without postcode or
// country (대전광역시, 台北市). A Taiwanese address on a zh-CN site gives
// no country.
func TestAnyLanguage36_Location(t *testing.T) {
	for _, c := range []struct{ name, lang, body, city, country string }{
		{"Indonesian", "id", `<footer><p>PT Pelanggan Kita Digital · Jl. Braga No. 10, Bandung 40111</p></footer>`, "Bandung", "ID"},
		{"Thai", "th", `<footer><p>บริษัท งานดี จำกัด 99 ถนนนิมมานเหมินท์ ตำบลสุเทพ อำเภอเมือง เชียงใหม่ 50200</p></footer>`, "เชียงใหม่", "TH"},
		{"Hebrew", "he", `<footer><p>פניות בע״מ, רחוב רוטשילד 22, תל אביב</p></footer>`, "תל אביב", "IL"},
		{"Vietnamese", "vi", `<footer><p>Công ty TNHH Sổ Chi Tiêu · Địa chỉ: Tầng 5, 12 Nguyễn Huệ, Quận 1, TP. Hồ Chí Minh</p></footer>`, "Hồ Chí Minh", "VN"},
		{"Hungarian seat row", "hu", `<table><tr><th>Cégnév</th><td>Acme Kft.</td></tr><tr><th>Székhely</th><td>1052 Budapest, Váci utca 8.</td></tr></table>`, "Budapest", "HU"},
		{"Korean", "ko", `<footer><p>주식회사 쏙 | 주소: 대전광역시 유성구 대학로 99 | help@ssok.kr</p></footer>`, "대전광역시", "KR"},
		{"zh-TW", "zh-TW", `<footer><p>課程家股份有限公司｜地址：台北市大安區忠孝東路四段100號8樓</p></footer>`, "台北市", "TW"},
		{"Taiwan on zh-CN", "zh-CN", `<footer><p>课程家有限公司｜地址：台北市大安區忠孝東路四段100號8樓</p></footer>`, "台北市", ""},
	} {
		dr := draftLang(t, c.lang, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme.</p>`+c.body+`</body></html>`)
		if got := dr.Fields["city"].Text; got != c.city {
			t.Errorf("%s: city %q, want %q", c.name, got, c.city)
		}
		if got := dr.Fields["country"].Text; got != c.country {
			t.Errorf("%s: country %q, want %q", c.name, got, c.country)
		}
	}
}

// TestAnyLanguage36_FAQHeadings: a page whose h1 is the FAQ heading in
// Norwegian, Finnish, Romanian, Vietnamese, Indonesian or Hebrew is an FAQ
// page, so its h3 questions and their answers are FAQs; a page of h3
// questions under another heading has none.
func TestAnyLanguage36_FAQHeadings(t *testing.T) {
	for _, c := range []struct{ lang, h1, q, a string }{
		{"nb", "Ofte stilte spørsmål", "Kan jeg koble til banken min?", "Ja, alle store norske banker."},
		{"fi", "Usein kysytyt kysymykset", "Voinko käyttää omaa verkkotunnusta?", "Kyllä, Pro-paketissa."},
		{"ro", "Întrebări frecvente", "Pot lucra fără internet?", "Da, aplicația salvează local."},
		{"vi", "Câu hỏi thường gặp", "Dữ liệu của tôi có được sao lưu không?", "Có, mỗi ngày."},
		{"id", "Pertanyaan yang Sering Diajukan", "Apakah data saya aman?", "Ya, terenkripsi."},
		{"he", "שאלות נפוצות", "האם אפשר לחבר וואטסאפ?", "כן, בכל המסלולים."},
		{"nb", "Nyheter", "Hva er nytt i versjon 2?", "Mørk modus."},
	} {
		page := `<html lang="` + c.lang + `"><head><title>Acme</title></head><body><h1>` + c.h1 + `</h1><h3>` + c.q + `</h3><p>` + c.a + `</p></body></html>`
		home := `<html lang="` + c.lang + `"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme.</p><a href="/x">?</a></body></html>`
		dr := draftLang(t, c.lang, "/", home, "/x", page)
		faq := c.h1 != "Nyheter"
		got := slices.ContainsFunc(dr.FAQs, func(f domain.DraftedFAQ) bool { return f.Question == c.q && f.Answer == c.a })
		if got != faq {
			t.Errorf("%s %q: FAQ %q drafted %v, want %v (FAQs %v)", c.lang, c.h1, c.q, got, faq, dr.FAQs)
		}
	}
}

// TestAnyLanguage36_PlanCards: plan cards and price tables in forints, lei,
// đồng, baht, rupiah and shekels, on pages titled in the site's language
// (/arak "Árak", /preturi "Prețuri", /bang-gia "Bảng giá", /harga "Harga",
// /hinnat "Hinnat", "ราคา", "מחירים"), give the plan names and prices, and
// the gate keeps the pricing model (a zero price in those currencies is a
// free plan; "/ hó", "/tháng", "לחודש" are months). A trial without a free
// plan stays a subscription.
func TestAnyLanguage36_PlanCards(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body, model string
		summary                       []string
	}{
		{"forint", "hu", "/arak", `<h1>Árak</h1><div><h2>Ingyenes</h2><p>0 Ft</p></div><div><h2>Prémium</h2><p>1 490 Ft / hó</p></div>`,
			"freemium", []string{"Ingyenes", "0 Ft", "Prémium", "1 490 Ft"}},
		{"lei", "ro", "/preturi", `<h1>Prețuri</h1><div><h2>Gratuit</h2><p>0 lei</p></div><div><h2>Autor</h2><p>25 lei / lună</p></div>`,
			"freemium", []string{"Gratuit", "0 lei", "Autor", "25 lei"}},
		{"đồng", "vi", "/bang-gia", `<h1>Bảng giá</h1><div><h2>Miễn phí</h2><p>0đ</p></div><div><h2>Gia đình</h2><p>49.000đ/tháng</p></div>`,
			"freemium", []string{"Miễn phí", "0đ", "Gia đình", "49.000đ"}},
		{"baht", "th", "/pricing", `<h1>ราคา</h1><div><h2>ฟรี</h2><p>0 บาท</p></div><div><h2>โปร</h2><p>199 บาท/เดือน</p></div>`,
			"freemium", []string{"ฟรี", "0 บาท", "โปร", "199 บาท"}},
		{"rupiah", "id", "/harga", `<h1>Harga</h1><div><h2>Gratis</h2><p>Rp0</p></div><div><h2>Bisnis</h2><p>Rp99.000/bulan</p></div>`,
			"freemium", []string{"Gratis", "Rp0", "Bisnis", "Rp99.000"}},
		{"shekel, trial", "he", "/pricing", `<h1>מחירים</h1><p>14 ימי ניסיון חינם בכל מסלול.</p><div><h2>בסיסי</h2><p>₪79 לנציג לחודש</p></div><div><h2>עסקי</h2><p>₪149 לנציג לחודש</p></div>`,
			"subscription", []string{"בסיסי", "₪79", "עסקי", "₪149"}},
		{"euro table, Finnish heading", "fi", "/hinnat", `<h1>Hinnat</h1><p>Kaikissa paketeissa 14 päivän ilmainen kokeilu. Ilmaista pakettia ei ole.</p>
<table><tr><th>Paketti</th><th>Hinta</th></tr><tr><td>Perus</td><td>29 € / kk</td></tr><tr><td>Pro</td><td>79 € / kk</td></tr></table>`,
			"subscription", []string{"Perus", "29 €", "Pro", "79 €"}},
	} {
		home := `<html lang="` + c.lang + `"><head><title>Acme</title></head><body><h1>Acme</h1><p>Acme.</p><a href="` + c.path + `">?</a></body></html>`
		title := strings.TrimPrefix(c.body[:strings.Index(c.body, "</h1>")], "<h1>") + " | Acme" // the page's own word for prices
		dr := draftLang(t, c.lang, "/", home, c.path, `<html lang="`+c.lang+`"><head><title>`+title+`</title></head><body>`+c.body+`</body></html>`)
		checkPricing(t, c.name, dr, c.model, c.summary, nil)
	}
}

// TestAnyLanguage36_FoundedYear: the founding year from a founding sentence
// in Norwegian, Finnish, Romanian, Vietnamese, Indonesian or Hebrew, a
// Hungarian or Thai profile row (the common-era year, not the Buddhist
// 2563), and a Korean sentence in which the founders with their titles
// founded the company. A copyright line or a customer's founding is no
// founding year of the product.
func TestAnyLanguage36_FoundedYear(t *testing.T) {
	for _, c := range []struct{ name, lang, body, want string }{
		{"nb", "nb", `<p>Pengeglimt ble grunnlagt i Oslo i 2021 av Ingrid Berg og Lars Haugen.</p>`, "2021"},
		{"fi", "fi", `<p>Yrityksen perustivat vuonna 2019 Aino Virtanen ja Mikko Laine.</p>`, "2019"},
		{"ro", "ro", `<p>Romanier a fost fondată în 2022, la Cluj-Napoca.</p>`, "2022"},
		{"vi", "vi", `<p>Sổ Chi Tiêu được thành lập năm 2021 bởi Nguyễn Minh Anh và Trần Quốc Bảo.</p>`, "2021"},
		{"id", "id", `<p>Pelangganku didirikan pada tahun 2020 oleh Budi Santoso dan Siti Rahmawati.</p>`, "2020"},
		{"he", "he", `<p>החברה הוקמה בשנת 2019 על ידי נועה כהן ואורי לוי.</p>`, "2019"},
		{"hu row", "hu", `<table><tr><th>Cégnév</th><td>Acme Kft.</td></tr><tr><th>Alapítás éve</th><td>2020</td></tr></table>`, "2020"},
		{"th row", "th", `<table><tr><th>ชื่อบริษัท</th><td>บริษัท เอ จำกัด</td></tr><tr><th>ก่อตั้ง</th><td>พ.ศ. 2563 (ค.ศ. 2020)</td></tr></table>`, "2020"},
		{"ko sentence", "ko", `<p>쏙은 2021년 김서연 대표와 박준호 CTO가 함께 창업한 회사입니다.</p>`, "2021"},
		{"id customer", "id", `<p>Toko Maju, pelanggan kami, didirikan pada tahun 1998.</p>`, ""},
		{"ro copyright", "ro", `<footer><p>© 2024 Romanier SRL, fondată în Cluj.</p></footer>`, ""},
	} {
		name := "Acme"
		if c.lang == "id" {
			name = "Pelangganku" // "my customer": the name's word for customer is not a customer
		}
		home := `<html lang="` + c.lang + `"><head><title>` + name + `</title></head><body><h1>` + name + `</h1><p>` + name + `.</p><a href="/about">?</a></body></html>`
		dr := draftLang(t, c.lang, "/", home, "/about", `<html lang="`+c.lang+`"><head><title>`+name+`</title></head><body><h1>`+name+`</h1>`+c.body+`</body></html>`)
		if got := dr.Fields["founded_year"].Text; got != c.want {
			t.Errorf("%s: founded_year %q, want %q", c.name, got, c.want)
		}
	}
}
