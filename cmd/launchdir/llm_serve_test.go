package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestServeModelDrafter: serve with --llm-base-url pointing at a local
// OpenAI-compatible server (as Ollama or llama.cpp's server run one, no API
// key) drafts through it. The server gets the pages the fetcher read and a
// strict json_schema response_format, and answers with structured output;
// the draft, read over REST, shows the model's grounded values (state ai,
// with their quotes) and none of the values whose quotes are not on the
// site: an invented contact email and founder are not_found / absent.
func TestServeModelDrafter(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			io.WriteString(w, `<!DOCTYPE html><html lang="en"><head><title>Ferncast – Trail forecasts</title>
<meta name="description" content="Ferncast forecasts trail conditions for hikers."></head><body>
<nav><a href="/about">About</a></nav>
<h1>Know the trail before you go</h1>
<p>Ferncast forecasts trail conditions for hikers.</p>
<p>Trail conditions, every morning, for every route you saved.</p>
</body></html>`)
		case "/about":
			io.WriteString(w, `<!DOCTYPE html><html lang="en"><head><title>About – Ferncast</title></head><body>
<h1>About Ferncast</h1><p>Ferncast was founded in 2021 in Galway, Ireland, by two mountain guides.</p></body></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()

	type seen struct {
		format, model string
		pages         []string
	}
	var mu sync.Mutex
	var got []seen
	pageRE := regexp.MustCompile(`(?m)^=== PAGE \d+: (\S+)$`)
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
			ResponseFormat struct {
				Type       string `json:"type"`
				JSONSchema struct {
					Strict bool           `json:"strict"`
					Schema map[string]any `json:"schema"`
				} `json:"json_schema"`
			} `json:"response_format"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		s := seen{format: req.ResponseFormat.Type, model: req.Model}
		for _, m := range req.Messages {
			for _, p := range pageRE.FindAllStringSubmatch(m.Content, -1) {
				s.pages = append(s.pages, p[1])
			}
		}
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
		home, about := site.URL+"/", site.URL+"/about"
		ev := func(q, u string) []map[string]string { return []map[string]string{{"quote": q, "url": u}} }
		field := func(name, text string, e []map[string]string) map[string]any {
			return map[string]any{"field": name, "text": text, "list": []string{}, "evidence": e}
		}
		answer := map[string]any{
			"fields": []any{
				field("tagline", "Know the trail before you go", ev("Know the trail before you go", home)),
				field("short_description", "Trail conditions, every morning, for every route you saved.", ev("Trail conditions, every morning, for every route you saved.", home)),
				field("city", "Galway", ev("Ferncast was founded in 2021 in Galway, Ireland, by two mountain guides.", about)),
				field("founded_year", "2021", ev("Ferncast was founded in 2021 in Galway, Ireland, by two mountain guides.", about)),
				field("contact_email", "press@ferncast.ie", ev("Press: press@ferncast.ie", about)),
			},
			"founders": []any{map[string]any{"name": "Aoife Byrne", "title": "CEO", "bio": "", "socials": []any{},
				"evidence": ev("Aoife Byrne, CEO and mountain guide", about)}},
			"faqs": []any{}, "socials": []any{}, "story": []any{}, "milestones": []any{},
		}
		body, _ := json.Marshal(answer)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": string(body)}}}})
	}))
	defer model.Close()

	data := t.TempDir()
	ctx := context.Background()
	var out strings.Builder
	if err := run(ctx, time.Now, []string{"apikey", "create", "--data", data, "--email", "owner@example.com"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(out.String())
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pr, pw := io.Pipe()
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(sctx, time.Now, []string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--rate-limit", "0", "--fetch-allow-loopback",
			"--llm-base-url", model.URL + "/v1", "--llm-model", "qwen2.5:7b-instruct", "--llm-timeout", "20s"}, pw, logs)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var api string
	for api == "" && sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 3 && f[0] == "REST" {
			api = f[2]
		}
	}
	go io.Copy(io.Discard, pr)
	if api == "" {
		t.Fatalf("serve printed no REST API URL; log:\n%s", logs.String())
	}
	call := func(method, path string, body any) map[string]any {
		t.Helper()
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, api+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v map[string]any
		if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v %v", method, path, res.StatusCode, err, v)
		}
		return v
	}
	d := call("POST", "/drafts", map[string]any{"url": site.URL + "/"})
	id, _ := d["id"].(string)
	deadline := time.Now().Add(60 * time.Second)
	for d["status"] != "ready" && d["status"] != "failed" {
		if time.Now().After(deadline) {
			t.Fatalf("the draft is still %v after 60 s; log:\n%s", d["status"], logs.String())
		}
		time.Sleep(50 * time.Millisecond)
		d = call("GET", "/drafts/"+id, nil)
	}
	if d["status"] != "ready" {
		t.Fatalf("draft %v: %v; log:\n%s", d["status"], d["error"], logs.String())
	}
	fields, _ := d["fields"].(map[string]any)
	fieldOf := func(name string) (any, string, []any) {
		f, _ := fields[name].(map[string]any)
		state, _ := f["state"].(string)
		ev, _ := f["evidence"].([]any)
		return f["value"], state, ev
	}
	for name, want := range map[string]string{
		"tagline":           "Know the trail before you go",
		"short_description": "Trail conditions, every morning, for every route you saved.", // the model's choice, not the extractor's
		"city":              "Galway",
	} {
		if v, state, ev := fieldOf(name); v != want || state != "ai" || len(ev) == 0 {
			t.Errorf("%s = %v (state %s, %d quotes), want %q drafted by the model with its quote", name, v, state, len(ev), want)
		}
	}
	if v, state, _ := fieldOf("contact_email"); v != nil || state != "not_found" {
		t.Errorf("contact_email = %v (state %s): its quote is not on the site, want not_found", v, state)
	}
	if _, ok := d["founders"]; !ok {
		t.Errorf("the draft has no founders key: %v", d)
	}
	if fs, _ := d["founders"].([]any); len(fs) != 0 {
		t.Errorf("founders %v: the model's founder has no quote on the site", fs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 {
		t.Fatal("the model endpoint was not asked")
	}
	if g := got[0]; g.format != "json_schema" || g.model != "qwen2.5:7b-instruct" || len(g.pages) != 2 || g.pages[0] != site.URL+"/" {
		t.Errorf("the model was asked %+v; want json_schema, the model named, the two pages read, home first", g)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
