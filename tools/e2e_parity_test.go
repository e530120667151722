package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/testclock"
)

// e2eFixtures are real slugs of the demo data, read through the REST API.
type e2eFixtures struct {
	listing, other, category, subcategory, founder, post, winner, programme string
}

func e2eNewFixtures(t *testing.T, e *e2eEnv) e2eFixtures {
	t.Helper()
	x := e2eNoteTaking(t, e)
	parent, child := e2eParentWithChildren(t, e)
	var fx e2eFixtures
	fx.listing, fx.category, fx.subcategory = x.Slug, parent.Slug, child.Slug
	for _, l := range e.e2eAllLive(t) {
		if l.Slug != x.Slug && l.PrimaryCategory != nil && x.PrimaryCategory != nil && l.PrimaryCategory.Slug == x.PrimaryCategory.Slug {
			fx.other = l.Slug
			break
		}
	}
	var founders domain.ListFoundersOutput
	e.getJSON(t, "/v1/founders?per_page=1", &founders)
	var posts domain.ListBlogPostsOutput
	e.getJSON(t, "/v1/blog?per_page=1", &posts)
	var awards domain.ListAwardsOutput
	e.getJSON(t, "/v1/awards?per_page=1", &awards)
	if fx.other == "" || len(founders.Items) == 0 || len(posts.Items) == 0 || len(awards.Items) == 0 {
		t.Fatalf("demo data lacks a second note-taking listing, a founder, a post or an award")
	}
	fx.founder, fx.post, fx.winner = founders.Items[0].Slug, posts.Items[0].Slug, awards.Items[0].Listing.Slug
	// An award programme open now, as the site team makes it in the console.
	today := e.svc.Now().UTC()
	day := func(d int) string { return today.AddDate(0, 0, d).Format(domain.DateLayout) }
	p, err := e.svc.CreateProgramme(context.Background(), domain.CreateProgrammeInput{Name: "Parity Programme", EntryOpens: day(-2),
		EntryCloses: day(5), VotingOpens: day(-2), VotingCloses: day(10), Winners: 1}, "team@example.com")
	if err != nil && domain.ErrorCode(err) != domain.EConflict {
		t.Fatalf("CreateProgramme: %v", err)
	}
	if p != nil {
		fx.programme = p.Slug
	} else {
		fx.programme = "parity-programme"
	}
	return fx
}

// e2eParityCase is one call made over both transports.
type e2eParityCase struct {
	tool string
	args map[string]any
}

func e2eParityCases(fx e2eFixtures) []e2eParityCase {
	type A = map[string]any
	long := func(n int) string { return strings.Repeat("a", n) }
	return []e2eParityCase{
		{"get_site_info", A{}},
		{"get_site_info", A{"x": 1}},
		{"search_listings", A{}},
		{"search_listings", A{"q": "notetakng app", "per_page": 5}},
		{"search_listings", A{"q": "app", "sort": "newest", "page": 2, "per_page": 10}},
		{"search_listings", A{"category": fx.category, "country": "us", "pricing_model": "freemium"}},
		{"search_listings", A{"status": "upcoming", "per_page": 100}},
		{"search_listings", A{"q": long(201)}},
		{"search_listings", A{"per_page": 101, "page": 0, "sort": "best", "country": "usa"}},
		{"search_listings", A{"domain": long(254), "pricing_model": long(41)}},
		{"search_listings", A{"status": "archived"}},
		{"get_listing", A{"slug": fx.listing}},
		{"get_listing", A{"slug": "no-such-listing-e2e"}},
		{"get_listing", A{"slug": "Bad_Slug"}},
		{"get_alternatives", A{"slug": fx.listing}},
		{"get_alternatives", A{"slug": "no-such-listing-e2e"}},
		{"get_alternatives", A{"slug": "Bad_Slug"}},
		{"compare_listings", A{"a": fx.listing, "b": fx.other}},
		{"compare_listings", A{"a": fx.listing, "b": fx.listing}},
		{"compare_listings", A{"a": fx.listing, "b": "no-such-listing-e2e"}},
		{"compare_listings", A{"a": fx.listing}},
		{"list_categories", A{}},
		{"list_categories", A{"include_empty": false}},
		{"list_categories", A{"include_empty": "maybe"}},
		{"get_category", A{"slug": fx.category, "per_page": 5}},
		{"get_category", A{"slug": fx.subcategory, "page": 2, "per_page": 2}},
		{"get_category", A{"slug": "no-such-category-e2e"}},
		{"get_category", A{"slug": fx.category, "per_page": 0}},
		{"get_launch_week", A{"week": "this"}},
		{"get_launch_week", A{"week": "next"}},
		{"get_launch_week", A{"week": "2026-11-11"}},
		{"get_launch_week", A{"week": "2020-01-06"}},
		{"get_launch_week", A{"week": "2026-02-30"}},
		{"get_launch_week", A{"week": "tomorrow"}},
		{"list_launches", A{}},
		{"list_launches", A{"section": "trending", "per_page": 5}},
		{"list_launches", A{"section": "upcoming"}},
		{"list_launches", A{"section": "today"}},
		{"list_launches", A{"section": "hot"}},
		{"get_leaderboard", A{"board": "community-weekly", "week": "last"}},
		{"get_leaderboard", A{"board": "community-all-time", "page": 2, "per_page": 5}},
		{"get_leaderboard", A{"board": "billboard"}},
		{"get_leaderboard", A{"board": "domain-rating"}},
		{"get_leaderboard", A{"board": "revenue"}},
		{"get_leaderboard", A{"board": "billboard", "week": "this"}},
		{"get_leaderboard", A{"board": "fame"}},
		{"list_founders", A{}},
		{"list_founders", A{"country": "US", "per_page": 3}},
		{"list_founders", A{"q": long(121)}},
		{"get_founder", A{"slug": fx.founder}},
		{"get_founder", A{"slug": "no-such-founder-e2e"}},
		{"get_founder", A{"slug": "-founder"}},
		{"list_blog_posts", A{}},
		{"list_blog_posts", A{"q": "badge"}},
		{"list_blog_posts", A{"page": 1001}},
		{"get_blog_post", A{"slug": fx.post}},
		{"get_blog_post", A{"slug": "no-such-post-e2e"}},
		{"get_blog_post", A{"slug": "Post"}},
		{"list_awards", A{}},
		{"list_awards", A{"listing": fx.winner}},
		{"list_awards", A{"listing": "no-such-listing-e2e"}},
		{"list_awards", A{"listing": "UP"}},
		{"get_badges", A{"slug": fx.winner}},
		{"get_badges", A{"slug": fx.winner, "shape": "banner", "mode": "light", "size": "s"}},
		{"get_badges", A{"slug": fx.winner, "shape": "round", "size": "xl"}},
		{"list_interview_questions", A{}},
		{"list_interview_questions", A{"page": 2}},
		{"list_products", A{}},
		{"list_products", A{"code": "launch"}},
		{"get_trophy_cabinet", A{"slug": fx.winner}},
		{"get_trophy_cabinet", A{"slug": "no-such-listing-e2e"}},
		{"get_trophy_cabinet", A{"slug": "Bad_Slug"}},
		{"get_trophy_leaderboard", A{}},
		{"get_trophy_leaderboard", A{"year": 2026, "per_page": 5}},
		{"get_trophy_leaderboard", A{"year": 1999, "per_page": 0}},
		{"get_hall_of_fame", A{}},
		{"get_hall_of_fame", A{"year": 2026}},
		{"get_hall_of_fame", A{"year": 2101}},
		{"list_programmes", A{}},
		{"list_programmes", A{"page": 2, "per_page": 1}},
		{"list_programmes", A{"per_page": 101}},
		{"get_programme", A{"slug": fx.programme}},
		{"get_programme", A{"slug": "no-such-programme"}},
		{"get_programme", A{"slug": "Bad_Slug"}},
	}
}

// e2eParity calls each case over REST and over MCP and compares: the same JSON on
// success (and it matches the tool's outputSchema), or the same status, code and fields.
func e2eParity(t *testing.T, e *e2eEnv, cs *mcp.ClientSession, tools map[string]*mcp.Tool, fx e2eFixtures) {
	schemas := map[string]*sjs.Schema{}
	covered, invalid := map[string]bool{}, map[string]bool{}
	for _, c := range e2eParityCases(fx) {
		t.Run(c.tool+"/"+e2eArgsName(c.args), func(t *testing.T) {
			u := e2eRESTURL(t, c.tool, c.args)
			r := e.do(t, http.MethodGet, u, nil, nil)
			res := e2eCall(t, cs, c.tool, c.args)
			if r.status == http.StatusOK {
				if res.IsError {
					t.Fatalf("REST %s is 200 but MCP is an error: %s", u, e2eResultText(t, res))
				}
				if res.StructuredContent == nil {
					t.Fatalf("MCP result has no structuredContent")
				}
				var rest any
				if err := json.Unmarshal(r.body, &rest); err != nil {
					t.Fatalf("REST body: %v", err)
				}
				mcpJSON := e2eJSON(t, res.StructuredContent)
				var viaMCP any
				_ = json.Unmarshal(mcpJSON, &viaMCP)
				if d := cmp.Diff(rest, viaMCP); d != "" {
					t.Errorf("REST %s and MCP %s differ (-rest +mcp):\n%s", u, c.tool, d)
				}
				var text any
				if err := json.Unmarshal([]byte(e2eResultText(t, res)), &text); err != nil || !cmp.Equal(text, viaMCP) {
					t.Errorf("text content is not the structuredContent JSON (err %v)", err)
				}
				sch, ok := schemas[c.tool]
				if !ok {
					sch = e2eSchemaOf(t, c.tool, tools[c.tool].OutputSchema)
					schemas[c.tool] = sch
				}
				e2eValidate(t, sch, c.tool+" output", res.StructuredContent)
				covered[c.tool] = true
				return
			}
			p := e2eCheckProblem(t, r)
			mp := e2eToolProblem(t, res)
			if p.Status != mp.Status || p.Code != mp.Code || !slices.Equal(p.fields(), mp.fields()) {
				t.Errorf("REST %s: %d %s %v; MCP: %d %s %v", u, p.Status, p.Code, p.fields(), mp.Status, mp.Code, mp.fields())
			}
			if r.status == http.StatusBadRequest {
				invalid[c.tool] = true
				if len(p.fields()) == 0 {
					t.Errorf("400 names no field: %s", e2eClip(r.body))
				}
			}
		})
	}
	for name := range e2eRoutes {
		if !covered[name] {
			t.Errorf("no successful parity call of %s", name)
		}
		if !invalid[name] {
			t.Errorf("no invalid parity call of %s", name)
		}
	}
}

// e2eArgsName names a case by its arguments, shortening long values.
func e2eArgsName(args map[string]any) string {
	var parts []string
	for k, v := range args {
		s := fmt.Sprint(v)
		if len(s) > 12 {
			s = s[:6] + "~" + strconv.Itoa(len(s))
		}
		parts = append(parts, k+"="+s)
	}
	slices.Sort(parts)
	if len(parts) == 0 {
		return "noargs"
	}
	return strings.Join(parts, ",")
}

// TestE2E_RateLimit checks the per-client limiter on both transports with a
// rate of 1/s and a burst of 2 on a clock that stands still: the third call
// is refused.
func TestE2E_RateLimit(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	opts := Options{RateLimit: 1, RateBurst: 2, Now: testclock.New(e2eNow).Now}
	t.Run("REST", func(t *testing.T) {
		e := e2eNewEnv(t, opts, false)
		for i := 1; i <= 2; i++ {
			if r := e.do(t, "GET", "/v1/site", nil, nil); r.status != 200 {
				t.Fatalf("call %d: status %d, want 200; %s", i, r.status, e2eClip(r.body))
			}
		}
		r := e.do(t, "GET", "/v1/interview-questions", nil, nil)
		if r.status != http.StatusTooManyRequests {
			t.Fatalf("third call: status %d, want 429", r.status)
		}
		p := e2eCheckProblem(t, r)
		secs, err := strconv.Atoi(r.header.Get("Retry-After"))
		if err != nil || secs < 1 {
			t.Errorf("Retry-After %q, want whole seconds >= 1", r.header.Get("Retry-After"))
		}
		if p.RetryAfter < 1 {
			t.Errorf("problem retry_after %d, want >= 1", p.RetryAfter)
		}
	})
	t.Run("MCP", func(t *testing.T) {
		e := e2eNewEnv(t, opts, false)
		cs := e2eConnect(t, e, "")
		for i := 1; i <= 2; i++ {
			if res := e2eCall(t, cs, "get_site_info", nil); res.IsError {
				t.Fatalf("call %d is an error: %s", i, e2eResultText(t, res))
			}
		}
		// Over the budget a tools/call is an HTTP 429 with Retry-After, as
		// on REST; the SDK client reports it as an error.
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_interview_questions"}); err == nil ||
			!strings.Contains(err.Error(), "Too Many Requests") {
			t.Errorf("third call: %v, want the HTTP 429 Too Many Requests", err)
		}
	})
}
