package domain_test

import "testing"

// TestGround_CountryFromAddressForm: the gate takes a country from an
// address without postcode or country name when the address's form and
// the site's language name it (a Korean metropolitan city and road, a Han
// city and ward on a zh-TW or ja site, a Hebrew street, a Vietnamese
// district and city, a Thai road, an Indonesian Jalan); a shared postcode
// in Thai, Indonesian, Hebrew or Vietnamese form on a site of that language.
// Refused: a wrong country, a Taiwanese city on a zh-CN site, English (the
// language of many countries), a sentence that is no address.
func TestGround_CountryFromAddressForm(t *testing.T) {
	cases := []struct {
		lang, country, quote string
		keep                 bool
	}{
		{"ko", "KR", "주식회사 쏙 | 주소: 대전광역시 유성구 대학로 99", true},
		{"en", "KR", "대전광역시 유성구 대학로 99", true}, // the form is Korea's alone
		{"ko", "JP", "대전광역시 유성구 대학로 99", false},
		{"zh-TW", "TW", "地址：台北市大安區忠孝東路四段100號8樓", true},
		{"zh-CN", "CN", "地址：台北市大安區忠孝東路四段100號8樓", false}, // a city of Taiwan
		{"zh-CN", "TW", "地址：台北市大安區忠孝東路四段100號8樓", false},
		{"zh", "CN", "上海市徐汇区漕溪北路88号", true},
		{"ja", "JP", "大阪市北区梅田1-2-3", true},
		{"he", "IL", "פניות בע״מ, רחוב רוטשילד 22, תל אביב", true},
		{"en", "IL", "רחוב רוטשילד 22, תל אביב", false},
		{"vi", "VN", "Địa chỉ: Tầng 5, 12 Nguyễn Huệ, Quận 1, TP. Hồ Chí Minh", true},
		{"th", "TH", "99 ถนนนิมมานเหมินท์ ตำบลสุเทพ อำเภอเมือง เชียงใหม่ 50200", true},
		{"id", "ID", "Jl. Braga No. 10, Bandung 40111", true},
		{"id", "ID", "Bandung 40111", true}, // five digits on an Indonesian site
		{"en", "ID", "Bandung 40111", false},
		{"he", "IL", "החברה הוקמה בשנת 2019", false},
		{"vi", "VN", "Sổ Chi Tiêu được thành lập năm 2021", false},
	}
	for _, c := range cases {
		if ok := groundsCountry(c.lang, c.country, c.quote); ok != c.keep {
			t.Errorf("lang %s, %s from %q: kept %v, want %v", c.lang, c.country, c.quote, ok, c.keep)
		}
	}
}
