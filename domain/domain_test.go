package domain_test

import (
	"context"
	"testing"
	"time"

	"github.com/launchdir/launchdir/domain"
)

func TestMonday(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2026-11-16T00:00:00Z", "2026-11-16"}, // Monday itself
		{"2026-11-18T12:00:00Z", "2026-11-16"}, // Wednesday
		{"2026-11-22T23:59:59Z", "2026-11-16"}, // Sunday, last second of the week
		{"2026-11-23T00:00:00Z", "2026-11-23"}, // next Monday
		{"2027-01-01T08:00:00Z", "2026-12-28"}, // across a year
	} {
		in, _ := time.Parse(time.RFC3339, c.in)
		if got := domain.Monday(in).Format(domain.DateLayout); got != c.want {
			t.Errorf("Monday(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseWeek(t *testing.T) {
	now := time.Date(2026, 11, 18, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]string{
		"this": "2026-11-16", "": "2026-11-16", "next": "2026-11-23", "last": "2026-11-09",
		"2026-11-22": "2026-11-16", "2024-02-29": "2024-02-26",
	} {
		got, err := domain.ParseWeek("week", in, now)
		if err != nil || got.Format(domain.DateLayout) != want {
			t.Errorf("ParseWeek(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"2026-02-30", "2026-13-01", "tomorrow", "2026-1-1"} {
		_, err := domain.ParseWeek("week", bad, now)
		e, ok := err.(*domain.Error)
		if !ok || e.Code != domain.EInvalid || len(e.Fields) != 1 || e.Fields[0].Field != "week" {
			t.Errorf("ParseWeek(%q) error = %v, want invalid naming week", bad, err)
		}
	}
}

func TestNormalizeDomain(t *testing.T) {
	for in, want := range map[string]string{
		"Example.COM": "example.com", "www.example.com": "example.com", "https://www.example.com/pricing": "example.com",
		"app.example.com.": "app.example.com", " ": "",
	} {
		if got := domain.NormalizeDomain(in); got != want {
			t.Errorf("NormalizeDomain(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPagination(t *testing.T) {
	if p, n := (domain.Pagination{}).Norm(); p != 1 || n != 20 {
		t.Errorf("defaults = %d, %d; want 1, 20", p, n)
	}
	if off := (domain.Pagination{Page: 3, PerPage: 25}).Offset(); off != 50 {
		t.Errorf("offset = %d, want 50", off)
	}
	if pg := domain.NewPage(2, 10, 20); pg.HasMore {
		t.Errorf("page 2 of 20 items by 10 says has_more")
	}
	if pg := domain.NewPage(2, 10, 21); !pg.HasMore {
		t.Errorf("page 2 of 21 items by 10 says no more")
	}
}

// flatCategories is a store whose categories are flat, in store order.
type flatCategories struct {
	domain.Store
	flat []domain.CategoryNode
}

func (f flatCategories) Categories(context.Context) ([]domain.CategoryNode, error) {
	return f.flat, nil
}

// TestBuildTree: list_categories nests the store's flat categories under
// their parents, keeping store order, with or without the empty ones.
func TestBuildTree(t *testing.T) {
	flat := []domain.CategoryNode{
		{Slug: "ai", Name: "AI", ListingCount: 3},
		{Slug: "writing", Name: "Writing", Parent: "ai", ListingCount: 3},
		{Slug: "empty", Name: "Empty", Parent: "ai"},
		{Slug: "dev", Name: "Dev"},
	}
	s := &domain.Service{Store: flatCategories{flat: flat}}
	tree := func(includeEmpty *bool) []domain.CategoryNode {
		t.Helper()
		out, err := s.ListCategories(context.Background(), domain.ListCategoriesInput{IncludeEmpty: includeEmpty})
		if err != nil {
			t.Fatal(err)
		}
		return out.Items
	}
	yes, no := true, false
	for _, all := range [][]domain.CategoryNode{tree(nil), tree(&yes)} {
		if len(all) != 2 || len(all[0].Subcategories) != 2 {
			t.Fatalf("tree = %+v; want ai{writing, empty}, dev", all)
		}
	}
	nonEmpty := tree(&no)
	if len(nonEmpty) != 1 || nonEmpty[0].Slug != "ai" || len(nonEmpty[0].Subcategories) != 1 {
		t.Fatalf("tree without empty categories = %+v; want ai{writing}", nonEmpty)
	}
}
