package extract_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// truth is a site's truth table (testdata/sites/<name>/truth.json and
// testdata/heldout/<name>/truth.json).
type truth struct {
	Kind            string `json:"kind"`
	Language        string `json:"language"` // the home page's language (ISO 639-1); "" is "en"
	RobotsForbidden bool   `json:"robots_forbidden"`
	Charset         string `json:"charset"`
	// Stated maps a profile field to its expected value: a string is the value
	// (case-insensitive; a URL starting with "/" is a suffix); a list is, for a
	// string field, substrings the value must all contain, and for a list field,
	// items that must each be contained in one drafted item (categories: equal,
	// and the first is the primary).
	Stated     map[string]json.RawMessage `json:"stated"`
	FAQs       []string                   `json:"faqs"`
	Founders   []truthFounder             `json:"founders"`
	Socials    map[string]string          `json:"socials"`
	Story      []string                   `json:"story"`
	Milestones []truthMilestone           `json:"milestones"` // a date prefix, or {date, title}
	// Absent lists fields and sections the site does not state.
	Absent []string `json:"absent"`
	// Not lists values that would be traps taken for facts, by field or
	// section (faqs: text no FAQ answer may contain).
	Not map[string][]string `json:"not"`
}

type truthFounder struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

// truthMilestone is a milestone the site states: a date prefix (YYYY,
// YYYY-MM or YYYY-MM-DD), written as a string, or an object with the date
// and a text its title must contain (the dev31 and unseen sets).
type truthMilestone struct {
	Date  string `json:"date"`
	Title string `json:"title"`
}

func (m *truthMilestone) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &m.Date); err == nil {
		return nil
	}
	type plain truthMilestone
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode((*plain)(m))
}

// truthLanguages are the languages a truth table may name, in report order.
var truthLanguages = []string{"en", "de", "fr", "es", "it", "nl", "pt"}

// unseenLanguages are those a truth table of testdata/unseen may
// name: the seven above and languages the extractor has no word lists for.
var unseenLanguages = append(slices.Clip(truthLanguages), "pl", "sv", "cs", "tr", "ja", "ko", "zh")

// truthSections are the parts of a draft beside its fields.
var truthSections = []string{"faqs", "founders", "socials", "story", "milestones"}

var (
	milestoneRE = regexp.MustCompile(`^\d{4}(-\d\d(-\d\d)?)?$`)
	countryRE   = regexp.MustCompile(`^[A-Z]{2}$`)
)

type testSite struct {
	name  string
	dir   string
	truth truth
}

func loadSites(t testing.TB) []testSite   { return loadSet(t, "testdata/sites") }
func loadHeldout(t testing.TB) []testSite { return loadSet(t, "testdata/heldout") }
func loadDev(t testing.TB) []testSite     { return loadSet(t, "testdata/dev") }

// loadDev31 reads the development set in languages without word lists, whose truth may name the
// languages of unseenLanguages too.
func loadDev31(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev31", loadCategories(t), unseenLanguages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// loadDev32 reads the second development set in languages without word
// lists, whose truth may name the languages of unseenLanguages too.
func loadDev32(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/dev32", loadCategories(t), unseenLanguages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// loadUnseen reads the held-out set of sites in any language, whose truth may name the
// languages of unseenLanguages.
func loadUnseen(t testing.TB) []testSite {
	t.Helper()
	sites, err := readSetIn("testdata/unseen", loadCategories(t), unseenLanguages)
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

func loadSet(t testing.TB, root string) []testSite {
	t.Helper()
	sites, err := readSet(root, loadCategories(t))
	if err != nil {
		t.Fatal(err)
	}
	return sites
}

// readSet reads every site directory under root with its truth table, which
// must exist and pass check.
func readSet(root string, cats categoryFile) ([]testSite, error) {
	return readSetIn(root, cats, truthLanguages)
}

// readSetIn is readSet for a set whose truth tables may name langs.
func readSetIn(root string, cats categoryFile, langs []string) ([]testSite, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []testSite
	var errs []error
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(root, e.Name())
		b, err := os.ReadFile(filepath.Join(d, "truth.json"))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: every site needs a truth.json: %w", d, err))
			continue
		}
		tr, err := parseTruthIn(b, cats, langs)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s/truth.json: %w", d, err))
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "index.html")); err != nil {
			errs = append(errs, fmt.Errorf("%s: every site needs an index.html: %w", d, err))
			continue
		}
		out = append(out, testSite{name: e.Name(), dir: d, truth: tr})
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no test sites under %s", root)
	}
	return out, nil
}

// parseTruth decodes a truth table strictly (an unknown key is an error) and checks it.
func parseTruth(b []byte, cats categoryFile) (truth, error) {
	return parseTruthIn(b, cats, truthLanguages)
}

// parseTruthIn is parseTruth for a set whose truth tables may name langs.
func parseTruthIn(b []byte, cats categoryFile, langs []string) (truth, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var tr truth
	if err := dec.Decode(&tr); err != nil {
		return tr, err
	}
	if tr.Language == "" {
		tr.Language = "en"
	}
	return tr, tr.check(cats, langs)
}

// check says what is wrong with a truth table: every key a field or section
// the draft has, every value of the field's type and from its list (stage,
// pricing model, category, country code, platform, story section), nothing
// both stated and absent.
func (tr truth) check(cats categoryFile, langs []string) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	isField := func(f string) bool { return slices.Contains(domain.DraftFieldNames, f) }
	if strings.TrimSpace(tr.Kind) == "" {
		bad("kind: required, say what the site is like")
	}
	if !slices.Contains(langs, tr.Language) {
		bad("language %q: one of %v", tr.Language, langs)
	}
	if tr.RobotsForbidden && (len(tr.Stated) > 0 || len(tr.FAQs)+len(tr.Founders)+len(tr.Socials)+len(tr.Story)+len(tr.Milestones) > 0) {
		bad("robots_forbidden: a site nothing may be read of states nothing")
	}
	for f, raw := range tr.Stated {
		if !isField(f) {
			bad("stated.%s: not a draft field (%v)", f, domain.DraftFieldNames)
			continue
		}
		var s string
		var l []string
		switch {
		case json.Unmarshal(raw, &s) == nil:
			l = []string{s}
		case json.Unmarshal(raw, &l) == nil:
			if len(l) == 0 {
				bad("stated.%s: an empty list states nothing", f)
			}
		default:
			bad("stated.%s: a string or a list of strings, not %s", f, raw)
			continue
		}
		for _, v := range l {
			if strings.TrimSpace(v) == "" {
				bad("stated.%s: an empty value", f)
			}
			switch f {
			case "stage":
				if !slices.Contains(cats.Stages, v) {
					bad("stated.stage %q: one of %v", v, cats.Stages)
				}
			case "pricing_model":
				if _, ok := domain.PricingModels[v]; !ok {
					bad("stated.pricing_model %q: not a pricing model", v)
				}
			case "country":
				if !countryRE.MatchString(v) {
					bad("stated.country %q: an ISO 3166-1 alpha-2 code", v)
				}
			case "categories":
				if !slices.ContainsFunc(cats.Categories, func(c domain.CategoryChoice) bool { return c.Name == v }) {
					bad("stated.categories %q: not in testdata/categories.json", v)
				}
			}
		}
	}
	for _, f := range tr.Absent {
		if !isField(f) && !slices.Contains(truthSections, f) {
			bad("absent.%s: not a draft field or section", f)
		}
		_, stated := tr.Stated[f]
		if stated || (f == "faqs" && len(tr.FAQs) > 0) || (f == "founders" && len(tr.Founders) > 0) ||
			(f == "socials" && len(tr.Socials) > 0) || (f == "story" && len(tr.Story) > 0) || (f == "milestones" && len(tr.Milestones) > 0) {
			bad("absent.%s: also stated", f)
		}
	}
	for f, vs := range tr.Not {
		if !isField(f) && !slices.Contains([]string{"faqs", "founders", "socials", "milestones"}, f) {
			bad("not.%s: not a draft field, faqs, founders, socials or milestones", f)
		}
		if slices.Contains(vs, "") {
			bad("not.%s: an empty trap matches everything", f)
		}
	}
	for p, u := range tr.Socials {
		if !slices.Contains(domain.SocialPlatforms, p) {
			bad("socials.%s: not a platform (%v)", p, domain.SocialPlatforms)
		}
		if !strings.HasPrefix(u, "https://") {
			bad("socials.%s: an https URL", p)
		}
	}
	for _, k := range tr.Story {
		if !slices.Contains(domain.StorySections, k) {
			bad("story %q: one of %v", k, domain.StorySections)
		}
	}
	for i, f := range tr.Founders {
		if strings.TrimSpace(f.Name) == "" {
			bad("founders[%d]: a name", i)
		}
	}
	for _, m := range tr.Milestones {
		if !milestoneRE.MatchString(m.Date) {
			bad("milestones %q: a date prefix YYYY, YYYY-MM or YYYY-MM-DD", m.Date)
		}
	}
	for _, q := range tr.FAQs {
		if strings.TrimSpace(q) == "" {
			bad("faqs: an empty question")
		}
	}
	return errors.Join(errs...)
}

// TestTruthCheck: a malformed truth table is refused with the key and the
// rule, and a held-out site without one fails the set.
func TestTruthCheck(t *testing.T) {
	cats := loadCategories(t)
	good := `{"kind": "k", "stated": {"name": "X"}}`
	if _, err := parseTruth([]byte(good), cats); err != nil {
		t.Fatalf("a good truth table: %v", err)
	}
	for _, c := range []struct{ body, want string }{
		{`{"kind": "k", "stated": {"nmae": "X"}}`, "stated.nmae: not a draft field"},
		{`{"kind": "k", "stated": {"name": 3}}`, "stated.name: a string or a list of strings"},
		{`{"kind": "k", "stated": {"features": []}}`, "stated.features: an empty list"},
		{`{"kind": "k", "stated": {"stage": "Beta"}}`, `stated.stage "Beta"`},
		{`{"kind": "k", "stated": {"pricing_model": "paid"}}`, `stated.pricing_model "paid"`},
		{`{"kind": "k", "stated": {"country": "Germany"}}`, `stated.country "Germany"`},
		{`{"kind": "k", "stated": {"categories": ["Widgets"]}}`, `stated.categories "Widgets"`},
		{`{"kind": "k", "stated": {"city": "Oslo"}, "absent": ["city"]}`, "absent.city: also stated"},
		{`{"kind": "k", "faqs": ["Q?"], "absent": ["faqs"]}`, "absent.faqs: also stated"},
		{`{"kind": "k", "absent": ["logo"]}`, "absent.logo: not a draft field"},
		{`{"kind": "k", "not": {"founded_year": [""]}}`, "not.founded_year: an empty trap"},
		{`{"kind": "k", "socials": {"dribbble": "https://dribbble.com/x"}}`, "socials.dribbble: not a platform"},
		{`{"kind": "k", "story": ["origin"]}`, `story "origin"`},
		{`{"kind": "k", "milestones": ["May 2024"]}`, `milestones "May 2024"`},
		{`{"kind": "k", "language": "sv"}`, `language "sv"`},
		{`{"stated": {}}`, "kind: required"},
		{`{"kind": "k", "robots_forbidden": true, "stated": {"name": "X"}}`, "robots_forbidden"},
		{`{"kind": "k", "lang": "de"}`, `unknown field "lang"`},
	} {
		_, err := parseTruth([]byte(c.body), cats)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.body, err, c.want)
		}
	}

	// the dev31 and unseen sets may name more languages, and a milestone may be an object.
	for _, c := range []struct{ body, want string }{
		{`{"kind": "k", "language": "sv"}`, ""},
		{`{"kind": "k", "language": "xx"}`, `language "xx"`},
		{`{"kind": "k", "milestones": [{"date": "2024-05", "title": "Launch"}], "not": {"milestones": ["v1.0.1"]}}`, ""},
		{`{"kind": "k", "milestones": [{"date": "May 2024", "title": "Launch"}]}`, `milestones "May 2024"`},
		{`{"kind": "k", "milestones": [{"date": "2024", "titel": "Launch"}]}`, `unknown field "titel"`},
		{`{"kind": "k", "not": {"story": ["x"]}}`, "not.story: not a draft field"},
	} {
		_, err := parseTruthIn([]byte(c.body), cats, unseenLanguages)
		if (c.want == "" && err != nil) || (c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want))) {
			t.Errorf("%s (unseen set): error %v, want %q", c.body, err, c.want)
		}
	}
	if sites, err := readSetIn("testdata/unseen", cats, unseenLanguages); err != nil || len(sites) < 15 {
		t.Errorf("testdata/unseen: %d sites, %v; want at least 15 with good truth tables", len(sites), err)
	}

	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a"), 0o755)
	os.MkdirAll(filepath.Join(root, "b"), 0o755)
	os.WriteFile(filepath.Join(root, "a", "index.html"), []byte("<h1>A</h1>"), 0o644)
	os.WriteFile(filepath.Join(root, "a", "truth.json"), []byte(good), 0o644)
	os.WriteFile(filepath.Join(root, "b", "index.html"), []byte("<h1>B</h1>"), 0o644)
	if _, err := readSet(root, cats); err == nil || !strings.Contains(err.Error(), "every site needs a truth.json") {
		t.Errorf("a site without truth.json: %v, want an error", err)
	}
	os.WriteFile(filepath.Join(root, "b", "truth.json"), []byte(`{"kind": "k", "stated": {"name": 1}}`), 0o644)
	if _, err := readSet(root, cats); err == nil || !strings.Contains(err.Error(), "stated.name") {
		t.Errorf("a site with a malformed truth.json: %v, want an error", err)
	}
	os.WriteFile(filepath.Join(root, "b", "truth.json"), []byte(good), 0o644)
	if sites, err := readSet(root, cats); err != nil || len(sites) != 2 || sites[0].truth.Language != "en" {
		t.Errorf("two good sites: %d sites, %v; want 2, language en by default", len(sites), err)
	}
}

// TestRobotsReading: the evaluation's own reading of robots.txt, which judges
// the fetcher's crawl: the group naming launchdirbot wins over "*", the
// longest rule wins, and a page read against the rules is listed.
func TestRobotsReading(t *testing.T) {
	page := func(p string) domain.WebPage { return domain.WebPage{URL: "http://x.test" + p} }
	crawl := &domain.SiteCrawl{Pages: []domain.WebPage{page("/"), page("/pricing"), page("/docs"), page("/docs/api"), page("/app/x")}}
	rules, ok := readRobots("testdata/heldout/clickwell")
	if !ok {
		t.Fatal("clickwell has a robots.txt")
	}
	if got := rules.forbidden(crawl); !slices.Equal(got, []string{"http://x.test/docs", "http://x.test/docs/api", "http://x.test/app/x"}) {
		t.Errorf("clickwell forbids %v", got)
	}
	rules, _ = readRobots("testdata/heldout/nookbase")
	if got := rules.forbidden(crawl); len(got) != len(crawl.Pages) {
		t.Errorf("nookbase forbids launchdirbot everything, the reading forbids %v", got)
	}
	rules = robotsRules{{allow: false, path: "/a"}, {allow: true, path: "/a/b"}}
	if !rules.allows("/a/b/c") || rules.allows("/a/c") || !rules.allows("/b") {
		t.Errorf("longest rule wins: %v", rules)
	}
	if _, ok := readRobots("testdata/heldout/pingward"); ok {
		t.Error("pingward has no robots.txt")
	}
}
