package extract

import (
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/launchdir/launchdir/domain"
)

// textWords counts the words of s as a reader would: fields between spaces,
// and in scripts written without spaces (Han, Hiragana, Katakana) about one
// word for every two characters, so that "キンタイは小さな会社のためのクラウド勤怠管理サービスです。"
// is a sentence of many words, not one.
func textWords(s string) int {
	n := 0
	for _, f := range strings.Fields(s) {
		cjk := 0
		for _, r := range f {
			if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) {
				cjk++
			}
		}
		n += max(1, (cjk+1)/2)
	}
	return n
}

// ldApp reports whether a JSON-LD object describes the product itself.
func ldApp(o map[string]any) bool {
	return hasType(o, "SoftwareApplication", "WebApplication", "MobileApplication", "Product", "Service", "SoftwareSourceCode")
}

// f31LDFeatures: the product's JSON-LD featureList (a list, or one string of
// items separated by commas or new lines), when no page lists its features.
func (s *site) f31LDFeatures() domain.DraftedValue {
	var v domain.DraftedValue
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !ldApp(o) {
				continue
			}
			for _, f := range ldStrings(o, "featureList") {
				items := []string{f}
				if strings.ContainsAny(f, ",\n;") {
					items = strings.FieldsFunc(f, func(r rune) bool { return r == ',' || r == ';' || r == '\n' })
				}
				for _, it := range items {
					if it = strings.TrimSpace(it); it != "" && textWords(it) <= 12 {
						v.List = append(v.List, it)
					}
				}
				v.Evidence = append(v.Evidence, p.ev(f))
			}
		}
		if len(v.List) > 0 {
			return v
		}
	}
	return domain.DraftedValue{}
}

// f31LDOffers: a pricing summary from the product's JSON-LD offers when no
// page shows plans: "Bas: 99 SEK; Plus: 199 SEK". Each part is quoted as the
// data states it (the offer's name, its price, its currency).
func (s *site) f31LDOffers() domain.DraftedValue {
	var v domain.DraftedValue
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !ldApp(o) {
				continue
			}
			for _, off := range ldObjects(o, "offers") {
				price, cur := ldNumber(off, "price"), ldString(off, "priceCurrency")
				if price == "" {
					if hi := ldNumber(off, "highPrice"); hi != "" && hi != "0" {
						price = hi
					}
				}
				if price == "" || cur == "" || strings.Trim(price, "0.,") == "" {
					continue
				}
				part := price + " " + cur
				v.Evidence = append(v.Evidence, p.ev(price), p.ev(cur))
				if n := ldString(off, "name"); n != "" && len(n) <= 40 {
					part = n + ": " + part
					v.Evidence = append(v.Evidence, p.ev(n))
				}
				if v.Text != "" {
					v.Text += "; "
				}
				v.Text += part
			}
		}
		if v.Text != "" {
			return v
		}
	}
	return domain.DraftedValue{}
}

// ldNumber is a JSON-LD value that may be written as a string ("99") or a
// number (99), as page data holds it.
func ldNumber(o map[string]any, key string) string {
	switch n := o[key].(type) {
	case string:
		return domain.NormalizeSpace(n)
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	}
	return ""
}

// ldAppCategories maps Schema.org's applicationCategory values to names of
// the directory's category tree; a type that says too little
// (BusinessApplication, UtilitiesApplication) maps to nothing.
var ldAppCategories = map[string]string{
	"financeapplication": "Finance", "designapplication": "Design", "developerapplication": "Developer Tools",
	"educationalapplication": "Education", "educationapplication": "Education",
}

// f31LDCategory: the primary category from the product's JSON-LD
// applicationCategory, when the site's words named none.
func (s *site) f31LDCategory() {
	for _, p := range s.content() {
		for _, o := range p.ld {
			if !ldApp(o) {
				continue
			}
			for _, c := range ldStrings(o, "applicationCategory") {
				key := strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(c, "https://schema.org/"), "http://schema.org/"))
				name := ldAppCategories[key]
				if name != "" && slices.ContainsFunc(s.req.Categories, func(k domain.CategoryChoice) bool { return k.Name == name }) {
					s.set("categories", domain.DraftedValue{List: []string{name}, Evidence: []domain.Evidence{p.ev(c)}})
					return
				}
			}
		}
	}
}
