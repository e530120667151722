package extract

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

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

// f31DatedHeadings reports whether a page is a changelog by its structure
// whatever it is called ("What changed", "Co nowego"): at least two of its
// headings below the title carry a date, or sit over a line that is one.
func f31DatedHeadings(p *page) bool {
	// The home page's dated teasers are its blog's, not a changelog.
	if p.kind == kindBlog || p.kind == kindPricing || p.kind == kindHome {
		return false
	}
	n := 0
	for _, seg := range p.segs {
		if seg.level < 2 || seg.foreign {
			continue
		}
		if _, _, ok := findDate(seg.title, false); ok {
			n++
		} else if _, _, _, ok := f4DateUnderHeading(seg); ok {
			n++
		}
	}
	return n >= 2
}

// f31Version is a version tag opening a changelog title ("v2.0 — Route
// library", "1.4:"): the rest is the title. A patch release ("v1.4.1") with
// no title of its own is not a milestone.
var (
	f31Version = regexp.MustCompile(`^(?i:v(?:ersion|ersão|ersión|erze|ersiyon)?\.?\s?)?(\d+)\.(\d+)(?:\.(\d+))?\b\s*(?:[—–:|·-]\s*)?`)
)

// f31MilestoneTitle strips a version tag from a title; ok is false for a
// patch release or a title that is only a version.
func f31MilestoneTitle(title string) (string, bool) {
	m := f31Version.FindStringSubmatchIndex(title)
	if m == nil {
		return title, true
	}
	rest := strings.TrimSpace(title[m[1]:])
	patch := m[6] >= 0 && strings.Trim(title[m[6]:m[7]], "0") != ""
	if rest == "" {
		return title, !patch
	}
	return rest, !patch
}

// f31DatedEntries reads a news or announcements list by its structure:
// articles or list items each holding a <time> and a heading (or the link
// to the post). Two or more make a dated list; each is a milestone, dated by
// the time's datetime (or its text), quoted by the time's text, which states
// the year. A blog's list of posts is not a company's history.
func f31DatedEntries(p *page) []domain.DraftedMilestone {
	if p.kind == kindBlog || p.kind == kindHome || strings.Contains(strings.ToLower(p.base.Path), "blog") {
		return nil
	}
	var out []domain.DraftedMilestone
	forEach(p.doc, false, func(n *html.Node) bool {
		if n.DataAtom != atom.Article && n.DataAtom != atom.Li || foreign(n) {
			return true
		}
		var tm, head *html.Node
		forEach(n, false, func(c *html.Node) bool {
			switch {
			case c.DataAtom == atom.Time && tm == nil:
				tm = c
			case headingLevel[c.DataAtom] > 0 && head == nil:
				head = c
			}
			return true
		})
		if tm == nil || head == nil {
			return true
		}
		if f4Under(tm, head) {
			return false // a dated heading: the changelog rules read it with the text under it
		}
		text, title := nodeText(tm), nodeText(head)
		date := ""
		if dt := strings.TrimSpace(attr(tm, "datetime")); isoDay.MatchString(dt) {
			date = dt[:10]
		} else if d, _, ok := findDate(text, false); ok {
			date = d
		}
		if date == "" || !strings.Contains(text, date[:4]) || title == "" {
			return false
		}
		if t, ok := f31MilestoneTitle(title); ok {
			out = append(out, domain.DraftedMilestone{Milestone: domain.Milestone{Date: date, Title: truncate(t, 200)},
				Evidence: []domain.Evidence{p.ev(text), p.ev(title)}})
		}
		return false
	})
	if len(out) < 2 {
		return nil
	}
	return out
}

var isoDay = regexp.MustCompile(`^(?:19|20)\d\d-\d\d-\d\d`)
