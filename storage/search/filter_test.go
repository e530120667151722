package search

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// catalog returns an index of eight "widget" listings with distinct filter
// and sort fields.
func catalog() *Index {
	ix := New()
	rows := []struct {
		id                          int64
		cats                        []int64
		stage, country, price, host string
		status                      string
		newest                      int64
		votes, views, follows       int
		trending                    float64
	}{
		{1, []int64{10}, "idea", "US", "free", "alpha.io", "live", 100, 5, 50, 1, 0.5},
		{2, []int64{10, 11}, "mvp", "us", "Paid", "app.alpha.io", "live", 300, 9, 10, 7, 2.5},
		{3, []int64{12}, "mvp", "DE", "freemium", "beta.com", "live", 200, 9, 70, 3, 1.5},
		{4, []int64{11}, "growth", "FR", "paid", "www.gamma.net", "live", 400, 1, 20, 9, 0.1},
		{5, []int64{12, 13}, "idea", "DE", "free", "notalpha.io", "live", 500, 3, 90, 2, 9.0},
		{6, nil, "growth", "US", "paid", "delta.org", "live", 50, 7, 30, 5, 3.0},
		{7, []int64{10}, "idea", "US", "free", "alpha.io", "scheduled", 900, 0, 0, 0, 0},
		{8, []int64{13}, "mvp", "GB", "paid", "echo.dev", "scheduled", 800, 2, 5, 4, 4.0},
	}
	for _, r := range rows {
		d := mk(r.id, "Widget", "A widget", "A widget for everyone.")
		d.Categories, d.Stage, d.Country, d.PricingModel, d.Domain = r.cats, r.stage, r.country, r.price, r.host
		d.Status, d.Newest, d.Votes, d.Views, d.Follows, d.Trending = r.status, r.newest, r.votes, r.views, r.follows, r.trending
		ix.Upsert(d)
	}
	return ix
}

func TestSearch_Filters(t *testing.T) {
	t.Parallel()
	ix := catalog()
	tests := []struct {
		name string
		q    Query
		want []string // sorted by votes, then id
	}{
		{"NoFilter", Query{}, []string{"s2", "s3", "s6", "s1", "s5", "s4"}},
		{"Category", Query{Categories: []int64{10}}, []string{"s2", "s1"}},
		{"CategoryAnyOf", Query{Categories: []int64{11, 13}}, []string{"s2", "s5", "s4"}},
		{"CategoryOverlap", Query{Categories: []int64{10, 11, 10}}, []string{"s2", "s1", "s4"}},
		{"CategoryEmpty", Query{Categories: []int64{}}, []string{}},
		{"CategoryUnknown", Query{Categories: []int64{99}}, []string{}},
		{"Stage", Query{Stage: "mvp"}, []string{"s2", "s3"}},
		{"StageUnknown", Query{Stage: "ipo"}, []string{}},
		{"Country", Query{Country: "us"}, []string{"s2", "s6", "s1"}},
		{"Pricing", Query{PricingModel: "PAID"}, []string{"s2", "s6", "s4"}},
		{"DomainAndSubdomains", Query{Domain: "alpha.io"}, []string{"s2", "s1"}},
		{"DomainSubdomainOnly", Query{Domain: "app.alpha.io"}, []string{"s2"}},
		{"DomainWWW", Query{Domain: "www.gamma.net"}, []string{"s4"}},
		{"DomainNoSuffixMatch", Query{Domain: "pha.io"}, []string{}},
		{"StatusScheduled", Query{Status: "scheduled"}, []string{"s8", "s7"}},
		{"StatusUpcoming", Query{Status: "upcoming"}, []string{"s8", "s7"}},
		{"StatusUnknown", Query{Status: "draft"}, []string{}},
		{"Combined", Query{Country: "DE", Stage: "idea", Categories: []int64{13}}, []string{"s5"}},
		{"WithText", Query{Text: "widget", Country: "US", Sort: "votes"}, []string{"s2", "s6", "s1"}},
		{"WithTextAndStatus", Query{Text: "widgte", Status: "scheduled", Sort: "votes"}, []string{"s8", "s7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total := search(ix, tt.q)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Search(%+v) (-want +got):\n%s", tt.q, diff)
			}
			if total != len(tt.want) {
				t.Errorf("total = %d, want %d", total, len(tt.want))
			}
		})
	}
}

func TestSearch_Sorts(t *testing.T) {
	t.Parallel()
	ix := catalog()
	tests := []struct {
		sort string
		want []string
	}{
		{"", []string{"s2", "s3", "s6", "s1", "s5", "s4"}}, // relevance without text: votes
		{"relevance", []string{"s2", "s3", "s6", "s1", "s5", "s4"}},
		{"votes", []string{"s2", "s3", "s6", "s1", "s5", "s4"}}, // s2 and s3 tie on 9 votes: lower id first
		{"newest", []string{"s5", "s4", "s2", "s3", "s1", "s6"}},
		{"trending", []string{"s5", "s6", "s2", "s3", "s1", "s4"}},
		{"most_viewed", []string{"s5", "s3", "s1", "s6", "s4", "s2"}},
		{"most_followed", []string{"s4", "s2", "s6", "s3", "s5", "s1"}},
	}
	for _, tt := range tests {
		for _, text := range []string{"", "widget"} {
			got, _ := search(ix, Query{Text: text, Sort: tt.sort})
			want := tt.want
			if text != "" && (tt.sort == "" || tt.sort == "relevance") {
				// Every doc has the same text, so relevance ties are broken by votes, then id.
				want = []string{"s2", "s3", "s6", "s1", "s5", "s4"}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sort %q text %q (-want +got):\n%s", tt.sort, text, diff)
			}
		}
	}
}

func TestSearch_Paging(t *testing.T) {
	t.Parallel()
	ix := catalog()
	all, total := search(ix, Query{Sort: "newest", Limit: 100})
	if total != 6 || len(all) != 6 {
		t.Fatalf("got %v total %d, want 6 results", all, total)
	}
	tests := []struct {
		offset, limit int
		want          []string
	}{
		{0, 2, all[0:2]},
		{2, 2, all[2:4]},
		{4, 2, all[4:6]},
		{5, 3, all[5:6]},
		{6, 2, []string{}},
		{100, 2, []string{}},
		{-3, 1, all[0:1]},
		{0, 0, all}, // DefaultLimit
	}
	for _, tt := range tests {
		got, total := search(ix, Query{Sort: "newest", Offset: tt.offset, Limit: tt.limit})
		if diff := cmp.Diff(tt.want, got); diff != "" || total != 6 {
			t.Errorf("offset %d limit %d: total %d (-want +got):\n%s", tt.offset, tt.limit, total, diff)
		}
	}
}

// TestSearch_FiltersOnSparseQueries checks the filters of a query whose
// words have few postings (a name, a misspelt name), whose filter bits are
// made for the windows holding them alone (filterWins): listings of every
// status, stage, country and pricing, spread among thousands of others,
// one of them deleted.
func TestSearch_FiltersOnSparseQueries(t *testing.T) {
	t.Parallel()
	type row struct {
		id                            int64
		stage, country, price, status string
		votes                         int
	}
	rows := []row{
		{1, "idea", "US", "free", "live", 5}, {2, "mvp", "US", "paid", "live", 9},
		{3, "mvp", "DE", "freemium", "live", 8}, {4, "growth", "FR", "paid", "live", 1},
		{5, "idea", "DE", "free", "live", 3}, {6, "growth", "US", "paid", "scheduled", 7},
		{7, "idea", "US", "free", "scheduled", 0}, {8, "mvp", "US", "paid", "live", 6},
	}
	ix := New()
	filler := func(from, to int64) {
		for id := from; id < to; id++ {
			d := mk(id, "Filler", "filler words", "filler")
			d.Stage, d.Country, d.PricingModel = "mvp", "US", "paid"
			ix.Upsert(d)
		}
	}
	filler(100, 3100)
	for i, r := range rows {
		if i == 4 {
			filler(3100, 6100)
		}
		d := mk(r.id, "Zorblax", "a tool", "")
		d.Stage, d.Country, d.PricingModel, d.Status, d.Votes = r.stage, r.country, r.price, r.status, r.votes
		ix.Upsert(d)
	}
	ix.Delete(8)
	if nwin := (len(ix.ids) + 63) >> 6; len(rows)*sparseFrac > nwin {
		t.Fatalf("%d windows: a query of %d postings is not sparse", nwin, len(rows))
	}
	for _, q := range []Query{
		{}, {Stage: "mvp"}, {Country: "us"}, {PricingModel: "paid"}, {Status: "scheduled"},
		{Country: "US", Stage: "idea"}, {Country: "DE", PricingModel: "free"}, {Stage: "growth", Status: "scheduled"},
	} {
		var want []string
		for _, r := range rows { // by votes, highest first
			status := q.Status
			if status == "" {
				status = "live"
			}
			if r.id != 8 && r.status == status && (q.Stage == "" || q.Stage == r.stage) &&
				(q.Country == "" || strings.EqualFold(q.Country, r.country)) && (q.PricingModel == "" || q.PricingModel == r.price) {
				want = append(want, fmt.Sprintf("s%d", r.id))
			}
		}
		slices.SortFunc(want, func(a, b string) int {
			va, vb := 0, 0
			for _, r := range rows {
				if fmt.Sprintf("s%d", r.id) == a {
					va = r.votes
				}
				if fmt.Sprintf("s%d", r.id) == b {
					vb = r.votes
				}
			}
			return vb - va
		})
		for _, text := range []string{"zorblax", "zorblx"} {
			q.Text, q.Sort = text, "votes"
			got, total := search(ix, q)
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" || total != len(want) {
				t.Errorf("Search(%+v): total %d, want %d (-want +got):\n%s", q, total, len(want), diff)
			}
		}
	}
}
