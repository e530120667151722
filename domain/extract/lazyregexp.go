package extract

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on its first use. The
// package's rules hold a few hundred of them; compiled at start they took
// ~6 MB of every process's heap, also in serve, which drafts rarely and
// searches without them.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// lazyRegexps are every lazyRegexp made while the package initialises, so
// that a test compiles them all (a bad pattern panics there, not on the
// first page that reaches its rule).
var (
	lazyMu      sync.Mutex
	lazyRegexps []*lazyRegexp
)

// lazyMustCompile is regexp.MustCompile, deferred to the first use. Call it
// only to initialise package variables: each call is kept in lazyRegexps.
func lazyMustCompile(src string) *lazyRegexp {
	l := &lazyRegexp{src: src}
	lazyMu.Lock()
	lazyRegexps = append(lazyRegexps, l)
	lazyMu.Unlock()
	return l
}

// Regexp is the compiled expression.
func (l *lazyRegexp) Regexp() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) String() string { return l.src }

func (l *lazyRegexp) MatchString(s string) bool { return l.Regexp().MatchString(s) }

func (l *lazyRegexp) FindString(s string) string { return l.Regexp().FindString(s) }

func (l *lazyRegexp) FindStringIndex(s string) []int { return l.Regexp().FindStringIndex(s) }

func (l *lazyRegexp) FindStringSubmatch(s string) []string {
	return l.Regexp().FindStringSubmatch(s)
}

func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.Regexp().FindStringSubmatchIndex(s)
}

func (l *lazyRegexp) FindAllString(s string, n int) []string {
	return l.Regexp().FindAllString(s, n)
}

func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.Regexp().FindAllStringIndex(s, n)
}

func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.Regexp().FindAllStringSubmatch(s, n)
}

func (l *lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.Regexp().FindAllStringSubmatchIndex(s, n)
}

func (l *lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.Regexp().ReplaceAllString(src, repl)
}

func (l *lazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.Regexp().ReplaceAllStringFunc(src, repl)
}

func (l *lazyRegexp) Split(s string, n int) []string { return l.Regexp().Split(s, n) }

func (l *lazyRegexp) SubexpIndex(name string) int { return l.Regexp().SubexpIndex(name) }
