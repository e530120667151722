// Package netguard is the dial-time SSRF guard shared by everything that
// fetches a URL someone else chose (client metadata documents, product web
// sites): it refuses to connect to addresses that are not public.
//
// The check runs in net.Dialer's Control hook, after the name was resolved
// and before the connection is made, on the very address about to be dialled.
// Checking a URL's host beforehand is not enough: a redirect may point
// elsewhere, and a name may resolve to a public address when checked and to a
// private one when dialled (DNS rebinding).
package netguard

import (
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// RefusedError is returned when the guard refuses to connect to an address
// that is not public. It names the address and why.
type RefusedError struct {
	Addr netip.Addr
	// Why names the kind of address: "loopback", "private", "link-local", ...
	Why string
}

func (e *RefusedError) Error() string {
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
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible (deprecated)"},
	{netip.MustParsePrefix("100::/64"), "discard-only"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignment (Teredo and others)"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("2002::/16"), "6to4"},
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local NAT64"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
}

// CheckAddr returns a *RefusedError unless ip is a public unicast address.
// IPv4-mapped IPv6 addresses are judged by their IPv4 address, so
// ::ffff:10.0.0.1 is as private as 10.0.0.1.
//
// allowLoopback opens loopback only (127.0.0.0/8 and ::1), for an operator
// who runs the service against sites on the same machine; private,
// link-local and every other range stay refused.
func CheckAddr(ip netip.Addr, allowLoopback bool) error {
	orig := ip
	ip = ip.Unmap().WithZone("")
	why := ""
	switch {
	case !ip.IsValid():
		why = "invalid"
	case ip.IsLoopback():
		if allowLoopback {
			return nil
		}
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
		return &RefusedError{Addr: orig, Why: why}
	}
	return nil
}

// Control returns a net.Dialer Control hook that lets a connection be made
// only to an address CheckAddr accepts. The address it sees is the resolved
// IP and port about to be dialled; anything that is not an IP is refused.
func Control(allowLoopback bool) func(network, address string, c syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return fmt.Errorf("refusing to connect to %q: %v", address, err)
		}
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return fmt.Errorf("refusing to connect to %q: not an IP address", host)
		}
		return CheckAddr(ip, allowLoopback)
	}
}

// Dialer returns a net.Dialer that connects within timeout and only to
// addresses CheckAddr accepts. Use its DialContext as an http.Transport's,
// with the transport's Proxy nil: a proxy would be dialled instead of the
// target, and the guard would judge the proxy's address.
func Dialer(timeout time.Duration, allowLoopback bool) *net.Dialer {
	return &net.Dialer{Timeout: timeout, Control: Control(allowLoopback)}
}
