package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSlugs_CapitalisedSaysLowerCase: a slug sent with
// capitals is still refused (the published pattern is lower-case), but the
// 400 says why and what to send instead ("slugs are lower-case: did you
// mean ..."), over REST and MCP, on every operation that takes a slug; the
// suggested slug then answers 200. (On main the message was the bare
// pattern.)
func TestSlugs_CapitalisedSaysLowerCase(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	r := catDo(t, env, "GET", "/v1/listings?per_page=2", nil, nil)
	var list struct {
		Items []struct {
			Slug            string `json:"slug"`
			PrimaryCategory struct {
				Slug string `json:"slug"`
			} `json:"primary_category"`
		} `json:"items"`
	}
	if r.status != 200 || json.Unmarshal(r.body, &list) != nil || len(list.Items) < 2 {
		t.Fatalf("search_listings: %d %s", r.status, r.body)
	}
	slug, other, cat := list.Items[0].Slug, list.Items[1].Slug, list.Items[0].PrimaryCategory.Slug
	capital := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	transports(t, env, env.apiKey(t, "reader@example.com"), func(t *testing.T, tr string, call draftCaller) {
		for _, c := range []struct {
			op    string
			args  map[string]any
			field string
			want  string
		}{
			{"get_listing", map[string]any{"slug": capital(slug)}, "slug", slug},
			{"get_badges", map[string]any{"slug": capital(slug)}, "slug", slug},
			{"get_category", map[string]any{"slug": capital(cat)}, "slug", cat},
			{"compare_listings", map[string]any{"a": other, "b": capital(slug)}, "b", slug},
			{"search_listings", map[string]any{"category": capital(cat)}, "category", cat},
		} {
			st, p := call(t, c.op, c.args)
			errs, _ := p["errors"].([]any)
			if st != 400 || len(errs) != 1 {
				t.Errorf("%s %v: %d %v, want one 400 error", c.op, c.args, st, p)
				continue
			}
			e := errs[0].(map[string]any)
			msg, _ := e["message"].(string)
			if e["field"] != c.field || e["rule"] != "pattern" || !strings.Contains(msg, `slugs are lower-case: did you mean "`+c.want+`"?`) {
				t.Errorf("%s %v: error %v, want field %s, rule pattern and \"slugs are lower-case: did you mean %q?\"", c.op, c.args, e, c.field, c.want)
			}
			args := map[string]any{}
			for k, v := range c.args {
				args[k] = strings.ToLower(v.(string))
			}
			if st, p := call(t, c.op, args); st != 200 {
				t.Errorf("%s with the suggested %v: %d %v", c.op, args, st, p)
			}
		}
	})
}
