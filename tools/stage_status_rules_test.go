package tools

import (
	"context"
	"fmt"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// wantFieldRule checks a 400 whose problem names field and rule.
func wantFieldRule(t *testing.T, what string, code int, p map[string]any, field, rule string) {
	t.Helper()
	errs, _ := p["errors"].([]any)
	if code != 400 || len(errs) != 1 {
		t.Fatalf("%s: %d %v, want 400 naming %s %s", what, code, p, field, rule)
	}
	if e := errs[0].(map[string]any); e["field"] != field || e["rule"] != rule {
		t.Fatalf("%s: errors %v, want %s %s", what, errs, field, rule)
	}
}

// TestStageAndStatus_TheDomainRefuses: stages and listing statuses are
// checked by the domain (and its schemas), not again by storage, which
// only maps constraint violations. Over REST and MCP each bad value is a
// 400 naming the field and rule, and nothing is stored:
//   - a draft whose stored stage is not a stage (a draft saved before the
//     stage was removed from the list) is refused by submit_draft with
//     fields.stage enum, and no listing is written;
//   - update_draft with such a stage is refused with fields.stage enum and
//     the draft keeps its stage;
//   - search_listings refuses a status other than live or upcoming and a
//     stage outside the stages.
//
// With storage's stage check removed and no check in the domain's
// listingWrite, submit_draft answered 500 (the listings.stage foreign key).
func TestStageAndStatus_TheDomainRefuses(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	const owner = "stages@example.com"
	key := env.apiKey(t, owner)
	uid := fixtures.ID(t, env.db, "users", fixtures.Cols{"email": owner})
	st := env.svc.Store.(*storage.Store)
	transports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", map[string]int{"rest": 910001, "mcp": 910002}[tr])
		rec := &domain.DraftRecord{ID: id, UserID: uid, URL: "https://stages-" + tr + ".example/", Status: domain.DraftReady,
			CreatedAt: fixtures.Now, UpdatedAt: fixtures.Now, Doc: domain.DraftDoc{Fields: map[string]*domain.DraftField{
				"name":  {Value: "Stages " + tr, State: "manual"},
				"stage": {Value: "unicorn", State: "manual"},
			}}}
		if err := st.CreateDraft(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
		listings := fixtures.Count(t, env.db, "listings", fixtures.Cols{"owner_id": uid})

		code, p := call(t, "submit_draft", map[string]any{"id": id})
		wantFieldRule(t, "submit_draft with a stored stage that is no stage", code, p, "fields.stage", "enum")
		if n := fixtures.Count(t, env.db, "listings", fixtures.Cols{"owner_id": uid}); n != listings {
			t.Fatalf("a refused submit_draft stored a listing: %d -> %d", listings, n)
		}

		code, p = call(t, "update_draft", map[string]any{"id": id, "fields": map[string]any{"stage": "seed-round"}})
		wantFieldRule(t, "update_draft with a stage that is no stage", code, p, "fields.stage", "enum")
		if got, err := st.Draft(context.Background(), id, false); err != nil || got.Doc.Fields["stage"].Value != "unicorn" {
			t.Fatalf("a refused update_draft changed the draft's stage: %v %v", got, err)
		}

		code, p = call(t, "search_listings", map[string]any{"status": "draft"})
		wantFieldRule(t, "search_listings status=draft", code, p, "status", "enum")
		code, p = call(t, "search_listings", map[string]any{"stage": "unicorn"})
		wantFieldRule(t, "search_listings stage=unicorn", code, p, "stage", "enum")
	})
}
