package extract_test

import (
	"slices"
	"testing"
)

// TestAnyLanguage_FoundingAndCategoryWords: a founding sentence said by the
// team on a team page named in Czech ("Firmu jsme založili v roce 2020") or
// in simplified Chinese ("由A和B于2022年创立") gives the founded year; a
// product whose name is a category's word ("시간표", a timetable) is not
// put in that category by its name, and says its own in Korean and Turkish
// ("근무 시간", "yardım masası").
func TestAnyLanguage_FoundingAndCategoryWords(t *testing.T) {
	for _, c := range []struct {
		name, lang, title, home, path, body, year string
		cats                                      []string
	}{
		{"Czech team page", "cs", "Účetka", `<h1>Účetka</h1><p>Účetnictví pro živnostníky.</p>`, "/tym",
			`<h1>Náš tým</h1><p>Firmu jsme založili v roce 2020 v Praze.</p>`, "2020", nil},
		{"Chinese 创立", "zh", "轻笔记", `<h1>轻笔记</h1><p>多端同步的笔记应用。</p>`, "/about",
			`<h1>关于我们</h1><p>轻笔记由陈晓和刘洋于2022年创立。</p>`, "2022", nil},
		{"Korean name is a category word", "ko", "시간표 - 팀 근무 시간 기록", `<h1>시간표</h1><p>시간표는 출퇴근과 근무 시간을 기록합니다. 시간표로 시작하세요. 시간표 앱.</p>`, "/company",
			`<h1>회사 소개</h1><p>시간표 팀</p>`, "", []string{"Time Tracking"}},
		{"Turkish help desk", "tr", "Destekçi | Yardım masası yazılımı", `<h1>Destekçi</h1><p>Destekçi bir yardım masası yazılımıdır.</p>`, "/kurumsal",
			`<h1>Kurumsal</h1>`, "", []string{"Help Desk"}},
	} {
		head := `<html lang="` + c.lang + `"><head><title>` + c.title + `</title></head><body>`
		dr := draftPages(t, "/", head+c.home+`<a href="`+c.path+`">?</a></body></html>`, c.path, head+c.body+`</body></html>`)
		if got := dr.Fields["founded_year"].Text; got != c.year {
			t.Errorf("%s: founded_year %q, want %q", c.name, got, c.year)
		}
		if got := dr.Fields["categories"].List; c.cats != nil && !slices.Equal(got, c.cats) {
			t.Errorf("%s: categories %q, want %q", c.name, got, c.cats)
		}
	}
}

// TestAnyLanguage_TractionByVerb: a verb of use before a count says whom it
// counts whatever the noun ("korzysta już ponad 3 500 gabinetów", "används
// av över 800 kliniker"): from 1,000 on it is growing, below launched; a
// count without such a verb or a known noun says nothing.
func TestAnyLanguage_TractionByVerb(t *testing.T) {
	for _, c := range []struct{ name, lang, body, want string }{
		{"Polish", "pl", `<p>Z Terminarza korzysta już ponad 3 500 gabinetów w całej Polsce.</p>`, "growing"},
		{"Swedish", "sv", `<p>Acme används av över 800 kliniker.</p>`, "launched"},
		{"Czech", "cs", `<p>Acme využívají přes 2 000 ordinací.</p>`, "growing"},
		{"no verb", "pl", `<p>W bazie jest ponad 3 500 przepisów.</p>`, ""},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1>`+c.body+`</body></html>`)
		if got := dr.Fields["stage"].Text; got != c.want {
			t.Errorf("%s: stage %q, want %q", c.name, got, c.want)
		}
	}
}

// TestAnyLanguage_ProfileTableIsNoRoleCard: in a company-profile table a
// name cell followed by the next row's label is no role card ("대표이사 |
// 박민수", then "공동창업자 | 이서연"): each founder keeps their own row's label.
func TestAnyLanguage_ProfileTableIsNoRoleCard(t *testing.T) {
	dr := draftPages(t, "/", `<html lang="ko"><head><title>Acme</title></head><body><h1>Acme</h1><a href="/company">?</a></body></html>`,
		"/company", `<html lang="ko"><head><title>Acme</title></head><body><h1>회사 소개</h1>
<table><tr><th>회사명</th><td>(주)에이크미</td></tr><tr><th>설립일</th><td>2019년 8월</td></tr><tr><th>대표이사</th><td>박민수</td></tr><tr><th>공동창업자</th><td>이서연</td></tr></table></body></html>`)
	if got, want := founderList(dr), []string{"박민수/대표이사", "이서연/공동창업자"}; !slices.Equal(got, want) {
		t.Errorf("founders %q, want %q", got, want)
	}
}
