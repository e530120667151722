// Package fetch is the site reader: a domain.Fetcher that reads a product's
// web site the way a polite, careful crawler does. It obeys robots.txt (RFC
// 9309, parsed by github.com/temoto/robotstxt), reads the home page and the
// same-site pages that say most about a product (about, pricing, features,
// FAQ, team, contact, changelog, ...) up to a page budget, and bounds every
// request in size, time, redirects and content type. Every connection, the
// first, each redirect and each robots.txt, goes through the netguard SSRF
// guard, so a site cannot make us read private or loopback addresses.
package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"time"

	"github.com/launchdir/launchdir/domain"
	"github.com/launchdir/launchdir/internal/netguard"
)

// RobotsAgent is the product token robots.txt groups are matched against
// ("User-agent: launchdirbot"); without such a group the "*" group applies.
const RobotsAgent = "launchdirbot"

// DefaultUserAgent is the User-Agent header sent when Options.UserAgent is empty.
const DefaultUserAgent = "launchdirbot/1.0 (+https://launchdir.example/docs/bot)"

// The defaults of Options' zero values.
const (
	DefaultMaxPages     = 10
	DefaultMaxBytes     = 2 << 20
	DefaultPageTimeout  = 10 * time.Second
	DefaultCrawlTimeout = 45 * time.Second
	DefaultMaxRedirects = 5
	DefaultConcurrency  = 4
)

// robotsMaxBytes is how much of a robots.txt is read: RFC 9309 asks crawlers
// to parse at least 500 KiB; what follows is ignored.
const robotsMaxBytes = 512 << 10

// Options configure a Fetcher. Every zero value means the default named.
type Options struct {
	// UserAgent is the User-Agent header of every request (DefaultUserAgent).
	// robots.txt rules are looked up for RobotsAgent whatever it says.
	UserAgent string
	// AllowLoopback lets the SSRF guard connect to loopback addresses
	// (127.0.0.0/8, ::1), for sites served on the same machine. It is the
	// operator setting --fetch-allow-loopback / LAUNCHDIR_FETCH_ALLOW_LOOPBACK=1
	// and nothing else should set it; private, link-local and every other
	// non-public address stay refused.
	AllowLoopback bool
	// MaxPages is the page budget of a crawl when Crawl is given 0 (10): the
	// pages requested, the home page included, whether they could be used or not.
	MaxPages int
	// MaxBytes is the most a page may have, in bytes as received after
	// transfer decoding (2 MiB). A larger sub-page is skipped as too_large; a
	// larger home page fails the crawl (domain.CrawlTooLarge).
	MaxBytes int64
	// PageTimeout bounds each request: connecting, TLS, headers and body (10s).
	PageTimeout time.Duration
	// CrawlTimeout bounds a whole crawl (45s). Pages still being read when it
	// runs out are skipped; the pages read so far are kept.
	CrawlTimeout time.Duration
	// MaxRedirects is how many redirects a request may follow (5); negative
	// means none.
	MaxRedirects int
	// Concurrency is how many pages of a crawl are read at the same time (4).
	Concurrency int
	// LookupNetIP resolves host names; nil means the system resolver. It has
	// the signature of (*net.Resolver).LookupNetIP. Tests set it to map names
	// to addresses of their choice (a DNS rebinding test maps a public-looking
	// name to 127.0.0.1): the guard judges whatever address it returns.
	LookupNetIP func(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// withDefaults returns o with each zero value replaced by its default.
func (o Options) withDefaults() Options {
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.PageTimeout <= 0 {
		o.PageTimeout = DefaultPageTimeout
	}
	if o.CrawlTimeout <= 0 {
		o.CrawlTimeout = DefaultCrawlTimeout
	}
	switch {
	case o.MaxRedirects == 0:
		o.MaxRedirects = DefaultMaxRedirects
	case o.MaxRedirects < 0:
		o.MaxRedirects = 0
	}
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	return o
}

// Fetcher reads product web sites; it implements domain.Fetcher. It is safe
// for concurrent use, and crawls share its connection pool.
type Fetcher struct {
	opts      Options
	dialer    *net.Dialer
	transport *http.Transport
}

var _ domain.Fetcher = (*Fetcher)(nil)

// New returns a Fetcher configured by o (zero values take the defaults).
func New(o Options) *Fetcher {
	o = o.withDefaults()
	f := &Fetcher{opts: o, dialer: netguard.Dialer(o.PageTimeout, o.AllowLoopback)}
	f.transport = &http.Transport{
		Proxy:                  nil, // a proxy would be dialled instead of the site, past the guard
		DialContext:            f.dial,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    o.PageTimeout,
		ResponseHeaderTimeout:  o.PageTimeout,
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    o.Concurrency,
		IdleConnTimeout:        30 * time.Second,
	}
	return f
}

// Close releases the idle connections the Fetcher keeps.
func (f *Fetcher) Close() { f.transport.CloseIdleConnections() }

// dial connects through the guarded dialer. With a LookupNetIP hook the name
// is resolved by the hook and each address is dialled in turn; the guard
// judges each one at dial time either way.
func (f *Fetcher) dial(ctx context.Context, network, address string) (net.Conn, error) {
	if f.opts.LookupNetIP == nil {
		return f.dialer.DialContext(ctx, network, address)
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, err
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return f.dialer.DialContext(ctx, network, address)
	}
	addrs, err := f.opts.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, &net.DNSError{Err: err.Error(), Name: host}
	}
	if len(addrs) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var first, refused error
	for _, a := range addrs {
		c, err := f.dialer.DialContext(ctx, network, net.JoinHostPort(a.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		var ref *netguard.RefusedError
		if refused == nil && errors.As(err, &ref) {
			refused = err
		}
		if first == nil {
			first = err
		}
	}
	// A refusal says more than a failure to connect to another address of
	// the same name: the name points inside.
	if refused != nil {
		return nil, refused
	}
	return nil, first
}
