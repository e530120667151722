package auth

import (
	"errors"
	"net/http"
	"time"

	"github.com/launchdir/launchdir/internal/netguard"
)

// The limits of a client ID metadata document fetch.
const (
	metadataTimeout      = 5 * time.Second
	metadataMaxRedirects = 3
	metadataMaxBytes     = 5 * 1024
)

// errTooManyRedirects and errInsecureRedirect stop a metadata fetch.
var (
	errTooManyRedirects = errors.New("too many redirects")
	errInsecureRedirect = errors.New("redirect to a URL that is not https")
)

// checkMetadataRedirect allows at most metadataMaxRedirects redirects, each
// to https (the dialer checks each new address again).
func checkMetadataRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > metadataMaxRedirects {
		return errTooManyRedirects
	}
	if req.URL.Scheme != "https" || req.URL.User != nil {
		return errInsecureRedirect
	}
	return nil
}

// guardedClient returns the HTTP client that fetches client ID metadata
// documents: it connects only to public addresses (checked at dial time on
// the resolved address), never through a proxy, within metadataTimeout.
func guardedClient() *http.Client {
	d := netguard.Dialer(metadataTimeout, false) // loopback never: a client's metadata lives on the public web
	t := &http.Transport{
		Proxy:                  nil, // a proxy would be dialled instead of the target
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    metadataTimeout,
		ResponseHeaderTimeout:  metadataTimeout,
		MaxResponseHeaderBytes: 16 << 10,
		MaxIdleConns:           10,
		IdleConnTimeout:        30 * time.Second,
	}
	return &http.Client{Transport: t, Timeout: metadataTimeout, CheckRedirect: checkMetadataRedirect}
}
