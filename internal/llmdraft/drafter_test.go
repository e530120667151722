package llmdraft_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/llmdraft"
)

func newDrafter(t *testing.T, f *fakeModel, fallback domain.Drafter) *llmdraft.Drafter {
	t.Helper()
	d, err := llmdraft.New(llmdraft.Config{
		BaseURL: f.URL + "/v1", Model: testModel, APIKey: testKey,
		HTTPClient: f.Client(), Fallback: fallback,
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// mixedReply is what a careless model answers about acmeSite: grounded values
// with quotes cut from the pages, and invented ones of every kind the gate
// must catch.
func mixedReply() map[string]any {
	type m = map[string]any
	return m{
		"fields": []m{
			// Grounded.
			{"field": "name", "text": "Acme Notes", "evidence": ev("Acme Notes turns every meeting into searchable notes with action items.", home)},
			{"field": "tagline", "text": "Meeting notes your team will actually read.", "evidence": ev("Meeting notes your team will actually read.", home)},
			{"field": "pricing_summary", "text": "Free for up to 3 users; Team $8 per user per month, billed annually.", "evidence": []m{
				{"quote": "Up to 3 users, free forever", "url": pricing},
				{"quote": "$8 per user per month, billed annually", "url": pricing},
			}},
			{"field": "pricing_model", "text": "Freemium", "evidence": ev("Up to 3 users, free forever", pricing)},
			{"field": "features", "list": []string{"Real-time collaborative editing", "Automatic action items"}, "evidence": []m{
				{"quote": "Real-time collaborative editing", "url": home},
				{"quote": "Automatic action items", "url": home},
			}},
			// The quote spans two text blocks; it is on the page once lines are joined.
			{"field": "city", "text": "Lisbon", "evidence": ev("About Acme Acme Labs is based in Lisbon, Portugal.", about)},
			{"field": "country", "text": "Portugal", "evidence": ev("Acme Labs is based in Lisbon,   Portugal.", about)},
			{"field": "contact_email", "text": "mailto:hello@acme.example", "evidence": ev("mailto:hello@acme.example", home)},
			{"field": "logo_url", "text": "https://acme.example/logo.png", "evidence": ev("https://acme.example/logo.png", home)},
			{"field": "categories", "list": []string{"note taking", "Crypto Wallets"}, "evidence": ev("searchable notes", home)},
			{"field": "stage", "text": "beta", "evidence": ev("Now in open beta.", home)},
			// Invented: the only year on the site is its copyright line.
			{"field": "founded_year", "text": "2024", "evidence": ev("© 2024 Acme Labs, Inc. All rights reserved.", home)},
			// Invented: a quote that is not on the page.
			{"field": "short_description", "text": "Acme Notes is the leading AI meeting assistant used by 10,000 teams.",
				"evidence": ev("Acme Notes is the leading AI meeting assistant used by 10,000 teams.", home)},
			// Invented: a real quote attributed to the wrong page.
			{"field": "tags", "list": []string{"Automatic action items"}, "evidence": ev("Automatic action items", about)},
			// Invented: one of two quotes is not on the site.
			{"field": "usps", "list": []string{"Search across every meeting", "Saves 5 hours a week"}, "evidence": []m{
				{"quote": "Search across every meeting", "url": home},
				{"quote": "Saves 5 hours a week", "url": home},
			}},
			// Invented: the quote is real but does not contain the value.
			{"field": "keywords", "list": []string{"AI meeting assistant"}, "evidence": ev("Search across every meeting", home)},
			// Invented: no evidence at all.
			{"field": "description", "text": "Acme Notes is loved by thousands of teams worldwide.", "evidence": []m{}},
		},
		"faqs": []m{
			{"question": "Is there a free plan?", "answer": "Yes. The Free plan covers up to 3 users.", "evidence": []m{
				{"quote": "Is there a free plan?", "url": faq},
				{"quote": "Yes. The Free plan covers up to 3 users.", "url": faq},
			}},
			{"question": "Is Acme Notes SOC 2 certified?", "answer": "Yes, since 2023.", "evidence": ev("Is Acme Notes SOC 2 certified?", faq)},
		},
		"founders": []m{
			{"name": "Maria Silva", "title": "Co-founder and CEO", "bio": "Previously led product at a note-taking startup.",
				"socials": []m{
					{"platform": "linkedin", "url": "https://www.linkedin.com/in/maria-silva"},
					{"platform": "x", "url": "https://twitter.com/mariasilva"}, // not on the site
				},
				"evidence": ev("Maria Silva, co-founder and CEO, previously led product at a note-taking startup.", about)},
			{"name": "John Carter", "title": "Co-founder and CTO", "bio": "", "socials": []m{},
				"evidence": ev("John Carter, co-founder and CTO", about)},
		},
		"socials": []m{
			{"platform": "x", "url": "https://twitter.com/acmenotes", "evidence": ev("https://twitter.com/acmenotes", home)},
			{"platform": "github", "url": "https://github.com/acmenotes", "evidence": ev("https://github.com/acmenotes", home)},
			{"platform": "facebook", "url": "https://facebook.com/acmenotes", "evidence": ev("https://facebook.com/acmenotes", home)},
		},
		"story": []m{
			{"section": "why_started", "text": "Our own meetings went nowhere.", "evidence": ev("We started Acme Notes because our own meetings went nowhere.", about)},
			{"section": "achievements", "text": "One million users.", "evidence": ev("We reached 1 million users.", about)},
		},
		"milestones": []m{
			{"date": "2023-03-01", "title": "Public beta launched", "description": "", "url": "",
				"evidence": ev("March 2023: Acme Notes public beta launched.", about)},
			{"date": "2021-06-01", "title": "Seed round", "description": "Raised $2M.", "url": "",
				"evidence": ev("June 2021: raised a $2M seed round.", about)},
		},
	}
}

func TestDrafter_KeepsOnlyGroundedValues(t *testing.T) {
	t.Parallel()
	f := newFakeModel(t, fakeReply{content: jsonReply(t, mixedReply())})
	req := acmeRequest()
	got, err := newDrafter(t, f, nil).Draft(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}

	wantFields := []string{"categories", "city", "contact_email", "country", "features", "logo_url", "name",
		"pricing_model", "pricing_summary", "stage", "tagline"}
	if keys := sortedKeys(got.Fields); !slices.Equal(keys, wantFields) {
		t.Errorf("fields kept = %v\nwant %v", keys, wantFields)
	}
	checks := map[string]string{
		"name": "Acme Notes", "country": "PT", "pricing_model": "freemium", "stage": "beta",
		"contact_email": "hello@acme.example", "city": "Lisbon",
	}
	for k, want := range checks {
		if got.Fields[k].Text != want {
			t.Errorf("%s = %q, want %q", k, got.Fields[k].Text, want)
		}
	}
	if c := got.Fields["categories"].List; !slices.Equal(c, []string{"Note Taking"}) {
		t.Errorf("categories = %q, want only the list's name [Note Taking]", c)
	}
	for _, invented := range []string{"founded_year", "short_description", "tags", "usps", "keywords", "description"} {
		if v, ok := got.Fields[invented]; ok {
			t.Errorf("invented %s survived: %+v", invented, v)
		}
	}

	if len(got.FAQs) != 1 || got.FAQs[0].Question != "Is there a free plan?" {
		t.Errorf("faqs = %+v, want only the one the site publishes", got.FAQs)
	}
	if len(got.Founders) != 1 || got.Founders[0].Name != "Maria Silva" {
		t.Fatalf("founders = %+v, want only Maria Silva", got.Founders)
	}
	if s := got.Founders[0].Socials; len(s) != 1 || s["linkedin"] != "https://www.linkedin.com/in/maria-silva" {
		t.Errorf("founder socials = %v, want only the linkedin link the site has", s)
	}
	if keys := sortedKeys(got.Socials); !slices.Equal(keys, []string{"github", "x"}) {
		t.Errorf("company socials = %v, want [github x]", keys)
	}
	if keys := sortedKeys(got.Story); !slices.Equal(keys, []string{"why_started"}) {
		t.Errorf("story = %v, want [why_started]", keys)
	}
	if len(got.Milestones) != 1 || got.Milestones[0].Date != "2023-03-01" {
		t.Errorf("milestones = %+v, want the 2023 beta only", got.Milestones)
	}

	// Whatever survived is grounded: every quote is on the page it names.
	assertGrounded(t, req.Site, got)
}

// assertGrounded fails for any value of d with evidence that is not on site.
func assertGrounded(t *testing.T, site *domain.SiteCrawl, d *domain.Drafted) {
	t.Helper()
	check := func(what string, e []domain.Evidence) {
		if err := domain.CheckEvidence(site, e); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	for k, v := range d.Fields {
		check(k, v.Evidence)
	}
	for i, x := range d.FAQs {
		check(fmt.Sprint("faq ", i), x.Evidence)
	}
	for i, x := range d.Founders {
		check(fmt.Sprint("founder ", i), x.Evidence)
	}
	for k, x := range d.Socials {
		check("social "+k, x.Evidence)
	}
	for k, x := range d.Story {
		check("story "+k, x.Evidence)
	}
	for i, x := range d.Milestones {
		check(fmt.Sprint("milestone ", i), x.Evidence)
	}
}

func TestDrafter_RequestCarriesSiteAndSchema(t *testing.T) {
	t.Parallel()
	f := newFakeModel(t, fakeReply{content: `{"fields": []}`})
	if _, err := newDrafter(t, f, nil).Draft(context.Background(), acmeRequest()); err != nil {
		t.Fatal(err)
	}
	reqs := f.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.ResponseFormat.Type != "json_schema" || !r.ResponseFormat.JSONSchema.Strict {
		t.Errorf("response_format = %+v, want a strict json_schema", r.ResponseFormat)
	}
	props, _ := r.ResponseFormat.JSONSchema.Schema["properties"].(map[string]any)
	if keys := sortedKeys(props); !slices.Equal(keys, []string{"faqs", "fields", "founders", "milestones", "socials", "story"}) {
		t.Errorf("schema properties = %v", keys)
	}
	user := r.text(len(r.Messages) - 1)
	for _, want := range []string{
		pricing, "$8 per user per month, billed annually", // every page with its text
		"https://www.linkedin.com/in/maria-silva", // data strings (link targets)
		"Note Taking (under Productivity)",        // the category list
		"idea, beta, launched, growth",            // the stage slugs
		"founded_year",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if sys := r.text(0); !strings.Contains(sys, "Never invent") {
		t.Errorf("system prompt does not forbid inventing: %q", sys)
	}
}

// fixedDrafter stands in for the grounded extractor (domain/extract): it
// proposes what an extractor would cut from acmeSite, plus one ungrounded
// value to show that fallback output passes the same gate.
type fixedDrafter struct {
	d   *domain.Drafted
	got []domain.DraftRequest
}

func (f *fixedDrafter) Draft(_ context.Context, req domain.DraftRequest) (*domain.Drafted, error) {
	f.got = append(f.got, req)
	return f.d, nil
}

func TestDrafter_FallbackFillsGaps(t *testing.T) {
	t.Parallel()
	type m = map[string]any
	f := newFakeModel(t, fakeReply{content: jsonReply(t, m{
		"fields": []m{
			{"field": "name", "text": "Acme Notes", "evidence": ev("Acme Notes turns every meeting into searchable notes with action items.", home)},
			{"field": "founded_year", "text": "2019", "evidence": ev("Acme was founded in 2019.", about)},
		},
		"founders": []m{{"name": "John Carter", "title": "CTO", "evidence": ev("John Carter, CTO", about)}},
		"socials":  []m{{"platform": "x", "url": "https://twitter.com/acmenotes", "evidence": ev("https://twitter.com/acmenotes", home)}},
	})})
	e := func(q, u string) []domain.Evidence { return []domain.Evidence{{Quote: q, URL: u}} }
	fb := &fixedDrafter{d: &domain.Drafted{
		Fields: map[string]domain.DraftedValue{
			"name":              {Text: "Acme", Evidence: e("About Acme", about)},
			"short_description": {Text: "Acme Notes turns every meeting into searchable notes with action items.", Evidence: e("Acme Notes turns every meeting into searchable notes with action items.", home)},
			"pricing_model":     {Text: "subscription", Evidence: e("$8 per user per month, billed annually", pricing)},
			"country":           {Text: "ES", Evidence: e("Acme Labs is based in Madrid, Spain.", about)}, // not on the site
		},
		FAQs: []domain.DraftedFAQ{{FAQ: domain.FAQ{Question: "Does Acme Notes work with Zoom?", Answer: "Yes, Acme Notes joins Zoom and Google Meet calls."},
			Evidence: e("Does Acme Notes work with Zoom?", faq)}},
		Founders: []domain.DraftedFounder{{Name: "Maria Silva", Title: "co-founder and CEO",
			Evidence: e("Maria Silva, co-founder and CEO", about)}},
		Socials: map[string]domain.DraftedLink{
			"x":        {URL: "https://x.com/other", Evidence: e("https://x.com/other", home)},
			"linkedin": {URL: "https://www.linkedin.com/company/acme-labs", Evidence: e("https://www.linkedin.com/company/acme-labs", about)},
		},
	}}
	req := acmeRequest()
	got, err := newDrafter(t, f, fb).Draft(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(fb.got) != 1 || fb.got[0].Site != req.Site {
		t.Errorf("fallback called %d times (want 1, with the same site)", len(fb.got))
	}
	if keys := sortedKeys(got.Fields); !slices.Equal(keys, []string{"name", "pricing_model", "short_description"}) {
		t.Errorf("fields = %v, want the model's name and the fallback's short_description and pricing_model", keys)
	}
	if got.Fields["name"].Text != "Acme Notes" {
		t.Errorf("name = %q: the model's grounded value must win over the fallback's", got.Fields["name"].Text)
	}
	if _, ok := got.Fields["founded_year"]; ok {
		t.Error("the model's invented founded_year survived")
	}
	if _, ok := got.Fields["country"]; ok {
		t.Error("the fallback's ungrounded country survived")
	}
	if len(got.FAQs) != 1 || len(got.Founders) != 1 || got.Founders[0].Name != "Maria Silva" {
		t.Errorf("faqs = %+v, founders = %+v: want the fallback's, the model's fake founder gone", got.FAQs, got.Founders)
	}
	if got.Socials["x"].URL != "https://twitter.com/acmenotes" || got.Socials["linkedin"].URL == "" {
		t.Errorf("socials = %+v, want the model's x and the fallback's linkedin", got.Socials)
	}
	assertGrounded(t, req.Site, got)
}

func TestDrafter_InvalidJSON(t *testing.T) {
	t.Parallel()
	valid := "```json\n" + jsonReply(t, map[string]any{"fields": []map[string]any{
		{"field": "tagline", "text": "Meeting notes your team will actually read.", "evidence": ev("Meeting notes your team will actually read.", home)},
	}}) + "\n```"

	t.Run("RetriedOnce", func(t *testing.T) {
		t.Parallel()
		f := newFakeModel(t, fakeReply{content: `Sure! Here is the profile: {"fields": [{"field": "name",`}, fakeReply{content: valid})
		got, err := newDrafter(t, f, nil).Draft(context.Background(), acmeRequest())
		if err != nil {
			t.Fatal(err)
		}
		if n := len(f.Requests()); n != 2 {
			t.Errorf("%d requests, want 2 (one retry)", n)
		}
		if got.Fields["tagline"].Text == "" {
			t.Errorf("fenced JSON of the retry not used: %+v", got.Fields)
		}
		second := f.Requests()[1]
		if last := second.text(len(second.Messages) - 1); !strings.Contains(last, "not a valid JSON object") {
			t.Errorf("the retry does not tell the model what was wrong: %q", last)
		}
	})
	t.Run("TwiceIsAnError", func(t *testing.T) {
		t.Parallel()
		f := newFakeModel(t, fakeReply{content: "I cannot help with that."})
		_, err := newDrafter(t, f, nil).Draft(context.Background(), acmeRequest())
		if !errors.Is(err, llmdraft.ErrInvalidReply) {
			t.Fatalf("err = %v, want ErrInvalidReply", err)
		}
		if n := len(f.Requests()); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
		if !llmdraft.Temporary(err) {
			t.Error("an invalid reply should be worth retrying later")
		}
	})
	t.Run("FencedFirstTime", func(t *testing.T) {
		t.Parallel()
		f := newFakeModel(t, fakeReply{content: valid})
		got, err := newDrafter(t, f, nil).Draft(context.Background(), acmeRequest())
		if err != nil || got.Fields["tagline"].Text == "" || len(f.Requests()) != 1 {
			t.Fatalf("err = %v, fields = %+v, requests = %d", err, got, len(f.Requests()))
		}
	})
}

func TestDrafter_EndpointErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		status    int
		key       string
		temporary bool
	}{
		{"ServerError", http.StatusInternalServerError, testKey, true},
		{"Overloaded", http.StatusServiceUnavailable, testKey, true},
		{"RateLimited", http.StatusTooManyRequests, testKey, true},
		{"WrongKey", http.StatusUnauthorized, "sk-wrong-key-42", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeModel(t, fakeReply{status: tc.status})
			d, err := llmdraft.New(llmdraft.Config{BaseURL: f.URL + "/v1", Model: testModel, APIKey: tc.key, HTTPClient: f.Client()})
			if err != nil {
				t.Fatal(err)
			}
			_, err = d.Draft(context.Background(), acmeRequest())
			var apiErr *openai.APIError
			if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != tc.status {
				t.Fatalf("err = %v, want a wrapped *openai.APIError with status %d", err, tc.status)
			}
			if got := llmdraft.Temporary(err); got != tc.temporary {
				t.Errorf("Temporary = %v, want %v", got, tc.temporary)
			}
			if strings.Contains(fmt.Sprintf("%v %+v %#v", err, err, err), tc.key) {
				t.Errorf("the error shows the API key: %v", err)
			}
			// The job runner owns retries: the drafter asks once.
			if n := len(f.Requests()); tc.status != http.StatusUnauthorized && n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
	t.Run("Unreachable", func(t *testing.T) {
		t.Parallel()
		f := newFakeModel(t, fakeReply{})
		f.Close()
		_, err := newDrafter(t, f, nil).Draft(context.Background(), acmeRequest())
		if err == nil || !llmdraft.Temporary(err) {
			t.Fatalf("err = %v, want a temporary network error", err)
		}
	})
	t.Run("UnknownModel", func(t *testing.T) {
		t.Parallel()
		f := newFakeModel(t, fakeReply{})
		d, _ := llmdraft.New(llmdraft.Config{BaseURL: f.URL + "/v1", Model: "no-such-model", APIKey: testKey, HTTPClient: f.Client()})
		_, err := d.Draft(context.Background(), acmeRequest())
		var apiErr *openai.APIError
		if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != http.StatusNotFound || llmdraft.Temporary(err) {
			t.Fatalf("err = %v, want a permanent 404", err)
		}
	})
}

func TestDrafter_Timeout(t *testing.T) {
	t.Parallel()
	// An endpoint that accepts the request and never answers.
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the server notices a client hang-up only once the body is read
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	d, err := llmdraft.New(llmdraft.Config{BaseURL: srv.URL + "/v1", Model: testModel, APIKey: testKey,
		HTTPClient: srv.Client(), Timeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Draft(context.Background(), acmeRequest())
	if !errors.Is(err, context.DeadlineExceeded) || !llmdraft.Temporary(err) {
		t.Fatalf("err = %v, want a temporary deadline error", err)
	}
}

func TestDrafter_Only(t *testing.T) {
	t.Parallel()
	type m = map[string]any
	f := newFakeModel(t, fakeReply{content: jsonReply(t, m{
		"fields": []m{
			{"field": "tagline", "text": "Meeting notes your team will actually read.", "evidence": ev("Meeting notes your team will actually read.", home)},
			{"field": "name", "text": "Acme Notes", "evidence": ev("Acme Notes", home)},
		},
		"faqs": []m{{"question": "Is there a free plan?", "answer": "Yes. The Free plan covers up to 3 users.", "evidence": ev("Is there a free plan?", faq)}},
	})})
	req := acmeRequest()
	req.Only = []string{"tagline"}
	got, err := newDrafter(t, f, nil).Draft(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if keys := sortedKeys(got.Fields); !slices.Equal(keys, []string{"tagline"}) || len(got.FAQs) != 0 {
		t.Errorf("fields = %v, faqs = %d: want only tagline", keys, len(got.FAQs))
	}
	r := f.Requests()[0]
	props := r.ResponseFormat.JSONSchema.Schema["properties"].(map[string]any)
	if keys := sortedKeys(props); !slices.Equal(keys, []string{"fields"}) {
		t.Errorf("schema asks for %v, want only fields", keys)
	}
	if user := r.text(1); strings.Contains(user, "- name:") || !strings.Contains(user, "- tagline:") {
		t.Error("the prompt should ask for the fields of Only and no others")
	}
}

// TestDrafter_PromptBudget: a huge home page does not crowd out the other
// pages, and the prompt stays within the budget (plus the fixed instructions).
func TestDrafter_PromptBudget(t *testing.T) {
	t.Parallel()
	const budget = 4000
	f := newFakeModel(t, fakeReply{content: "{}"})
	d, err := llmdraft.New(llmdraft.Config{BaseURL: f.URL + "/v1", Model: testModel, APIKey: testKey,
		HTTPClient: f.Client(), MaxInputChars: budget})
	if err != nil {
		t.Fatal(err)
	}
	req := acmeRequest()
	long := strings.Repeat("Acme Notes turns every meeting into searchable notes with action items.\n", 2000) // ~146 KB
	req.Site.Pages[0].Text = long + req.Site.Pages[0].Text

	// The same request with empty pages gives the size of the fixed part.
	empty := acmeRequest()
	for i := range empty.Site.Pages {
		empty.Site.Pages[i].Text, empty.Site.Pages[i].Data = "", nil
	}
	if _, err := d.Draft(context.Background(), empty); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Draft(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	rs := f.Requests()
	fixed, full := len(rs[0].text(1)), rs[1].text(1)
	pageChars := len(full) - fixed
	t.Logf("page text sent: %d chars of %d on the site (budget %d); fixed prompt %d chars", pageChars, len(long)+600, budget, fixed)
	if pageChars > budget+200 { // +200: the per-page "Text:"/"Data" labels and the cut marker
		t.Errorf("page text in the prompt = %d chars, budget %d", pageChars, budget)
	}
	for _, want := range []string{"$8 per user per month, billed annually", "Maria Silva, co-founder and CEO", "Does Acme Notes work with Zoom?"} {
		if !strings.Contains(full, want) {
			t.Errorf("the long home page crowded out %q", want)
		}
	}
	if !strings.Contains(full, "[... text cut ...]") {
		t.Error("the cut home page is not marked as cut")
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  llmdraft.Config
		want string
	}{
		{"NoModel", llmdraft.Config{APIKey: "k"}, "Model is empty"},
		{"BadURL", llmdraft.Config{Model: "m", BaseURL: "localhost:8080/v1"}, "not an http(s) URL"},
		{"NegativeTimeout", llmdraft.Config{Model: "m", Timeout: -time.Second}, "must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := llmdraft.New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
	cfg := llmdraft.Config{Model: "m", APIKey: testKey}
	if s := fmt.Sprintf("%v %+v %#v %s", cfg, cfg, cfg, cfg); strings.Contains(s, testKey) {
		t.Errorf("printing a Config shows the API key: %s", s)
	}
}
