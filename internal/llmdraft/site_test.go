package llmdraft_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/internal/fetch"
	"github.com/launchdir/launchdir/internal/llmdraft"
)

// truth is a test site's truth table (the format of domain/extract's).
type truth struct {
	Stated   map[string]json.RawMessage `json:"stated"`
	Founders []struct{ Name string }    `json:"founders"`
	Absent   []string                   `json:"absent"`
	Not      map[string][]string        `json:"not"`
}

// serveDir serves a static site: "/" is index.html, "/about" about.html.
func serveDir(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.Trim(r.URL.Path, "/")
		switch {
		case name == "":
			name = "index.html"
		case name == "robots.txt":
		default:
			name += ".html"
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.Base(name)))
		if err != nil || name == "truth.json" {
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(name, ".html") {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		} else {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		}
		_, _ = w.Write(b)
	})
}

// lineWith is the line of the page's text that contains s, as a quote cut
// from the page.
func lineWith(t *testing.T, p *domain.WebPage, s string) string {
	t.Helper()
	for line := range strings.SplitSeq(p.Text, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	t.Fatalf("%s: no line with %q in:\n%s", p.URL, s, p.Text)
	return ""
}

// recall is the share of the truth's stated scalar and list facts that d has.
func recall(tr truth, d *domain.Drafted) (found, total int) {
	for field, raw := range tr.Stated {
		var want []string
		var one string
		if json.Unmarshal(raw, &one) == nil {
			want = []string{one}
		} else {
			_ = json.Unmarshal(raw, &want)
		}
		v := d.Fields[field]
		have := strings.ToLower(v.Text + "\n" + strings.Join(v.List, "\n"))
		for _, w := range want {
			total++
			if strings.Contains(have, strings.ToLower(w)) {
				found++
			}
		}
	}
	return found, total
}

// TestDrafter_RealSiteWithExtractor runs the whole path on a real local site:
// the fetcher crawls it, the fake model answers with a mix of cut quotes and
// inventions (a copyright year as founding year, a country, a founder, a demo
// video and a stage the site does not state), and the grounded extractor is
// the fallback. The model's inventions are dropped and the gaps filled from
// the extractor, so the result knows at least what the extractor alone knows.
func TestDrafter_RealSiteWithExtractor(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "domain", "extract", "testdata", "sites", "notably") // the extractor's test site and truth table
	var tr truth
	b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(serveDir(dir))
	defer site.Close()
	ctx := context.Background()
	crawl, err := fetch.New(fetch.Options{AllowLoopback: true}).Crawl(ctx, site.URL+"/", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	homePage, aboutPage := crawl.Page(site.URL+"/"), crawl.Page(site.URL+"/about")
	if homePage == nil || aboutPage == nil {
		t.Fatalf("crawl read %d pages, want / and /about", len(crawl.Pages))
	}
	req := domain.DraftRequest{Site: crawl, Stages: []string{"idea", "beta", "launched"},
		Categories: []domain.CategoryChoice{{Slug: "note-taking", Name: "Note-taking"}, {Slug: "crm", Name: "CRM"}}}

	type m = map[string]any
	evq := func(q string, p *domain.WebPage) []m { return []m{{"quote": q, "url": p.URL}} }
	reply := m{
		"fields": []m{
			{"field": "tagline", "text": "Notes that link themselves", "evidence": evq(lineWith(t, homePage, "Notes that link themselves"), homePage)},
			{"field": "founded_year", "text": "2025", "evidence": evq(lineWith(t, homePage, "©"), homePage)},
			{"field": "country", "text": "DE", "evidence": evq("Notably Labs is based in Berlin, Germany.", aboutPage)},
			{"field": "demo_video_url", "text": "https://www.youtube.com/watch?v=notably-demo", "evidence": evq("https://www.youtube.com/watch?v=notably-demo", homePage)},
			{"field": "stage", "text": "beta", "evidence": evq("Notably is now in open beta.", homePage)},
		},
		"founders": []m{{"name": "Jonas Weber", "title": "Co-founder", "bio": "", "socials": []m{},
			"evidence": evq("Jonas Weber, co-founder", aboutPage)}},
	}
	f := newFakeModel(t, fakeReply{content: jsonReply(t, reply)})
	d, err := llmdraft.New(llmdraft.Config{BaseURL: f.URL + "/v1", Model: testModel, APIKey: testKey,
		HTTPClient: f.Client(), Fallback: extract.New()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Draft(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	alone, err := extract.New().Draft(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	alone, _ = domain.Ground(req, alone)

	assertGrounded(t, crawl, got)
	for field, want := range map[string]string{"tagline": "Notes that link themselves", "founded_year": "2020", "country": "PT"} {
		if got.Fields[field].Text != want {
			t.Errorf("%s = %q, want %q", field, got.Fields[field].Text, want)
		}
	}
	for _, field := range tr.Absent {
		if v, ok := got.Fields[field]; ok {
			t.Errorf("%s is not on the site but was drafted: %+v", field, v)
		}
	}
	for field, bad := range tr.Not {
		for _, b := range bad {
			if v := got.Fields[field]; v.Text == b || slices.Contains(v.List, b) {
				t.Errorf("%s = %q is a trap value", field, b)
			}
		}
	}
	var names []string
	for _, fd := range got.Founders {
		names = append(names, fd.Name)
	}
	for _, fd := range tr.Founders {
		if !slices.Contains(names, fd.Name) {
			t.Errorf("founders = %q, want %q among them (from the fallback)", names, fd.Name)
		}
	}
	if slices.Contains(names, "Jonas Weber") || slices.Contains(names, "Maya Lindqvist") {
		t.Errorf("founders = %q: an invented founder or a testimonial survived", names)
	}
	for field := range alone.Fields {
		if _, ok := got.Fields[field]; !ok {
			t.Errorf("%s: the extractor has it, the model drafter lost it", field)
		}
	}
	gf, n := recall(tr, got)
	af, _ := recall(tr, alone)
	t.Logf("recall of stated facts on %s: model+fallback %d/%d, extractor alone %d/%d; %d fields drafted",
		filepath.Base(dir), gf, n, af, n, len(got.Fields))
	if gf < af {
		t.Errorf("recall with the model (%d/%d) is below the extractor's alone (%d/%d)", gf, n, af, n)
	}
}

// TestDrafter_SamePagesAndRules: the model drafter is sent the pages the
// crawler chose (the home page and /sobre of a Portuguese site, not the page
// robots.txt forbids), the site's language and the extractor's rules; a quote
// the model translated is not on the page and is dropped by the gate, the
// verbatim Portuguese one is kept.
func TestDrafter_SamePagesAndRules(t *testing.T) {
	t.Parallel()
	site := httptest.NewServer(serveDir(filepath.Join("..", "..", "domain", "extract", "testdata", "dev", "cadernim")))
	defer site.Close()
	ctx := context.Background()
	crawl, err := fetch.New(fetch.Options{AllowLoopback: true}).Crawl(ctx, site.URL+"/", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	about := crawl.Page(site.URL + "/sobre")
	if about == nil || crawl.Language != "pt" {
		t.Fatalf("crawl read %d pages in %q, want /sobre in pt", len(crawl.Pages), crawl.Language)
	}
	type m = map[string]any
	evq := func(q string) []m { return []m{{"quote": q, "url": about.URL}} }
	f := newFakeModel(t, fakeReply{content: jsonReply(t, m{"fields": []m{
		{"field": "city", "text": "Recife", "evidence": evq("A Cadernim foi fundada em 2022 em Recife, no Brasil, por duas professoras cansadas de cadernos perdidos.")},
		{"field": "founded_year", "text": "2022", "evidence": evq("Cadernim was founded in 2022 in Recife, Brazil.")},
	}})})
	got, err := newDrafter(t, f, nil).Draft(ctx, domain.DraftRequest{Site: crawl})
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	prompt, system := reqs[0].text(len(reqs[0].Messages)-1), reqs[0].text(0)
	for i, p := range crawl.Pages {
		if want := fmt.Sprintf("=== PAGE %d: %s\n", i+1, p.URL); !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks the crawled page %q", want)
		}
	}
	if strings.Contains(prompt, "/rascunhos") || strings.Contains(prompt, "fundada em 2019") {
		t.Error("prompt carries the page robots.txt forbids")
	}
	if !strings.Contains(prompt, "The site's language: pt.") {
		t.Error("prompt does not name the site's language")
	}
	for _, rule := range []string{"never translate a quote", "Impressum", "not the <title>", "stops before the next question and before the footer", "copyright year"} {
		if !strings.Contains(system, rule) {
			t.Errorf("system prompt lacks the rule %q", rule)
		}
	}
	assertGrounded(t, crawl, got)
	if got.Fields["city"].Text != "Recife" {
		t.Errorf("city = %+v, want Recife from the verbatim quote", got.Fields["city"])
	}
	if v, ok := got.Fields["founded_year"]; ok {
		t.Errorf("founded_year %+v kept on a translated quote", v)
	}
}
