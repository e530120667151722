package domain

import "context"

// PageView is one GET of a public listing page by a person's browser, as
// the site saw it: the client's network (ratelimit.Network: an IPv4 address,
// or an IPv6 /64) and its User-Agent. Neither is stored (docs/views.md).
type PageView struct {
	Slug      string
	Network   string
	UserAgent string
}

// ViewRecorder counts listing page views (storage.Store implements it).
type ViewRecorder interface {
	// RecordView counts v once per visitor, listing and UTC day of the
	// store's clock: it stores only HMAC-SHA256(key of the day, network,
	// user agent, day) as the viewer, and reports whether this view was the
	// visitor's first of the listing that day. A slug that is not a public
	// listing is not_found and stores nothing.
	RecordView(ctx context.Context, v PageView) (counted bool, err error)
}
