package tools

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestREST_EmptyQueryValueIsDefault walks the catalog:
// for every operation that takes its input in the query, each query
// parameter sent with an empty value (?sort=, ?page=, as forms with an empty
// select and unfilled URL templates send them) answers what the request
// without it answers, never a 400 naming it; so does every parameter empty at
// once (a required parameter sent empty is missing, as without it).
// Before, ?section=, ?sort=, ?page= and ?country= were 400s.
func TestREST_EmptyQueryValueIsDefault(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env := catTestServer(t, Options{}, true)
	key := env.apiKey(t, "owner@example.com")
	id := env.ownedListing(t, "owner@example.com")
	hdr := map[string]string{"Authorization": "Bearer " + key}
	checked := 0
	for _, b := range env.tools.ops {
		if hasBody(b.Method) {
			continue
		}
		path := b.Path
		for _, p := range b.PathParams {
			val := "notewise"
			if b.v.props[p].Type == "integer" {
				val = "1"
				if strings.Contains(b.Path, "listings") {
					val = jsonNum(id)
				}
			}
			path = strings.Replace(path, "{"+p+"}", val, 1)
		}
		var params []string
		for name := range b.v.props {
			if !slices.Contains(b.PathParams, name) {
				params = append(params, name)
			}
		}
		slices.Sort(params)
		if len(params) == 0 {
			continue
		}
		get := func(query string) (int, []string) {
			res := catDo(t, env, b.Method, "/v1"+path+query, nil, hdr)
			var p struct {
				Errors []struct{ Field, Rule string } `json:"errors"`
			}
			_ = json.Unmarshal(res.body, &p)
			var named []string
			for _, e := range p.Errors {
				named = append(named, e.Field+" "+e.Rule)
			}
			return res.status, named
		}
		var all []string
		for _, name := range params {
			all = append(all, name+"=")
			checked++
			st, errs := get("?" + name + "=")
			for _, e := range errs {
				if strings.HasPrefix(e, name+" ") && e != name+" required" { // a required one is missing
					t.Errorf("%s %s?%s=: %d naming %s", b.Method, path, name, st, e)
				}
			}
			if b.Method != http.MethodGet {
				continue // a repeated DELETE need not answer the same
			}
			if want, wantErrs := get(""); st != want || !slices.Equal(errs, wantErrs) {
				t.Errorf("%s %s?%s=: %d %v, without it %d %v", b.Method, path, name, st, errs, want, wantErrs)
			}
		}
		if b.Method == http.MethodGet {
			st, errs := get("?" + strings.Join(all, "&"))
			if want, wantErrs := get(""); st != want || !slices.Equal(errs, wantErrs) {
				t.Errorf("%s %s?%s: %d %v, without them %d %v", b.Method, path, strings.Join(all, "&"), st, errs, want, wantErrs)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d query parameters walked", checked)
	}
	t.Logf("%d query parameters walked", checked)
	// A parameter no operation takes is still reported when empty.
	res := catDo(t, env, "GET", "/v1/listings?no_such=", nil, nil)
	var p map[string]any
	_ = json.Unmarshal(res.body, &p)
	wantInvalid(t, "no_such=", res.status, p, "no_such", "additionalProperties")
}

func jsonNum(n int64) string { b, _ := json.Marshal(n); return string(b) }
