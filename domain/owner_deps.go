package domain

import (
	"context"
	"time"
)

// Owning is what the owner's area needs beyond the Store: reading one page of
// an owner's site (badge checks, meta and file claims), DNS TXT lookups (DNS
// claims), mail (followers, email claims, badge news) and scheduled jobs
// (repeated badge checks). Service.Owner nil answers those operations with an
// internal error.
type Owning struct {
	Pages    PageFetcher
	Resolver TXTResolver
	Mailer   Mailer
	// EnqueueAt adds a durable job due at runAt (Runner.EnqueueAt).
	EnqueueAt func(ctx context.Context, kind, key string, payload any, runAt time.Time) error
}

// PageFetcher reads one page of a site a user gave us, through the same SSRF
// guard, size and time limits as the site reader (fetch.Fetcher implements
// it). robots.txt is not consulted: the owner asked for this one page to be
// read.
type PageFetcher interface {
	FetchPage(ctx context.Context, rawURL string, opts FetchPageOptions) (*FetchedPage, error)
}

// FetchPageOptions tune FetchPage.
type FetchPageOptions struct {
	// SameHost allows only redirects to the very host of rawURL (claims);
	// otherwise redirects may move within the site (www. and the apex, http
	// and https), as the site reader's do.
	SameHost bool
	// AnyType accepts any content type (a /.well-known/ text file); otherwise
	// the page must be HTML.
	AnyType bool
}

// FetchedPage is one page read by a PageFetcher.
type FetchedPage struct {
	// URL is where the page was read, after redirects.
	URL string
	// Status is the HTTP status of the answer (2xx).
	Status      int
	ContentType string
	// Body is the page decoded to UTF-8 (at most the fetcher's size limit).
	Body string
	// Links are the absolute http(s) targets of the page's <a href> and
	// <area href>, resolved against the page (and its <base href>), without
	// query or fragment, in document order.
	Links []string
	// Meta maps each lower-case <meta name> of the document's head to its
	// content values, in document order.
	Meta map[string][]string
}

// TXTResolver looks up DNS TXT records; *net.Resolver implements it. serve
// points it at --dns-resolver when set.
type TXTResolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
}

func (s *Service) owning() (*Owning, error) {
	if s.Owner == nil {
		return nil, Errorf(EInternal, "the owner's area is not configured")
	}
	return s.Owner, nil
}
