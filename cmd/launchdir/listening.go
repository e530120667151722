package main

import (
	"context"
	"net"
	"strings"
	"time"
)

// loopbackOrigins are the loopback origins (http://localhost:PORT,
// http://127.0.0.1:PORT, http://[::1]:PORT) at which the listener at addr
// (its address as bound, e.g. 127.0.0.1:8080 or [::]:8080) answers: a
// loopback address only at its own name, the unspecified address ([::] is
// dual-stack, 0.0.0.0 IPv4 only) at each, and localhost where one of the
// addresses lookup gives for it is served (a client tries each in turn).
// Empty for a listener on no loopback address. The banner names only
// these: with --addr 127.0.0.1:PORT nothing listens on [::1].
func loopbackOrigins(addr string, lookup func(host string) ([]string, error)) []string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return nil
	}
	serves := func(a net.IP) bool {
		switch {
		case ip.Equal(net.IPv6unspecified):
			return true
		case ip.Equal(net.IPv4zero):
			return a.To4() != nil
		}
		return ip.Equal(a)
	}
	var out []string
	if addrs, err := lookup("localhost"); err == nil {
		for _, a := range addrs {
			if x := net.ParseIP(a); x != nil && x.IsLoopback() && serves(x) {
				out = append(out, "http://localhost:"+port)
				break
			}
		}
	}
	if serves(net.IPv4(127, 0, 0, 1)) {
		out = append(out, "http://127.0.0.1:"+port)
	}
	if serves(net.IPv6loopback) {
		out = append(out, "http://[::1]:"+port)
	}
	return out
}

// lookupHost resolves a name with the system's resolver, briefly.
func lookupHost(host string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return net.DefaultResolver.LookupHost(ctx, host)
}

// hostsOf lists the host names of origins for a sentence: "localhost and
// 127.0.0.1", "localhost, 127.0.0.1 and [::1]".
func hostsOf(origins []string) string {
	names := make([]string, len(origins))
	for i, o := range origins {
		h := strings.TrimPrefix(o, "http://")
		names[i] = h[:strings.LastIndex(h, ":")]
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
