package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/net/html/charset"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/domain/htmltext"
	"github.com/launchdir/launchdir/internal/netguard"
)

// reasonOffSite is the Skipped reason of a sub-page that redirects to
// another site: what it says is not the product's site speaking.
const reasonOffSite = "off_site"

// failure is why one request could not give a page: Reason is a
// domain.Crawl* constant (or reasonOffSite), Message is safe to show.
type failure struct {
	Reason    string
	Message   string
	Temporary bool
	// status is the HTTP status of a page that answered other than 2xx.
	status int
	// disallowed is, for a redirect robots.txt forbade, the forbidden target.
	disallowed string
}

// policy is how a request's redirects are judged (see crawl.checkRedirect);
// it travels in the request's context.
type policy struct {
	robots bool   // each redirect target must be allowed by its robots.txt
	site   string // when set, redirects must stay on this site (siteOf)
	host   string // when set, redirects must stay on this host and port (url.URL.Host, lower case)
	// anyType accepts a page of any content type (FetchPage of a text file).
	anyType bool
}

type policyKey struct{}

// Errors of crawl.checkRedirect.
type redirectsError struct{ max int }

func (e *redirectsError) Error() string { return fmt.Sprintf("stopped after %d redirects", e.max) }

type robotsDeniedError struct {
	target string
	rules  *robotsRules
}

func (e *robotsDeniedError) Error() string {
	return fmt.Sprintf("%s does not allow %s to read %s", e.rules.url, RobotsAgent, e.target)
}

// offHostError is a redirect that leaves the host of a FetchPage with SameHost.
type offHostError struct{ target string }

func (e *offHostError) Error() string { return "redirected to another host: " + e.target }

var (
	errOffSite     = errors.New("redirected to another site")
	errBadRedirect = errors.New("redirected to a URL that is not http or https, or that has user information")
)

// checkRedirect is the crawl client's redirect policy: at most MaxRedirects,
// http and https only, no userinfo, and the request's policy. The guard
// judges each new address when it is dialled.
func (c *crawl) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > c.f.opts.MaxRedirects {
		return &redirectsError{max: c.f.opts.MaxRedirects}
	}
	u := req.URL
	if (u.Scheme != "http" && u.Scheme != "https") || u.User != nil {
		return errBadRedirect
	}
	pol, _ := req.Context().Value(policyKey{}).(policy)
	if pol.site != "" && siteOf(u) != pol.site {
		return errOffSite
	}
	if pol.host != "" && strings.ToLower(u.Host) != pol.host {
		return &offHostError{target: u.Host}
	}
	if pol.robots {
		if r := c.robots.rulesFor(u); !r.allows(u) {
			return &robotsDeniedError{target: u.String(), rules: r}
		}
	}
	return nil
}

// fetched is a page read and the links it has.
type fetched struct {
	page  domain.WebPage
	final *url.URL
	links []link
	// doc is the document decoded to UTF-8, and contentType its header.
	doc         string
	contentType string
	status      int
}

// get reads one HTML page within PageTimeout: status 2xx, an HTML content
// type, at most MaxBytes, decoded to UTF-8 from its declared or sniffed
// charset.
func (c *crawl) get(u *url.URL, pol policy) (*fetched, *failure) {
	ctx, cancel := context.WithTimeout(c.ctx, c.f.opts.PageTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(context.WithValue(ctx, policyKey{}, pol), http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &failure{Reason: domain.CrawlRefused, Message: fmt.Sprintf("%s is not a URL that can be read", u)}
	}
	req.Header.Set("User-Agent", c.f.opts.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1")
	req.Header.Set("Accept-Language", "en,*;q=0.5")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, c.classify(err, u.String())
	}
	defer resp.Body.Close()
	final := *resp.Request.URL
	final.Fragment, final.RawFragment = "", ""
	where := final.String()
	if resp.StatusCode/100 != 2 {
		return nil, &failure{Reason: domain.CrawlStatus, Message: fmt.Sprintf("%s answered %s", where, resp.Status), status: resp.StatusCode,
			Temporary: resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500}
	}
	ct := resp.Header.Get("Content-Type")
	if ct != "" && !isHTML(ct) && !pol.anyType {
		return nil, &failure{Reason: domain.CrawlContentType, Message: fmt.Sprintf("%s is %q, not an HTML page", where, ct)}
	}
	tooLarge := &failure{Reason: domain.CrawlTooLarge, Message: fmt.Sprintf("%s is larger than the limit of %d bytes", where, c.f.opts.MaxBytes)}
	if resp.ContentLength > c.f.opts.MaxBytes {
		return nil, tooLarge
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, c.f.opts.MaxBytes+1))
	if err != nil {
		return nil, c.classify(err, where)
	}
	if int64(len(raw)) > c.f.opts.MaxBytes {
		return nil, tooLarge
	}
	if ct == "" && !pol.anyType && !strings.HasPrefix(http.DetectContentType(raw), "text/html") {
		return nil, &failure{Reason: domain.CrawlContentType, Message: fmt.Sprintf("%s has no content type and does not look like HTML", where)}
	}
	doc := decode(raw, ct)
	if pol.anyType && !isHTML(ct) && ct != "" {
		return &fetched{page: domain.WebPage{URL: where}, final: &final, doc: doc, contentType: ct, status: resp.StatusCode}, nil
	}
	return &fetched{page: htmltext.Page(where, doc), final: &final, links: extractLinks(&final, doc), doc: doc, contentType: ct,
		status: resp.StatusCode}, nil
}

// isHTML reports whether a Content-Type header names an HTML document.
func isHTML(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(strings.ToLower(strings.TrimSpace(contentType)), ";")
	}
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// decode turns a document into UTF-8 the way browsers choose its encoding:
// a byte order mark, then the Content-Type charset, then a <meta charset> in
// the first 1024 bytes, then a guess (UTF-8 if valid, else windows-1252).
func decode(raw []byte, contentType string) string {
	enc, _, _ := charset.DetermineEncoding(raw, contentType)
	b, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		b = raw
	}
	return strings.TrimPrefix(strings.ToValidUTF8(string(b), "\uFFFD"), "\uFEFF")
}

// classify says why a request failed, in words for the person who submitted
// the site.
func (c *crawl) classify(err error, where string) *failure {
	var (
		ref   *netguard.RefusedError
		red   *redirectsError
		rob   *robotsDeniedError
		dns   *net.DNSError
		cert  *tls.CertificateVerificationError
		netEr net.Error
		oh    *offHostError
	)
	switch {
	case errors.As(err, &rob):
		if rob.rules.fail != nil {
			f := *rob.rules.fail
			return &f
		}
		msg := fmt.Sprintf("%s redirects to %s, which %s does not allow %s to read", where, rob.target, rob.rules.url, RobotsAgent)
		if rob.rules.data == nil {
			msg = fmt.Sprintf("%s redirects to %s; %s: %s", where, rob.target, rob.rules.url, rob.rules.why)
		}
		return &failure{Reason: domain.CrawlRobots, Message: msg, Temporary: rob.rules.temp, disallowed: rob.target}
	case errors.As(err, &ref):
		return &failure{Reason: domain.CrawlRefused, Message: fmt.Sprintf(
			"%s leads to %s, a %s address; only sites on public addresses are read", where, ref.Addr, ref.Why)}
	case errors.As(err, &red):
		return &failure{Reason: domain.CrawlRedirects, Message: fmt.Sprintf("%s redirects more than %d times", where, red.max)}
	case errors.As(err, &oh):
		return &failure{Reason: reasonOffSite, Message: fmt.Sprintf(
			"%s redirects to another host (%s); only redirects on the same host are followed", where, oh.target)}
	case errors.Is(err, errOffSite):
		return &failure{Reason: reasonOffSite, Message: fmt.Sprintf("%s redirects to another site", where)}
	case errors.Is(err, errBadRedirect):
		return &failure{Reason: domain.CrawlRefused, Message: fmt.Sprintf("%s %v", where, errBadRedirect)}
	case c.ctx.Err() != nil && c.parent.Err() == nil:
		return &failure{Reason: domain.CrawlUnreachable, Temporary: true,
			Message: fmt.Sprintf("%s was not read: the crawl ran out of its %s", where, c.f.opts.CrawlTimeout)}
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netEr) && netEr.Timeout()):
		return &failure{Reason: domain.CrawlUnreachable, Temporary: true,
			Message: fmt.Sprintf("%s did not answer within %s", where, c.f.opts.PageTimeout)}
	case errors.As(err, &dns):
		return &failure{Reason: domain.CrawlUnreachable, Temporary: !dns.IsNotFound,
			Message: fmt.Sprintf("the name %s of %s could not be resolved", dns.Name, where)}
	case errors.As(err, &cert):
		return &failure{Reason: domain.CrawlUnreachable, Message: fmt.Sprintf("%s has a TLS certificate that is not valid: %v", where, cert.Err)}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &failure{Reason: domain.CrawlUnreachable, Temporary: true, Message: fmt.Sprintf("%s could not be read: %v", where, err)}
}
