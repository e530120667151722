package llmdraft_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

const (
	testKey   = "sk-test-0123456789abcdef"
	testModel = "test-model"
)

// fakeReply is one answer of the fake endpoint: an HTTP status other than 200
// with an OpenAI error body, or a chat completion whose message is content.
type fakeReply struct {
	status  int
	content string
}

// chatRequest is the part of a chat completion request the tests look at.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ResponseFormat struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string         `json:"name"`
			Strict bool           `json:"strict"`
			Schema map[string]any `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

// text is the content of message i as a string.
func (r chatRequest) text(i int) string {
	var s string
	if json.Unmarshal(r.Messages[i].Content, &s) == nil {
		return s
	}
	return string(r.Messages[i].Content)
}

// fakeModel is a local OpenAI-compatible endpoint: POST /v1/chat/completions,
// checking the bearer key and the model name as the real service does, and
// answering with its replies in order (the last one repeats).
type fakeModel struct {
	*httptest.Server
	mu       sync.Mutex
	replies  []fakeReply
	requests []chatRequest
}

func newFakeModel(t *testing.T, replies ...fakeReply) *fakeModel {
	t.Helper()
	f := &fakeModel{replies: replies}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			t.Errorf("fake model: unexpected %s %s", r.Method, r.URL.Path)
			apiError(w, http.StatusNotFound, "not_found", "no route")
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
			apiError(w, http.StatusUnauthorized, "invalid_api_key", "Incorrect API key provided.")
			return
		}
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			apiError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
			return
		}
		if req.Model != testModel {
			apiError(w, http.StatusNotFound, "model_not_found", fmt.Sprintf("The model %q does not exist.", req.Model))
			return
		}
		f.mu.Lock()
		f.requests = append(f.requests, req)
		rep := f.replies[min(len(f.requests), len(f.replies))-1]
		f.mu.Unlock()
		if rep.status != 0 && rep.status != http.StatusOK {
			apiError(w, rep.status, "server_error", "The server had an error while processing your request.")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-test", "object": "chat.completion", "created": 1700000000, "model": req.Model,
			"choices": []any{map[string]any{
				"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": rep.content},
			}},
			"usage": map[string]any{"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 1200},
		})
	}))
	t.Cleanup(f.Close)
	return f
}

// Requests returns the requests the endpoint accepted so far.
func (f *fakeModel) Requests() []chatRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]chatRequest(nil), f.requests...)
}

func apiError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": code, "code": code, "param": nil,
	}})
}

// ---- The site ----

const (
	home    = "https://acme.example/"
	pricing = "https://acme.example/pricing"
	about   = "https://acme.example/about"
	faq     = "https://acme.example/faq"
)

// acmeSite is a small product site as the fetcher would read it: visible text
// in blocks, and the page's data strings (meta, link targets, alt texts).
// It states no founding year; its copyright line names 2024.
func acmeSite() *domain.SiteCrawl {
	return &domain.SiteCrawl{URL: "https://acme.example", Pages: []domain.WebPage{
		{
			URL:   home,
			Title: "Acme Notes – Meeting notes for teams",
			Text: strings.Join([]string{
				"Acme Notes",
				"Meeting notes your team will actually read.",
				"Acme Notes turns every meeting into searchable notes with action items.",
				"Features",
				"Real-time collaborative editing",
				"Automatic action items",
				"Search across every meeting",
				"Now in open beta.",
				"“Acme Notes saved our standups.” – Priya Raman, Head of Ops at Globex",
				"© 2024 Acme Labs, Inc. All rights reserved.",
			}, "\n"),
			Data: []string{
				"Acme Notes – Meeting notes for teams",
				"Acme Notes turns every meeting into searchable notes with action items.",
				pricing, about, faq,
				"https://twitter.com/acmenotes",
				"https://github.com/acmenotes",
				"mailto:hello@acme.example",
				"https://acme.example/logo.png",
				"Acme Notes logo",
			},
		},
		{
			URL:   pricing,
			Title: "Pricing – Acme Notes",
			Text: strings.Join([]string{
				"Pricing", "Free", "Up to 3 users, free forever",
				"Team", "$8 per user per month, billed annually",
				"Enterprise", "Contact sales for volume pricing",
			}, "\n"),
			Data: []string{"Pricing – Acme Notes", home},
		},
		{
			URL:   about,
			Title: "About – Acme Notes",
			Text: strings.Join([]string{
				"About Acme",
				"Acme Labs is based in Lisbon, Portugal.",
				"We started Acme Notes because our own meetings went nowhere.",
				"Maria Silva, co-founder and CEO, previously led product at a note-taking startup.",
				"Our investor Tom Becker (Seedcamp) sits on the board.",
				"March 2023: Acme Notes public beta launched.",
			}, "\n"),
			Data: []string{
				"About – Acme Notes",
				"https://www.linkedin.com/in/maria-silva",
				"https://www.linkedin.com/company/acme-labs",
			},
		},
		{
			URL:   faq,
			Title: "FAQ – Acme Notes",
			Text: strings.Join([]string{
				"Frequently asked questions",
				"Is there a free plan?",
				"Yes. The Free plan covers up to 3 users.",
				"Does Acme Notes work with Zoom?",
				"Yes, Acme Notes joins Zoom and Google Meet calls.",
			}, "\n"),
		},
	}}
}

func acmeRequest() domain.DraftRequest {
	return domain.DraftRequest{
		Site: acmeSite(),
		Categories: []domain.CategoryChoice{
			{Slug: "developer-tools", Name: "Developer Tools"},
			{Slug: "productivity", Name: "Productivity"},
			{Slug: "note-taking", Name: "Note Taking", Parent: "Productivity"},
			{Slug: "crm", Name: "CRM"},
		},
		Stages: []string{"idea", "beta", "launched", "growth"},
	}
}

// ev is one evidence quote.
func ev(quote, url string) []map[string]string {
	return []map[string]string{{"quote": quote, "url": url}}
}

// jsonReply encodes a reply object the way a model would send it.
func jsonReply(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
