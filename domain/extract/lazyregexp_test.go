package extract

import (
	"regexp"
	"testing"
)

// lazyCompiledAtInit is how many of the package's lazy regular expressions
// were compiled by the time the package had initialised: go test hands the
// compiler the package's files before its test files, so this init runs
// after every variable and every other init of the package, before any test.
var lazyCompiledAtInit int

func init() {
	for _, l := range lazyRegexps {
		if l.re != nil {
			lazyCompiledAtInit++
		}
	}
}

// TestLazyRegexps compiles every rule's expression (a bad pattern fails
// here, not on the first page that reaches its rule), and checks that the
// package's initialisation leaves them uncompiled: serve, which drafts
// rarely, should not hold them.
func TestLazyRegexps(t *testing.T) {
	if len(lazyRegexps) < 300 {
		t.Fatalf("%d lazy regular expressions registered; the package's rules hold over 300", len(lazyRegexps))
	}
	if lazyCompiledAtInit > 0 {
		t.Errorf("%d of %d lazy regular expressions compiled while the package initialised", lazyCompiledAtInit, len(lazyRegexps))
	}
	for _, l := range lazyRegexps {
		want, err := regexp.Compile(l.src)
		if err != nil {
			t.Errorf("%q: %v", l.src, err)
			continue
		}
		if got := l.Regexp(); got.String() != want.String() || l.String() != l.src {
			t.Errorf("%q compiled as %q", l.src, got)
		}
	}
}
