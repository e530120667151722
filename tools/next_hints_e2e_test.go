package tools

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestNextHints_NameCallsThatWork: for a listing in each
// state (free and paid plan), the `next` of submit_draft, get_my_listing and
// choose_free_listing names only tools that exist, and each named call,
// made as the hint says, is not refused for the listing's state (no 409).
// submit_draft's status is the listing's real status.
func TestNextHints_NameCallsThatWork(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	withFreeLaunch(t, env)
	clearFreeQueue(t, env)
	key := env.apiKey(t, "hints@example.com")
	cs := catConnect(t, env.URL, "2025-11-25", map[string]string{"Authorization": "Bearer " + key})
	j := &jobCaller{env: env, cs: cs}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	toolRE := regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)

	for i, c := range []struct{ status, plan, week string }{
		{"draft", "free", ""}, {"submitted", "free", ""}, {"awaiting_badge", "free", freeWeek(6)}, {"scheduled", "free", freeWeek(6)},
		{"live", "free", "2026-11-16"}, {"scheduled", "paid", freeWeek(1)}, {"live", "paid", "2026-11-09"},
	} {
		t.Run(c.status+"-"+c.plan, func(t *testing.T) {
			// One listing per state, saved from a draft as an assistant does,
			// then put in the state.
			d := j.must(t, 201, "submit_listing", map[string]any{"url": site.URL + "/"})
			env.runJobs(t)
			first := j.must(t, 200, "submit_draft", map[string]any{"id": d["id"]})
			id := int64(first["listing_id"].(float64))
			// Another site's listing now, so that the next state's draft of
			// the same local site is not "already listed".
			cols := fixtures.Cols{"status": c.status, "plan": c.plan, "domain": fmt.Sprintf("hints-%d.example", i)}
			if c.week != "" {
				cols["launch_week"] = c.week
			}
			fixtures.Update(t, env.db, "listings", cols, fixtures.Cols{"id": id})
			args := map[string]map[string]any{
				"choose_free_listing": {"listing_id": id},
				"get_my_listing":      {"listing_id": id},
				"list_my_listings":    {},
				"list_products":       {},
				"submit_draft":        {"id": d["id"]},
				"update_draft":        {"id": d["id"], "fields": map[string]any{"pricing_summary": "Free for one person."}},
				"update_my_listing":   {"listing_id": id, "fields": map[string]any{"pricing_summary": "Free for one person."}},
				"create_checkout":     {"items": []any{map[string]any{"product": "launch", "listing_id": id}}},
				"quote_order":         {"items": []any{map[string]any{"product": "launch", "listing_id": id}}},
			}
			hints := map[string]string{}
			sub := j.must(t, 200, "submit_draft", map[string]any{"id": d["id"]})
			if sub["status"] != c.status {
				t.Errorf("submit_draft status %v, the listing is %s", sub["status"], c.status)
			}
			hints["submit_draft"] = sub["next"].(string)
			hints["get_my_listing"] = j.must(t, 200, "get_my_listing", map[string]any{"listing_id": id})["next"].(string)
			if st, f := j.call(t, "choose_free_listing", map[string]any{"listing_id": id}); st == 200 {
				hints["choose_free_listing"] = f["next"].(string)
			}
			for from, next := range hints {
				for _, name := range toolRE.FindAllString(next, -1) {
					if !slices.Contains(names, name) {
						if slices.Contains([]string{"awaiting_badge", "embed_html", "page_url", "listing_id", "checkout_url", "extra_categories", "skip_queue"}, name) {
							continue // a field or product name
						}
						t.Errorf("%s next names %q, which is no tool: %s", from, name, next)
						continue
					}
					a, ok := args[name]
					if !ok {
						t.Errorf("%s next names %s: add its arguments to this test", from, name)
						continue
					}
					if st, out := j.call(t, name, a); st == 409 || st/100 != 2 {
						t.Errorf("%s (%s %s) next says %q; %s answers %d: %v", from, c.status, c.plan, next, name, st, out["detail"])
					}
				}
			}
		})
	}
}
