package domain

import (
	"regexp"
	"strconv"
	"strings"
)

// eraYearRE is a year written in an East Asian era: Japanese 令和, 平成,
// 昭和 ("令和2年", "平成30年", "令和元年" for the first year) and the
// Republic of China's 民國 ("民國111年"), in ASCII or full-width digits.
var eraYearRE = regexp.MustCompile(`(令和|平成|昭和|民國|民国)\s?(元|[0-9０-９]{1,3})\s?年`)

// eraBase is the Gregorian year before each era's first year.
var eraBase = map[string]int{"令和": 2018, "平成": 1988, "昭和": 1925, "民國": 1911, "民国": 1911}

// EraYears returns the Gregorian years of the era years s writes
// ("令和2年7月1日" is 2020, "民國111年" is 2022), in order.
func EraYears(s string) []int {
	var out []int
	for _, m := range eraYearRE.FindAllStringSubmatch(s, -1) {
		n := 1
		if m[2] != "元" {
			d := strings.Map(func(r rune) rune {
				if r >= '０' && r <= '９' {
					return r - '０' + '0'
				}
				return r
			}, m[2])
			v, err := strconv.Atoi(d)
			if err != nil || v < 1 {
				continue
			}
			n = v
		}
		out = append(out, eraBase[m[1]]+n)
	}
	return out
}

// eraStates reports whether a quote states year in an era form.
func eraStates(ev []Evidence, year string) bool {
	for _, e := range ev {
		for _, y := range EraYears(e.Quote) {
			if strconv.Itoa(y) == year && !copyrightRE.MatchString(e.Quote) {
				return true
			}
		}
	}
	return false
}
