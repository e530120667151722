package tools

import (
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// Before the first pass has finished, no field is not_found and there is no
// completeness: every field is pending. Once the build ran, none is.
func TestDrafts_PendingUntilRead(t *testing.T) {
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
