package auth

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// The limits of a client ID metadata document fetch.
const (
	metadataTimeout      = 5 * time.Second
	metadataMaxRedirects = 3
	metadataMaxBytes     = 5 * 1024
)

// refusedAddrError is returned when the SSRF guard refuses to connect to an
// address that is not public. It names the address and why.
type refusedAddrError struct {
	Addr netip.Addr
	Why  string
}

func (e *refusedAddrError) Error() string {
	return fmt.Sprintf("refusing to connect to %s: %s address", e.Addr, e.Why)
}

// special lists address ranges that are not public, besides those that
// netip.Addr's predicates already recognise (loopback, private, link-local,
// multicast, unspecified).
var special = []struct {
	p   netip.Prefix
	why string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (CGNAT)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignment"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("100::/64"), "discard-only"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignment (Teredo and others)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("2002::/16"), "6to4"},
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local NAT64"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
}

// checkPublicAddr returns a *refusedAddrError unless ip is a public unicast
// address. IPv4-mapped IPv6 addresses are judged by their IPv4 address.
func checkPublicAddr(ip netip.Addr) error {
	orig := ip
	ip = ip.Unmap().WithZone("")
	why := ""
	switch {
	case !ip.IsValid():
		why = "invalid"
	case ip.IsLoopback():
		why = "loopback"
	case ip.IsPrivate():
		why = "private"
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		why = "link-local"
	case ip.IsUnspecified():
		why = "unspecified"
	case ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		why = "multicast"
	case ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		why = "broadcast"
	case !ip.IsGlobalUnicast():
		why = "non-unicast"
	}
	for _, s := range special {
		if why == "" && s.p.Contains(ip) {
			why = s.why
		}
	}
	if why != "" {
		return &refusedAddrError{Addr: orig, Why: why}
	}
	return nil
}

// guardControl is the net.Dialer Control hook of the guarded client: it runs
// after the name was resolved and before the connection is made, on the very
// address about to be dialled, so DNS rebinding cannot slip past it.
func guardControl(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("refusing to connect to %q: %v", address, err)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("refusing to connect to %q: not an IP address", host)
	}
	return checkPublicAddr(ip)
}

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
	d := &net.Dialer{Timeout: metadataTimeout, Control: guardControl}
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
