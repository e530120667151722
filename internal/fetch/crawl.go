package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/launchdir/launchdir/domain"
)

// crawl is the state of one Crawl call.
type crawl struct {
	f      *Fetcher
	parent context.Context // the caller's
	ctx    context.Context // the caller's, bounded by CrawlTimeout
	client *http.Client
	robots *robotsCache
	// notAlternate is a page the home page named as its English alternate
	// that is not its translation (english): read, and kept as a page.
	notAlternate *fetched
}

// Crawl reads the site at rawURL (see domain.Fetcher): robots.txt, the home
// page, then up to maxPages-1 same-site pages (0: Options.MaxPages) chosen
// by rank from the home page's links, and from the links of those pages
// when the budget is not used up. Pages robots.txt forbids are listed in
// Disallowed and never requested. progress, when not nil, is called after
// each page read or skipped; its calls never overlap.
//
// It fails with a *domain.CrawlError when the home page cannot be read, and
// with the context's error when ctx ends first.
func (f *Fetcher) Crawl(ctx context.Context, rawURL string, maxPages int, progress domain.CrawlProgress) (*domain.SiteCrawl, error) {
	start, cerr := startURL(rawURL)
	if cerr != nil {
		return nil, cerr
	}
	budget := maxPages
	if budget <= 0 {
		budget = f.opts.MaxPages
	}
	if progress == nil {
		progress = func(int, int) {}
	}
	cctx, cancel := context.WithTimeout(ctx, f.opts.CrawlTimeout)
	defer cancel()
	c := &crawl{f: f, parent: ctx, ctx: cctx}
	c.client = &http.Client{Transport: f.transport, CheckRedirect: c.checkRedirect}
	c.robots = &robotsCache{c: c, m: map[string]*robotsEntry{}}

	home, fail := c.home(start)
	if fail != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, &domain.CrawlError{Reason: fail.Reason, Message: fail.Message, Temporary: fail.Temporary}
	}
	onSite := siteOf(home.final)
	seen := map[string]bool{pageKey(start): true, pageKey(home.final): true} // chosen or read
	done, planned := 1, 1
	lang, english := homeLanguage(home.doc)
	if en := c.english(home, lang, english, onSite, budget); en != nil {
		seen[pageKey(en.final)] = true
		home, done, planned = en, 2, 2
		lang, _ = homeLanguage(en.doc)
	}
	site := &domain.SiteCrawl{URL: rawURL, Pages: []domain.WebPage{home.page}, Language: lang}
	read := map[string]bool{pageKey(home.final): true} // read, by final URL
	if na := c.notAlternate; na != nil {
		seen[pageKey(na.final)], read[pageKey(na.final)] = true, true
		site.Pages = append(site.Pages, na.page)
		done, planned = 2, 2
	}
	markTranslations(seen, home.doc, home.final, onSite)
	prefixes := langPrefixes(home.doc, home.final, onSite)
	if cu := canonicalOf(home.doc, home.final); cu != nil && siteOf(cu) == onSite {
		seen[pageKey(cu)], read[pageKey(cu)] = true, true
	}
	// Rounds: 1, the home page's links (and the sitemap's) that name a known
	// topic; 2, those of the pages read in round 1, then the blog and news
	// indexes linked from the home page or a round-1 page; 3, every other page linked
	// from the home page or a round-1 page (by place: navigation, header,
	// footer, body), blog and news indexes and their posts included; 4, the
	// posts of the indexes read in round 3. No page deeper than the second
	// level is read, except a post one level below its index.
	homeLinks := append(home.links, c.sitemapLinks(home.final, onSite)...)
	frontier := homeLinks
	pool := slices.Clone(homeLinks) // links of the home page and of the round-1 pages
	for round := 1; round <= 4 && planned < budget && c.ctx.Err() == nil; round++ {
		var batch []*url.URL
		for _, cand := range rank(frontier) {
			if planned+len(batch) >= budget {
				break
			}
			// A blog or news index is read in the second round, after the
			// known pages: its oldest post is then a candidate of the third.
			known := knownTopic(cand.topic) || (round == 2 && cand.topic == "index")
			if (round <= 2 && !known) || (round == 4 && cand.Place != "post") {
				continue
			}
			u, k := cand.URL, pageKey(cand.URL)
			if siteOf(u) != onSite || seen[k] {
				continue
			}
			// a translation of a page read or chosen ("/de/pricing" beside "/pricing")
			if tk, ok := translationKey(u, prefixes); ok && seen[tk] {
				seen[k] = true
				continue
			}
			seen[k] = true
			switch r := c.robots.rulesFor(u); {
			case r.fail != nil: // its host (www. or the apex) could not be reached
				site.Skipped = append(site.Skipped, domain.SkippedPage{URL: u.String(), Reason: r.fail.Reason})
				continue
			case !r.allows(u):
				site.Disallowed = append(site.Disallowed, u.String())
				continue
			}
			batch = append(batch, u)
		}
		var next []link
		if len(batch) > 0 {
			first := planned == 1 || (planned == 2 && done == 2 && len(site.Pages) == 1)
			planned += len(batch)
			if first {
				progress(done, planned)
			}
			results := c.getAll(batch, onSite, func() { done++; progress(done, planned) })
			for i, r := range results {
				switch {
				case r.fail != nil && r.fail.disallowed != "":
					site.Disallowed = append(site.Disallowed, r.fail.disallowed)
				case r.fail != nil:
					site.Skipped = append(site.Skipped, domain.SkippedPage{URL: batch[i].String(), Reason: r.fail.Reason})
				case read[pageKey(r.final)]: // redirected to a page already read
				default:
					// A page whose rel=canonical names another page of the site is
					// that page: when it was read already, this copy is not kept;
					// otherwise the canonical page is not requested again.
					if cu := canonicalOf(r.doc, r.final); cu != nil && siteOf(cu) == onSite && pageKey(cu) != pageKey(r.final) {
						if read[pageKey(cu)] {
							continue
						}
						seen[pageKey(cu)] = true
					}
					read[pageKey(r.final)] = true
					markTranslations(seen, r.doc, r.final, onSite)
					site.Pages = append(site.Pages, r.page)
					next = append(next, postLinks(r.final, r.links)...)
				}
			}
		}
		switch round {
		case 1:
			pool = append(pool, next...)
			frontier = pool // the known pages one level down, and the indexes
		case 2:
			frontier = append(pool, postsOf(next)...)
		case 3:
			frontier = next
		}
	}
	if done == 1 {
		progress(done, planned)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return site, nil
}

// english reads the English alternate of a home page in another language
// (its <link rel="alternate" hreflang="en">), when it is on the same site,
// robots.txt allows it and the budget has a page for it. The draft is then
// made from it and the pages it links to.
func (c *crawl) english(home *fetched, lang, href, onSite string, budget int) *fetched {
	if href == "" || lang == "en" || strings.HasPrefix(lang, "en-") || budget < 2 {
		return nil
	}
	u := crawlURL(home.final, href)
	if u == nil || siteOf(u) != onSite || pageKey(u) == pageKey(home.final) {
		return nil
	}
	if r := c.robots.rulesFor(u); r.fail != nil || !r.allows(u) {
		return nil
	}
	en, fail := c.get(u, policy{robots: true, site: onSite})
	if fail != nil || pageKey(en.final) == pageKey(home.final) {
		return nil
	}
	// hreflang links go both ways: a page that names its own translations
	// but not this home page is not its translation (a home whose "en"
	// alternate is an about page keeps its own language and pages).
	if alts := alternatesOf(en.doc, en.final); len(alts) > 0 && !slices.ContainsFunc(alts, func(a *url.URL) bool {
		return pageKey(a) == pageKey(home.final)
	}) {
		c.notAlternate = en // read already: kept as one of the site's pages
		return nil
	}
	return en
}

// home checks robots.txt for the home page and reads it. Its redirects may
// lead to another host (a site that moved), each one allowed by its own
// robots.txt.
func (c *crawl) home(start *url.URL) (*fetched, *failure) {
	r := c.robots.rulesFor(start)
	switch {
	case r.fail != nil:
		return nil, r.fail
	case r.data == nil:
		return nil, &failure{Reason: domain.CrawlRobots, Temporary: r.temp,
			Message: fmt.Sprintf("%s: %s; nothing of the site is read", r.url, r.why)}
	case !r.allows(start):
		return nil, &failure{Reason: domain.CrawlRobots,
			Message: fmt.Sprintf("%s does not allow %s to read %s", r.url, RobotsAgent, start)}
	}
	return c.get(start, policy{robots: true})
}

// result is the outcome of reading one sub-page.
type result struct {
	*fetched
	fail *failure
}

// getAll reads pages, Concurrency at a time, each only redirected within
// the site and where robots.txt allows; done is called after each one (never
// two at once). The results are in the order of urls.
func (c *crawl) getAll(urls []*url.URL, onSite string, done func()) []result {
	results := make([]result, len(urls))
	sem := make(chan struct{}, c.f.opts.Concurrency)
	var (
		wg sync.WaitGroup
		mu sync.Mutex
	)
	for i, u := range urls {
		wg.Go(func() {
			sem <- struct{}{}
			results[i].fetched, results[i].fail = c.get(u, policy{robots: true, site: onSite})
			<-sem
			mu.Lock()
			done()
			mu.Unlock()
		})
	}
	wg.Wait()
	return results
}

// startURL checks a submitted URL: http or https, a host, no userinfo. The
// fragment is dropped; the query is kept, it may matter to the home page.
func startURL(raw string) (*url.URL, *domain.CrawlError) {
	refuse := func(why string) (*url.URL, *domain.CrawlError) {
		return nil, &domain.CrawlError{Reason: domain.CrawlRefused, Message: why}
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return refuse(fmt.Sprintf("%q is not a valid URL", raw))
	}
	u.Scheme = strings.ToLower(u.Scheme)
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return refuse(fmt.Sprintf("%q is not an http or https URL; only web sites are read", raw))
	case u.Opaque != "" || u.Hostname() == "":
		return refuse(fmt.Sprintf("%q has no host name", raw))
	case u.User != nil:
		return refuse(fmt.Sprintf("%q has user information (user@host); give the site's address without it", raw))
	}
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	if u.Path == "" {
		u.Path, u.RawPath = "/", ""
	}
	return u, nil
}
