package tools

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The rules a caller can be refused with must be readable from the published
// schemas. The schema's own errors are by construction; this test is about
// the hand-written checks of domain/ and tools/: each one whose rule is named
// after a JSON Schema keyword (maxLength, minProperties, required, ...) must
// either be declared by some operation's published input schema at that
// field, or be listed in handRules with the docs page that says when it
// applies (a bound that depends on stored state, a product's options, a page
// form that is no operation's input). Rules with domain names (exists,
// requires, date, ...) are not schema keywords and are documented with their
// operations. Issue 12 found update_my_listing refusing {} with
// minProperties, which its schema did not declare.

// schemaKeywords are the JSON Schema validation keywords a rule may be named after.
var schemaKeywords = map[string]bool{
	"type": true, "enum": true, "const": true, "required": true, "additionalProperties": true,
	"minProperties": true, "maxProperties": true, "dependentRequired": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "contains": true,
}

// handRule is one hand-written check whose keyword the schemas do not declare
// at its field: where it is documented (doc, a path below the repository
// root, must contain every string of says) and why it is not in the schema.
type handRule struct {
	doc  string
	says []string
	why  string
}

// handRules are keyed "file: field rule" as handChecks finds them. Each is
// said in docs/decisions.md ("Checks the schemas do not state").
var handRules = map[string]handRule{
	// The order items: bounds that depend on the product or on stored state.
	"domain/orders_items.go: items[*].listing_id required":      {"docs/orders.md", []string{"listing_id"}, "needed by some products only (list_products says which)"},
	"domain/orders_items.go: items[*].week required":            {"docs/orders.md", []string{"week"}, "needed by some products only"},
	"domain/orders_items.go: items[*].amount_cents required":    {"docs/orders.md", []string{"amount_cents"}, "billboard_min only"},
	"domain/orders_items.go: items[*].amount_cents minimum":     {"docs/orders.md", []string{"billboard"}, "the minimum is the admin price of billboard_min"},
	"domain/orders_items.go: items[*].categories required":      {"docs/orders.md", []string{"extra_categories"}, "extra_categories only"},
	"domain/orders_items.go: items[*].categories maxItems":      {"docs/orders.md", []string{"extra_categories"}, "counts the listing's extra categories already bought"},
	"domain/webhooks.go: events enum":                           {"docs/webhooks.md", []string{"`events`", "(1-20 of the event types below"}, "the enum would cost every client ~150 tokens twice; the 400 lists the types"},
	"domain/console/team.go: role enum":                         {"docs/console.md", []string{"role `admin` or `moderator`"}, "the console's team form and CLI, no operation"},
	"domain/console/team.go: ? maxLength":                       {"docs/console.md", []string{"filters of at most 254 characters"}, "the console's audit log filter, no operation"},
	"domain/console/people.go: q maxLength":                     {"docs/console.md", []string{"a search of more than 254 characters is a 400 page naming `q`"}, "the console's people search, no operation"},
	"domain/console/people.go: reason required":                 {"docs/console.md", []string{"a reason of 1-500 characters"}, "the console's suspend form, no operation"},
	"domain/console/people.go: reason maxLength":                {"docs/console.md", []string{"a reason of 1-500 characters"}, "the console's suspend form, no operation"},
	"domain/console/listings.go: reason required":               {"docs/console.md", []string{"a reason of 1-500 characters the owners see"}, "the console's hide and unpublish forms, no operation"},
	"domain/console/listings.go: reason maxLength":              {"docs/console.md", []string{"a reason of 1-500 characters the owners see"}, "the console's hide and unpublish forms, no operation"},
	"domain/console/listings.go: into required":                 {"docs/console.md", []string{"the id of the listing to keep"}, "the console's merge form, no operation"},
	"domain/console/ratings.go: file required":                  {"docs/console.md", []string{"A file that breaks a whole-file rule"}, "the console's Domain Rating upload and CLI, no operation"},
	"domain/console/ratings.go: source required":                {"docs/console.md", []string{"(**source**, 1-60 characters:"}, "the console's Domain Rating upload and CLI, no operation"},
	"domain/console/ratings.go: source maxLength":               {"docs/console.md", []string{"(**source**, 1-60 characters:"}, "the console's Domain Rating upload and CLI, no operation"},
	"domain/console/ratings.go: source pattern":                 {"docs/console.md", []string{"letters, digits, spaces and `. _ ( ) -`"}, "the console's Domain Rating upload and CLI, no operation"},
	"domain/console/revenue.go: month pattern":                  {"docs/console.md", []string{"month `YYYY-MM` from `2000-01` to the current month"}, "the console's revenue forms, no operation"},
	"domain/console/revenue.go: month minimum":                  {"docs/console.md", []string{"month `YYYY-MM` from `2000-01` to the current month"}, "the console's revenue forms, no operation"},
	"domain/console/revenue.go: month maximum":                  {"docs/console.md", []string{"month `YYYY-MM` from `2000-01` to the current month"}, "the console's revenue forms, no operation"},
	"domain/console/revenue.go: amount pattern":                 {"docs/console.md", []string{"at most 2 decimals"}, "the console's revenue forms, no operation"},
	"domain/console/revenue.go: amount maximum":                 {"docs/console.md", []string{"0 to 100,000,000.00"}, "the console's revenue forms, no operation"},
	"domain/trophies.go: date minimum":                          {"docs/trophies.md", []string{"not before 2000-01-01"}, "a calendar bound JSON Schema's format=date cannot state"},
	"domain/trophies.go: date maximum":                          {"docs/trophies.md", []string{"not after tomorrow"}, "depends on the clock"},
	"domain/trophies_check.go: reason required":                 {"docs/trophies.md", []string{"a reason of 1-500 characters the owner sees"}, "the console's reject form, no operation"},
	"domain/programmes.go: category enum":                       {"docs/trophies.md", []string{"one of the programme's categories"}, "depends on the programme"},
	"domain/programmes.go: categories maxItems":                 {"docs/trophies.md", []string{"at most 10 categories"}, "the console's programme form, no operation"},
	"domain/programmes.go: name pattern":                        {"docs/trophies.md", []string{"a name with letters or digits"}, "the console's programme form, no operation"},
	"domain/programmes.go: launched_to minimum":                 {"docs/trophies.md", []string{"launched_to not before launched_from"}, "the console's programme form, no operation"},
	"domain/programmes.go: entry_closes minimum":                {"docs/trophies.md", []string{"the entry window's last day is not before its first"}, "the console's programme form, no operation"},
	"domain/programmes.go: voting_opens minimum":                {"docs/trophies.md", []string{"voting opens on or after entries open"}, "the console's programme form, no operation"},
	"domain/programmes.go: voting_closes minimum":               {"docs/trophies.md", []string{"voting closes on or after entries close, and not in the past"}, "the console's programme form, no operation"},
	"domain/console/settings.go: ? minLength":                   {"docs/console.md", []string{"1-80 characters, one line"}, "the console's site settings form and CLI, no operation"},
	"domain/console/settings.go: ? maxLength":                   {"docs/console.md", []string{"1-500 characters, one line"}, "the console's site settings form and CLI, no operation"},
	"domain/console/settings.go: ? pattern":                     {"docs/console.md", []string{"one line"}, "the console's site settings form and CLI, no operation"},
	"domain/console/settings.go: ? type":                        {"docs/console.md", []string{"whole number within its bounds"}, "the console's site settings form and CLI, no operation"},
	"domain/console/settings.go: ? minimum":                     {"docs/console.md", []string{"| 1-1000 |"}, "the console's site settings form and CLI, no operation"},
	"domain/console/settings.go: ? maximum":                     {"docs/console.md", []string{"| 0-720 (0: no hold for age) |"}, "the console's site settings form and CLI, no operation"},
	"domain/console/blog.go: ? ?":                               {"docs/console.md", []string{"| title | 1-200 characters |", "half a pair is refused"}, "the console's blog post and interview forms (one helper for their fields), no operation"},
	"domain/console/blog.go: direction enum":                    {"docs/console.md", []string{"place up or down"}, "the console's interview questions, no operation"},
	"domain/console/blog.go: publish_at maximum":                {"docs/console.md", []string{"at most 366 days ahead"}, "the console's schedule form, no operation"},
	"domain/console/blog.go: question maxItems":                 {"docs/console.md", []string{"at most 30 questions"}, "the console's interview questions, no operation"},
	"domain/console/settings.go: key enum":                      {"docs/console.md", []string{"An unknown key is refused naming the keys"}, "the console's site settings form and CLI, no operation"},
	"domain/console/categories.go: name minLength":              {"docs/console.md", []string{"name 1-60 characters, one line"}, "the console's category forms, no operation"},
	"domain/console/categories.go: name maxLength":              {"docs/console.md", []string{"name 1-60 characters, one line"}, "the console's category forms, no operation"},
	"domain/console/categories.go: name pattern":                {"docs/console.md", []string{"name 1-60 characters, one line"}, "the console's category forms, no operation"},
	"domain/console/categories_content.go: ? minLength":         {"docs/console.md", []string{"question 1-300 characters, answer 1-1500", "label 1-60 characters"}, "the console's category FAQ and attribute rows, no operation"},
	"domain/console/categories_content.go: ? maxLength":         {"docs/console.md", []string{"question 1-300 characters, answer 1-1500", "key `^[a-z][a-z0-9_]{0,39}$`", "label 1-60 characters"}, "the console's category FAQ and attribute rows, no operation"},
	"domain/console/categories_content.go: ? pattern":           {"docs/console.md", []string{"key `^[a-z][a-z0-9_]{0,39}$`", "label 1-60 characters"}, "the console's attribute rows, no operation"},
	"domain/console/categories_content.go: attributes maxItems": {"docs/console.md", []string{"at most 20"}, "the console's attributes form, no operation"},
	"domain/admin.go: price_cents minimum":                      {"docs/decisions.md", []string{"`price_cents` `minimum`/`maximum`"}, "admin page and CLI, no operation"},
	"domain/admin.go: price_cents maximum":                      {"docs/decisions.md", []string{"`price_cents` `minimum`/`maximum`"}, "admin page and CLI, no operation"},
	"domain/orders_checkout.go: name required":                  {"docs/decisions.md", []string{"the checkout page form (`name`, `address` `required`/`maxLength`"}, "a page form, no operation's input"},
	"domain/orders_checkout.go: name maxLength":                 {"docs/decisions.md", []string{"the checkout page form (`name`, `address` `required`/`maxLength`"}, "a page form"},
	"domain/orders_checkout.go: address required":               {"docs/decisions.md", []string{"the checkout page form (`name`, `address` `required`/`maxLength`"}, "a page form"},
	"domain/orders_checkout.go: address maxLength":              {"docs/decisions.md", []string{"the checkout page form (`name`, `address` `required`/`maxLength`"}, "a page form"},
	"domain/orders_checkout.go: ? format":                       {"docs/decisions.md", []string{"any of its fields `format` when it is not valid UTF-8"}, "a page form"},
	"domain/orders_checkout.go: country required":               {"docs/decisions.md", []string{"the checkout page form (`name`, `address` `required`/`maxLength`"}, "a page form"},
	"domain/orders_checkout.go: billing required":               {"docs/decisions.md", []string{"`billing` `required`"}, "the stored order has no billing details yet"},
	"domain/orders_vat.go: ? ?":                                 {"docs/decisions.md", []string{"`vat_number` `format`"}, "check digits of the EU member state's VAT number scheme"},
	"domain/drafts_listing.go: fields.name required":            {"docs/decisions.md", []string{"`fields.name` `required`"}, "the stored draft has no name"},
	"domain/drafts_listing.go: fields.categories[0] enum":       {"docs/decisions.md", []string{"`fields.categories[0]` `enum`"}, "the category was removed since"},
	"domain/drafts_listing.go: fields.stage enum":               {"docs/decisions.md", []string{"`fields.stage` `enum`"}, "the stored draft's stage, checked again before it becomes the listing's"},
	"domain/drafts_listing.go: ? maxLength":                     {"docs/drafts.md", []string{"`warnings` lists each value of the draft over a listing's bound"}, "a listing's bound, tighter than the draft's (fields.<name>, story.title)"},
	"domain/drafts_update.go: *[*] enum":                        {"docs/decisions.md", []string{"`lock_fields[i]`, `regenerate[i]`, `restore[i]`, `fields.categories[i]` `enum`"}, "draft field names; categories are stored data"},
	"domain/drafts_update.go: *[*] minLength":                   {"docs/decisions.md", []string{"`fields.<list>[i]` `minLength`"}, "blank after whitespace is folded"},
	"domain/drafts_update.go: ? enum":                           {"docs/decisions.md", []string{"`fields.stage` `enum`"}, "fields is a free-form object of draft fields"},
	"domain/drafts_update.go: ? format":                         {"docs/decisions.md", []string{"`fields.contact_email`, `fields.demo_video_url`, `fields.logo_url` `format`"}, "fields is a free-form object"},
	"domain/drafts_update.go: ? type":                           {"docs/decisions.md", []string{"`fields.<name>` `type`"}, "fields is a free-form object"},
	"domain/drafts.go: ? format":                                {"docs/decisions.md", []string{"`url`, `competitor_url` `format`"}, "an http(s) URL with a host and no credentials"},
	"domain/drafts_invites.go: ? format":                        {"docs/decisions.md", []string{"`name`, `title`, `bio` `format`/`maxLength`"}, "counted after folding whitespace; valid UTF-8"},
	"domain/drafts_invites.go: ? maxLength":                     {"docs/decisions.md", []string{"`name`, `title`, `bio` `format`/`maxLength`"}, "counted after folding whitespace"},
	"domain/drafts_invites.go: name required":                   {"docs/decisions.md", []string{"`name` `required`"}, "blank after folding whitespace"},
	"domain/owner_edit.go: ? uniqueItems":                       {"docs/decisions.md", []string{"`apply_to[i]` `uniqueItems`"}, "names the repeated item"},
	"domain/owner_edit.go: socials.* format":                    {"docs/decisions.md", []string{"`socials.<platform>` `format`"}, "an http(s) link; empty leaves the platform out"},
	"domain/orders_items.go: ? ?":                               {"docs/decisions.md", []string{"`items[i].<field>`"}, "the order items' error helper; its calls are checked one by one"},
	"domain/orders_items.go: items[*].listing_id ?":             {"docs/decisions.md", []string{"`items[i].listing_id` `state`/`free_only`"}, "the listing's stored state"},
	"domain/owner_content.go: *.question_id uniqueItems":        {"docs/decisions.md", []string{"`answers[i].question_id` `uniqueItems`"}, "the same question twice in one call"},
	"domain/owner_content.go: ? maxLength":                      {"docs/decisions.md", []string{"plain-text fields"}, "counted after trimming"},
	"domain/owner_content.go: ? required":                       {"docs/decisions.md", []string{"plain-text fields"}, "blank after trimming"},
	"domain/validate/options.go: ? ?":                           {"docs/decisions.md", []string{"`items[i].options`"}, "each product's options_schema in list_products"},
	"domain/validate/options.go: ? type":                        {"docs/decisions.md", []string{"`items[i].options`"}, "each product's options_schema"},
	"domain/console/moderation.go: listing required":            {"docs/moderation.md", []string{"no or unknown listing (`listing`)"}, "the review queue's disqualify form, no operation"},
	"domain/console/moderation.go: reason required":             {"docs/moderation.md", []string{"no reason or more than 500 characters (`reason`)"}, "the disqualify form"},
	"domain/console/moderation.go: reason maxLength":            {"docs/moderation.md", []string{"no reason or more than 500 characters (`reason`)"}, "the disqualify form"},
	"domain/console/moderation.go: action enum":                 {"docs/moderation.md", []string{"an unknown decision"}, "the review queue's decisions on a review"},
	"domain/public_reviews.go: stars required":                  {"docs/reviews.md", []string{"`stars` `required`", "`body` `minLength`/`maxLength`"}, "the review form on the listing page, no operation's input"},
	"domain/public_reviews.go: answer required":                 {"docs/reviews.md", []string{"`answer` `required`/`maxLength`"}, "the answer form on the listing page"},
	"domain/public_reviews.go: answer maxLength":                {"docs/reviews.md", []string{"`answer` `required`/`maxLength`"}, "the answer form on the listing page"},
	"tools/decode.go: ? ?":                                      {"docs/decisions.md", []string{"`duplicateKey`"}, "a JSON object naming a key twice"},
	"tools/rest.go: ? additionalProperties":                     {"docs/decisions.md", []string{"query parameter next to a JSON body", "path parameter also sent in the\n  body"}, "REST transport rules"},
	"domain/validate/validate.go: ? ?":                          {"docs/decisions.md", []string{"the schema's own errors"}, "translates the schema's errors"},
	"tools/validate.go: ? additionalProperties":                 {"docs/decisions.md", []string{"path parameter also sent as a query parameter"}, "REST transport rules"},
	"tools/validate.go: ? type":                                 {"docs/decisions.md", []string{"query parameter sent twice"}, "REST transport rules"},
	"tools/toolsets.go: ? enum":                                 {"docs/toolsets.md", []string{"rule `enum` (unknown name or bad boolean"}, "the /mcp toolset selection, no operation's input"},
	"tools/toolsets.go: ? minItems":                             {"docs/toolsets.md", []string{"`minItems` (empty)"}, "the /mcp toolset selection, no operation's input"},
}

// handCheck is one hand-written check found in the source.
type handCheck struct {
	file, field, rule string
	line              int
}

func (c handCheck) key() string { return fmt.Sprintf("%s: %s %s", c.file, c.field, c.rule) }

// handChecks finds the checks of the non-test files of dirs (relative to the
// repository root): calls of Invalid(field, rule, ...) and of the order
// items' bad(name, rule, ...), and FieldError literals. A field that is not a
// constant is written with * for what varies ("faqs[*].question",
// "fields.*"); a field held in a variable is "?"; a rule that is not a
// constant is "?".
func handChecks(t *testing.T, dirs ...string) []handCheck {
	t.Helper()
	fset := token.NewFileSet()
	var out []handCheck
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			rel := filepath.ToSlash(strings.TrimPrefix(path, ".."+string(filepath.Separator)))
			add := func(n ast.Node, field, rule ast.Expr, prefix string) {
				r := "?"
				if s, ok := stringLit(rule); ok {
					r = s
				}
				fld := fieldPattern(field)
				if prefix != "" && fld != "?" {
					fld = prefix + fld
				}
				out = append(out, handCheck{file: rel, field: fld, rule: r, line: fset.Position(n.Pos()).Line})
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					switch name := calleeName(n.Fun); {
					case (name == "Invalid" || name == "domain.Invalid") && len(n.Args) >= 2:
						add(n, n.Args[0], n.Args[1], "")
					case name == "bad" && (rel == "domain/orders.go" || rel == "domain/orders_items.go") && len(n.Args) >= 2:
						add(n, n.Args[0], n.Args[1], "items[*].")
					}
				case *ast.CompositeLit:
					if name := calleeName(n.Type); name == "FieldError" || name == "domain.FieldError" {
						var field, rule ast.Expr
						for _, e := range n.Elts {
							if kv, ok := e.(*ast.KeyValueExpr); ok {
								switch calleeName(kv.Key) {
								case "Field":
									field = kv.Value
								case "Rule":
									rule = kv.Value
								}
							}
						}
						if field != nil && rule != nil {
							add(n, field, rule, "")
						}
					}
				}
				return true
			})
		}
	}
	return out
}

func calleeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return ""
}

func stringLit(e ast.Expr) (string, bool) {
	if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
		s, err := strconv.Unquote(b.Value)
		return s, err == nil
	}
	return "", false
}

var verbRE = regexp.MustCompile(`%[dsvq]`)

// fieldPattern writes a field expression as a pattern: constants as they are,
// Sprintf verbs and concatenated variables as *, a bare variable as "?".
func fieldPattern(e ast.Expr) string {
	if s, ok := stringLit(e); ok {
		return s
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		if calleeName(e.Fun) == "fmt.Sprintf" && len(e.Args) > 0 {
			if s, ok := stringLit(e.Args[0]); ok {
				return verbRE.ReplaceAllString(s, "*")
			}
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			l, r := fieldPattern(e.X), fieldPattern(e.Y)
			if l == "?" {
				l = "*"
			}
			if r == "?" {
				r = "*"
			}
			return l + r
		}
	}
	return "?"
}

// declares reports whether an input schema declares keyword at the field
// pattern: for required, the parent object lists the name; "arguments" is
// the root; * is any property or item.
func declares(root map[string]any, pattern, keyword string) bool {
	defs, _ := root["$defs"].(map[string]any)
	if pattern == "arguments" {
		return has(root, keyword)
	}
	var segs []string
	for _, part := range strings.Split(pattern, ".") {
		name, idx, _ := strings.Cut(part, "[")
		segs = append(segs, name)
		for idx != "" {
			segs = append(segs, "[]")
			_, idx, _ = strings.Cut(idx, "[")
		}
	}
	var walk func(s map[string]any, segs []string) bool
	walk = func(s map[string]any, segs []string) bool {
		s = deref(s, defs)
		if len(segs) == 1 && keyword == "required" {
			req, _ := s["required"].([]any)
			return slices.Contains(req, any(segs[0])) || (segs[0] == "*" && len(req) > 0)
		}
		if len(segs) == 0 {
			return has(s, keyword)
		}
		if segs[0] == "[]" {
			items, _ := s["items"].(map[string]any)
			return items != nil && walk(items, segs[1:])
		}
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			if segs[0] == "*" || segs[0] == name {
				if ps, ok := p.(map[string]any); ok && walk(ps, segs[1:]) {
					return true
				}
			}
		}
		return false
	}
	return walk(root, segs)
}

func deref(s map[string]any, defs map[string]any) map[string]any {
	if ref, ok := s["$ref"].(string); ok {
		if d, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any); ok {
			merged := map[string]any{}
			for k, v := range d {
				merged[k] = v
			}
			for k, v := range s { // keywords next to $ref (minProperties on fields) count too
				if k != "$ref" {
					merged[k] = v
				}
			}
			return merged
		}
	}
	return s
}

func has(s map[string]any, keyword string) bool {
	if _, ok := s[keyword]; ok {
		return true
	}
	if keyword == "format" { // a pattern is how a schema says "a format of ours"
		_, ok := s["pattern"]
		return ok
	}
	return false
}

// TestCatalog_HandWrittenRulesAreDeclared walks every hand-written check of
// domain/ and tools/ named after a JSON Schema keyword: the published input
// schema of some operation must declare it at its field, or handRules must
// list it with the docs page that says it.
func TestCatalog_HandWrittenRulesAreDeclared(t *testing.T) {
	t.Parallel()
	var roots []map[string]any
	for _, op := range Catalog() {
		var root map[string]any
		if err := json.Unmarshal(op.InputSchema, &root); err != nil {
			t.Fatal(err)
		}
		roots = append(roots, root)
	}
	checks := handChecks(t, "domain", "domain/console", "domain/validate", "tools")
	if len(checks) < 20 {
		t.Fatalf("found only %d hand-written checks: the scanner is broken", len(checks))
	}
	used := map[string]bool{}
	var undeclared []string
	for _, c := range checks {
		if !schemaKeywords[c.rule] && c.rule != "?" {
			continue // a domain rule name
		}
		if hr, ok := handRules[c.key()]; ok {
			used[c.key()] = true
			b, err := os.ReadFile(filepath.Join("..", hr.doc))
			if err != nil {
				t.Errorf("%s: %v", c.key(), err)
				continue
			}
			for _, s := range hr.says {
				if !strings.Contains(string(b), s) {
					t.Errorf("%s: %s does not say %q", c.key(), hr.doc, s)
				}
			}
			continue
		}
		if c.field != "?" && c.rule != "?" && slices.ContainsFunc(roots, func(r map[string]any) bool { return declares(r, c.field, c.rule) }) {
			continue
		}
		undeclared = append(undeclared, fmt.Sprintf("%s (line %d)", c.key(), c.line))
	}
	sort.Strings(undeclared)
	for _, u := range undeclared {
		t.Errorf("hand-written check %s: no operation's input schema declares it there; declare it (a jsonschema tag) or list it in handRules with the docs page that says it", u)
	}
	for k := range handRules {
		if !used[k] {
			t.Errorf("handRules lists %s, which no hand-written check emits any more", k)
		}
	}
}
