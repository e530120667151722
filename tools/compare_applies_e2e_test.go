package tools

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestCompare_SaysWhichRowsApply: compare_listings of two
// listings in different categories leaves the other category's attribute
// rows empty, and an empty cell there means "does not apply", not "does not
// state it". Each row says the listings it applies to (applies_to), and the
// description tells a model which empty cell means which. Through the go-sdk
// client against the real /mcp endpoint, on the demo data.
func TestCompare_SaysWhichRowsApply(t *testing.T) {
	t.Parallel() // owns its server, database copy and clock
	env := catTestServer(t, Options{}, true)
	cs := catConnect(t, env.URL, "2025-11-25", nil)

	// Two live listings whose primary categories differ and both have comparison attributes.
	hasAttrs := map[string]bool{}
	var a, b, catA, catB string
	_, text := catCall(t, cs, "search_listings", map[string]any{"per_page": 40})
	var page struct {
		Items []struct {
			Slug            string `json:"slug"`
			PrimaryCategory *struct {
				Slug string `json:"slug"`
			} `json:"primary_category"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(text), &page); err != nil {
		t.Fatal(err)
	}
	for _, it := range page.Items {
		if it.PrimaryCategory == nil {
			continue
		}
		cat := it.PrimaryCategory.Slug
		if _, ok := hasAttrs[cat]; !ok {
			_, ct := catCall(t, cs, "get_category", map[string]any{"slug": cat, "per_page": 1})
			var c struct {
				Category struct {
					Attributes []any `json:"attributes"`
				} `json:"category"`
			}
			json.Unmarshal([]byte(ct), &c)
			hasAttrs[cat] = len(c.Category.Attributes) > 0
		}
		if !hasAttrs[cat] {
			continue
		}
		if a == "" {
			a, catA = it.Slug, cat
		} else if cat != catA {
			b, catB = it.Slug, cat
			break
		}
	}
	if b == "" {
		t.Fatalf("the demo data has no two listings in different categories with attributes (%v)", hasAttrs)
	}

	r, text := catCall(t, cs, "compare_listings", map[string]any{"a": a, "b": b})
	if r.IsError {
		t.Fatalf("compare_listings %s %s: %s", a, b, text)
	}
	var out struct {
		Rows []struct {
			Key       string   `json:"key"`
			Category  string   `json:"category"`
			A         string   `json:"a"`
			B         string   `json:"b"`
			AppliesTo []string `json:"applies_to"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatal(err)
	}
	onlyA, onlyB := 0, 0
	for _, row := range out.Rows {
		if row.AppliesTo == nil {
			t.Errorf("row %s says nothing of whom it applies to", row.Key)
			continue
		}
		switch row.Category {
		case "":
			if !slices.Equal(row.AppliesTo, []string{"a", "b"}) {
				t.Errorf("general row %s applies to %v, want both", row.Key, row.AppliesTo)
			}
		case catA:
			if !slices.Contains(row.AppliesTo, "a") {
				t.Errorf("row %s of %s (a's category) does not apply to a: %v", row.Key, catA, row.AppliesTo)
			}
		case catB:
			if !slices.Contains(row.AppliesTo, "b") {
				t.Errorf("row %s of %s (b's category) does not apply to b: %v", row.Key, catB, row.AppliesTo)
			}
		default:
			t.Errorf("row %s names category %q, neither listing's", row.Key, row.Category)
		}
		// A listing a row does not apply to has nothing in it.
		if !slices.Contains(row.AppliesTo, "a") && row.A != "" || !slices.Contains(row.AppliesTo, "b") && row.B != "" {
			t.Errorf("row %s: a value %q/%q in a cell the row does not apply to (%v)", row.Key, row.A, row.B, row.AppliesTo)
		}
		if slices.Equal(row.AppliesTo, []string{"a"}) {
			onlyA++
		}
		if slices.Equal(row.AppliesTo, []string{"b"}) {
			onlyB++
		}
	}
	if onlyA == 0 || onlyB == 0 {
		t.Errorf("comparing %s (%s) and %s (%s): %d rows apply only to a, %d only to b; want some of each: %s", a, catA, b, catB, onlyA, onlyB, text)
	}

	// The description says which empty cell means which.
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range list.Tools {
		if tl.Name != "compare_listings" {
			continue
		}
		if !strings.Contains(tl.Description, "applies_to") || !strings.Contains(tl.Description, "does not apply") ||
			strings.Contains(tl.Description, "An empty cell means the listing does not state it") {
			t.Errorf("compare_listings description does not tell not stated from does not apply: %s", tl.Description)
		}
	}
}
