package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/schemas"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// exampleEmail is the account of the recorded examples: a demo-style
// .invalid address (RFC 2606), which can never receive mail.
const exampleEmail = "ada.founder@people.launchdir.invalid"

// exampleSiteOrigin stands for the local product site (ledgerly) the draft
// examples read.
const exampleSiteOrigin = "https://ledgerly.example"

// exRecorder calls operations over REST on a real server with the demo data
// and records each call's arguments and success body.
type exRecorder struct {
	env  *claimsEnv
	key  string
	site string // the local product site's origin
	got  map[string]opExample
}

// call sends op with args over REST (path parameters in the path, the rest
// in the query of a GET or the JSON body of the others), requires the
// operation's success status and records the example.
func (r *exRecorder) call(t *testing.T, op string, args map[string]any) map[string]any {
	t.Helper()
	b := r.env.tools.byName[op]
	if b == nil {
		t.Fatalf("no operation %s", op)
	}
	path := b.Path
	body := map[string]any{}
	q := url.Values{}
	for k, v := range args {
		switch {
		case strings.Contains(path, "{"+k+"}"):
			path = strings.ReplaceAll(path, "{"+k+"}", url.PathEscape(fmt.Sprint(v)))
		case hasBody(b.Method):
			body[k] = v
		default:
			if vs, ok := v.([]any); ok {
				for _, x := range vs {
					q.Add(k, fmt.Sprint(x))
				}
			} else {
				q.Set(k, fmt.Sprint(v))
			}
		}
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var raw []byte
	hdr := map[string]string{}
	if r.key != "" {
		hdr["Authorization"] = "Bearer " + r.key
	}
	if hasBody(b.Method) {
		raw, _ = json.Marshal(body)
		hdr["Content-Type"] = "application/json"
	}
	res := catDo(t, r.env.catEnv, b.Method, "/v1"+path, raw, hdr)
	if res.status != b.SuccessStatus() {
		t.Fatalf("%s %s: %d, want %d: %s", b.Method, path, res.status, b.SuccessStatus(), res.body)
	}
	// The recorded form: the served origin and the product site's origin are
	// replaced by stable example origins.
	text := strings.ReplaceAll(string(res.body), r.env.URL, exampleOrigin)
	text = strings.ReplaceAll(text, r.site, exampleSiteOrigin)
	text = strings.ReplaceAll(text, strings.TrimPrefix(r.site, "http://"), strings.TrimPrefix(exampleSiteOrigin, "https://"))
	// Random tokens (a checkout link's, a claim's) become one fixed token of
	// the same shape: the examples hold no capability and stay stable.
	text = exTokenRe.ReplaceAllStringFunc(text, func(m string) string {
		if strings.ContainsAny(m, "0123456789") && strings.ToLower(m) != m {
			return m[:1] + exampleToken + m[len(m)-1:]
		}
		return m
	})
	var resp any
	if err := json.Unmarshal([]byte(text), &resp); err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	reqText, _ := json.Marshal(args)
	reqText = bytes.ReplaceAll(reqText, []byte(r.site), []byte(exampleSiteOrigin))
	var req map[string]any
	json.Unmarshal(reqText, &req)
	r.got[op] = opExample{Request: req, Response: resp}
	var out map[string]any
	json.Unmarshal(res.body, &out)
	return out
}

// TestSnapshot_OpenAPIExamples records one example per operation from a real server
// with the demo data (the public operations read it; the signed-in ones act
// as a new account that claims a demo listing, submits the local product site
// ledgerly as a draft and orders), checks each against the operation's
// schemas, and compares the recording with openapi_examples.json; -update
// rewrites that file (go test ./tools -run Snapshot -update, as the schema
// snapshots).
func TestSnapshot_OpenAPIExamples(t *testing.T) {
	t.Parallel()
	env := newClaimsEnv(t)
	site, _ := withDrafting(t, env.catEnv)
	withOrdering(t, env.catEnv, domain.TestPayments{})
	rec := &exRecorder{env: env, site: site.URL, got: map[string]opExample{}}

	// Public operations on the demo data, anonymous.
	rec.call(t, "get_site_info", map[string]any{})
	cats := rec.call(t, "list_categories", map[string]any{})
	catSlug := firstItem(t, cats, "items")["slug"].(string)
	rec.call(t, "get_category", map[string]any{"slug": catSlug, "per_page": 2})
	found := rec.call(t, "search_listings", map[string]any{"q": "notes", "per_page": 2})
	items := found["items"].([]any)
	if len(items) < 2 {
		t.Fatalf("search_listings q=notes: %v", found)
	}
	a, b := items[0].(map[string]any)["slug"].(string), items[1].(map[string]any)["slug"].(string)
	rec.call(t, "get_listing", map[string]any{"slug": a})
	rec.call(t, "get_alternatives", map[string]any{"slug": a})
	rec.call(t, "compare_listings", map[string]any{"a": a, "b": b})
	rec.call(t, "get_badges", map[string]any{"slug": a})
	rec.call(t, "get_launch_week", map[string]any{"week": e2eLastWeek})
	rec.call(t, "list_launches", map[string]any{"section": "today", "per_page": 2})
	rec.call(t, "get_leaderboard", map[string]any{"board": "community-weekly", "per_page": 3})
	founders := rec.call(t, "list_founders", map[string]any{"per_page": 2})
	rec.call(t, "get_founder", map[string]any{"slug": firstItem(t, founders, "items")["slug"]})
	posts := rec.call(t, "list_blog_posts", map[string]any{"per_page": 2})
	rec.call(t, "get_blog_post", map[string]any{"slug": firstItem(t, posts, "items")["slug"]})
	rec.call(t, "list_awards", map[string]any{"per_page": 2})
	questions := rec.call(t, "list_interview_questions", map[string]any{})
	rec.call(t, "list_products", map[string]any{})
	// An award programme the site team made in the console, open for entries and votes.
	if _, err := env.svc.CreateProgramme(context.Background(), domain.CreateProgrammeInput{Name: "Makers' Choice 2026",
		Description: "The products makers loved most this season, chosen by the community.", LaunchedFrom: "2026-09-01",
		EntryOpens: "2026-11-16", EntryCloses: "2026-11-29", VotingOpens: "2026-11-16", VotingCloses: "2026-12-06", Winners: 3}, "team@example.com"); err != nil {
		t.Fatal(err)
	}
	rec.call(t, "list_programmes", map[string]any{"per_page": 2})

	// Signed in with an API key (never recorded).
	rec.key = env.apiKey(t, exampleEmail)
	rec.call(t, "get_account", map[string]any{})

	// Claim a demo listing with a DNS record, then edit it.
	claimed := a
	c := rec.call(t, "claim_listing", map[string]any{"slug": claimed, "method": "dns"})
	env.zone.set(instr(c, "record_name"), instr(c, "record_value"))
	v := rec.call(t, "verify_claim", map[string]any{"claim_id": c["id"]})
	if v["status"] != "verified" {
		t.Fatalf("verify_claim: %v", v)
	}
	rec.call(t, "list_my_claims", map[string]any{"per_page": 2})
	listingID := fixtures.ID(t, env.db, "listings", fixtures.Cols{"slug": claimed})
	rec.call(t, "list_my_listings", map[string]any{"per_page": 2})
	rec.call(t, "get_my_listing", map[string]any{"listing_id": listingID})
	rec.call(t, "update_my_listing", map[string]any{"listing_id": listingID,
		"fields": map[string]any{"pricing_summary": "Free for personal use; Team plan $8 per user per month."}})
	rec.call(t, "post_listing_update", map[string]any{"listing_id": listingID, "title": "Offline mode is here",
		"body": "Notes now sync when you are back online, and every edit made offline is kept."})
	m := rec.call(t, "add_milestone", map[string]any{"listing_id": listingID, "date": "2026-11-02", "title": "1,000 users",
		"description": "A thousand people used it in one week."})
	rec.call(t, "delete_milestone", map[string]any{"listing_id": listingID, "milestone_id": milestoneID(t, m)})
	// A trophy (pending: this env runs no trophy check), the cabinets and the trophy boards.
	tr := rec.call(t, "add_trophy", map[string]any{"listing_id": listingID, "platform": "Product Hunt", "title": "Product of the Day",
		"rank": 2, "date": "2026-11-10", "award_url": site.URL + "/awards/product-of-the-day"})
	rec.call(t, "list_my_trophies", map[string]any{"listing_id": listingID})
	rec.call(t, "get_trophy_cabinet", map[string]any{"slug": claimed})
	rec.call(t, "get_trophy_leaderboard", map[string]any{"per_page": 2})
	rec.call(t, "get_hall_of_fame", map[string]any{"year": 2026})
	rec.call(t, "delete_trophy", map[string]any{"listing_id": listingID, "trophy_id": tr["trophy"].(map[string]any)["id"]})
	rec.call(t, "enter_programme", map[string]any{"listing_id": listingID, "programme": "makers-choice-2026"})
	rec.call(t, "get_programme", map[string]any{"slug": "makers-choice-2026"})
	rec.call(t, "withdraw_programme_entry", map[string]any{"listing_id": listingID, "programme": "makers-choice-2026"})
	rec.call(t, "set_founder_story", map[string]any{"listing_id": listingID,
		"why_started": "I lost a week of notes to a sync conflict and wanted a tool that never does that.",
		"journey":     "Two years of evenings, then a public beta with forty teams."})
	q := firstItem(t, questions, "items")
	rec.call(t, "answer_interview", map[string]any{"answers": []any{map[string]any{"question_id": q["id"],
		"answer": "Talk to ten users before writing a line of code."}}})

	// Submit the product site as a draft, edit it and submit it.
	d := rec.call(t, "submit_listing", map[string]any{"url": site.URL + "/"})
	draftID := d["id"].(string)
	env.runJobs(t)
	rec.call(t, "get_draft", map[string]any{"id": draftID})
	rec.call(t, "list_my_drafts", map[string]any{"per_page": 2})
	rec.call(t, "update_draft", map[string]any{"id": draftID, "fields": map[string]any{"stage": "beta"}})
	rec.call(t, "invite_cofounder", map[string]any{"id": draftID, "email": "grace.cofounder@people.launchdir.invalid"})
	s := rec.call(t, "submit_draft", map[string]any{"id": draftID})
	newID := s["listing_id"]

	// Order a launch for it, then look at the order.
	items1 := []any{map[string]any{"product": "launch", "listing_id": newID}}
	rec.call(t, "quote_order", map[string]any{"items": items1, "billing_country": "DE"})
	o := rec.call(t, "create_checkout", map[string]any{"items": items1, "billing_country": "DE"})
	rec.call(t, "list_my_orders", map[string]any{"per_page": 2})
	rec.call(t, "get_order", map[string]any{"number": o["number"]})

	// The free launch instead (the checkout is not paid).
	rec.call(t, "choose_free_listing", map[string]any{"listing_id": newID})

	// Webhooks (docs/webhooks.md): an endpoint on the product site, whose home
	// page answers the POST with 200; a test event delivered, its log, a redelivery.
	hookSecrets := webhookExamples(t, rec, env.catEnv, site.URL, newID)

	for _, op := range Catalog() {
		if _, ok := rec.got[op.Name]; !ok {
			t.Errorf("no example recorded for %s", op.Name)
		}
	}
	// The random draft id and order number become fixed ones of the same
	// shape, so that -update rewrites the file only when something changed.
	rec.got = stableExamples(t, rec.got, append([]string{draftID, exampleDraftID, o["number"].(string), exampleOrderNumber}, hookSecrets...)...)
	rec.got = stableDurations(t, rec.got)
	checkExamples(t, rec.got)
	out, err := json.MarshalIndent(rec.got, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, '\n')
	// The same check as the schema snapshots: -update writes the file. OpenAPI
	// embeds it when the package is compiled, so after an update the
	// schemas/openapi.json snapshot needs a second -update run.
	if err := schemas.Check("openapi_examples.json", out, *catUpdate); err != nil {
		t.Error(err)
	}
}

// TestOpenAPI_ExamplesValid holds the committed examples (those OpenAPI
// embeds) to the operations' own schemas: every served operation has one,
// its request validates against the input schema and its response against
// the output schema, and it carries no credential and no address outside the
// example origins and .invalid mail domains.
func TestOpenAPI_ExamplesValid(t *testing.T) {
	t.Parallel()
	ex, err := openapiExamples("")
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range Catalog() {
		if _, ok := ex[op.Name]; !ok {
			t.Errorf("openapi_examples.json: no example for %s", op.Name)
		}
	}
	checkExamples(t, ex)
}

// exampleToken stands for a random 43-character token in the examples.
const exampleToken = "Ex4mpleT0kenEx4mpleT0kenEx4mpleT0kenEx4mple"

var (
	exTokenRe  = regexp.MustCompile(`[^A-Za-z0-9_-][A-Za-z0-9_-]{43}[^A-Za-z0-9_-]`)
	exEmailRe  = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]+`)
	exSecretRe = regexp.MustCompile(`ld_(sk|at|rt)_[A-Za-z0-9_-]+|Bearer `)
	exLocalRe  = regexp.MustCompile(`127\.0\.0\.1|localhost`)
)

// checkExamples validates each example against its operation's schemas and
// looks for secrets and personal data.
func checkExamples(t *testing.T, ex map[string]opExample) {
	t.Helper()
	ops := map[string]Operation{}
	for _, op := range Catalog() {
		ops[op.Name] = op
	}
	for name, e := range ex {
		op, ok := ops[name]
		if !ok {
			t.Errorf("example for %s, which is not a served operation", name)
			continue
		}
		validateExample(t, name+" request", op.ArgsSchema(), e.Request)
		validateExample(t, name+" response", op.OutputSchema, e.Response)
		raw, _ := json.Marshal(e)
		for _, m := range exEmailRe.FindAllString(string(raw), -1) {
			if !strings.HasSuffix(m, ".invalid") && !strings.HasSuffix(m, ".example") {
				t.Errorf("%s: example holds the address %s (only .invalid and .example ones)", name, m)
			}
		}
		if s := exSecretRe.FindString(string(raw)); s != "" {
			t.Errorf("%s: example holds a credential %q", name, s)
		}
		if s := exLocalRe.FindString(string(raw)); s != "" {
			t.Errorf("%s: example holds a test server address (%s)", name, s)
		}
	}
}

func validateExample(t *testing.T, what string, schema json.RawMessage, v any) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatalf("%s: schema: %v", what, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("urn:example", doc); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	s, err := c.Compile("urn:example")
	if err != nil {
		t.Fatalf("%s: compile: %v", what, err)
	}
	// Through JSON, so numbers are what a client decodes.
	raw, _ := json.Marshal(v)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := s.Validate(inst); err != nil {
		t.Errorf("%s does not validate: %v", what, err)
	}
}

// The draft id and order number of the examples.
const (
	exampleDraftID     = "3f8a1c2e-6b4d-4e7a-9c1f-5d2b8e6a4c70"
	exampleOrderNumber = "LD-261118-EXMPL7Q2"
)

// stableExamples replaces each old value (pairs: old, new) everywhere in ex.
func stableExamples(t *testing.T, ex map[string]opExample, pairs ...string) map[string]opExample {
	t.Helper()
	raw, err := json.Marshal(ex)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.NewReplacer(pairs...).Replace(string(raw))
	out := map[string]opExample{}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func firstItem(t *testing.T, m map[string]any, key string) map[string]any {
	t.Helper()
	items, _ := m[key].([]any)
	if len(items) == 0 {
		t.Fatalf("no %s in %v", key, m)
	}
	return items[0].(map[string]any)
}

func milestoneID(t *testing.T, m map[string]any) any {
	t.Helper()
	if ms, ok := m["milestone"].(map[string]any); ok && ms["id"] != nil {
		return ms["id"]
	}
	t.Fatalf("add_milestone answered no id: %v", m)
	return nil
}
