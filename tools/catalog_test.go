package tools

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// catSpecOp is one operation as the spec's endpoint tables declare it.
type catSpecOp struct {
	name, method, path, scope string
	idem                      bool
	status                    int
}

// catSpec holds the spec's 41 operations, written from the endpoint tables of
// launch-directory-api.md (not from the catalog), and the 6 trophy
// operations of the part the spec names without paths (docs/trophies.md).
var catSpec = []catSpecOp{
	// Public reads.
	{"get_site_info", "GET", "/site", "", false, 200},
	{"search_listings", "GET", "/listings", "", false, 200},
	{"get_listing", "GET", "/listings/{slug}", "", false, 200},
	{"get_alternatives", "GET", "/listings/{slug}/alternatives", "", false, 200},
	{"compare_listings", "GET", "/compare", "", false, 200},
	{"list_categories", "GET", "/categories", "", false, 200},
	{"get_category", "GET", "/categories/{slug}", "", false, 200},
	{"get_launch_week", "GET", "/launches/weeks/{week}", "", false, 200},
	{"list_launches", "GET", "/launches", "", false, 200},
	{"get_leaderboard", "GET", "/leaderboards/{board}", "", false, 200},
	{"list_founders", "GET", "/founders", "", false, 200},
	{"get_founder", "GET", "/founders/{slug}", "", false, 200},
	{"list_blog_posts", "GET", "/blog", "", false, 200},
	{"get_blog_post", "GET", "/blog/{slug}", "", false, 200},
	{"list_awards", "GET", "/awards", "", false, 200},
	{"get_badges", "GET", "/listings/{slug}/badges", "", false, 200},
	{"list_interview_questions", "GET", "/interview-questions", "", false, 200},
	// Account and drafts.
	{"get_account", "GET", "/me", "account:read", false, 200},
	{"submit_listing", "POST", "/drafts", "listings:write", true, 201},
	{"list_my_drafts", "GET", "/drafts", "account:read", false, 200},
	{"get_draft", "GET", "/drafts/{id}", "account:read", false, 200},
	{"update_draft", "PATCH", "/drafts/{id}", "listings:write", true, 200},
	{"invite_cofounder", "POST", "/drafts/{id}/invites", "listings:write", true, 201},
	{"submit_draft", "POST", "/drafts/{id}/submit", "listings:write", true, 200},
	// Own listings.
	{"list_my_listings", "GET", "/me/listings", "account:read", false, 200},
	{"get_my_listing", "GET", "/me/listings/{listing_id}", "account:read", false, 200},
	{"update_my_listing", "PATCH", "/me/listings/{listing_id}", "listings:write", true, 200},
	{"post_listing_update", "POST", "/me/listings/{listing_id}/updates", "listings:write", true, 201},
	{"add_milestone", "POST", "/me/listings/{listing_id}/milestones", "listings:write", true, 201},
	{"delete_milestone", "DELETE", "/me/listings/{listing_id}/milestones/{milestone_id}", "listings:write", true, 200},
	{"set_founder_story", "PUT", "/me/listings/{listing_id}/story", "listings:write", true, 200},
	{"answer_interview", "PUT", "/me/interview", "listings:write", true, 200},
	{"choose_free_listing", "POST", "/me/listings/{listing_id}/free", "listings:write", true, 200},
	// Claims.
	{"claim_listing", "POST", "/claims", "listings:write", true, 201},
	{"list_my_claims", "GET", "/claims", "account:read", false, 200},
	{"verify_claim", "POST", "/claims/{claim_id}/verify", "listings:write", true, 200},
	// Orders.
	{"quote_order", "POST", "/orders/quote", "orders:write", false, 200},
	{"create_checkout", "POST", "/orders/checkout", "orders:write", true, 201},
	{"list_my_orders", "GET", "/orders", "account:read", false, 200},
	{"get_order", "GET", "/orders/{number}", "account:read", false, 200},
	// The spec does not show the scope of list_products ("not shown"): public, like
	// the other catalogue reads (docs/orders.md).
	{"list_products", "GET", "/products", "", false, 200},
	// Trophies: the spec names the part ("paths and shapes not shown");
	// designed in docs/trophies.md.
	{"get_trophy_cabinet", "GET", "/listings/{slug}/trophies", "", false, 200},
	{"get_trophy_leaderboard", "GET", "/trophies/leaderboard", "", false, 200},
	{"get_hall_of_fame", "GET", "/hall-of-fame", "", false, 200},
	{"list_my_trophies", "GET", "/me/listings/{listing_id}/trophies", "account:read", false, 200},
	{"add_trophy", "POST", "/me/listings/{listing_id}/trophies", "listings:write", true, 201},
	{"delete_trophy", "DELETE", "/me/listings/{listing_id}/trophies/{trophy_id}", "listings:write", true, 200},
	{"list_programmes", "GET", "/programmes", "", false, 200},
	{"get_programme", "GET", "/programmes/{slug}", "", false, 200},
	{"enter_programme", "POST", "/me/listings/{listing_id}/programmes", "listings:write", true, 201},
	{"withdraw_programme_entry", "DELETE", "/me/listings/{listing_id}/programmes/{programme}", "listings:write", true, 200},
	// Webhooks: the spec leaves events open ("not shown"); designed in
	// docs/webhooks.md (issue 34).
	{"list_webhooks", "GET", "/me/webhooks", "account:read", false, 200},
	{"create_webhook", "POST", "/me/webhooks", "listings:write", true, 201},
	{"update_webhook", "PATCH", "/me/webhooks/{webhook_id}", "listings:write", true, 200},
	{"delete_webhook", "DELETE", "/me/webhooks/{webhook_id}", "listings:write", true, 200},
	{"rotate_webhook_secret", "POST", "/me/webhooks/{webhook_id}/rotate-secret", "listings:write", true, 200},
	{"send_test_webhook", "POST", "/me/webhooks/{webhook_id}/test", "listings:write", true, 202},
	{"list_webhook_deliveries", "GET", "/me/webhooks/{webhook_id}/deliveries", "account:read", false, 200},
	{"redeliver_webhook", "POST", "/me/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", "listings:write", true, 202},
}

func TestCatalog_MatchesSpec(t *testing.T) {
	t.Parallel()
	if len(catSpec) != 59 {
		t.Fatalf("spec table has %d operations, want 41 + 10 trophy and programme + 8 webhook operations", len(catSpec))
	}
	spec := map[string]catSpecOp{}
	for _, s := range catSpec {
		if _, dup := spec[s.name]; dup {
			t.Fatalf("spec table lists %s twice", s.name)
		}
		spec[s.name] = s
	}
	served := map[string]bool{}
	for _, op := range Catalog() {
		t.Run(op.Name, func(t *testing.T) {
			s, ok := spec[op.Name]
			if !ok {
				t.Fatalf("served operation %s is not in the spec", op.Name)
			}
			if op.Method != s.method || op.Path != s.path {
				t.Errorf("route = %s %s, spec says %s %s", op.Method, op.Path, s.method, s.path)
			}
			if op.Scope != s.scope {
				t.Errorf("scope = %q, spec says %q", op.Scope, s.scope)
			}
			if op.Idem != s.idem {
				t.Errorf("Idem = %v, spec says %v", op.Idem, s.idem)
			}
			if op.SuccessStatus() != s.status {
				t.Errorf("success status = %d, spec says %d", op.SuccessStatus(), s.status)
			}
		})
		if served[op.Name] {
			t.Errorf("%s is in the catalog twice", op.Name)
		}
		served[op.Name] = true
	}
	for _, s := range catSpec {
		if !served[s.name] {
			t.Errorf("spec operation %s is not in the catalog", s.name)
		}
	}
}

var catToolName = regexp.MustCompile(`^[A-Za-z0-9_.\-/]{1,64}$`)

func TestCatalog_Invariants(t *testing.T) {
	t.Parallel()
	patterns := map[string]string{}
	for _, op := range Catalog() {
		t.Run(op.Name, func(t *testing.T) {
			if !catToolName.MatchString(op.Name) {
				t.Errorf("name %q is not a valid MCP tool name", op.Name)
			}
			if op.Title == "" || len(op.Summary) < 60 {
				t.Errorf("title %q / summary %q: every tool needs a title and a summary a model can act on", op.Title, op.Summary)
			}
			if op.Tag == "" {
				t.Error("no OpenAPI tag")
			}
			if other, dup := patterns[op.Pattern()]; dup {
				t.Errorf("route %s is also %s", op.Pattern(), other)
			}
			patterns[op.Pattern()] = op.Name

			var in map[string]any
			if err := json.Unmarshal(op.InputSchema, &in); err != nil {
				t.Fatal(err)
			}
			if in["type"] != "object" {
				t.Errorf("input schema type = %v, want object", in["type"])
			}
			for _, k := range []string{"anyOf", "oneOf", "allOf", "$ref", "not", "if"} {
				if _, ok := in[k]; ok {
					t.Errorf("input schema has top-level %s", k)
				}
			}
			if in["additionalProperties"] != false {
				t.Errorf("input schema additionalProperties = %v, want false", in["additionalProperties"])
			}
			props, _ := in["properties"].(map[string]any)
			required, _ := in["required"].([]any)
			for _, p := range op.PathParams {
				if _, ok := props[p]; !ok {
					t.Errorf("path parameter {%s} is not an input field", p)
				}
				if !slices.Contains(required, any(p)) {
					t.Errorf("path parameter {%s} is not a required input field", p)
				}
			}
			var out map[string]any
			if err := json.Unmarshal(op.OutputSchema, &out); err != nil {
				t.Fatal(err)
			}
			if out["type"] != "object" {
				t.Errorf("output schema type = %v, want object", out["type"])
			}

			if op.Method == "GET" && !op.ReadOnly {
				t.Error("GET operations must be read-only")
			}
			if op.ReadOnly && (op.Destructive || op.Method != "GET") {
				t.Error("a read-only operation can be neither destructive nor other than GET")
			}
			tool := mcpTool(op)
			a := tool.Annotations
			// The title is the tool's own and annotations.title (the only one a 2025-03-26 client reads).
			if a == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil || tool.Title == "" || a.Title != tool.Title {
				t.Fatalf("tool annotations incomplete: %+v", a)
			}
			if a.ReadOnlyHint != op.ReadOnly || *a.DestructiveHint != op.Destructive ||
				a.IdempotentHint != op.IdempotentHint || *a.OpenWorldHint != op.OpenWorld {
				t.Errorf("annotations %+v do not match the row", a)
			}
			if op.Scope == "" && op.Method == "GET" && op.OpenWorld {
				t.Error("public reads read only this directory: openWorldHint must be false")
			}
		})
	}
}

// TestCatalog_ServedIsTheSpec checks what the running server exposes: its
// MCP tools/list names exactly the spec's operations, and a route outside
// the spec is a problem+json 404. (It replaces a test of "pending"
// operations that looped over an empty list: every spec operation is served,
// and the pending list is gone.)
func TestCatalog_ServedIsTheSpec(t *testing.T) {
	t.Parallel()
	srv := catTestServer(t, Options{}, false)
	want := make([]string, 0, len(catSpec))
	for _, s := range catSpec {
		want = append(want, s.name)
	}
	got := catListTools(t, srv.URL, "2025-11-25")
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("MCP tools/list differs from the spec's operations (-spec +served):\n%s", diff)
	}
	for _, path := range []string{"/v1/not-an-operation", "/v1/listings/x/not-an-operation"} {
		resp := catDo(t, srv, http.MethodGet, path, nil, nil)
		if resp.status != 404 {
			t.Errorf("GET %s answered %d, want 404", path, resp.status)
		}
		if ct := resp.header.Get("Content-Type"); ct != ProblemContentType {
			t.Errorf("GET %s: content type %q, want problem+json", path, ct)
		}
	}
}

var catParam = regexp.MustCompile(`\{[a-z_]+\}`)

// catFillPath replaces path parameters with plausible values.
func catFillPath(p string) string {
	return catParam.ReplaceAllStringFunc(p, func(s string) string {
		switch s {
		case "{listing_id}", "{milestone_id}", "{claim_id}", "{trophy_id}", "{webhook_id}", "{delivery_id}":
			return "1"
		case "{id}":
			return "6f1c2b6e-8a6f-4d43-9b7e-0d6f0c1f2a3b"
		case "{week}":
			return "this"
		case "{board}":
			return "billboard"
		}
		return "x1"
	})
}

// TestCatalog_ListsNameTheirArrayItems: every list-shaped answer (a list_ or
// search_ operation, or any paginated one) carries its entries in a top-level
// array named items, as the spec says of list responses, and in no other
// top-level array.
func TestCatalog_ListsNameTheirArrayItems(t *testing.T) {
	t.Parallel()
	for _, op := range Catalog() {
		var out struct {
			Properties map[string]struct {
				Type any `json:"type"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(op.OutputSchema, &out); err != nil {
			t.Fatal(err)
		}
		_, paged := out.Properties["page"]
		if !paged && !strings.HasPrefix(op.Name, "list_") && !strings.HasPrefix(op.Name, "search_") {
			continue
		}
		var arrays []string
		for name, p := range out.Properties {
			if p.Type == "array" || slices.Contains(asStrings(p.Type), "array") {
				arrays = append(arrays, name)
			}
		}
		if !slices.Equal(arrays, []string{"items"}) {
			t.Errorf("%s answers the top-level arrays %v; a list answers one array, items", op.Name, arrays)
		}
	}
}

// asStrings returns a JSON Schema type list ([]any of strings) as strings.
func asStrings(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, s := range l {
		if s, ok := s.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
