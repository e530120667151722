package extract_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/domain/fetch"
)

// truth is a site's truth table (testdata/sites/<name>/truth.json).
type truth struct {
	Kind            string `json:"kind"`
	RobotsForbidden bool   `json:"robots_forbidden"`
	Charset         string `json:"charset"`
	// Stated maps a profile field to its expected value: a string is the value
	// (case-insensitive; a URL starting with "/" is a suffix); a list is, for a
	// string field, substrings the value must all contain, and for a list field,
	// items that must each be contained in one drafted item (categories: equal,
	// and the first is the primary).
	Stated     map[string]json.RawMessage     `json:"stated"`
	FAQs       []string                       `json:"faqs"`
	Founders   []struct{ Name, Title string } `json:"founders"`
	Socials    map[string]string              `json:"socials"`
	Story      []string                       `json:"story"`
	Milestones []string                       `json:"milestones"` // date prefixes
	// Absent lists fields and sections the site does not state.
	Absent []string `json:"absent"`
	// Not lists values that would be traps taken for facts, by field or section.
	Not map[string][]string `json:"not"`
}

type testSite struct {
	name  string
	dir   string
	truth truth
}

func loadSites(t testing.TB) []testSite {
	t.Helper()
	dirs, err := filepath.Glob("testdata/sites/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no test sites under testdata/sites: %v", err)
	}
	var out []testSite
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "truth.json"))
		if err != nil {
			t.Fatalf("%s: every site needs a truth.json: %v", d, err)
		}
		var tr truth
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatalf("%s/truth.json: %v", d, err)
		}
		out = append(out, testSite{name: filepath.Base(d), dir: d, truth: tr})
	}
	return out
}

type categoryFile struct {
	Stages     []string                `json:"stages"`
	Categories []domain.CategoryChoice `json:"categories"`
}

func loadCategories(t testing.TB) categoryFile {
	t.Helper()
	b, err := os.ReadFile("testdata/categories.json")
	if err != nil {
		t.Fatal(err)
	}
	var c categoryFile
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// serveSite serves a site directory the way static hosts do: "/" is
// index.html, "/about" is about.html or about/index.html, robots.txt as is.
func serveSite(dir, charset string) http.Handler {
	if charset == "" {
		charset = "utf-8"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimSuffix(path.Clean("/"+r.URL.Path), "/")
		if p == "/robots.txt" {
			b, err := os.ReadFile(filepath.Join(dir, "robots.txt"))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Write(b)
			return
		}
		for _, c := range []string{p + ".html", p + "/index.html", p} {
			if !strings.HasSuffix(c, ".html") || strings.Contains(c, "truth") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(c)))
			if err == nil {
				w.Header().Set("Content-Type", "text/html; charset="+charset)
				w.Write(b)
				return
			}
		}
		http.NotFound(w, r)
	})
}

// score is what the evaluation counts over the sites.
type score struct {
	facts, found int // stated facts, and those drafted with the expected value
	values       int // values drafted
	ungrounded   int // values whose evidence is not on the crawled page
	invented     int // values where the truth says "not stated" or a trap value
	robotsSites  int
	robotsOK     int
	pages        int
	misses       []string
}

func (s *score) recall() float64 {
	if s.facts == 0 {
		return 0
	}
	return float64(s.found) / float64(s.facts)
}

// crawler reads a test site.
type crawler func(t testing.TB, ts testSite) (*domain.SiteCrawl, error)

// fetched serves the site on loopback and crawls it with the real fetcher.
func fetched(t testing.TB, ts testSite) (*domain.SiteCrawl, error) {
	srv := httptest.NewServer(serveSite(ts.dir, ts.truth.Charset))
	defer srv.Close()
	return fetch.New(fetch.Options{AllowLoopback: true}).Crawl(context.Background(), srv.URL+"/", 0, nil)
}

// evaluate reads every site, drafts it and scores the draft against the truth table.
func evaluate(t testing.TB, sites []testSite, cats categoryFile, read crawler) *score {
	t.Helper()
	sc := &score{}
	d := extract.New()
	for _, ts := range sites {
		crawl, err := read(t, ts)
		if ts.truth.RobotsForbidden {
			sc.robotsSites++
			var ce *domain.CrawlError
			if errors.As(err, &ce) && ce.Reason == domain.CrawlRobots && crawl == nil {
				sc.robotsOK++
			} else {
				sc.misses = append(sc.misses, fmt.Sprintf("%s: robots.txt forbids the site, crawl gave %v, %v", ts.name, crawl, err))
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: crawl: %v", ts.name, err)
		}
		sc.pages += len(crawl.Pages)
		dr, err := d.Draft(context.Background(), domain.DraftRequest{Site: crawl, Categories: cats.Categories, Stages: cats.Stages})
		if err != nil {
			t.Fatalf("%s: draft: %v", ts.name, err)
		}
		scoreDraft(sc, ts, crawl, dr)
	}
	return sc
}

func lower(s string) string { return strings.ToLower(domain.NormalizeSpace(s)) }

func scoreDraft(sc *score, ts testSite, crawl *domain.SiteCrawl, dr *domain.Drafted) {
	miss := func(format string, a ...any) { sc.misses = append(sc.misses, ts.name+": "+fmt.Sprintf(format, a...)) }
	check := func(what string, ev []domain.Evidence) {
		sc.values++
		if err := domain.CheckEvidence(crawl, ev); err != nil {
			sc.ungrounded++
			miss("UNGROUNDED %s: %v", what, err)
		}
	}
	for k, v := range dr.Fields {
		check("field "+k, v.Evidence)
	}
	for _, f := range dr.FAQs {
		check("faq "+f.Question, f.Evidence)
	}
	for _, f := range dr.Founders {
		check("founder "+f.Name, f.Evidence)
	}
	for k, v := range dr.Socials {
		check("social "+k, v.Evidence)
	}
	for k, v := range dr.Story {
		check("story "+k, v.Evidence)
	}
	for _, m := range dr.Milestones {
		check("milestone "+m.Date, m.Evidence)
	}

	fact := func(ok bool, format string, a ...any) {
		sc.facts++
		if ok {
			sc.found++
		} else {
			miss("missed "+format, a...)
		}
	}
	for field, raw := range ts.truth.Stated {
		got := dr.Fields[field]
		var want string
		var wants []string
		if json.Unmarshal(raw, &want) == nil {
			ok := lower(got.Text) == lower(want) || (strings.HasPrefix(want, "/") && strings.HasSuffix(got.Text, want))
			fact(ok, "%s = %q (drafted %q)", field, want, got.Text)
			continue
		}
		if err := json.Unmarshal(raw, &wants); err != nil {
			panic(ts.name + ": bad truth for " + field)
		}
		if !domain.DraftListFields[field] {
			for _, w := range wants {
				fact(strings.Contains(lower(got.Text), lower(w)), "%s contains %q (drafted %q)", field, w, got.Text)
			}
			continue
		}
		for i, w := range wants {
			ok := slices.ContainsFunc(got.List, func(g string) bool {
				if field == "categories" {
					return g == w
				}
				return strings.Contains(lower(g), lower(w))
			})
			fact(ok, "%s item %q (drafted %q)", field, w, got.List)
			if field == "categories" && i == 0 {
				fact(len(got.List) > 0 && got.List[0] == w, "primary category %q (drafted %q)", w, got.List)
			}
		}
	}
	for _, q := range ts.truth.FAQs {
		fact(slices.ContainsFunc(dr.FAQs, func(f domain.DraftedFAQ) bool { return strings.Contains(lower(f.Question), lower(q)) && f.Answer != "" }), "faq %q", q)
	}
	for _, want := range ts.truth.Founders {
		i := slices.IndexFunc(dr.Founders, func(f domain.DraftedFounder) bool { return lower(f.Name) == lower(want.Name) })
		fact(i >= 0, "founder %q (drafted %v)", want.Name, founderNames(dr))
		if want.Title != "" {
			fact(i >= 0 && strings.Contains(lower(dr.Founders[i].Title), lower(want.Title)), "founder %q title %q", want.Name, want.Title)
		}
	}
	for pl, u := range ts.truth.Socials {
		fact(dr.Socials[pl].URL == u, "social %s = %q (drafted %q)", pl, u, dr.Socials[pl].URL)
	}
	for _, k := range ts.truth.Story {
		_, ok := dr.Story[k]
		fact(ok, "story %s", k)
	}
	for _, d := range ts.truth.Milestones {
		fact(slices.ContainsFunc(dr.Milestones, func(m domain.DraftedMilestone) bool { return strings.HasPrefix(m.Date, d) }), "milestone %s", d)
	}

	invent := func(format string, a ...any) {
		sc.invented++
		miss("INVENTED "+format, a...)
	}
	for _, f := range ts.truth.Absent {
		switch f {
		case "faqs":
			if len(dr.FAQs) > 0 {
				invent("faqs %v", dr.FAQs)
			}
		case "founders":
			if len(dr.Founders) > 0 {
				invent("founders %v", founderNames(dr))
			}
		case "socials":
			if len(dr.Socials) > 0 {
				invent("socials %v", dr.Socials)
			}
		case "story":
			if len(dr.Story) > 0 {
				invent("story %v", dr.Story)
			}
		case "milestones":
			if len(dr.Milestones) > 0 {
				invent("milestones %v", dr.Milestones)
			}
		default:
			if v, ok := dr.Fields[f]; ok {
				invent("%s = %q %q (evidence %v)", f, v.Text, v.List, v.Evidence)
			}
		}
	}
	for f, bad := range ts.truth.Not {
		for _, b := range bad {
			var hit bool
			switch f {
			case "founders":
				hit = slices.ContainsFunc(dr.Founders, func(x domain.DraftedFounder) bool { return strings.Contains(lower(x.Name), lower(b)) })
			case "socials":
				for _, l := range dr.Socials {
					hit = hit || l.URL == b
				}
			default:
				v := dr.Fields[f]
				hit = (v.Text != "" && strings.Contains(lower(v.Text), lower(b))) ||
					slices.ContainsFunc(v.List, func(x string) bool { return strings.Contains(lower(x), lower(b)) })
			}
			if hit {
				invent("%s took the trap %q", f, b)
			}
		}
	}
}

func founderNames(dr *domain.Drafted) []string {
	var out []string
	for _, f := range dr.Founders {
		out = append(out, f.Name+" ("+f.Title+")")
	}
	return out
}

// TestEvaluation is the measure over all test sites: no value without
// verbatim evidence, nothing invented where the truth says "not stated", robots.txt
// obeyed, and recall of the stated facts above 70% (the aim is above 80%).
func TestEvaluation(t *testing.T) {
	sites := loadSites(t)
	if len(sites) < 12 {
		t.Errorf("%d test sites, want at least 12", len(sites))
	}
	sc := evaluate(t, sites, loadCategories(t), fetched)
	for _, m := range sc.misses {
		t.Log(m)
	}
	t.Logf("sites %d, pages read %d, values %d, facts %d, found %d, recall %.1f%%, ungrounded %d, invented %d, robots obeyed %d/%d",
		len(sites), sc.pages, sc.values, sc.facts, sc.found, 100*sc.recall(), sc.ungrounded, sc.invented, sc.robotsOK, sc.robotsSites)
	if sc.ungrounded != 0 {
		t.Errorf("%d values have evidence that is not on the site, want 0", sc.ungrounded)
	}
	if sc.invented != 0 {
		t.Errorf("%d values were invented where the truth says not stated, want 0", sc.invented)
	}
	if sc.robotsSites == 0 || sc.robotsOK != sc.robotsSites {
		t.Errorf("robots.txt obeyed on %d of %d forbidding sites, want all", sc.robotsOK, sc.robotsSites)
	}
	if sc.recall() < 0.70 {
		t.Errorf("recall %.1f%%, want at least 70%%", 100*sc.recall())
	}
}

// BenchmarkEvaluation reports the evaluation's numbers (and the time for
// crawling and drafting all sites): go test ./domain/extract -run '^$' -bench .
func BenchmarkEvaluation(b *testing.B) {
	sites := loadSites(b)
	cats := loadCategories(b)
	var sc *score
	for b.Loop() {
		sc = evaluate(b, sites, cats, fetched)
	}
	b.ReportMetric(100*sc.recall(), "recall_%")
	b.ReportMetric(float64(sc.ungrounded), "ungrounded")
	b.ReportMetric(float64(sc.invented), "invented")
	b.ReportMetric(100*float64(sc.robotsOK)/float64(max(sc.robotsSites, 1)), "robots_obeyed_%")
	b.ReportMetric(float64(sc.values), "values")
}
