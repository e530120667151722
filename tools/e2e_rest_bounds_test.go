package tools

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// e2ePaginated are the paginated operations with a valid URL to append page/per_page to.
func e2ePaginated(t *testing.T, e *e2eEnv) map[string]string {
	cat, _ := e2eParentWithChildren(t, e)
	return map[string]string{
		"search_listings": "/v1/listings?q=app",
		"get_category":    "/v1/categories/" + cat.Slug + "?",
		"list_launches":   "/v1/launches?section=most-voted",
		"get_leaderboard": "/v1/leaderboards/community-all-time?",
		"list_founders":   "/v1/founders?",
		"list_blog_posts": "/v1/blog?",
		"list_awards":     "/v1/awards?",
	}
}

// e2eStringBound returns the rows for a maximum string length: max passes, max+1 fails.
func e2eStringBound(name, path, param string, max int) []e2eScenario {
	in := strings.Repeat("a", max)
	return []e2eScenario{
		{name: fmt.Sprintf("%s_%d", name, max), url: e2eQuery(path, param, in), wantStatus: 200},
		{name: fmt.Sprintf("%s_%d", name, max+1), url: e2eQuery(path, param, in+"a"), wantStatus: 400,
			wantErrors: []e2eFieldRule{{param, "maxLength"}}},
	}
}

func e2eBoundRows(t *testing.T, e *e2eEnv) []e2eScenario {
	var rows []e2eScenario
	for op, u := range e2ePaginated(t, e) {
		sep := "&"
		if strings.HasSuffix(u, "?") {
			sep = ""
		}
		for _, b := range []struct {
			param, value string
			status       int
			rule         string
		}{
			{"per_page", "1", 200, ""}, {"per_page", "100", 200, ""},
			{"per_page", "0", 400, "minimum"}, {"per_page", "101", 400, "maximum"}, {"per_page", "-1", 400, "minimum"},
			{"per_page", "abc", 400, "type"}, {"per_page", "2.5", 400, "type"},
			{"page", "1", 200, ""}, {"page", "1000", 200, ""},
			{"page", "0", 400, "minimum"}, {"page", "1001", 400, "maximum"}, {"page", "x", 400, "type"},
		} {
			row := e2eScenario{name: op + "/" + b.param + "=" + b.value, url: u + sep + b.param + "=" + b.value, wantStatus: b.status}
			if b.status == 400 {
				row.wantErrors = []e2eFieldRule{{b.param, b.rule}}
			} else {
				perPage := b.value
				if b.param == "page" {
					perPage = "20"
				}
				row.wantContains = []string{`"per_page":` + perPage, `"page":`}
			}
			rows = append(rows, row)
		}
		rows = append(rows, e2eScenario{name: op + "/unknown", url: u + sep + "per_pg=5", wantStatus: 400,
			wantErrors: []e2eFieldRule{{"per_pg", "additionalProperties"}}})
	}
	rows = append(rows, e2eStringBound("search_q", "/v1/listings", "q", 200)...)
	rows = append(rows, e2eStringBound("search_pricing_model", "/v1/listings", "pricing_model", 40)...)
	rows = append(rows, e2eStringBound("founder_q", "/v1/founders", "q", 120)...)
	rows = append(rows, e2eStringBound("blog_q", "/v1/blog", "q", 200)...)
	// A domain of 253 characters: labels of 63 letters joined by dots.
	dom253 := strings.Repeat(strings.Repeat("a", 63)+".", 3) + strings.Repeat("b", 61)
	rows = append(rows,
		e2eScenario{name: "search_domain_253", url: e2eQuery("/v1/listings", "domain", dom253), wantStatus: 200, wantContains: []string{`"total":0`}},
		e2eScenario{name: "search_domain_254", url: e2eQuery("/v1/listings", "domain", dom253+"b"), wantStatus: 400, wantErrors: []e2eFieldRule{{"domain", "maxLength"}}},
	)
	for _, c := range []struct {
		path, value string
		ok          bool
	}{
		{"/v1/listings", "US", true}, {"/v1/listings", "de", true}, {"/v1/listings", "usa", false}, {"/v1/listings", "1x", false}, {"/v1/listings", "U", false},
		{"/v1/founders", "US", true}, {"/v1/founders", "usa", false}, {"/v1/founders", "1x", false},
	} {
		row := e2eScenario{name: "country" + c.path + "=" + c.value, url: c.path + "?country=" + c.value, wantStatus: 200}
		if !c.ok {
			row.wantStatus, row.wantErrors = 400, []e2eFieldRule{{"country", "pattern"}}
		}
		rows = append(rows, row)
	}
	for _, p := range []struct{ param, value, rule string }{
		{"category", "Bad_Slug", "pattern"}, {"category", strings.Repeat("a", 221), "maxLength|pattern"},
		{"stage", "Pre Launch", "enum"}, {"stage", "seed", "enum"}, {"stage", "mvp", "enum"},
		{"category", "no-such-category", "exists"}, {"status", "archived", "enum"}, {"status", "LIVE", "enum"},
		{"sort", "best", "enum"}, {"sort", "most-viewed", "enum"},
	} {
		rows = append(rows, e2eScenario{name: "search_" + p.param + "=" + p.value[:min(len(p.value), 12)], url: e2eQuery("/v1/listings", p.param, p.value),
			wantStatus: 400, wantErrors: []e2eFieldRule{{p.param, p.rule}}})
	}
	for _, s := range []string{"live", "upcoming"} {
		rows = append(rows, e2eScenario{name: "search_status=" + s, url: "/v1/listings?status=" + s, wantStatus: 200})
	}
	for _, s := range []string{"relevance", "newest", "votes", "trending", "most_viewed", "most_followed"} {
		rows = append(rows, e2eScenario{name: "search_sort=" + s, url: "/v1/listings?q=app&sort=" + s, wantStatus: 200})
	}
	for _, st := range domain.Stages {
		rows = append(rows, e2eScenario{name: "search_stage=" + st.Slug, url: "/v1/listings?stage=" + st.Slug, wantStatus: 200})
	}
	rows = append(rows,
		// 220 characters pass the bounds; no category has that slug (an
		// empty page would read as "nothing listed there").
		e2eScenario{name: "search_category_220", url: "/v1/listings?category=" + strings.Repeat("a", 220), wantStatus: 400,
			wantErrors: []e2eFieldRule{{"category", "exists"}}, wantContains: []string{"list_categories"}},
		e2eScenario{name: "search_several_bad", url: "/v1/listings?per_page=0&page=0&country=usa&sort=best", wantStatus: 400,
			wantErrors: []e2eFieldRule{{"per_page", "minimum"}, {"page", "minimum"}, {"country", "pattern"}, {"sort", "enum"}}},
	)
	return rows
}

func e2eRoutingRows() []e2eScenario {
	return []e2eScenario{
		{name: "UnknownPath", url: "/v1/no-such-operation", wantStatus: 404},
		{name: "SignedInOperationWithoutCredential", url: "/v1/claims", wantStatus: 401, wantContains: []string{`"code":"unauthenticated"`}},
		{name: "WrongMethod", method: http.MethodPost, url: "/v1/listings", wantStatus: 405, wantHeader: map[string]string{"Allow": "GET"}, wantContains: []string{`"code":"method_not_allowed"`}},
		{name: "WrongMethodOnSlug", method: http.MethodDelete, url: "/v1/listings/some-listing", wantStatus: 405, wantHeader: map[string]string{"Allow": "GET"}},
		{name: "OpenAPI", url: "/v1/openapi.json", wantStatus: 200, wantContains: []string{`"search_listings"`, `"get_badges"`}, check: func(t *testing.T, body []byte) {
			doc := e2eDecode[struct {
				OpenAPI string                    `json:"openapi"`
				Paths   map[string]map[string]any `json:"paths"`
			}](t, body)
			paths := map[string]bool{}
			for _, op := range Catalog() {
				paths[op.Path] = true
			}
			if !strings.HasPrefix(doc.OpenAPI, "3.1") || len(doc.Paths) != len(paths) {
				t.Errorf("openapi %q with %d paths, want 3.1 and one per served path (%d)", doc.OpenAPI, len(doc.Paths), len(paths))
			}
			for _, p := range e2eRoutes {
				if _, ok := doc.Paths["/v1"+p]; !ok {
					if _, ok := doc.Paths[p]; !ok {
						t.Errorf("openapi lacks path %s", p)
					}
				}
			}
		}},
	}
}
