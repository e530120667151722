package extract_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/launchdir/launchdir/domain"
)

// f4Page is one page of a small site on https://f4.test.
func f4Page(path, title, body string) domain.WebPage {
	html := "<!doctype html><html><head><meta charset=utf-8><title>" + title + "</title></head><body>" + body + "</body></html>"
	return domain.WebPage{URL: "https://f4.test" + path, Title: title, HTML: html, Text: ""}
}

func TestF4DevSitesCrawled(t *testing.T) {
	for _, ts := range loadDev(t) {
		if !strings.HasPrefix(ts.name, "f4-") {
			continue
		}
		crawl, err := fetchSite(t, ts)
		if err != nil {
			t.Fatal(err)
		}
		var urls []string
		for _, p := range crawl.Pages {
			urls = append(urls, p.URL)
		}
		t.Logf("%s: %v", ts.name, urls)
		_ = slices.Contains(urls, "")
	}
}
