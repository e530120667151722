package tools

import (
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// warningsOf returns update_draft's warnings by field.
func warningsOf(t testing.TB, d map[string]any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	ws, _ := d["warnings"].([]any)
	for _, w := range ws {
		m := w.(map[string]any)
		out[m["field"].(string)] = m
	}
	return out
}

// TestUpdateDraft_WarnsOfListingBounds: a draft takes a
// value longer than its listing allows (story.title 8,000 characters where a
// listing takes 200; a tagline of 300 where it takes 200), stores it, and
// update_draft's answer warns at once, naming each field and the listing's
// bound, over REST and MCP; submit_draft then refuses the field it named.
// A value within the bound gets no warning. (On main the answer said
// nothing, and the assistant learned it only at submit.)
func TestUpdateDraft_WarnsOfListingBounds(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	const owner = "writer@example.com"
	key := env.apiKey(t, owner)
	uid := fixtures.ID(t, env.db, "users", fixtures.Cols{"email": owner})
	st := env.svc.Store.(*storage.Store)
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		id := fixtures.Draft(t, st, uid, "https://bounds-"+tr+".example/", domain.DraftReady)
		long := strings.Repeat("a", 8000)
		code, d := call(t, "update_draft", map[string]any{"id": id, "story": map[string]any{"title": long},
			"fields": map[string]any{"name": "Bounds", "tagline": strings.Repeat("t", 300)}})
		if code != 200 {
			t.Fatalf("update_draft: %d %v", code, d)
		}
		if got := d["story"].(map[string]any)["title"]; got != long {
			t.Fatalf("the draft did not keep the long title (%d characters)", len(got.(string)))
		}
		ws := warningsOf(t, d)
		for field, limit := range map[string]float64{"story.title": 200, "fields.tagline": 200} {
			w := ws[field]
			msg, _ := w["message"].(string)
			if w == nil || w["limit"] != limit || w["rule"] != "maxLength" || !strings.Contains(msg, field) || !strings.Contains(msg, "200") {
				t.Errorf("update_draft's warning of %s: %v, want rule maxLength, limit %v, a message naming both (warnings %v)", field, w, limit, d["warnings"])
			}
		}
		if len(ws) != 2 {
			t.Errorf("update_draft warned of %d fields, want 2: %v", len(ws), d["warnings"])
		}
		code, p := call(t, "submit_draft", map[string]any{"id": id})
		if errs, _ := p["errors"].([]any); code != 400 || len(errs) == 0 || ws[errs[0].(map[string]any)["field"].(string)] == nil {
			t.Errorf("submit_draft of the over-long draft: %d %v, want a 400 on a field update_draft warned of", code, p)
		}
		// Within the bounds: no warning.
		code, d = call(t, "update_draft", map[string]any{"id": id, "story": map[string]any{"title": "Why we built it"},
			"fields": map[string]any{"tagline": "Short and sweet"}})
		if code != 200 || len(warningsOf(t, d)) != 0 {
			t.Errorf("update_draft within the bounds: %d, warnings %v", code, d["warnings"])
		}
	})
}
