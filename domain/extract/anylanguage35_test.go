package extract_test

import (
	"slices"
	"testing"
)

// TestAnyLanguage35_NewsNoticesAreNoMilestones: in a news list, an entry
// naming a patch release is no milestone even with a <time> ("Phiên bản
// 2.1.3: sửa lỗi"), nor is a maintenance notice ("深夜メンテナンスのお知らせ")
// or an appearance in the media ("テレビ大阪で紹介されました", "featured
// in"); the product's releases beside them are.
func TestAnyLanguage35_NewsNoticesAreNoMilestones(t *testing.T) {
	for _, c := range []struct {
		name, lang, path, body string
		want                   []string
	}{
		{"patch release with <time>", "vi", "/tin-tuc", `<h1>Tin tức</h1><ul>
<li><a href="/tin-tuc/a">Ra mắt chế độ Lớp học cho giáo viên</a><time datetime="2025-02-17">17/02/2025</time></li>
<li><a href="/tin-tuc/b">Phiên bản 2.1.3: sửa lỗi đồng bộ</a><time datetime="2024-12-05">05/12/2024</time></li>
<li><a href="/tin-tuc/c">Mở beta cho tất cả mọi người</a><time datetime="2024-06-01">01/06/2024</time></li></ul>`,
			[]string{"2025-02-17 Ra mắt chế độ Lớp học cho giáo viên", "2024-06-01 Mở beta cho tất cả mọi người"}},
		{"maintenance and TV", "ja", "/news", `<h1>お知らせ</h1><ul>
<li><span class="date">2025.03.10</span><a href="/news/a">AI自動シフト作成機能をリリースしました</a></li>
<li><span class="date">2025.01.15</span><a href="/news/b">1月20日（月）深夜メンテナンスのお知らせ</a></li>
<li><span class="date">2024.07.01</span><a href="/news/c">LINE WORKS連携を開始しました</a></li>
<li><span class="date">2024.05.20</span><a href="/news/d">テレビ大阪「ビジネスの芽」で紹介されました</a></li></ul>`,
			[]string{"2025-03-10 AI自動シフト作成機能をリリースしました", "2024-07-01 LINE WORKS連携を開始しました"}},
		{"scheduled maintenance and featured in", "en", "/news", `<h1>News</h1>
<article><time datetime="2025-03-01">March 1, 2025</time><h2><a href="/news/a">Shared inboxes for teams</a></h2></article>
<article><time datetime="2025-02-10">February 10, 2025</time><h2><a href="/news/b">Scheduled maintenance on February 12</a></h2></article>
<article><time datetime="2024-11-04">November 4, 2024</time><h2><a href="/news/c">Acme featured in TechWeekly</a></h2></article>`,
			[]string{"2025-03-01 Shared inboxes for teams"}},
	} {
		dr := draftPages(t, "/", `<html lang="`+c.lang+`"><head><title>Acme</title></head><body><h1>Acme</h1><a href="`+c.path+`">?</a></body></html>`,
			c.path, `<html lang="`+c.lang+`"><head><title>News</title></head><body>`+c.body+`</body></html>`)
		if got := milestoneList(dr); !slices.Equal(got, c.want) {
			t.Errorf("%s: milestones %q, want %q", c.name, got, c.want)
		}
	}
}
