package extract_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/internal/fetch"
	"github.com/launchdir/launchdir/internal/testtier"
)

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
// index.html, "/about" is about.html or about/index.html, robots.txt and
// *.xml (sitemaps) as they are. "{origin}" in a file is the served origin
// (scheme and host), for the absolute URLs of sitemaps and hreflang links.
func serveSite(dir, charset string) http.Handler {
	if charset == "" {
		charset = "utf-8"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := strings.TrimSuffix(path.Clean("/"+r.URL.Path), "/")
		write := func(ct string, b []byte) {
			w.Header().Set("Content-Type", ct)
			w.Write(withOrigin(b, "http://"+r.Host))
		}
		if p == "/robots.txt" || strings.HasSuffix(p, ".xml") {
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
			if err != nil {
				http.NotFound(w, r)
				return
			}
			write(map[bool]string{true: "text/plain; charset=utf-8", false: "application/xml"}[p == "/robots.txt"], b)
			return
		}
		for _, c := range []string{p + ".html", p + "/index.html", p} {
			if !strings.HasSuffix(c, ".html") || strings.Contains(c, "truth") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(c)))
			if err == nil {
				write("text/html; charset="+charset, b)
				return
			}
		}
		http.NotFound(w, r)
	})
}

// withOrigin puts origin in place of "{origin}" in a site's file.
func withOrigin(b []byte, origin string) []byte {
	return bytes.ReplaceAll(b, []byte("{origin}"), []byte(origin))
}

// score is what the evaluation counts over the sites.
type score struct {
	tally           // stated facts, values filled and right, invented, non-verbatim
	sites       int // sites read or refused
	values      int // values drafted
	ungrounded  int // values whose evidence is not on the crawled page
	robotsSites int // sites with a robots.txt (when the crawl must obey it)
	robotsOK    int // of those, the sites where nothing it forbids was read
	pages       int // pages read
	byLanguage  map[string]*langTally
	byField     map[string]*tally // by draft field or section
	misses      []string
}

// tally counts, for stated facts, how many were found (recall = found /
// facts) and, for drafted values, how many were filled and how many of those
// are right (value accuracy = right / filled). For a field, a value is filled
// when the draft has one for a fact the truth states, and right when it is
// the stated one; for founders and milestones every drafted item is a filled
// value, right when it matches a stated one not already matched (so a
// duplicate, an adviser or a patch release is filled but wrong). invented
// counts values drafted where the truth says "not stated" or names a trap;
// nonVerbatim counts values with a quote that is not verbatim page text.
type tally struct{ facts, found, filled, right, invented, nonVerbatim int }

type langTally struct {
	tally
	sites                 int
	robotsSites, robotsOK int
}

func (t tally) recall() float64 {
	if t.facts == 0 {
		return 0
	}
	return float64(t.found) / float64(t.facts)
}

// accuracy is the share of the filled values that are right.
func (t tally) accuracy() float64 {
	if t.filled == 0 {
		return 0
	}
	return float64(t.right) / float64(t.filled)
}

func newScore() *score {
	return &score{byLanguage: map[string]*langTally{}, byField: map[string]*tally{}}
}

// tallies are the totals, the language's and the field's.
func (s *score) tallies(lang, field string) []*tally {
	if s.byField[field] == nil {
		s.byField[field] = &tally{}
	}
	if s.byLanguage[lang] == nil {
		s.byLanguage[lang] = &langTally{}
	}
	return []*tally{&s.tally, &s.byLanguage[lang].tally, s.byField[field]}
}

// count adds one stated fact of a site in language lang to the totals, the
// language's and the field's: filled says the draft has a value for it, ok
// that the value is the stated one.
func (s *score) count(lang, field string, filled, ok bool) {
	for _, t := range s.tallies(lang, field) {
		t.facts++
		if ok {
			t.found++
		}
		if filled {
			t.filled++
		}
		if ok && filled {
			t.right++
		}
	}
}

// add adds filled values and the right ones among them without facts (the
// items of founders and milestones, judged one by one).
func (s *score) add(lang, field string, filled, right int) {
	for _, t := range s.tallies(lang, field) {
		t.filled += filled
		t.right += right
	}
}

// crawler reads a test site; robots says the reading must obey its robots.txt.
type crawler struct {
	read   func(t testing.TB, ts testSite) (*domain.SiteCrawl, error)
	robots bool
	once   bool // crawl and draft each site once per test binary (draftOnce)
}

// fetched serves the site on loopback and crawls it with the real fetcher.
var fetched = crawler{read: fetchSite, robots: true}

// fetchedOnce is fetched for the tests that read the same sets (sites, dev,
// held-out): TestEvaluation, TestEvaluationDev, TestEvaluationHeldout,
// TestFounders_FoundersOnlyTruth and TestPricing_GroundKeepsPricingAndCategories.
// Each site is crawled and drafted once per test binary (siteDrafts) and the
// tests read the same crawl and draft; the benchmarks keep fetched, which
// crawls and drafts every time it is asked.
var fetchedOnce = crawler{read: fetchSite, robots: true, once: true}

// siteDraft is a site's crawl and its draft with the categories file.
type siteDraft struct {
	crawl    *domain.SiteCrawl
	crawlErr error
	req      domain.DraftRequest
	draft    *domain.Drafted
	draftErr error
}

// siteDrafts holds fetchedOnce's crawls and drafts by site directory. Every
// caller passes loadCategories' file, so the directory names the request.
// The drafter's output depends on its request alone
// (TestName_SharedTitlePartsTieIsDeterministic), and domain.Ground, which each
// test applies, returns a new draft rather than changing the one it reads.
var siteDrafts = struct {
	sync.Mutex
	m map[string]*siteDraft
}{m: map[string]*siteDraft{}}

// draftOnce returns ts's crawl through the real fetcher and its draft,
// made on the first call for ts's directory.
func draftOnce(t testing.TB, ts testSite, cats categoryFile) *siteDraft {
	t.Helper()
	siteDrafts.Lock()
	defer siteDrafts.Unlock()
	if sd, ok := siteDrafts.m[ts.dir]; ok {
		return sd
	}
	sd := &siteDraft{}
	sd.crawl, sd.crawlErr = fetchSite(t, ts)
	if sd.crawlErr == nil {
		sd.req = domain.DraftRequest{Site: sd.crawl, Categories: cats.Categories, Stages: cats.Stages}
		sd.draft, sd.draftErr = extract.New().Draft(context.Background(), sd.req)
	}
	siteDrafts.m[ts.dir] = sd
	return sd
}

func fetchSite(t testing.TB, ts testSite) (*domain.SiteCrawl, error) {
	srv := httptest.NewServer(serveSite(ts.dir, ts.truth.Charset))
	defer srv.Close()
	return fetch.New(fetch.Options{AllowLoopback: true}).Crawl(context.Background(), srv.URL+"/", 0, nil)
}

// evaluate reads every site, drafts it and scores the draft against the truth table.
func evaluate(t testing.TB, sites []testSite, cats categoryFile, c crawler) *score {
	t.Helper()
	sc := newScore()
	d := extract.New()
	for _, ts := range sites {
		sc.sites++
		if sc.byLanguage[ts.truth.Language] == nil {
			sc.byLanguage[ts.truth.Language] = &langTally{}
		}
		sc.byLanguage[ts.truth.Language].sites++
		var crawl *domain.SiteCrawl
		var err error
		var sd *siteDraft
		if c.once {
			sd = draftOnce(t, ts, cats)
			crawl, err = sd.crawl, sd.crawlErr
		} else {
			crawl, err = c.read(t, ts)
		}
		lt := sc.byLanguage[ts.truth.Language]
		if ts.truth.RobotsForbidden {
			sc.robotsSites++
			lt.robotsSites++
			var ce *domain.CrawlError
			if errors.As(err, &ce) && ce.Reason == domain.CrawlRobots && crawl == nil {
				sc.robotsOK++
				lt.robotsOK++
			} else {
				sc.misses = append(sc.misses, fmt.Sprintf("%s: ROBOTS: robots.txt forbids the site, crawl gave %v, %v", ts.name, crawl, err))
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: crawl: %v", ts.name, err)
		}
		if rules, ok := readRobots(ts.dir); ok && c.robots {
			sc.robotsSites++
			lt.robotsSites++
			if bad := rules.forbidden(crawl); len(bad) == 0 {
				sc.robotsOK++
				lt.robotsOK++
			} else {
				sc.misses = append(sc.misses, fmt.Sprintf("%s: ROBOTS: read pages robots.txt forbids: %v", ts.name, bad))
			}
		}
		sc.pages += len(crawl.Pages)
		req := domain.DraftRequest{Site: crawl, Categories: cats.Categories, Stages: cats.Stages}
		var dr *domain.Drafted
		if sd != nil {
			req, dr, err = sd.req, sd.draft, sd.draftErr
		} else {
			dr, err = d.Draft(context.Background(), req)
		}
		if err != nil {
			t.Fatalf("%s: draft: %v", ts.name, err)
		}
		// What a person sees is what the service's gate keeps: a value the
		// gate drops counts as ungrounded, and only the kept ones are scored.
		kept, dropped := domain.Ground(req, dr)
		for _, why := range dropped {
			sc.ungrounded++
			sc.misses = append(sc.misses, fmt.Sprintf("%s: UNGROUNDED (dropped by domain.Ground) %s", ts.name, why))
		}
		scoreDraft(sc, ts, crawl, kept)
	}
	return sc
}

// robotsRules are the rules of a test site's robots.txt that apply to the
// fetcher, read plainly: the group naming fetch.RobotsAgent, else the "*"
// group; a rule is a path prefix, the longest match wins, Allow on a tie (the
// test sites use no wildcards). The fetcher has its own parser; this one is
// the evaluation's independent reading.
type robotsRules []struct {
	allow bool
	path  string
}

func readRobots(dir string) (robotsRules, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "robots.txt"))
	if err != nil {
		return nil, false
	}
	groups := map[string]robotsRules{}
	var agents []string
	inRules := false
	for _, line := range strings.Split(string(b), "\n") {
		line, _, _ = strings.Cut(line, "#")
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		switch k {
		case "user-agent":
			if inRules {
				agents, inRules = nil, false
			}
			agents = append(agents, strings.ToLower(v))
		case "allow", "disallow":
			inRules = true
			for _, a := range agents {
				groups[a] = append(groups[a], robotsRules{{allow: k == "allow", path: v}}...)
			}
		}
	}
	if r, ok := groups[strings.ToLower(fetch.RobotsAgent)]; ok {
		return r, true
	}
	return groups["*"], true
}

// forbidden lists the pages of crawl the rules do not allow.
func (rs robotsRules) forbidden(crawl *domain.SiteCrawl) []string {
	var out []string
	for _, p := range crawl.Pages {
		u, err := url.Parse(p.URL)
		if err != nil || !rs.allows(u.EscapedPath()) {
			out = append(out, p.URL)
		}
	}
	return out
}

// allows says whether the rules let the fetcher read path.
func (rs robotsRules) allows(path string) bool {
	allowed, best := true, -1
	for _, r := range rs {
		if r.path == "" || !strings.HasPrefix(path, r.path) {
			continue
		}
		if len(r.path) > best || (len(r.path) == best && r.allow) {
			allowed, best = r.allow, len(r.path)
		}
	}
	return allowed
}

func lower(s string) string { return strings.ToLower(domain.NormalizeSpace(s)) }

func scoreDraft(sc *score, ts testSite, crawl *domain.SiteCrawl, dr *domain.Drafted) {
	lang := ts.truth.Language
	miss := func(format string, a ...any) { sc.misses = append(sc.misses, ts.name+": "+fmt.Sprintf(format, a...)) }
	reading := verbatimReading{}
	check := func(field, what string, ev []domain.Evidence) {
		sc.values++
		if err := domain.CheckEvidence(crawl, ev); err != nil {
			sc.ungrounded++
			miss("UNGROUNDED %s: %v", what, err)
		}
		// The gate compares quotes with the fetcher's own text of the page;
		// this is an independent reading of the page's HTML (verbatim_test.go).
		if q, ok := reading.allVerbatim(crawl, ev); !ok {
			for _, t := range sc.tallies(lang, field) {
				t.nonVerbatim++
			}
			miss("NON-VERBATIM %s: %q is not verbatim text of %s", what, q.Quote, q.URL)
		}
	}
	for k, v := range dr.Fields {
		check(k, "field "+k, v.Evidence)
	}
	for _, f := range dr.FAQs {
		check("faqs", "faq "+f.Question, f.Evidence)
	}
	for _, f := range dr.Founders {
		check("founders", "founder "+f.Name, f.Evidence)
	}
	for k, v := range dr.Socials {
		check("socials", "social "+k, v.Evidence)
	}
	for k, v := range dr.Story {
		check("story", "story "+k, v.Evidence)
	}
	for _, m := range dr.Milestones {
		check("milestones", "milestone "+m.Date, m.Evidence)
	}

	fact := func(field string, filled, ok bool, format string, a ...any) {
		sc.count(lang, field, filled, ok)
		if !ok {
			what := "missed "
			if filled {
				what = "WRONG "
			}
			miss(what+format, a...)
		}
	}
	for field, raw := range ts.truth.Stated {
		got := dr.Fields[field]
		var want string
		var wants []string
		if json.Unmarshal(raw, &want) == nil {
			ok := lower(got.Text) == lower(want) || (strings.HasPrefix(want, "/") && strings.HasSuffix(got.Text, want))
			fact(field, got.Text != "", ok, "%s = %q (drafted %q)", field, want, got.Text)
			continue
		}
		if err := json.Unmarshal(raw, &wants); err != nil {
			panic(ts.name + ": bad truth for " + field)
		}
		if !domain.DraftListFields[field] {
			for _, w := range wants {
				fact(field, got.Text != "", strings.Contains(lower(got.Text), lower(w)), "%s contains %q (drafted %q)", field, w, got.Text)
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
			fact(field, len(got.List) > 0, ok, "%s item %q (drafted %q)", field, w, got.List)
			if field == "categories" && i == 0 {
				fact("categories (primary)", len(got.List) > 0, len(got.List) > 0 && got.List[0] == w, "primary category %q (drafted %q)", w, got.List)
			}
		}
	}
	// A FAQ is found when its answer stops at its own block: an answer running
	// on into text the truth lists under not.faqs (a footer, the next section)
	// is a wrong answer, counted as missed.
	for _, q := range ts.truth.FAQs {
		i := slices.IndexFunc(dr.FAQs, func(f domain.DraftedFAQ) bool { return strings.Contains(lower(f.Question), lower(q)) && f.Answer != "" })
		runOn := i >= 0 && slices.ContainsFunc(ts.truth.Not["faqs"], func(b string) bool { return strings.Contains(lower(dr.FAQs[i].Answer), lower(b)) })
		fact("faqs", i >= 0, i >= 0 && !runOn, "faq %q%s", q, map[bool]string{true: " (its answer runs on past its block: " + strconv.Quote(faqAnswer(dr, i)) + ")"}[runOn])
	}
	// Founders: recall by stated founder; every drafted founder is a value,
	// right when it is a stated founder not already drafted.
	for _, want := range ts.truth.Founders {
		i := slices.IndexFunc(dr.Founders, func(f domain.DraftedFounder) bool { return lower(f.Name) == lower(want.Name) })
		sc.count(lang, "founders", false, i >= 0)
		if i < 0 {
			miss("missed founder %q (drafted %v)", want.Name, founderNames(dr))
		}
		if want.Title != "" {
			fact("founders (titles)", i >= 0 && dr.Founders[i].Title != "", i >= 0 && strings.Contains(lower(dr.Founders[i].Title), lower(want.Title)), "founder %q title %q (drafted %v)", want.Name, want.Title, founderNames(dr))
		}
	}
	if len(ts.truth.Founders) > 0 {
		matched := make([]bool, len(ts.truth.Founders))
		right := 0
		for _, f := range dr.Founders {
			j := slices.IndexFunc(ts.truth.Founders, func(w truthFounder) bool { return lower(w.Name) == lower(f.Name) })
			if j >= 0 && !matched[j] {
				matched[j] = true
				right++
			} else {
				miss("WRONG founder %q (%s): not a stated founder, or drafted twice", f.Name, f.Title)
			}
		}
		sc.add(lang, "founders", len(dr.Founders), right)
	}
	for pl, u := range ts.truth.Socials {
		fact("socials", dr.Socials[pl].URL != "", dr.Socials[pl].URL == u, "social %s = %q (drafted %q)", pl, u, dr.Socials[pl].URL)
	}
	for _, k := range ts.truth.Story {
		_, ok := dr.Story[k]
		fact("story", ok, ok, "story %s", k)
	}
	// Milestones: recall by stated milestone (its date, and its title when
	// the truth gives one); every drafted milestone is a value, right when it
	// matches a stated one not already matched.
	isMilestone := func(m domain.DraftedMilestone, w truthMilestone) bool {
		return strings.HasPrefix(m.Date, w.Date) && (w.Title == "" || strings.Contains(lower(m.Title), lower(w.Title)))
	}
	for _, w := range ts.truth.Milestones {
		ok := slices.ContainsFunc(dr.Milestones, func(m domain.DraftedMilestone) bool { return isMilestone(m, w) })
		sc.count(lang, "milestones", false, ok)
		if !ok {
			miss("missed milestone %s %q (drafted %v)", w.Date, w.Title, milestoneTitles(dr))
		}
	}
	if len(ts.truth.Milestones) > 0 {
		matched := make([]bool, len(ts.truth.Milestones))
		right := 0
		for _, m := range dr.Milestones {
			j := -1
			for k, w := range ts.truth.Milestones {
				if !matched[k] && isMilestone(m, w) {
					j = k
					break
				}
			}
			if j >= 0 {
				matched[j] = true
				right++
			} else {
				miss("WRONG milestone %s %q: not a stated milestone, or drafted twice", m.Date, m.Title)
			}
		}
		sc.add(lang, "milestones", len(dr.Milestones), right)
	}

	invent := func(field, format string, a ...any) {
		for _, t := range sc.tallies(lang, field) {
			t.invented++
		}
		miss("INVENTED "+format, a...)
	}
	for _, f := range ts.truth.Absent {
		switch f {
		case "faqs":
			if len(dr.FAQs) > 0 {
				invent(f, "faqs %v", dr.FAQs)
			}
		case "founders":
			if len(dr.Founders) > 0 {
				invent(f, "founders %v", founderNames(dr))
			}
		case "socials":
			if len(dr.Socials) > 0 {
				invent(f, "socials %v", dr.Socials)
			}
		case "story":
			if len(dr.Story) > 0 {
				invent(f, "story %v", dr.Story)
			}
		case "milestones":
			if len(dr.Milestones) > 0 {
				invent(f, "milestones %v", milestoneTitles(dr))
			}
		default:
			if v, ok := dr.Fields[f]; ok {
				invent(f, "%s = %q %q (evidence %v)", f, v.Text, v.List, v.Evidence)
			}
		}
	}
	// A value that takes a trap is invented once, however many traps it takes.
	has := func(s string, bad []string) string {
		for _, b := range bad {
			if s != "" && strings.Contains(lower(s), lower(b)) {
				return b
			}
		}
		return ""
	}
	for f, bad := range ts.truth.Not {
		switch f {
		case "founders":
			for _, x := range dr.Founders {
				if b := has(x.Name, bad); b != "" {
					invent(f, "founder %q took the trap %q", x.Name, b)
				}
			}
		case "socials":
			for _, l := range dr.Socials {
				if slices.Contains(bad, l.URL) {
					invent(f, "social %q is a trap", l.URL)
				}
			}
		case "milestones":
			for _, m := range dr.Milestones {
				b := has(m.Date, bad)
				if b == "" {
					b = has(m.Title, bad)
				}
				if b != "" {
					invent(f, "milestone %s %q took the trap %q", m.Date, m.Title, b)
				}
			}
		case "faqs": // counted with the FAQs above
		default:
			v := dr.Fields[f]
			b := has(v.Text, bad)
			for _, x := range v.List {
				if b == "" {
					b = has(x, bad)
				}
			}
			if b != "" {
				invent(f, "%s = %q %q took the trap %q", f, v.Text, v.List, b)
			}
		}
	}
}

func milestoneTitles(dr *domain.Drafted) []string {
	var out []string
	for _, m := range dr.Milestones {
		out = append(out, m.Date+" "+m.Title)
	}
	return out
}

func faqAnswer(dr *domain.Drafted, i int) string {
	if i < 0 {
		return ""
	}
	return dr.FAQs[i].Answer
}

func founderNames(dr *domain.Drafted) []string {
	var out []string
	for _, f := range dr.Founders {
		out = append(out, f.Name+" ("+f.Title+")")
	}
	return out
}

// report is the evaluation's numbers as Markdown: the totals, then recall,
// value accuracy, invented and non-verbatim values per language (with
// robots.txt) and per field or section, weakest recall first.
func (s *score) report(set string) string {
	var b strings.Builder
	robots := "not judged"
	if s.robotsSites > 0 {
		robots = fmt.Sprintf("%d/%d", s.robotsOK, s.robotsSites)
	}
	fmt.Fprintf(&b, "%s: sites %d, pages read %d, values %d, facts %d, found %d, recall %.1f%%, filled %d, right %d, value accuracy %s, ungrounded %d, non-verbatim %d, invented %d, robots obeyed %s\n\n",
		set, s.sites, s.pages, s.values, s.facts, s.found, 100*s.recall(), s.filled, s.right, acc(s.tally), s.ungrounded, s.nonVerbatim, s.invented, robots)
	b.WriteString("| Language | Sites | Facts | Found | Recall | Filled | Right | Value accuracy | Invented | Non-verbatim | robots.txt obeyed |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	langs := slices.Clone(reportLanguages)
	for _, l := range slices.Sorted(maps.Keys(s.byLanguage)) {
		if !slices.Contains(langs, l) {
			langs = append(langs, l) // a dev set's further languages
		}
	}
	for _, l := range langs {
		if t := s.byLanguage[l]; t != nil {
			robots := "-"
			if t.robotsSites > 0 {
				robots = fmt.Sprintf("%d/%d", t.robotsOK, t.robotsSites)
			}
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %s | %d | %d | %s | %d | %d | %s |\n", l, t.sites, t.facts, t.found, pct(t.tally), t.filled, t.right, acc(t.tally), t.invented, t.nonVerbatim, robots)
		}
	}
	fields := slices.Collect(maps.Keys(s.byField))
	slices.SortFunc(fields, func(x, y string) int {
		fx, fy := s.byField[x], s.byField[y]
		if (fx.facts == 0) != (fy.facts == 0) { // fields with only invented values last
			return map[bool]int{true: 1, false: -1}[fx.facts == 0]
		}
		if c := cmp.Compare(fx.recall(), fy.recall()); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	b.WriteString("\n| Field (weakest recall first) | Facts | Found | Recall | Filled | Right | Value accuracy | Invented | Non-verbatim |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range fields {
		t := s.byField[f]
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %d | %d | %s | %d | %d |\n", f, t.facts, t.found, pct(*t), t.filled, t.right, acc(*t), t.invented, t.nonVerbatim)
	}
	return b.String()
}

func pct(t tally) string {
	if t.facts == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*t.recall())
}

func acc(t tally) string {
	if t.filled == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*t.accuracy())
}

// scoreSet evaluates the set name's sites as crawl c reads them, and logs
// the facts it missed and the set's tables per language and per field.
func scoreSet(t *testing.T, name string, sites []testSite, c crawler) *score {
	t.Helper()
	sc := evaluate(t, sites, loadCategories(t), c)
	for _, m := range sc.misses {
		t.Log(m)
	}
	t.Log("\n" + sc.report(name))
	return sc
}

// checkClean fails the test on any value without verbatim evidence, any value
// invented where the truth says "not stated" or a trap value, and any page
// read that robots.txt forbids.
func checkClean(t *testing.T, sc *score) {
	t.Helper()
	if sc.ungrounded != 0 {
		t.Errorf("%d values have evidence that is not on the site, want 0", sc.ungrounded)
	}
	if sc.invented != 0 {
		t.Errorf("%d values were invented where the truth says not stated, want 0", sc.invented)
	}
	if sc.robotsSites == 0 || sc.robotsOK != sc.robotsSites {
		t.Errorf("robots.txt obeyed on %d of %d sites that have one, want all", sc.robotsOK, sc.robotsSites)
	}
}

// TestEvaluation is the measure over the test sites written with the
// extractor: no value without verbatim evidence, nothing invented where the
// truth says "not stated", robots.txt obeyed, and recall of the stated facts
// above 70% (the aim is above 80%).
func TestEvaluation(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadSites(t)
	if len(sites) < 12 {
		t.Errorf("%d test sites, want at least 12", len(sites))
	}
	sc := scoreSet(t, "sites", sites, fetchedOnce)
	checkClean(t, sc)
	if sc.recall() < 0.95 {
		t.Errorf("recall %.1f%%, want at least 95%%", 100*sc.recall())
	}
}

// TestEvaluationDev measures the drafter on the development sites
// (testdata/dev): the sites the rules for the seven languages were written against.
// They must be clean and reach 90% recall; the held-out set measures whether
// the rules carry over to sites they were not written for.
func TestEvaluationDev(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sc := scoreSet(t, "dev", loadDev(t), fetchedOnce)
	checkClean(t, sc)
	if sc.recall() < 0.90 {
		t.Errorf("recall %.1f%%, want at least 90%%", 100*sc.recall())
	}
}

// TestEvaluationDev31 measures the drafter on the development sites in
// languages without word lists (testdata/dev31): languages without word lists, JSON-LD-only facts,
// <noscript> apps, hidden price toggles, footer-only about pages, news and
// changelog lists. They must be clean; recall is held to what was reached.
func TestEvaluationDev31(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadDev31(t)
	if len(sites) < 8 {
		t.Errorf("%d dev31 sites, want at least 8", len(sites))
	}
	sc := scoreSet(t, "dev31", sites, fetched)
	checkClean(t, sc)
	if sc.recall() < dev31MinRecall {
		t.Errorf("recall %.1f%%, want at least %.0f%%", 100*sc.recall(), 100*dev31MinRecall)
	}
}

// TestEvaluationDev32 measures the drafter on the second development set in
// languages without word lists (testdata/dev32): founders in role cards,
// profile tables and about prose, stage stated in many ways, categories in
// the site's own words, milestones in changelogs, news lists and timelines,
// plan names in price tables and JSON-LD offers. They must be clean; recall
// is held to dev32MinRecall.
func TestEvaluationDev32(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadDev32(t)
	if len(sites) < 10 {
		t.Errorf("%d dev32 sites, want at least 10", len(sites))
	}
	sc := scoreSet(t, "dev32", sites, fetched)
	checkClean(t, sc)
	if sc.recall() < dev32MinRecall {
		t.Errorf("recall %.1f%%, want at least %.0f%%", 100*sc.recall(), 100*dev32MinRecall)
	}
}

// dev32MinRecall is the recall TestEvaluationDev32 holds the drafter to
// (it reaches 95.0%).
const dev32MinRecall = 0.93

// dev31MinRecall is the recall TestEvaluationDev31 holds the drafter to
// (it reaches 99.1%).
const dev31MinRecall = 0.95

// TestEvaluationHeldout measures the drafter on the held-out sites
// (testdata/heldout), written before the extractor was changed for
// them: at least 12 sites, every language of truthLanguages, each with a
// well-formed truth table. An ungrounded or invented value or a page
// robots.txt forbids fails it, and so does recall under the goal of
// 90% (it reaches 97.6%; the sites are never edited to keep it).
func TestEvaluationHeldout(t *testing.T) {
	testtier.SkipRace(t, "an evaluation of the drafter over a data set")
	sites := loadHeldout(t)
	if len(sites) < 12 {
		t.Errorf("%d held-out sites, want at least 12", len(sites))
	}
	for _, l := range truthLanguages {
		if !slices.ContainsFunc(sites, func(ts testSite) bool { return ts.truth.Language == l }) {
			t.Errorf("no held-out site in language %s", l)
		}
	}
	sc := scoreSet(t, "heldout", sites, fetchedOnce)
	checkClean(t, sc)
	if sc.recall() < 0.90 {
		t.Errorf("recall %.1f%%, want at least 90%%", 100*sc.recall())
	}
}

// BenchmarkEvaluation reports the evaluation's numbers for the old set, the
// held-out sets and the development set (and the time for crawling and drafting all their sites),
// with the tables per language and per field in its log:
// go test ./domain/extract -run '^$' -bench . -benchtime 5x
func BenchmarkEvaluation(b *testing.B) {
	cats := loadCategories(b)
	for _, set := range []struct {
		name  string
		sites []testSite
	}{{"sites", loadSites(b)}, {"heldout", loadHeldout(b)}, {"dev", loadDev(b)}, {"dev31", loadDev31(b)}, {"dev32", loadDev32(b)}, {"dev33", loadDev33(b)}, {"dev34", loadDev34(b)}, {"unseen", loadUnseen(b)}} {
		b.Run(set.name, func(b *testing.B) {
			var sc *score
			for b.Loop() {
				sc = evaluate(b, set.sites, cats, fetched)
			}
			b.ReportMetric(100*sc.recall(), "recall_%")
			b.ReportMetric(100*sc.accuracy(), "accuracy_%")
			b.ReportMetric(float64(sc.nonVerbatim), "nonverbatim")
			b.ReportMetric(float64(sc.ungrounded), "ungrounded")
			b.ReportMetric(float64(sc.invented), "invented")
			b.ReportMetric(100*float64(sc.robotsOK)/float64(max(sc.robotsSites, 1)), "robots_obeyed_%")
			b.ReportMetric(float64(sc.values), "values")
			b.Log("\n" + sc.report(set.name))
		})
	}
}
