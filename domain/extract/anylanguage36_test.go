package extract_test

import (
	"testing"
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
