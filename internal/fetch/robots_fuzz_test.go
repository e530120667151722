package fetch

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzRobots reads any bytes as a robots.txt answered 200 (RFC 9309).
// Properties: parsing never panics and never fails (a file the library
// refuses is read again with only the lines lenientRobots keeps, and those
// always parse); lenientRobots keeps only lines of the file; the rules answer
// for any path. (The fetcher reads no sitemaps: robots.txt is the only
// crawler file it parses.)
func FuzzRobots(f *testing.F) {
	files, _ := filepath.Glob("../../domain/extract/testdata/sites/*/robots.txt")
	if len(files) == 0 {
		f.Fatal("no seed robots.txt found")
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "/app/settings?tab=1")
	}
	f.Add([]byte("Disallow: /before-any-agent\nUser-agent: launchdirbot\nCrawl-delay: soon\nDisallow: /private\nAllow: /private/ok\n"), "/private/x")
	f.Add([]byte("User-agent: *\r\nDisallow: /*.pdf$\r\nSitemap: https://x.test/sitemap.xml\r\n\xef\xbb\xbf"), "/a.pdf")
	f.Add([]byte("User-agent: *\nDisallow: /\n\nUser-agent: launchdirbot\nAllow: /\n"), "/")
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		data, err := parseRobots(body)
		if err != nil || data == nil {
			t.Fatalf("parseRobots: %v", err)
		}
		lenient := lenientRobots(body)
		lines := strings.Split(string(body), "\n")
		if len(lenient) > 0 {
			for _, l := range strings.Split(string(lenient), "\n") {
				if !slices.Contains(lines, l) {
					t.Fatalf("lenientRobots kept %q, which is not a line of the file", l)
				}
			}
		}
		u, err := url.Parse("https://site.test" + path)
		if err != nil {
			return
		}
		(&robotsRules{data: data}).allows(u)
	})
}
