package domain_test

import (
	"slices"
	"testing"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/validate"
)

// TestSearchStageEnum: the stages search_listings accepts (its schema's enum,
// which tool definitions and the OpenAPI document show) are domain.Stages, in
// order, so that what get_site_info lists is what a search takes.
func TestSearchStageEnum(t *testing.T) {
	v, err := validate.For(domain.SearchListingsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, st := range domain.Stages {
		want = append(want, st.Slug)
	}
	if got := v.Enum("stage"); !slices.Equal(got, want) {
		t.Errorf("search_listings stage enum %v, domain.Stages %v", got, want)
	}
}
