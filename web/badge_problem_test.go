package web

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/internal/problem"
)

// TestBadges_ErrorsAreProblems: every error of the badge addresses (the
// listing badges and the trophy badges) is the one JSON problem shape
// (application/problem+json, code, detail), not the site's HTML error page:
// a badge is fetched by an <img> tag or a program, never read as a page. A
// bad shape, mode or size is a 400 whose errors name the parameter and the
// rule (enum) and list the options; an unknown listing, kind or trophy is a
// 404 problem.
func TestBadges_ErrorsAreProblems(t *testing.T) {
	t.Parallel()
	rich, _ := badgeListings(t)
	slug := url.PathEscape(rich.Listing)
	for _, c := range []struct {
		path, field, options string
		status               int
	}{
		{"/badges/" + slug + "/listed.svg?size=huge", "size", "s, m, l", 400},
		{"/badges/" + slug + "/listed.svg?shape=circle", "shape", "standard, outline, pill, banner, square", 400},
		{"/badges/" + slug + "/trophies/1.svg?size=huge", "size", "s, m, l", 400},
		{"/badges/" + slug + "/trophies/1.svg?mode=sepia", "mode", "light, dark, auto", 400},
		{"/badges/no-such-listing-here/listed.svg", "", "", 404},
		{"/badges/" + slug + "/gold-star.svg", "", "", 404},
		{"/badges/Bad_Slug/listed.svg", "", "", 404},
		{"/badges/" + slug + "/trophies/999999.svg", "", "", 404},
		{"/badges/" + slug + "/trophies/week-1999-01-04.svg", "", "", 404},
	} {
		res := demo().get(t, c.path)
		if res.status != c.status || res.header.Get("Content-Type") != problem.ContentType {
			t.Errorf("GET %s: %d %q, want %d %s\n%s", c.path, res.status, res.header.Get("Content-Type"), c.status, problem.ContentType, excerpt(res.body))
			continue
		}
		var p problem.Problem
		if err := json.Unmarshal([]byte(res.body), &p); err != nil || p.Status != c.status || p.Code == "" || p.Detail == "" {
			t.Errorf("GET %s: not the problem shape (%v): %s", c.path, err, res.body)
			continue
		}
		if c.field == "" {
			continue
		}
		if len(p.Errors) != 1 || p.Errors[0].Field != c.field || p.Errors[0].Rule != "enum" || !strings.Contains(p.Errors[0].Message, c.options) {
			t.Errorf("GET %s: errors %+v, want field %s rule enum naming %s", c.path, p.Errors, c.field, c.options)
		}
	}
}
