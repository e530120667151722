package extract

import "testing"

// TestCJKCity_AfterSeatVerb: a sentence that says where the company sits
// gives the city after its verb, not the words before it.
func TestCJKCity_AfterSeatVerb(t *testing.T) {
	for s, want := range map[string]string{
		"总部位于上海市徐汇区":    "上海市",
		"本社設在台北市大安區":    "台北市",
		"公司于杭州市成立":      "杭州市",
		"大阪府大阪市北区芝田2丁目": "大阪市",
		"台中市西屯區市政北二路":   "台中市",
	} {
		if got := cjkCity(s); got != want {
			t.Errorf("cjkCity(%q) = %q, want %q", s, got, want)
		}
	}
}
