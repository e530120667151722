package tools

import (
	"regexp"
	"slices"
	"testing"
)

var (
	navBlock = regexp.MustCompile(`(?s)<nav[ >].*?</nav>`)
	navHref  = regexp.MustCompile(`href="([^"]*)"`)
)

// navLinks returns the links of a page's first <nav>: the site navigation.
func navLinks(page string) []string {
	var out []string
	for _, m := range navHref.FindAllStringSubmatch(navBlock.FindString(page), -1) {
		out = append(out, m[1])
	}
	return out
}

// TestPages_AccountHasSiteNavigation: the signed-in account page carries the
// same site navigation as the site's pages, so a person can get back to the
// directory from it.
func TestPages_AccountHasSiteNavigation(t *testing.T) {
	t.Parallel()
	env := catTestServer(t, Options{}, true)
	browser := withPages(t, env)("nav@example.com")
	st, home, _ := page(t, browser, "GET", env.URL+"/", nil)
	want := navLinks(home)
	if st != 200 || len(want) < 5 {
		t.Fatalf("home page: %d, navigation %v", st, want)
	}
	st, account, _ := page(t, browser, "GET", env.URL+"/account", nil)
	if st != 200 {
		t.Fatalf("/account: %d", st)
	}
	got := navLinks(account)
	for _, l := range want {
		if !slices.Contains(got, l) {
			t.Errorf("/account lacks the site navigation link %s (its nav: %v)", l, got)
		}
	}
}
