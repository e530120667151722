package tools

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/extract"
	"github.com/launchdir/launchdir/internal/llmdraft"
)

// Before the first pass has finished, no field is not_found and there is no
// completeness: every field is pending. Once the build ran, none is.
func TestDrafts_PendingUntilRead(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	transports(t, env, env.apiKey(t, "owner@example.com"), func(t *testing.T, _ string, call draftCaller) {
		st, sub := call(t, "submit_listing", map[string]any{"url": site.URL})
		if st != 201 {
			t.Fatalf("submit_listing: %d %v", st, sub)
		}
		id := sub["id"].(string)
		_, got := call(t, "get_draft", map[string]any{"id": id}) // the build job has not run
		for what, d := range map[string]map[string]any{"submit_listing": sub, "get_draft": got} {
			if d["status"] != "crawling" {
				t.Fatalf("%s: status %v before the build ran", what, d["status"])
			}
			for _, name := range domain.DraftFieldNames {
				if f := field(d, name); f["state"] != "pending" || f["value"] != nil {
					t.Errorf("%s: %s = %v before the site was read, want pending", what, name, f)
				}
			}
			if c, ok := d["completeness"]; ok {
				t.Errorf("%s: completeness %v before the site was read, want none", what, c)
			}
			if n := len(d["not_found_on_website"].([]any)) + len(d["missing"].([]any)); n != 0 {
				t.Errorf("%s: not_found_on_website %v missing %v before the site was read", what, d["not_found_on_website"], d["missing"])
			}
		}
		_, list := call(t, "list_my_drafts", map[string]any{})
		for _, it := range list["items"].([]any) {
			if it := it.(map[string]any); it["id"] == id {
				if c, ok := it["completeness"]; ok {
					t.Errorf("list_my_drafts: completeness %v while building", c)
				}
			}
		}

		d := builtDraft(t, env, call, id)
		if d["status"] != "ready" || d["completeness"].(float64) <= 0 || len(d["not_found_on_website"].([]any)) == 0 {
			t.Fatalf("after the build: %v completeness %v not_found %v", d["status"], d["completeness"], d["not_found_on_website"])
		}
		for _, name := range domain.DraftFieldNames {
			if s := field(d, name)["state"]; s != "ai" && s != "not_found" {
				t.Errorf("%s: state %v once built", name, s)
			}
		}
	})
}

// A draft whose site was read but whose drafting failed for now (the model
// endpoint answers 503; the job is retried later) is status drafting: its
// fields are still pending, with no completeness, over REST and MCP.
func TestDrafts_PendingWhileDrafting(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
	}))
	t.Cleanup(model.Close)
	llm, err := llmdraft.New(llmdraft.Config{BaseURL: model.URL, Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	env.svc.Drafts.Drafter = llm
	key := env.apiKey(t, "owner@example.com")
	_, d := restCaller(env, key)(t, "submit_listing", map[string]any{"url": site.URL})
	id := d["id"].(string)
	env.runJobs(t) // reads the site, then the model fails: retried after a backoff
	transports(t, env, key, func(t *testing.T, _ string, call draftCaller) {
		_, d := call(t, "get_draft", map[string]any{"id": id})
		if d["status"] != "drafting" || len(d["pages_read"].([]any)) == 0 {
			t.Fatalf("status %v pages_read %v, want drafting from the pages read", d["status"], d["pages_read"])
		}
		for _, name := range domain.DraftFieldNames {
			if f := field(d, name); f["state"] != "pending" {
				t.Errorf("%s = %v while drafting, want pending", name, f)
			}
		}
		if c, ok := d["completeness"]; ok {
			t.Errorf("completeness %v while drafting", c)
		}
	})
	env.svc.Drafts.Drafter = extract.New()
	env.clock.Advance(time.Minute)
	if d := builtDraft(t, env, restCaller(env, key), id); d["status"] != "ready" || field(d, "name")["state"] != "ai" {
		t.Fatalf("after the retry: %v %v", d["status"], field(d, "name"))
	}
}

// regenerate of a value the person typed: where the site states nothing the
// typed value stays (manual, with a note); where it states a value, the
// site's grounded value replaces it and typed_value keeps the typed one.
func TestDrafts_RegenerateTyped(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	transports(t, env, env.apiKey(t, "owner@example.com"), func(t *testing.T, _ string, call draftCaller) {
		_, d := call(t, "submit_listing", map[string]any{"url": site.URL})
		id := d["id"].(string)
		d = builtDraft(t, env, call, id)
		if s := field(d, "stage")["state"]; s != "not_found" { // ledgerly states no stage (its truth.json)
			t.Fatalf("stage is %v on a site that states none", s)
		}
		siteTagline := field(d, "tagline")["value"]
		st, d := call(t, "update_draft", map[string]any{"id": id, "fields": map[string]any{"stage": "beta", "tagline": "Typed by hand"}})
		if st != 200 || field(d, "stage")["state"] != "manual" || field(d, "tagline")["state"] != "edited" {
			t.Fatalf("typing: %d stage %v tagline %v", st, field(d, "stage"), field(d, "tagline"))
		}

		st, d = call(t, "update_draft", map[string]any{"id": id, "regenerate": []string{"stage", "tagline"}})
		if st != 200 {
			t.Fatalf("regenerate: %d %v", st, d)
		}
		stage := field(d, "stage")
		if stage["value"] != "beta" || stage["state"] != "manual" || !strings.Contains(fmt.Sprint(stage["note"]), "site states nothing") {
			t.Errorf("stage after regenerate on a site that states none = %v, want the typed value kept, manual, with a note", stage)
		}
		if slices.Contains(anyStrings(d["not_found_on_website"]), "stage") || slices.Contains(anyStrings(d["missing"]), "stage") {
			t.Errorf("kept stage listed as not found %v or missing %v", d["not_found_on_website"], d["missing"])
		}
		tag := field(d, "tagline")
		if tag["value"] != siteTagline || tag["state"] != "ai" || len(tag["evidence"].([]any)) == 0 ||
			tag["typed_value"] != "Typed by hand" || !strings.Contains(fmt.Sprint(tag["note"]), "typed_value") {
			t.Errorf("tagline after regenerate on a site that states one = %v, want the site's value with typed_value", tag)
		}
		// The kept value is what get_draft shows and what submit_draft saves.
		if _, again := call(t, "get_draft", map[string]any{"id": id}); field(again, "stage")["value"] != "beta" {
			t.Errorf("stored stage %v", field(again, "stage"))
		}
		st, sub := call(t, "submit_draft", map[string]any{"id": id})
		if st != 200 {
			t.Fatalf("submit_draft: %d %v", st, sub)
		}
		if got := listingColumn(t, env, int64(sub["listing_id"].(float64)), "stage"); got != "beta" {
			t.Errorf("listing stage %q, want the kept typed value", got)
		}
		// A later edit of the field clears the note and typed_value.
		_, d = call(t, "update_draft", map[string]any{"id": id, "fields": map[string]any{"tagline": "Typed again"}})
		if tag := field(d, "tagline"); tag["note"] != nil || tag["typed_value"] != nil || tag["state"] != "edited" {
			t.Errorf("tagline after a new edit = %v", tag)
		}
	})
}

func anyStrings(v any) []string {
	out := []string{}
	for _, x := range v.([]any) {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// The draft records the language it was drafted from: none while the site is
// unread, then the home page's language (German on a German-only site).
func TestDrafts_Language(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	withDrafting(t, env)
	german := httptest.NewServer(http.FileServer(http.Dir("../domain/extract/testdata/sites/taktwerk")))
	t.Cleanup(german.Close)
	transports(t, env, env.apiKey(t, "owner@example.com"), func(t *testing.T, _ string, call draftCaller) {
		st, d := call(t, "submit_listing", map[string]any{"url": german.URL})
		if st != 201 {
			t.Fatalf("submit_listing: %d %v", st, d)
		}
		if l, ok := d["language"]; ok {
			t.Errorf("language %v before the site was read", l)
		}
		d = builtDraft(t, env, call, d["id"].(string))
		if d["status"] != "ready" || d["language"] != "de" {
			t.Errorf("status %v language %v, want ready and de", d["status"], d["language"])
		}
	})
}
