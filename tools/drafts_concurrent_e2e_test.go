package tools

import (
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/launchdir/launchdir/storage/fixtures"
)

// TestDrafts_ConcurrentWriters: 25 writers PATCH different parts of one
// draft at once over REST, 6 times each. Every PATCH succeeds (a write based
// on a stale read is re-applied on the server, as docs/drafts.md says),
// every writer's last value is stored, and the draft's version went up by
// exactly one per PATCH.
func TestDrafts_ConcurrentWriters(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	site, _ := withDrafting(t, env)
	call := restCaller(env, env.apiKey(t, "owner@example.com"))
	st, d := call(t, "submit_listing", map[string]any{"url": site.URL})
	if st != 201 {
		t.Fatalf("submit_listing: %d %v", st, d)
	}
	id := d["id"].(string)
	if d = builtDraft(t, env, call, id); d["status"] != "ready" {
		t.Fatalf("draft: %v", d)
	}
	version := func() int64 {
		rows := fixtures.Rows(t, env.db, "drafts", fixtures.Cols{"id": id})
		if len(rows) != 1 {
			t.Fatalf("draft %s: %d rows", id, len(rows))
		}
		n, err := strconv.ParseInt(rows[0]["version"], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := version()

	// Each writer owns one part: a field, a story section, an SEO key or a
	// company link.
	type writer struct {
		patch func(v string) map[string]any
		read  func(d map[string]any) any
		value func(v string) any
	}
	var writers []writer
	for _, f := range []string{"name", "tagline", "short_description", "description", "pricing_summary", "city"} {
		writers = append(writers, writer{
			patch: func(v string) map[string]any { return map[string]any{"fields": map[string]any{f: v}} },
			read:  func(d map[string]any) any { return field(d, f)["value"] },
			value: func(v string) any { return v }})
	}
	for _, f := range []string{"tags", "features", "usps", "keywords"} {
		writers = append(writers, writer{
			patch: func(v string) map[string]any { return map[string]any{"fields": map[string]any{f: []string{v}}} },
			read:  func(d map[string]any) any { return fmt.Sprint(field(d, f)["value"]) },
			value: func(v string) any { return fmt.Sprint([]any{v}) }})
	}
	for _, k := range []string{"title", "story", "why_started", "problem", "journey", "challenges", "achievements", "lessons", "whats_next"} {
		writers = append(writers, writer{
			patch: func(v string) map[string]any { return map[string]any{"story": map[string]any{k: v}} },
			read:  func(d map[string]any) any { s, _ := d["story"].(map[string]any); return s[k] },
			value: func(v string) any { return v }})
	}
	for _, k := range []string{"title", "meta"} {
		writers = append(writers, writer{
			patch: func(v string) map[string]any { return map[string]any{"seo": map[string]any{k: v}} },
			read:  func(d map[string]any) any { s, _ := d["seo"].(map[string]any); return s[k] },
			value: func(v string) any { return v }})
	}
	for _, k := range []string{"github", "reddit", "medium", "custom"} {
		writers = append(writers, writer{
			patch: func(v string) map[string]any {
				return map[string]any{"company_socials": map[string]any{k: "https://example.com/" + v}}
			},
			read:  func(d map[string]any) any { return d["company_socials"].(map[string]any)[k] },
			value: func(v string) any { return "https://example.com/" + v }})
	}
	if len(writers) != 25 {
		t.Fatalf("%d writers", len(writers))
	}
	const rounds = 6
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i, w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range rounds {
				args := w.patch(fmt.Sprintf("w%d-%d", i, n))
				args["id"] = id
				st, p := call(t, "update_draft", args)
				mu.Lock()
				statuses[st]++
				mu.Unlock()
				if st != 200 {
					t.Errorf("writer %d round %d: %d %v", i, n, st, p)
				}
			}
		}()
	}
	wg.Wait()
	if statuses[200] != len(writers)*rounds {
		t.Fatalf("statuses %v, want %d times 200", statuses, len(writers)*rounds)
	}
	_, d = call(t, "get_draft", map[string]any{"id": id})
	for i, w := range writers {
		if got, want := w.read(d), w.value(fmt.Sprintf("w%d-%d", i, rounds-1)); got != want {
			t.Errorf("writer %d: stored %v, want its last write %v", i, got, want)
		}
	}
	if got := version() - before; got != int64(len(writers)*rounds) {
		t.Fatalf("the version went up by %d for %d writes", got, len(writers)*rounds)
	}
}
