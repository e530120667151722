package web

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/launchdir/launchdir/auth/ratelimit"
	"github.com/launchdir/launchdir/domain"
)

// WithViews makes the listing page count its views in v, once per visitor,
// listing and day (docs/views.md). Without it no view is recorded.
func WithViews(v domain.ViewRecorder) Option {
	return func(h *handler) { h.views = v }
}

// botUA matches the User-Agent of known crawlers, link previewers, monitors,
// HTTP libraries and headless browsers. It is a short list of the words
// their agents carry, taken from the CrawlerDetect and isbot lists (no Go
// port of them is available from the module proxy here): "bot", "crawl",
// "spider" and "slurp" cover almost every search engine, SEO tool and AI
// crawler (Googlebot, bingbot, GPTBot, ClaudeBot, AhrefsBot, Bytespider,
// Yahoo! Slurp); the rest name agents without those words. A person's
// browser matches none of them.
var botUA = regexp.MustCompile(`(?i)bot\b|bot/|crawl|spider|slurp|scrap|fetch|preview|monitor|uptime|checker|` +
	`validator|headless|phantomjs|lighthouse|pagespeed|facebookexternalhit|meta-external|whatsapp|` +
	`embedly|quora link|bitlybot|skypeuripreview|google-inspectiontool|apis-google|mediapartners|` +
	`feedfetcher|pingdom|statuscake|gtmetrix|chrome-lighthouse|archive\.org|ia_archiver|` +
	`^curl/|^wget/|^python|^go-http-client|^java/|^okhttp|^axios|^node-fetch|^undici|^libwww|^httpie|` +
	`^apache-httpclient|^ruby|^php|^guzzle|^postman|^insomnia|^dart|^rust|^reqwest|^aiohttp|^httpx|^scrapy`)

// notBotUA are browsers whose User-Agent matches botUA: Cubot phones
// ("Android 9; CUBOT X19").
var notBotUA = regexp.MustCompile(`(?i)cubot`)

// isBot says whether a User-Agent is a known bot's; an empty one is treated
// as a bot (a browser always sends one).
func isBot(ua string) bool {
	return strings.TrimSpace(ua) == "" || botUA.MatchString(ua) && !notBotUA.MatchString(ua)
}

// isPrefetch says whether the browser is prefetching or prerendering the
// page (Sec-Purpose, or the older Purpose and X-Moz headers): the person
// has not opened it yet.
func isPrefetch(r *http.Request) bool {
	for _, h := range []string{"Sec-Purpose", "Purpose", "X-Purpose", "X-Moz"} {
		v := strings.ToLower(r.Header.Get(h))
		if strings.Contains(v, "prefetch") || strings.Contains(v, "prerender") || strings.Contains(v, "preview") {
			return true
		}
	}
	return false
}

// recordView counts a GET of the public listing slug by a person's browser:
// not a HEAD, a prefetch or prerender, or a known bot. Only a keyed hash of
// the client's network (as the rate limiter sees it, honouring
// --trusted-proxies), User-Agent and day is stored; no cookie is set. A
// failure is logged and the page is served anyway. It reports whether the
// view counted (the visitor's first of the listing today).
func (h *handler) recordView(r *http.Request, slug string) bool {
	if h.views == nil || r.Method != http.MethodGet || isPrefetch(r) || isBot(r.UserAgent()) {
		return false
	}
	v := domain.PageView{Slug: slug, Network: ratelimit.Network(r), UserAgent: r.UserAgent()}
	counted, err := h.views.RecordView(r.Context(), v)
	if err != nil {
		h.log.Error("recording a listing view", "slug", slug, "err", err)
	}
	return counted
}
