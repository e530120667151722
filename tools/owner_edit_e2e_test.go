package tools

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// Tests of update_my_listing over REST and MCP, against a real SQLite file:
// every bound just inside and just outside, apply_to across sites, socials
// and FAQs, access, and the version history.

// editTransports runs f over REST and over MCP with key.
func editTransports(t *testing.T, env *catEnv, key string, f func(t *testing.T, tr string, call draftCaller)) {
	for _, tr := range []struct {
		name string
		call func(t *testing.T) draftCaller
	}{
		{"rest", func(*testing.T) draftCaller { return restCaller(env, key) }},
		{"mcp", mcpCaller(env, key)},
	} {
		t.Run(tr.name, func(t *testing.T) { f(t, tr.name, tr.call(t)) })
	}
}

// lastVersion is the newest row of listing id's version history.
func lastVersion(t *testing.T, env *catEnv, id int64) storage.Row {
	t.Helper()
	var last storage.Row
	for _, r := range fixtures.Rows(t, env.db, "listing_versions", fixtures.Cols{"listing_id": id}) {
		if last == nil || atoiT(t, r["version"]) > atoiT(t, last["version"]) {
			last = r
		}
	}
	if last == nil {
		t.Fatalf("listing %d has no versions", id)
	}
	return last
}

func atoiT(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return n
}

func versionCount(t *testing.T, env *catEnv, id int64) string {
	t.Helper()
	return strconv.Itoa(fixtures.Count(t, env.db, "listing_versions", fixtures.Cols{"listing_id": id}))
}

// wantInvalid checks a 400 naming field with rule ("" for any rule); what
// names the case in the failure.
func wantInvalid(t *testing.T, what string, st int, p map[string]any, field, rule string) {
	t.Helper()
	if st != 400 || p["code"] != "invalid" {
		t.Fatalf("%s: %d %v, want 400 invalid", what, st, p)
	}
	errs, _ := p["errors"].([]any)
	var got []string
	for _, e := range errs {
		m := e.(map[string]any)
		got = append(got, fmt.Sprint(m["field"], " ", m["rule"]))
		if m["field"] == field && (rule == "" || m["rule"] == rule) {
			return
		}
	}
	t.Fatalf("%s: errors %v, want %s %s", what, got, field, rule)
}

func jsonList(n int, item string) []any {
	l := make([]any, n)
	for i := range l {
		l[i] = fmt.Sprintf("%s %d", item, i)
	}
	return l
}

// TestOwnerEdit_FieldBounds sends every editable field just inside its bound
// (200, stored) and just outside (400 naming the field and rule, nothing stored).
func TestOwnerEdit_FieldBounds(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	a := strings.Repeat
	email254 := a("e", 64) + "@" + a("d", 185) + ".com"
	url500 := "https://video.example/" + a("v", 478)
	type bound struct {
		field  string
		value  any
		stored string // the column afterwards; "-" skips the check (lists are checked by length)
		rule   string // "" for inside; else the rule broken
		at     string // the field named when not fields.<field>
	}
	rows := []bound{
		{"tagline", a("t", 200), a("t", 200), "", ""}, {"tagline", a("t", 201), "", "maxLength", ""},
		{"short_description", a("s", 300), a("s", 300), "", ""}, {"short_description", a("s", 301), "", "maxLength", ""},
		{"description", a("d", 20000), a("d", 20000), "", ""}, {"description", a("d", 20001), "", "maxLength", ""},
		{"pricing_model", "Free" + a("m", 36), "free" + a("m", 36), "", ""}, {"pricing_model", a("m", 41), "", "maxLength", ""},
		{"pricing_summary", a("p", 300), a("p", 300), "", ""}, {"pricing_summary", a("p", 301), "", "maxLength", ""},
		{"country", "de", "DE", "", ""}, {"country", "DEU", "", "maxLength", ""}, {"country", "XX", "", "country", ""},
		{"country", "", "", "", ""},
		{"city", a("c", 120), a("c", 120), "", ""}, {"city", a("c", 121), "", "maxLength", ""},
		{"founded_year", 1800, "1800", "", ""}, {"founded_year", 2100, "2100", "", ""},
		{"founded_year", 1799, "", "minimum", ""}, {"founded_year", 2101, "", "maximum", ""},
		{"founded_year", "2019", "", "type", ""}, {"founded_year", nil, "", "", ""},
		{"demo_video_url", url500, url500, "", ""}, {"demo_video_url", url500 + "v", "", "maxLength", ""},
		{"demo_video_url", "ftp://video.example/a", "", "format", ""},
		{"contact_email", email254, email254, "", ""}, {"contact_email", "e" + email254, "", "maxLength", ""},
		{"contact_email", "hello at example.com", "", "format", ""},
		{"headline", a("h", 200), a("h", 200), "", ""}, {"headline", a("h", 201), "", "maxLength", ""},
		{"summary", " " + a("s", 19998) + "\n", a("s", 19998), "", ""}, {"summary", a("s", 20000), a("s", 20000), "", ""}, {"summary", a("s", 20001), "", "maxLength", ""},
		{"seo_title", a("t", 200), a("t", 200), "", ""}, {"seo_title", a("t", 201), "", "maxLength", ""},
		{"seo_description", a("m", 320), a("m", 320), "", ""}, {"seo_description", a("m", 321), "", "maxLength", ""},
	}
	for _, list := range []string{"features", "usps", "keywords"} {
		rows = append(rows,
			bound{list, append(jsonList(19, "item"), a("i", 200)), "-", "", ""},
			bound{list, jsonList(21, "item"), "", "maxItems", ""},
			bound{list, []any{a("i", 201)}, "", "maxLength", "fields." + list + "[0]"},
			bound{list, []any{"ok", "  "}, "", "minLength", "fields." + list + "[1]"},
			bound{list, []any{}, "[]", "", ""})
	}
	editTransports(t, env, key, func(t *testing.T, _ string, call draftCaller) {
		id := env.ownedListing(t, "owner@example.com", fixtures.Cols{"founded_year": 2001, "country": "FR"})
		for _, r := range rows {
			name := fmt.Sprintf("%s=%.20v", r.field, r.value)
			before, versions := listingColumn(t, env, id, r.field), versionCount(t, env, id)
			st, out := call(t, "update_my_listing", map[string]any{"listing_id": id, "fields": map[string]any{r.field: r.value}})
			if r.rule != "" {
				at := r.at
				if at == "" {
					at = "fields." + r.field
				}
				wantInvalid(t, name, st, out, at, r.rule)
				if got := listingColumn(t, env, id, r.field); got != before || versionCount(t, env, id) != versions {
					t.Fatalf("%s: a refused edit changed %s to %.40q (or stored a version)", name, r.field, got)
				}
				continue
			}
			if st != 200 {
				t.Fatalf("%s: %d %v", name, st, out)
			}
			got := listingColumn(t, env, id, r.field)
			switch {
			case r.stored == "-":
				var l []string
				if err := json.Unmarshal([]byte(got), &l); err != nil || len(l) != 20 || len(l[19]) != 200 {
					t.Fatalf("%s: stored %.80s", name, got)
				}
			case got != r.stored:
				t.Fatalf("%s: stored %.40q, want %.40q", name, got, r.stored)
			}
		}
	})
}

// TestOwnerEdit_ApplyTo carries the headline, summary and SEO fields to the
// same company's listings on other sites, and checks every apply_to rule.
func TestOwnerEdit_ApplyTo(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	env.apiKey(t, "someone@example.com")
	company := fixtures.Insert(t, env.db, "companies", fixtures.Cols{"name": "Acme", "domain": "acme.test", "created_at": 0})
	// The owner's listings on this site, made before the other sites exist
	// (ownedListing puts a listing on the first site it finds).
	mine := map[string]int64{}
	for _, tr := range []string{"rest", "mcp"} {
		mine[tr] = env.ownedListing(t, "owner@example.com", fixtures.Cols{"company_id": company})
	}
	long40 := strings.Repeat("k", 40)
	many := []any{}
	for i := 1; i <= 61; i++ {
		k := fmt.Sprintf("site-%02d", i)
		fixtures.Insert(t, env.db, "sites", fixtures.Cols{"key": k, "name": k, "created_at": 0})
		many = append(many, k)
	}
	for _, s := range [][2]string{{"other", "Other"}, {"third", "Third"}, {"fourth", "Fourth"}, {long40, "Long"}} {
		fixtures.Insert(t, env.db, "sites", fixtures.Cols{"key": s[0], "name": s[1], "created_at": 0})
	}
	// On other: the owner's; on third: nobody's; on fourth: someone else's.
	onSite := func(site, email string) int64 {
		var owner any
		if email != "" {
			owner = fixtures.ID(t, env.db, "users", fixtures.Cols{"email": email})
		}
		return fixtures.Insert(t, env.db, "listings", fixtures.Cols{"site_id": fixtures.ID(t, env.db, "sites", fixtures.Cols{"key": site}),
			"slug": "acme", "name": "Acme", "status": "live", "owner_id": owner, "company_id": company, "created_at": 0, "updated_at": 0})
	}
	other, third, fourth := onSite("other", "owner@example.com"), onSite("third", ""), onSite("fourth", "someone@example.com")

	editTransports(t, env, key, func(t *testing.T, tr string, call draftCaller) {
		id := mine[tr]
		st, out := call(t, "update_my_listing", map[string]any{"listing_id": id, "apply_to": []any{"all"},
			"fields": map[string]any{"headline": "Headline " + tr, "seo_title": "SEO " + tr, "tagline": "Tagline " + tr}})
		if st != 200 || out["version"] == nil {
			t.Fatalf("apply_to all: %d %v", st, out)
		}
		res := map[string]string{}
		for _, a := range out["applied_to"].([]any) {
			m := a.(map[string]any)
			res[fmt.Sprint(m["site"])] = fmt.Sprint(m["result"])
			if m["result"] == "skipped" && m["reason"] == "" {
				t.Errorf("skipped without a reason: %v", m)
			}
		}
		if len(res) != 3 || res["other"] != "written" || res["third"] != "written" || res["fourth"] != "skipped" {
			t.Fatalf("apply_to all: applied_to %v", out["applied_to"])
		}
		for _, l := range []int64{other, third} {
			if listingColumn(t, env, l, "headline") != "Headline "+tr || listingColumn(t, env, l, "seo_title") != "SEO "+tr ||
				listingColumn(t, env, l, "tagline") != "" {
				t.Fatalf("listing %d after apply_to: headline %q seo_title %q tagline %q", l, listingColumn(t, env, l, "headline"),
					listingColumn(t, env, l, "seo_title"), listingColumn(t, env, l, "tagline"))
			}
			if k := lastVersion(t, env, l)["kind"]; k != "apply_to" {
				t.Fatalf("listing %d: latest version kind %q, want apply_to", l, k)
			}
		}
		if listingColumn(t, env, fourth, "headline") != "" {
			t.Fatalf("someone else's listing was written")
		}

		// A site key: only that site; the same call again changes nothing.
		for i, want := range []string{"written", "unchanged"} {
			st, out = call(t, "update_my_listing", map[string]any{"listing_id": id, "apply_to": []any{"other"},
				"fields": map[string]any{"summary": "Summary " + tr}})
			applied := out["applied_to"].([]any)
			if st != 200 || len(applied) != 1 || applied[0].(map[string]any)["result"] != want {
				t.Fatalf("apply_to other (call %d): %d %v", i+1, st, out)
			}
			if (i == 1) != (out["version"] == nil) {
				t.Fatalf("apply_to other (call %d): version %v", i+1, out["version"])
			}
		}
		if listingColumn(t, env, other, "summary") != "Summary "+tr || listingColumn(t, env, third, "summary") != "" {
			t.Fatalf("summary carried to the wrong sites")
		}

		// 60 site keys and a 40-character key are inside; sites without the company's listing are skipped.
		st, out = call(t, "update_my_listing", map[string]any{"listing_id": id, "apply_to": many[:60],
			"fields": map[string]any{"seo_description": "Meta " + tr}})
		if st != 200 || len(out["applied_to"].([]any)) != 60 || !strings.Contains(fmt.Sprint(out["applied_to"]), "no listing on this site") {
			t.Fatalf("60 site keys: %d %v", st, out)
		}
		if st, out = call(t, "update_my_listing", map[string]any{"listing_id": id, "apply_to": []any{long40},
			"fields": map[string]any{"seo_description": "Meta 40 " + tr}}); st != 200 {
			t.Fatalf("a 40-character key: %d %v", st, out)
		}

		versions, otherHeadline := versionCount(t, env, id), listingColumn(t, env, other, "headline")
		for _, c := range []struct {
			name    string
			applyTo []any
			fields  map[string]any
			field   string
			rule    string
		}{
			{"61Keys", many, nil, "apply_to", "maxItems"},
			{"41Chars", []any{long40 + "k"}, nil, "apply_to[0]", "maxLength"},
			{"Unknown", []any{"other", "nosuch"}, nil, "apply_to[1]", "exists"},
			{"AllPlusKey", []any{"all", "other"}, nil, "apply_to[0]", "all_alone"},
			{"KeyPlusAll", []any{"other", "all"}, nil, "apply_to[1]", "all_alone"},
			{"Duplicate", []any{"other", "other"}, nil, "apply_to[1]", "uniqueItems"},
			{"ThisSite", []any{"main"}, nil, "apply_to[0]", "other_site"},
			{"NothingToCarry", []any{"other"}, map[string]any{"tagline": "Not carried"}, "apply_to", "requires"},
			{"EmptyFields", []any{"other"}, map[string]any{}, "fields", "minProperties"}, // declared in the schema
		} {
			fields := c.fields
			if fields == nil {
				fields = map[string]any{"headline": "Refused " + tr}
			}
			st, out := call(t, "update_my_listing", map[string]any{"listing_id": id, "apply_to": c.applyTo, "fields": fields})
			wantInvalid(t, c.name, st, out, c.field, c.rule)
			if versionCount(t, env, id) != versions || listingColumn(t, env, other, "headline") != otherHeadline ||
				listingColumn(t, env, id, "tagline") != "Tagline "+tr {
				t.Fatalf("%s: a refused edit stored something", c.name)
			}
		}
	})
}

// TestOwnerEdit_SocialsAndFAQs replaces socials and FAQs, with their bounds.
func TestOwnerEdit_SocialsAndFAQs(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	link := func(n int) string { return "https://x.com/" + strings.Repeat("a", n-len("https://x.com/")) }
	faqs := func(n, q, a int) []any {
		l := []any{}
		for i := 0; i < n; i++ {
			l = append(l, map[string]any{"question": fmt.Sprintf("Q%d%s", i, strings.Repeat("q", q-1-len(fmt.Sprint(i)))),
				"answer": strings.Repeat("a", a)})
		}
		return l
	}
	editTransports(t, env, key, func(t *testing.T, _ string, call draftCaller) {
		id := env.ownedListing(t, "owner@example.com")
		for _, c := range []struct {
			name   string
			args   map[string]any
			column string
			stored string // "" when refused
			field  string
			rule   string
		}{
			{"Socials", map[string]any{"socials": map[string]any{"x": "https://x.com/acme", "github": "https://github.com/acme"}},
				"socials", `{"github":"https://github.com/acme","x":"https://x.com/acme"}`, "", ""},
			{"SocialsReplaceAll", map[string]any{"socials": map[string]any{"linkedin": "https://linkedin.com/company/acme"}},
				"socials", `{"linkedin":"https://linkedin.com/company/acme"}`, "", ""},
			{"SocialsLink500", map[string]any{"socials": map[string]any{"x": link(500)}}, "socials", `{"x":"` + link(500) + `"}`, "", ""},
			{"SocialsLink501", map[string]any{"socials": map[string]any{"x": link(501)}}, "socials", "", "socials.x", "maxLength"},
			{"SocialsUnknownPlatform", map[string]any{"socials": map[string]any{"myspace": "https://myspace.com/acme"}},
				"socials", "", "socials.myspace", "additionalProperties"},
			{"SocialsNotHTTP", map[string]any{"socials": map[string]any{"github": "ftp://github.com/acme"}}, "socials", "",
				"socials.github", "format"},
			{"SocialsClear", map[string]any{"socials": map[string]any{}}, "socials", `{}`, "", ""},
			{"FAQs10", map[string]any{"faqs": faqs(10, 300, 1500)}, "faqs[]", "10", "", ""},
			{"FAQs11", map[string]any{"faqs": faqs(11, 20, 20)}, "faqs", "", "faqs", "maxItems"},
			{"FAQQuestion301", map[string]any{"faqs": faqs(1, 301, 20)}, "faqs", "", "faqs[0].question", "maxLength"},
			{"FAQAnswer1501", map[string]any{"faqs": faqs(1, 20, 1501)}, "faqs", "", "faqs[0].answer", "maxLength"},
			{"FAQBlankQuestion", map[string]any{"faqs": []any{map[string]any{"question": "  ", "answer": "Yes."}}}, "faqs", "",
				"faqs[0].question", "minLength"},
			{"FAQMissingAnswer", map[string]any{"faqs": []any{map[string]any{"question": "Why?"}}}, "faqs", "",
				"faqs[0].answer", "required"},
			{"FAQsClear", map[string]any{"faqs": []any{}}, "faqs", `[]`, "", ""},
		} {
			c.args["listing_id"] = id
			// column "faqs[]" is the number of FAQs stored.
			column := func(t *testing.T, env *catEnv, id int64, col string) string {
				t.Helper()
				if col != "faqs[]" {
					return listingColumn(t, env, id, col)
				}
				var l []any
				if err := json.Unmarshal([]byte(listingColumn(t, env, id, "faqs")), &l); err != nil {
					t.Fatal(err)
				}
				return strconv.Itoa(len(l))
			}
			before, versions := column(t, env, id, c.column), versionCount(t, env, id)
			st, out := call(t, "update_my_listing", c.args)
			if c.rule != "" {
				wantInvalid(t, c.name, st, out, c.field, c.rule)
				if column(t, env, id, c.column) != before || versionCount(t, env, id) != versions {
					t.Fatalf("%s: a refused edit stored something", c.name)
				}
				continue
			}
			if got := column(t, env, id, c.column); st != 200 || got != c.stored {
				t.Fatalf("%s: %d, %s = %.80s, want %.80s (%v)", c.name, st, c.column, got, c.stored, out["message"])
			}
		}
	})
}

// TestOwnerEdit_AccessHistoryNoOp: someone else's listing is a 404, no token
// a 401, nothing to change a 400; two edits are two versions in get_my_listing;
// an edit that changes nothing stores none and says so.
func TestOwnerEdit_AccessHistoryNoOp(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	env.apiKey(t, "someone@example.com")
	theirs := env.ownedListing(t, "someone@example.com", fixtures.Cols{"tagline": "Theirs"})

	id := env.ownedListing(t, "owner@example.com")
	body, _ := json.Marshal(map[string]any{"fields": map[string]any{"tagline": "No token"}})
	if r := catDo(t, env, "PATCH", fmt.Sprintf("/v1/me/listings/%d", id), body, map[string]string{"Content-Type": "application/json"}); r.status != 401 ||
		r.header.Get("WWW-Authenticate") == "" {
		t.Fatalf("REST without a token: %d %s", r.status, r.body)
	}
	rpc := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"update_my_listing","arguments":{"listing_id":%d,"fields":{"tagline":"No token"}}}}`, id)
	if r := catDo(t, env, "POST", "/mcp", []byte(rpc), map[string]string{"Content-Type": "application/json",
		"Accept": "application/json, text/event-stream", "Mcp-Protocol-Version": "2025-11-25"}); r.status != 401 || r.header.Get("WWW-Authenticate") == "" {
		t.Fatalf("MCP without a token: %d %s", r.status, r.body)
	}
	if listingColumn(t, env, id, "tagline") != "" || versionCount(t, env, id) != "0" {
		t.Fatalf("a call without a token stored something")
	}

	editTransports(t, env, key, func(t *testing.T, _ string, call draftCaller) {
		id := env.ownedListing(t, "owner@example.com", fixtures.Cols{"tagline": "First"})
		for _, other := range []int64{theirs, 999999} {
			st, p := call(t, "update_my_listing", map[string]any{"listing_id": other, "fields": map[string]any{"tagline": "Mine now"}})
			if st != 404 || p["code"] != "not_found" || !strings.Contains(fmt.Sprint(p["detail"]), "You have no listing") {
				t.Fatalf("listing %d: %d %v", other, st, p)
			}
		}
		if listingColumn(t, env, theirs, "tagline") != "Theirs" || versionCount(t, env, theirs) != "0" {
			t.Fatalf("someone else's listing changed")
		}
		// An empty patch changes nothing (the schema makes every key optional);
		// an empty fields object breaks the minProperties the schema declares
		// on fields (docs/owner-edits.md).
		st, p := call(t, "update_my_listing", map[string]any{"listing_id": id})
		if st != 200 || p["version"] != nil || !strings.Contains(fmt.Sprint(p["message"]), "Nothing sent to change") ||
			p["tagline"] != "First" || versionCount(t, env, id) != "0" {
			t.Fatalf("empty patch: %d %v", st, p)
		}
		st, p = call(t, "update_my_listing", map[string]any{"listing_id": id, "fields": map[string]any{}})
		wantInvalid(t, "empty fields", st, p, "fields", "minProperties")
		if st, p := call(t, "update_my_listing", map[string]any{"listing_id": theirs}); st != 404 {
			t.Fatalf("empty patch of someone else's listing: %d %v", st, p)
		}
		if st, p := call(t, "update_my_listing", map[string]any{"listing_id": id, "fields": map[string]any{"name": "X"}}); st != 400 {
			t.Fatalf("a field that is not editable: %d %v", st, p)
		}

		st, v1 := call(t, "update_my_listing", map[string]any{"listing_id": id,
			"fields": map[string]any{"tagline": "Second", "city": "Berlin"}})
		if st != 200 || v1["profile"].(map[string]any)["tagline"] != "Second" || v1["version"].(map[string]any)["version"] != float64(1) {
			t.Fatalf("first edit: %d %v", st, v1)
		}
		st, v2 := call(t, "update_my_listing", map[string]any{"listing_id": id, "fields": map[string]any{"tagline": "Third"},
			"faqs": []any{map[string]any{"question": "Free?", "answer": "Yes."}}})
		if st != 200 || v2["version"].(map[string]any)["version"] != float64(2) {
			t.Fatalf("second edit: %d %v", st, v2["version"])
		}
		st, same := call(t, "update_my_listing", map[string]any{"listing_id": id, "fields": map[string]any{"tagline": " Third "}})
		if st != 200 || same["version"] != nil || !strings.HasPrefix(fmt.Sprint(same["message"]), "Nothing changed") {
			t.Fatalf("a no-op edit: %d version %v message %v", st, same["version"], same["message"])
		}
		if versionCount(t, env, id) != "2" {
			t.Fatalf("versions after two edits and a no-op: %s", versionCount(t, env, id))
		}

		st, mine := call(t, "get_my_listing", map[string]any{"listing_id": id})
		hist, _ := mine["history"].([]any)
		if st != 200 || len(hist) != 2 || mine["profile"].(map[string]any)["tagline"] != "Third" {
			t.Fatalf("get_my_listing: %d history %v", st, mine["history"])
		}
		latest, first := hist[0].(map[string]any), hist[1].(map[string]any)
		if latest["version"] != float64(2) || fmt.Sprint(latest["fields"]) != "[tagline faqs]" || latest["by"] != "owner@example.com" ||
			latest["kind"] != "edit" || first["version"] != float64(1) || fmt.Sprint(first["fields"]) != "[tagline city]" {
			t.Fatalf("history: %v", hist)
		}
		if at, err := time.Parse(time.RFC3339, fmt.Sprint(latest["at"])); err != nil || !at.Equal(catNow) {
			t.Fatalf("history time %v, want the service clock %v", latest["at"], catNow)
		}
		// The before and after of each changed field are kept (the admin queue shows them).
		ver1 := fixtures.Rows(t, env.db, "listing_versions", fixtures.Cols{"listing_id": id, "version": 1})
		if len(ver1) != 1 {
			t.Fatalf("version 1 of %d: %d rows", id, len(ver1))
		}
		before, after := ver1[0]["before"], ver1[0]["after"]
		if before != `{"city":"","tagline":"First"}` || after != `{"city":"Berlin","tagline":"Second"}` {
			t.Fatalf("version 1 keeps before %s after %s", before, after)
		}
	})
}
