package domain

import (
	"slices"
	"testing"
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
		if got := EraYears(s); !slices.Equal(got, want) {
			t.Errorf("EraYears(%q) = %v, want %v", s, got, want)
		}
	}
	// The gate keeps a founding year stated only in an era form, never one
	// from a copyright line.
	if !eraStates([]Evidence{{Quote: "令和2年7月1日"}}, "2020") || eraStates([]Evidence{{Quote: "© 令和2年 Acme"}}, "2020") {
		t.Error("eraStates: want the era date, not the copyright line")
	}
}
