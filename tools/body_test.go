package tools

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

// The body and array mechanisms are not used by the public reads yet; these
// operations exercise them through the real router and validator.
type catEchoInput struct {
	ID    int      `json:"id" jsonschema:"minimum=1"`
	Title string   `json:"title,omitempty" jsonschema:"maxLength=10"`
	Tags  []string `json:"tags,omitempty" jsonschema:"maxItems=2"`
	N     []int    `json:"n,omitempty"`
}

type catEchoOutput struct {
	ID    int      `json:"id"`
	Title string   `json:"title"`
	Tags  []string `json:"tags"`
	N     []int    `json:"n"`
}

func catEcho(_ *domain.Service, _ context.Context, in catEchoInput) (catEchoOutput, error) {
	if in.Title == "boom" {
		return catEchoOutput{}, domain.Errorf(domain.EConflict, "Boom already exists.")
	}
	return catEchoOutput{ID: in.ID, Title: in.Title, Tags: append([]string{}, in.Tags...), N: append([]int{}, in.N...)}, nil
}

type catEchoListInput struct {
	Tags []string `json:"tags,omitempty" jsonschema:"maxItems=2"`
	N    []int    `json:"n,omitempty"`
}

func catEchoList(svc *domain.Service, ctx context.Context, in catEchoListInput) (catEchoOutput, error) {
	return catEcho(svc, ctx, catEchoInput{ID: 1, Tags: in.Tags, N: in.N})
}

func TestREST_BodyAndArrays(t *testing.T) {
	t.Parallel()
	ops := []Operation{
		Op(Spec{Name: "echo_item", Method: "POST", Path: "/echo/{id}", Status: 201, Tag: "Test", Title: "Echo",
			Summary: "Echoes its input."}, catEcho),
		Op(Spec{Name: "echo_list", Method: "GET", Path: "/echo", Tag: "Test", Title: "Echo list", ReadOnly: true,
			Summary: "Echoes its array input."}, catEchoList),
	}
	svc := domain.NewService(nil, domain.Site{Key: "main", Name: "Test", BaseURL: "http://127.0.0.1"}, time.Now)
	srv := httptest.NewServer(newServer(svc, Options{Now: svc.Now}, ops).Handler())
	t.Cleanup(srv.Close)
	env := &catEnv{Server: srv}
	jsonCT := map[string]string{"Content-Type": "application/json"}
	type fr struct{ field, rule string }
	rows := []struct {
		name, method, path, body string
		hdr                      map[string]string
		status                   int
		want                     string // body substring on success
		errs                     []fr
	}{
		{"body ok", "POST", "/v1/echo/7", `{"title":"hi","tags":["a"]}`, jsonCT, 201, `{"id":7,"title":"hi","tags":["a"],"n":[]}`, nil},
		{"empty body is {}", "POST", "/v1/echo/7", ``, nil, 201, `"id":7`, nil},
		{"path id in body", "POST", "/v1/echo/7", `{"id":8}`, jsonCT, 400, "", []fr{{"id", "additionalProperties"}}},
		{"path id validated", "POST", "/v1/echo/0", `{}`, jsonCT, 400, "", []fr{{"id", "minimum"}}},
		{"body bound", "POST", "/v1/echo/7", `{"title":"much too long","tags":["a","b","c"]}`, jsonCT, 400, "", []fr{{"tags", "maxItems"}, {"title", "maxLength"}}},
		{"unknown body field", "POST", "/v1/echo/7", `{"titel":"x"}`, jsonCT, 400, "", []fr{{"titel", "additionalProperties"}}},
		{"array item type", "POST", "/v1/echo/7", `{"n":[1,"two"]}`, jsonCT, 400, "", []fr{{"n[1]", "type"}}},
		{"not an object", "POST", "/v1/echo/7", `[1]`, jsonCT, 400, "", []fr{{"body", "type"}}},
		{"not JSON", "POST", "/v1/echo/7", `{`, jsonCT, 400, "", []fr{{"body", "type"}}},
		{"not JSON content type", "POST", "/v1/echo/7", `title=x`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 400, "", []fr{{"body", "type"}}},
		{"query next to a body", "POST", "/v1/echo/7?title=x", `{}`, jsonCT, 400, "", []fr{{"title", "additionalProperties"}}},
		{"domain error", "POST", "/v1/echo/7", `{"title":"boom"}`, jsonCT, 409, "Boom already exists.", nil},
		{"repeated query params are an array", "GET", "/v1/echo?tags=a&tags=b&n=1&n=2", "", nil, 200, `"tags":["a","b"],"n":[1,2]`, nil},
		{"array item coerced and checked", "GET", "/v1/echo?n=1&n=x", "", nil, 400, "", []fr{{"n[1]", "type"}}},
		{"array bound", "GET", "/v1/echo?tags=a&tags=b&tags=c", "", nil, 400, "", []fr{{"tags", "maxItems"}}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			r := catDo(t, env, row.method, row.path, []byte(row.body), row.hdr)
			if r.status != row.status {
				t.Fatalf("status %d, want %d: %s", r.status, row.status, r.body)
			}
			if r.status < 300 {
				if !strings.Contains(string(r.body), row.want) {
					t.Errorf("body %s lacks %s", r.body, row.want)
				}
				return
			}
			p := catProblem(t, r)
			if !strings.Contains(p.Detail, row.want) {
				t.Errorf("detail %q lacks %q", p.Detail, row.want)
			}
			var got []fr
			for _, e := range p.Errors {
				got = append(got, fr{e.Field, e.Rule})
			}
			if !slices.Equal(got, row.errs) {
				t.Errorf("errors %v, want %v", got, row.errs)
			}
		})
	}

	// The OpenAPI document puts body fields in requestBody and path fields in parameters.
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters  []map[string]any `json:"parameters"`
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Properties map[string]any `json:"properties"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	r := catDo(t, env, "GET", "/v1/openapi.json", nil, nil)
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatal(err)
	}
	post := doc.Paths["/echo/{id}"]["post"]
	props := post.RequestBody.Content["application/json"].Schema.Properties
	if len(post.Parameters) != 1 || post.Parameters[0]["in"] != "path" || props["title"] == nil || props["id"] != nil {
		t.Errorf("POST /echo/{id}: parameters %v, body properties %v", post.Parameters, props)
	}
	get := doc.Paths["/echo"]["get"]
	if len(get.Parameters) != 2 || get.Parameters[0]["explode"] != true {
		t.Errorf("GET /echo parameters %v", get.Parameters)
	}

	// Over MCP the same operation takes its path parameter as an argument, and
	// integral numbers written with a fraction decode into ints, in arrays too.
	cs := catConnect(t, srv.URL, "2026-07-28", nil)
	res, text := catCall(t, cs, "echo_item", map[string]any{"id": 7.0, "n": []any{1.0, 2}})
	if res.IsError || text != `{"id":7,"title":"","tags":[],"n":[1,2]}` {
		t.Errorf("MCP echo_item: %s", text)
	}
	res, text = catCall(t, cs, "echo_item", map[string]any{"id": 7, "title": "boom"})
	var p Problem
	if err := json.Unmarshal([]byte(text), &p); err != nil || !res.IsError || p.Code != domain.EConflict || p.Status != 409 {
		t.Errorf("MCP domain error: %s", text)
	}
}
