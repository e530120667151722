package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/console"
	"github.com/launchdir/launchdir/storage"
	"github.com/launchdir/launchdir/storage/fixtures"
)

// newCategoryEnv is an orderEnv whose console signs in by cookie, with
// ops@ (admin) and mod@ (moderator) on the site team.
func newCategoryEnv(t *testing.T, engine string) *orderEnv {
	t.Helper()
	e := newOrderEnvOn(t, engine, nil, WithAdmin(byCookie))
	if err := e.console.GrantTeamRole(context.Background(), "ops@launchdir.test", "mod@launchdir.test", console.RoleModerator); err != nil {
		t.Fatal(err)
	}
	// Listings are linked to categories behind the store's back here: the
	// search index reads every change at once instead of within 500ms.
	e.svc.Store.(*storage.Store).PollInterval = 0
	return e
}

// createCategory creates a category through the console and returns its id.
func createCategory(t *testing.T, e *orderEnv, name, slug string, parent int64) int64 {
	t.Helper()
	res := e.post(t, "/admin/categories", url.Values{"name": {name}, "slug": {slug}, "parent": {strconv.FormatInt(parent, 10)}}, as("ops")...)
	loc := res.header.Get("Location")
	rest, ok := strings.CutPrefix(loc, "/admin/categories/")
	if res.status != http.StatusSeeOther || !ok {
		t.Fatalf("create %q: %d to %q; body:\n%s", name, res.status, loc, excerpt(res.body))
	}
	id, err := strconv.ParseInt(strings.TrimSuffix(rest, "?done=created#done"), 10, 64)
	if err != nil {
		t.Fatalf("create %q: redirect to %q", name, loc)
	}
	return id
}

// categoryState is everything the console can change, as text: the tree
// and every category's details, and the audit log's length.
func categoryState(t *testing.T, e *orderEnv) string {
	t.Helper()
	ctx := context.Background()
	tree, err := e.console.CategoryTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range tree {
		d, err := e.console.AdminCategory(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(d)
		b.Write(js)
		b.WriteByte('\n')
	}
	_, n, err := e.console.AuditLog(ctx, console.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "audit entries: %d", n)
	return b.String()
}

// lastAudit is the newest audit entry of action; it fails when there is none.
func lastAudit(t *testing.T, e *orderEnv, action string) console.AuditEntry {
	t.Helper()
	entries, _, err := e.console.AuditLog(context.Background(), console.AuditFilter{Action: action})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Fatalf("no %s entry in the audit log", action)
	}
	return entries[0]
}

// newLiveListing adds a live listing to the env's site and returns its id.
func newLiveListing(t *testing.T, e *orderEnv, name string) int64 {
	t.Helper()
	ctx := context.Background()
	st := e.svc.Store.(*storage.Store)
	u, err := storage.NewAuthStore(e.db).UpsertUser(ctx, "urn:launchdir:email", "ann@notably.test", "ann@notably.test", "Ann Lee", testNow)
	if err != nil {
		t.Fatal(err)
	}
	slug := strings.ToLower(name)
	id, err := st.SaveOwnListing(ctx, u.ID, 0, &domain.ListingWrite{Name: name, Tagline: name + " does things",
		URL: "https://" + slug + ".test/", Domain: slug + ".test"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.UpdateRows(ctx, "listings", map[string]any{"status": "live"}, map[string]any{"id": id}); err != nil {
		t.Fatal(err)
	}
	return id
}

// linkListing puts listing in category (primary or extra).
func linkListing(t *testing.T, e *orderEnv, listing, category int64, primary bool) {
	t.Helper()
	p := 0
	if primary {
		p = 1
	}
	if _, err := e.db.InsertRow(context.Background(), "listing_categories", map[string]any{
		"listing_id": listing, "category_id": category, "is_primary": p}); err != nil {
		t.Fatal(err)
	}
}

func catPath(id int64, action string) string {
	p := "/admin/categories/" + strconv.FormatInt(id, 10)
	if action != "" {
		p += "/" + action
	}
	return p
}

// TestCategories_Permissions: every category page and form is the admins';
// a moderator, a signed-in stranger and nobody get the 404 page and change
// nothing; the admin home links the page for admins only.
func TestCategories_Permissions(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newCategoryEnv(t, engine)
		a := createCategory(t, e, "Alpha", "alpha", 0)
		b := createCategory(t, e, "Beta", "beta", 0)
		posts := []struct {
			path string
			form url.Values
		}{
			{"/admin/categories", url.Values{"name": {"Gamma"}}},
			{catPath(a, "rename"), url.Values{"name": {"Taken"}, "slug": {"taken"}}},
			{catPath(a, "move"), url.Values{"parent": {strconv.FormatInt(b, 10)}, "position": {"3"}}},
			{catPath(a, "describe"), url.Values{"description": {"Changed"}}},
			{catPath(a, "attributes"), url.Values{"key": {"api"}, "label": {"API"}}},
			{catPath(a, "merge"), url.Values{"target": {strconv.FormatInt(b, 10)}}},
		}
		before := categoryState(t, e)
		for _, who := range []string{"mod", "someone", ""} {
			var hdr []string
			if who != "" {
				hdr = as(who)
			}
			for _, path := range []string{"/admin/categories", catPath(a, "")} {
				if res := e.do(t, http.MethodGet, path, nil, hdr...); res.status != http.StatusNotFound {
					t.Errorf("%q GET %s: %d, want 404", who, path, res.status)
				}
			}
			for _, p := range posts {
				if res := e.post(t, p.path, p.form, hdr...); res.status != http.StatusNotFound {
					t.Errorf("%q POST %s: %d, want 404", who, p.path, res.status)
				}
			}
		}
		if after := categoryState(t, e); after != before {
			t.Errorf("refused posts changed the categories:\n%s\n->\n%s", before, after)
		}
		want(t, "admin's /admin", e.get2(t, "/admin", as("ops")), 200, `href="/admin/categories"`)
		wantNot(t, "moderator's /admin", e.get2(t, "/admin", as("mod")), `href="/admin/categories"`)
		want(t, "the tree", e.get2(t, "/admin/categories", as("ops")), 200, `href="/admin/categories/`+strconv.FormatInt(a, 10)+`"`, "Alpha", "<code>beta</code>")
		want(t, "a category", e.get2(t, catPath(a, ""), as("ops")), 200, `action="/admin/categories/`+strconv.FormatInt(a, 10)+`/merge#merge"`, `value="alpha"`)
		// The admin may do each; the moves are tested in detail below.
		for _, p := range posts {
			res := e.post(t, p.path, p.form, as("ops")...)
			if res.status != http.StatusSeeOther {
				t.Errorf("admin POST %s: %d, want 303; body:\n%s", p.path, res.status, excerpt(res.body))
			}
		}
		for _, path := range []string{catPath(999, ""), "/admin/categories/x", catPath(999, "rename")} {
			method := http.MethodGet
			if strings.HasSuffix(path, "rename") {
				method = http.MethodPost
			}
			if res := e.do(t, method, path, url.Values{"name": {"N"}}, as("ops")...); res.status != http.StatusNotFound {
				t.Errorf("admin %s %s: %d, want 404", method, path, res.status)
			}
		}
		// A cross-origin form post is refused like every console form.
		if res := e.post(t, "/admin/categories", url.Values{"name": {"Evil"}}, append(as("ops"), "Origin", "https://evil.test", "Sec-Fetch-Site", "cross-site")...); res.status == http.StatusSeeOther {
			t.Errorf("a cross-origin create was accepted")
		}
	})
}

// refused posts form to path as the admin, wants status with the problem
// next to the field (id problemID) and nothing changed.
func refused(t *testing.T, e *orderEnv, what, path string, form url.Values, status int, problemID, text string) {
	t.Helper()
	before := categoryState(t, e)
	res := e.post(t, path, form, as("ops")...)
	want(t, what, res, status, `id="`+problemID+`"`, text, "Nothing was")
	if after := categoryState(t, e); after != before {
		t.Errorf("%s: refused but stored:\n%s\n->\n%s", what, before, after)
	}
}

// TestCategories_CreateAndRename: the name is 1-60 characters, the slug the
// spec's slug pattern (at most 220) and unique among categories and old
// slugs still leading elsewhere; each just inside is stored with its audit
// entry, just outside is refused next to its field with nothing stored.
func TestCategories_CreateAndRename(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newCategoryEnv(t, engine)
		n60, n61 := strings.Repeat("é", 60), strings.Repeat("n", 61)
		s220, s221 := "a"+strings.Repeat("b", 219), "a"+strings.Repeat("b", 220)

		refused(t, e, "empty name", "/admin/categories", url.Values{"name": {" "}, "slug": {"x"}}, 400, "category-name-problem", "it is empty")
		refused(t, e, "61 characters", "/admin/categories", url.Values{"name": {n61}}, 400, "category-name-problem", "this is 61")
		refused(t, e, "221-character slug", "/admin/categories", url.Values{"name": {"Long"}, "slug": {s221}}, 400, "category-slug-problem", "at most 220")
		for _, bad := range []string{"Upper", "-lead", "sp ace", "ünï"} {
			refused(t, e, "slug "+bad, "/admin/categories", url.Values{"name": {"N"}, "slug": {bad}}, 400, "category-slug-problem", "lower-case letters")
		}
		refused(t, e, "no slug to make", "/admin/categories", url.Values{"name": {"!!!"}}, 400, "category-slug-problem", "no letters or digits to make a slug from")
		refused(t, e, "unknown parent", "/admin/categories", url.Values{"name": {"Orphan"}, "parent": {"999"}}, 400, "category-parent-problem", "no category 999")

		a := createCategory(t, e, n60, s220, 0)
		entry := lastAudit(t, e, "category.create")
		if entry.Actor != "ops@launchdir.test" || entry.Target != "category:"+strconv.FormatInt(a, 10) || !strings.Contains(string(entry.After), s220) || entry.Before != nil {
			t.Errorf("category.create entry: %+v", entry)
		}
		b := createCategory(t, e, "AI & Data Tools", "", 0)
		if c, _ := e.console.AdminCategory(context.Background(), b); c.Slug != "ai-data-tools" {
			t.Errorf("a slug made from the name: %q", c.Slug)
		}
		want(t, "created", e.get2(t, catPath(b, "")+"?done=created", as("ops")), 200, "Created.")
		refused(t, e, "a taken slug", "/admin/categories", url.Values{"name": {"Again"}, "slug": {"ai-data-tools"}}, 409, "category-slug-problem", "is taken by the category")

		// Rename: bounds as on create.
		refused(t, e, "rename to empty", catPath(b, "rename"), url.Values{"name": {""}, "slug": {"x"}}, 400, "rename-name-problem", "it is empty")
		refused(t, e, "rename to 61", catPath(b, "rename"), url.Values{"name": {n61}}, 400, "rename-name-problem", "this is 61")
		refused(t, e, "rename slug 221", catPath(b, "rename"), url.Values{"name": {"N"}, "slug": {s221}}, 400, "rename-slug-problem", "at most 220")
		refused(t, e, "rename slug pattern", catPath(b, "rename"), url.Values{"name": {"N"}, "slug": {"Bad_Slug"}}, 400, "rename-slug-problem", "lower-case letters")
		refused(t, e, "rename to a taken slug", catPath(b, "rename"), url.Values{"name": {"N"}, "slug": {s220}}, 409, "rename-slug-problem", "is taken")
		res := e.post(t, catPath(b, "rename"), url.Values{"name": {"Data"}, "slug": {"data"}}, as("ops")...)
		wantRedirect(t, "rename", res, catPath(b, "")+"?done=renamed#done")
		entry = lastAudit(t, e, "category.rename")
		if !strings.Contains(string(entry.Before), `"slug":"ai-data-tools"`) || !strings.Contains(string(entry.After), `"slug":"data"`) ||
			!strings.Contains(string(entry.After), `"name":"Data"`) || entry.Target != "category:"+strconv.FormatInt(b, 10) {
			t.Errorf("category.rename entry: before %s after %s target %s", entry.Before, entry.After, entry.Target)
		}
		want(t, "renamed page", e.get2(t, catPath(b, ""), as("ops")), 200, "<code>ai-data-tools</code> (each answers with this category)")
		// The old slug leads to the category: no other may take it...
		refused(t, e, "an old slug", "/admin/categories", url.Values{"name": {"Squatter"}, "slug": {"ai-data-tools"}}, 409, "category-slug-problem", "old slug of the category")
		refused(t, e, "rename to another's old slug", catPath(a, "rename"), url.Values{"name": {"N"}, "slug": {"ai-data-tools"}}, 409, "rename-slug-problem", "old slug")
		// ...but it may have it back, and its other slug then leads to it.
		wantRedirect(t, "rename back", e.post(t, catPath(b, "rename"), url.Values{"name": {"Data"}, "slug": {"ai-data-tools"}}, as("ops")...), catPath(b, "")+"?done=renamed#done")
		c, err := e.console.AdminCategory(context.Background(), b)
		if err != nil || c.Slug != "ai-data-tools" || strings.Join(c.Redirects, ",") != "data" {
			t.Errorf("renamed back: slug %q redirects %v (%v)", c.Slug, c.Redirects, err)
		}
		// An unchanged rename writes nothing.
		before := categoryState(t, e)
		e.post(t, catPath(b, "rename"), url.Values{"name": {"Data"}, "slug": {"ai-data-tools"}}, as("ops")...)
		if after := categoryState(t, e); after != before {
			t.Errorf("an unchanged rename wrote:\n%s", after)
		}
	})
}

// TestCategories_OldSlugPage: after a rename (twice) the old slugs' public
// pages answer 301 to the current one, keeping the query; a never-used
// slug is still 404.
func TestCategories_OldSlugPage(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newCategoryEnv(t, engine)
		id := createCategory(t, e, "Notes", "notes", 0)
		linkListing(t, e, newLiveListing(t, e, "Jotter"), id, true)
		want(t, "the page", e.get(t, "/categories/notes"), 200, "Jotter")
		for _, to := range []string{"note-apps", "notebooks"} {
			wantRedirect(t, "rename to "+to, e.post(t, catPath(id, "rename"), url.Values{"name": {"Notes"}, "slug": {to}}, as("ops")...), catPath(id, "")+"?done=renamed#done")
		}
		for _, old := range []string{"notes", "note-apps"} {
			res := e.get(t, "/categories/"+old+"?page=1")
			if res.status != http.StatusMovedPermanently || res.header.Get("Location") != "/categories/notebooks?page=1" {
				t.Errorf("/categories/%s: %d to %q, want 301 to /categories/notebooks?page=1", old, res.status, res.header.Get("Location"))
			}
		}
		want(t, "the current page", e.get(t, "/categories/notebooks"), 200, "Jotter")
		want(t, "an unknown slug", e.get(t, "/categories/never-was"), 404)
	})
}

// TestCategories_Move: a category moves under another or to the top level
// at a position 0-9999; never under itself or its subcategories, nor deeper
// than four levels; each refusal next to its field with nothing stored.
func TestCategories_Move(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newCategoryEnv(t, engine)
		l1 := createCategory(t, e, "L1", "l1", 0)
		l2 := createCategory(t, e, "L2", "l2", l1)
		l3 := createCategory(t, e, "L3", "l3", l2)
		l4 := createCategory(t, e, "L4", "l4", l3)
		refused(t, e, "a fifth level on create", "/admin/categories", url.Values{"name": {"L5"}, "parent": {strconv.FormatInt(l4, 10)}}, 400, "category-parent-problem", "at most 4 levels")
		other := createCategory(t, e, "Other", "other", 0)
		form := func(parent int64, pos string) url.Values {
			return url.Values{"parent": {strconv.FormatInt(parent, 10)}, "position": {pos}}
		}
		refused(t, e, "under itself", catPath(l2, "move"), form(l2, "0"), 400, "move-parent-problem", "cannot be placed under itself")
		refused(t, e, "under its subcategory", catPath(l1, "move"), form(l3, "0"), 400, "move-parent-problem", "cannot be placed under itself or one of its own subcategories")
		refused(t, e, "five levels", catPath(other, "move"), form(l4, "0"), 400, "move-parent-problem", "this would make 5")
		p1 := createCategory(t, e, "P1", "p1", 0)
		p2 := createCategory(t, e, "P2", "p2", p1)
		refused(t, e, "a subtree too deep", catPath(l2, "move"), form(p2, "0"), 400, "move-parent-problem", "this would make 5")
		refused(t, e, "position -1", catPath(other, "move"), form(0, "-1"), 400, "move-position-problem", "0-9999")
		refused(t, e, "position 10000", catPath(other, "move"), form(0, "10000"), 400, "move-position-problem", "0-9999")
		refused(t, e, "position x", catPath(other, "move"), form(0, "x"), 400, "move-position-problem", "whole number")
		refused(t, e, "unknown parent", catPath(other, "move"), form(999, "0"), 400, "move-parent-problem", "no category 999")
		wantRedirect(t, "four levels", e.post(t, catPath(other, "move"), form(l3, "9999"), as("ops")...), catPath(other, "")+"?done=moved#done")
		entry := lastAudit(t, e, "category.move")
		if string(entry.Before) != `{"parent":0,"position":1}` || string(entry.After) != fmt.Sprintf(`{"parent":%d,"position":9999}`, l3) {
			t.Errorf("category.move entry: %s -> %s", entry.Before, entry.After)
		}
		wantRedirect(t, "to the top, first", e.post(t, catPath(l2, "move"), form(0, "0"), as("ops")...), catPath(l2, "")+"?done=moved#done")
		tree, err := e.console.CategoryTree(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, c := range tree {
			order = append(order, fmt.Sprintf("%s@%d", c.Slug, c.Depth))
		}
		if got := strings.Join(order, " "); got != "l1@1 l2@1 l3@2 l4@3 other@3 p1@1 p2@2" {
			t.Errorf("the tree after the moves: %s", got)
		}
		// The move form offers neither the category nor its subcategories.
		res := e.get2(t, catPath(l2, ""), as("ops"))
		sel := res.body[strings.Index(res.body, `id="move-parent"`):]
		res.body = sel[:strings.Index(sel, "</select>")]
		want(t, "move options", res, 200, fmt.Sprintf(`<option value="%d">`, p2))
		wantNot(t, "move options", res, fmt.Sprintf(`<option value="%d">`, l3), fmt.Sprintf(`<option value="%d" selected>`, l2))
	})
}

// TestCategories_Describe: a description of at most 2000 characters and at
// most 10 FAQs, each question 1-300 and answer 1-1500 characters (the
// spec's FAQ bounds); the public page shows them.
func TestCategories_Describe(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newCategoryEnv(t, engine)
		id := createCategory(t, e, "Mail", "mail", 0)
		path := catPath(id, "describe")
		faqs := func(n int, q, a string) url.Values {
			v := url.Values{"description": {"Email tools."}}
			for i := 0; i < n; i++ {
				v.Add("question", q+strconv.Itoa(i))
				v.Add("answer", a)
			}
			return v
		}
		refused(t, e, "2001 characters", path, url.Values{"description": {strings.Repeat("d", 2001)}}, 400, "describe-description-problem", "this is 2001")
		refused(t, e, "11 FAQs", path, faqs(11, "Q", "A"), 400, "describe-faqs-problem", "at most 10 FAQs; this is 11")
		refused(t, e, "a 301-character question", path, faqs(1, strings.Repeat("q", 300), "A"), 400, "faq-1-question-problem", "this is 301")
		refused(t, e, "a 1501-character answer", path, faqs(1, "Q", strings.Repeat("a", 1501)), 400, "faq-1-answer-problem", "this is 1501")
		refused(t, e, "a question without answer", path, url.Values{"question": {"", "Why?"}, "answer": {"", " "}}, 400, "faq-2-answer-problem", "FAQ 2 has a question but no answer")
		refused(t, e, "an answer without question", path, url.Values{"question": {""}, "answer": {"Because."}}, 400, "faq-1-question-problem", "FAQ 1 has an answer but no question")
		res := e.post(t, path, faqs(10, strings.Repeat("q", 299), strings.Repeat("a", 1500)), as("ops")...)
		wantRedirect(t, "ten FAQs at the bounds", res, catPath(id, "")+"?done=described#done")
		res = e.post(t, path, url.Values{"description": {strings.Repeat("é", 2000)}, "question": {"Is it free?", ""}, "answer": {"Mostly.", ""}}, as("ops")...)
		wantRedirect(t, "2000 characters", res, catPath(id, "")+"?done=described#done")
		entry := lastAudit(t, e, "category.describe")
		if !strings.Contains(string(entry.Before), strings.Repeat("a", 1500)) || !strings.Contains(string(entry.After), `"question":"Is it free?"`) {
			t.Errorf("category.describe entry: %s -> %s", entry.Before, entry.After)
		}
		want(t, "the public page", e.get(t, "/categories/mail"), 200, "Is it free?", "Mostly.", strings.Repeat("é", 50))
	})
}

// TestCategories_Attributes: add, relabel, reorder and remove comparison
// attributes; a key's pattern (at most 40) and uniqueness, a label of 1-60
// characters and at most 20 attributes, each just inside and outside; the
// general rows' keys are refused.
func TestCategories_Attributes(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newCategoryEnv(t, engine)
		id := createCategory(t, e, "Chat", "chat", 0)
		path := catPath(id, "attributes")
		rows := func(kv ...string) url.Values {
			v := url.Values{}
			for i := 0; i+1 < len(kv); i += 2 {
				v.Add("key", kv[i])
				v.Add("label", kv[i+1])
				v.Add("position", "")
			}
			return v
		}
		k40, k41 := "k"+strings.Repeat("x", 39), "k"+strings.Repeat("x", 40)
		refused(t, e, "a 41-character key", path, rows(k41, "L"), 400, "attr-1-key-problem", "at most 40")
		for _, bad := range []string{"1key", "Key", "api-access", "_x"} {
			refused(t, e, "key "+bad, path, rows(bad, "L"), 400, "attr-1-key-problem", "lower-case letters, digits and underscores")
		}
		refused(t, e, "a key twice", path, rows("api", "API", "api", "Again"), 400, "attr-2-key-problem", "there twice")
		refused(t, e, "a general row's key", path, rows("stage", "Stage"), 400, "attr-1-key-problem", "every comparison shows already")
		refused(t, e, "an empty label", path, rows("api", " "), 400, "attr-1-label-problem", "it is empty")
		refused(t, e, "a 61-character label", path, rows("api", strings.Repeat("l", 61)), 400, "attr-1-label-problem", "this is 61")
		var many []string
		for i := 0; i < 21; i++ {
			many = append(many, fmt.Sprintf("k%d", i), fmt.Sprintf("Label %d", i))
		}
		refused(t, e, "21 attributes", path, rows(many...), 400, "attributes-problem", "at most 20 comparison attributes; this is 21")
		refused(t, e, "a position -1", path, url.Values{"key": {"api"}, "label": {"API"}, "position": {"-1"}}, 400, "attr-1-position-problem", "0 to 9999")
		wantRedirect(t, "20 attributes", e.post(t, path, rows(many[:40]...), as("ops")...), catPath(id, "")+"?done=attributes#done")
		wantRedirect(t, "bounds inside", e.post(t, path, rows(k40, strings.Repeat("é", 60), "api", "API access"), as("ops")...), catPath(id, "")+"?done=attributes#done")
		// Relabel api, put it first, remove the long key, add one.
		form := url.Values{"key": {k40, "api", "sso"}, "label": {"Long", "Public API", "Single sign-on"}, "position": {"2", "1", "3"}, "remove": {k40}}
		wantRedirect(t, "edit", e.post(t, path, form, as("ops")...), catPath(id, "")+"?done=attributes#done")
		c, err := e.console.AdminCategory(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(c.Attributes); got != "[{api Public API} {sso Single sign-on}]" {
			t.Errorf("attributes after the edit: %s", got)
		}
		entry := lastAudit(t, e, "category.attributes")
		if !strings.Contains(string(entry.Before), `"label":"API access"`) || string(entry.After) != `[{"key":"api","label":"Public API"},{"key":"sso","label":"Single sign-on"}]` {
			t.Errorf("category.attributes entry: %s -> %s", entry.Before, entry.After)
		}

		// compare_listings shows the edited rows, with each listing's values.
		a, b := newLiveListing(t, e, "Chatty"), newLiveListing(t, e, "Talker")
		linkListing(t, e, a, id, true)
		linkListing(t, e, b, id, true)
		if _, err := e.db.InsertRow(context.Background(), "listing_attributes", map[string]any{"listing_id": a, "key": "sso", "value": "SAML"}); err != nil {
			t.Fatal(err)
		}
		out, err := e.svc.CompareListings(context.Background(), domain.CompareListingsInput{A: "chatty", B: "talker"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range out.Rows {
			if r.Key == "api" || r.Key == "sso" {
				got = append(got, r.Key+"="+r.Label+":"+r.A+"|"+r.B)
			}
		}
		if strings.Join(got, " ") != "api=Public API:| sso=Single sign-on:SAML|" {
			t.Errorf("compare_listings rows: %v", got)
		}
	})
}

// TestCategories_Merge: merging moves every listing of the source to the
// target (one link per listing, primary if either was, their attribute
// values kept), the source's subcategories and comparison attributes too;
// the source's slug (and its old slugs) then lead to the target; search by
// the target or by the old slug finds every listing. A category cannot be
// merged into itself, a missing one, or so as to make the tree too deep.
func TestCategories_Merge(t *testing.T) {
	t.Parallel()
	fixtures.OnEngines(t, func(t *testing.T, engine string) {
		e := newCategoryEnv(t, engine)
		ctx := context.Background()
		src := createCategory(t, e, "Writing", "writing", 0)
		child := createCategory(t, e, "Blogging", "blogging", src)
		dst := createCategory(t, e, "Content", "content", 0)
		wantRedirect(t, "an old slug of the source", e.post(t, catPath(src, "rename"), url.Values{"name": {"Writing"}, "slug": {"writing-tools"}}, as("ops")...), catPath(src, "")+"?done=renamed#done")
		if err := e.console.SetCategoryAttributes(ctx, "ops@launchdir.test", src, []domain.Attribute{{Key: "tone", Label: "Tone control"}, {Key: "api", Label: "API"}}); err != nil {
			t.Fatal(err)
		}
		if err := e.console.SetCategoryAttributes(ctx, "ops@launchdir.test", dst, []domain.Attribute{{Key: "api", Label: "Public API"}}); err != nil {
			t.Fatal(err)
		}
		both, onlySrc, onlyDst, inChild := newLiveListing(t, e, "Both"), newLiveListing(t, e, "Onlysrc"), newLiveListing(t, e, "Onlydst"), newLiveListing(t, e, "Inchild")
		linkListing(t, e, both, src, true)
		linkListing(t, e, both, dst, false)
		linkListing(t, e, onlySrc, src, true)
		linkListing(t, e, onlyDst, dst, true)
		linkListing(t, e, inChild, child, true)
		if _, err := e.db.InsertRow(ctx, "listing_attributes", map[string]any{"listing_id": both, "key": "tone", "value": "Formal"}); err != nil {
			t.Fatal(err)
		}
		live := func(slug string) int {
			out, err := e.svc.SearchListings(ctx, domain.SearchListingsInput{Category: slug})
			if err != nil {
				t.Fatal(err)
			}
			return out.Total
		}
		union := 4 // both, onlySrc, inChild under the source; both, onlyDst in the target
		if n, m := live("writing-tools"), live("content"); n != 3 || m != 2 {
			t.Fatalf("before the merge: %d and %d live listings", n, m)
		}

		refused(t, e, "into itself", catPath(src, "merge"), url.Values{"target": {strconv.FormatInt(src, 10)}}, 400, "merge-target-problem", "cannot be merged into itself")
		refused(t, e, "into nothing", catPath(src, "merge"), url.Values{"target": {"999"}}, 400, "merge-target-problem", "no category 999")
		refused(t, e, "no target", catPath(src, "merge"), url.Values{"target": {""}}, 400, "merge-target-problem", "Choose the category")
		deep1 := createCategory(t, e, "D1", "d1", 0)
		deep2 := createCategory(t, e, "D2", "d2", deep1)
		deep3 := createCategory(t, e, "D3", "d3", deep2)
		deep4 := createCategory(t, e, "D4", "d4", deep3)
		refused(t, e, "too deep", catPath(src, "merge"), url.Values{"target": {strconv.FormatInt(deep4, 10)}}, 400, "merge-target-problem", "at most 4 levels")

		res := e.post(t, catPath(src, "merge"), url.Values{"target": {strconv.FormatInt(dst, 10)}}, as("ops")...)
		wantRedirect(t, "merge", res, catPath(dst, "")+"?merged=2#done")
		want(t, "the target's page", e.get2(t, catPath(dst, "")+"?merged=2", as("ops")), 200, "Merged: 2 listing link(s) moved here", "<code>writing</code>", "<code>writing-tools</code>")
		if res := e.get2(t, catPath(src, ""), as("ops")); res.status != 404 {
			t.Errorf("the merged-away category's console page: %d, want 404", res.status)
		}
		if n := live("content"); n != union {
			t.Errorf("after the merge the target has %d live listings, want %d", n, union)
		}
		for _, old := range []string{"writing", "writing-tools"} {
			if n := live(old); n != union {
				t.Errorf("search by the old slug %s: %d, want %d", old, n, union)
			}
			res := e.get(t, "/categories/"+old)
			if res.status != http.StatusMovedPermanently || res.header.Get("Location") != "/categories/content" {
				t.Errorf("/categories/%s after the merge: %d to %q", old, res.status, res.header.Get("Location"))
			}
		}
		d, err := e.console.AdminCategory(ctx, dst)
		if err != nil {
			t.Fatal(err)
		}
		if d.Listings != 3 || d.Primary != 3 || fmt.Sprint(d.Attributes) != "[{api Public API} {tone Tone control}]" {
			t.Errorf("the target after the merge: %d links (%d primary), attributes %v", d.Listings, d.Primary, d.Attributes)
		}
		var links, primaries int
		rows, err := e.db.Rows(ctx, "listing_categories", map[string]any{"listing_id": both})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			links++
			if fmt.Sprint(r["is_primary"]) == "1" {
				primaries++
			}
		}
		if links != 1 || primaries != 1 {
			t.Errorf("the listing in both: %d links, %d primary; want one primary link", links, primaries)
		}
		if rows, err := e.db.Rows(ctx, "listing_attributes", map[string]any{"listing_id": both}); err != nil || len(rows) != 1 {
			t.Errorf("the listing's attribute values after the merge: %v (%v)", rows, err)
		}
		if c, err := e.console.AdminCategory(ctx, child); err != nil || c.ParentID != dst {
			t.Errorf("the source's subcategory after the merge: %+v (%v)", c, err)
		}
		entry := lastAudit(t, e, "category.merge")
		if entry.Target != "category:"+strconv.FormatInt(src, 10) || !strings.Contains(string(entry.Before), `"listings":2`) ||
			!strings.Contains(string(entry.After), `"new_redirects":["writing-tools","writing"]`) {
			t.Errorf("category.merge entry: %s -> %s", entry.Before, entry.After)
		}
		// A chain: the target renamed, the merged-away slug follows.
		wantRedirect(t, "rename the target", e.post(t, catPath(dst, "rename"), url.Values{"name": {"Content"}, "slug": {"content-tools"}}, as("ops")...), catPath(dst, "")+"?done=renamed#done")
		if res := e.get(t, "/categories/writing"); res.header.Get("Location") != "/categories/content-tools" {
			t.Errorf("the chain writing -> content -> content-tools: %d to %q", res.status, res.header.Get("Location"))
		}
		// Merging a category into its own subcategory: the subcategory takes its place.
		top := createCategory(t, e, "Top", "top", 0)
		sub := createCategory(t, e, "Sub", "sub", top)
		wantRedirect(t, "into its subcategory", e.post(t, catPath(top, "merge"), url.Values{"target": {strconv.FormatInt(sub, 10)}}, as("ops")...), catPath(sub, "")+"?merged=0#done")
		if c, err := e.console.AdminCategory(ctx, sub); err != nil || c.ParentID != 0 {
			t.Errorf("the subcategory after its parent merged into it: %+v (%v)", c, err)
		}
	})
}
