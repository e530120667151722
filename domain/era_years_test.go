package domain_test

import (
	"slices"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

func TestEraYears(t *testing.T) {
	for s, want := range map[string][]int{
		"令和2年7月1日":        {2020},
		"平成30年2月":         {2018},
		"令和元年":            {2019},
		"昭和６０年":           {1985},
		"民國111年 / 民国 99年": {2022, 2010},
		"2021年（令和3年）":     {2021},
		"2021年":           nil,
	} {
		if got := domain.EraYears(s); !slices.Equal(got, want) {
			t.Errorf("EraYears(%q) = %v, want %v", s, got, want)
		}
	}
	// The gate keeps a founding year stated only in an era form, never one
	// from a copyright line.
	const home = "https://acme.example/"
	req := domain.DraftRequest{Site: &domain.SiteCrawl{URL: home, Pages: []domain.WebPage{
		{URL: home, Text: "株式会社アクメ\n設立 令和2年7月1日\n© 令和2年 Acme"},
	}}}
	founded := func(quote string) (string, []string) {
		out, dropped := domain.Ground(req, &domain.Drafted{Fields: map[string]domain.DraftedValue{
			"founded_year": {Text: "2020", Evidence: []domain.Evidence{{URL: home, Quote: quote}}},
		}})
		return out.Fields["founded_year"].Text, dropped
	}
	if got, dropped := founded("設立 令和2年7月1日"); got != "2020" {
		t.Errorf("era date: founded_year %q, dropped %v; want 2020", got, dropped)
	}
	if got, dropped := founded("© 令和2年 Acme"); got != "" || len(dropped) != 1 {
		t.Errorf("copyright line: founded_year %q, dropped %v; want it dropped", got, dropped)
	}
}
