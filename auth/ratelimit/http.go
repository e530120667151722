package ratelimit

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Network is the rate-limit key of a request's client: its network, read
// from r.RemoteAddr (set it from X-Forwarded-For with TrustProxies). An
// IPv4 address is its own network (/32: one address is usually one home,
// office or carrier NAT, and a wider prefix would join unrelated customers
// of one provider); an IPv6 address counts by its /64, the prefix one host
// or one LAN usually owns, so an attacker cannot get fresh budgets by
// rotating the interface identifier. IPv4-mapped IPv6 addresses count as
// IPv4.
func Network(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, _ := a.Prefix(64)
	return p.String()
}

// CredentialKey is the failed-credential budget key of the credential
// parts sent in r (a bearer header; a client's id and secret with a code or
// refresh token; a sign-in link's token): the request's network and a
// SHA-256 fingerprint of the parts. The same bad credential sent again from
// the same network spends one budget; another credential, another
// client's, has its own.
func CredentialKey(r *http.Request, parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return Network(r) + " " + hex.EncodeToString(h.Sum(nil)[:16])
}

// Handler counts every request to next against the request's network: over
// the quota it answers 429 (WriteTooMany) without calling next; within it,
// the response carries the RateLimit fields. A nil limiter returns next.
func (l *Limiter) Handler(next http.Handler) http.Handler {
	return l.HandlerWith(next, func(w http.ResponseWriter, _ *http.Request, s State) { WriteTooMany(w, s) })
}

// HandlerWith is Handler with its own answer to a refused request (the pages
// answer a person's browser with an HTML page); refuse must write the 429,
// its Retry-After and the RateLimit fields (State.SetHeaders).
func (l *Limiter) HandlerWith(next http.Handler, refuse func(w http.ResponseWriter, r *http.Request, s State)) http.Handler {
	if l == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := l.Take(Network(r))
		if !st.OK {
			refuse(w, r, st)
			return
		}
		st.SetHeaders(w.Header())
		next.ServeHTTP(w, r)
	})
}

// Guard limits failed attempts at a credential (a code, a client secret, a
// sign-in link) sent to next: when the network's budget is used up, the
// request is answered 429 before next checks anything; otherwise next runs,
// and its answer counts against the budget when failed(status) says it
// refused the credential. Concurrent attempts are checked before any of
// them is counted, so a burst of parallel requests may overshoot the quota
// by at most the number in flight. A nil limiter returns next.
func (l *Limiter) Guard(next http.Handler, failed func(status int) bool) http.Handler {
	return l.GuardKeyed(next, failed, Network)
}

// GuardKeyed is Guard with the budget of key(r) instead of the network's:
// the failed-credential budget is kept per network and credential
// (CredentialKey), so that one client's bad credentials never refuse
// another client of the same network (docs/ratelimits.md).
func (l *Limiter) GuardKeyed(next http.Handler, failed func(status int) bool, key func(r *http.Request) string) http.Handler {
	if l == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := key(r)
		if st := l.Peek(key); !st.OK {
			WriteTooMany(w, st)
			return
		}
		rec := &statusWriter{ResponseWriter: w, onHeader: func(status int) {
			if failed(status) {
				l.Take(key).SetHeaders(w.Header())
			}
		}}
		next.ServeHTTP(rec, r)
	})
}

// statusWriter calls onHeader with the status just before the header is
// written, so that the RateLimit fields can still be added.
type statusWriter struct {
	http.ResponseWriter
	onHeader func(int)
	wrote    bool
}

func (s *statusWriter) WriteHeader(status int) {
	if !s.wrote {
		s.wrote = true
		if status >= 200 {
			s.onHeader(status)
		}
	}
	s.ResponseWriter.WriteHeader(status)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if !s.wrote {
		s.WriteHeader(http.StatusOK)
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection (flush, deadlines).
func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// Flush passes on to the underlying writer.
func (s *statusWriter) Flush() {
	if !s.wrote {
		s.WriteHeader(http.StatusOK)
	}
	http.NewResponseController(s.ResponseWriter).Flush()
}

// Hijack passes on to the underlying writer.
func (s *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if h, ok := s.ResponseWriter.(http.Hijacker); ok {
		return h.Hijack()
	}
	return nil, nil, errors.New("ratelimit: the response writer cannot hijack")
}

// ParsePrefixes reads a comma-separated list of CIDR prefixes or single
// addresses ("10.0.0.0/8, 2001:db8::1").
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither a CIDR prefix nor an IP address", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// TrustProxies sets r.RemoteAddr from X-Forwarded-For when the request comes
// from one of the trusted proxies: the client is the right-most address in
// the header that is not itself a trusted proxy (the addresses to its left
// were written by the client and prove nothing). With no trusted proxies,
// next is returned and X-Forwarded-For is ignored.
func TrustProxies(trusted []netip.Prefix, next http.Handler) http.Handler {
	if len(trusted) == 0 {
		return next
	}
	isTrusted := func(a netip.Addr) bool {
		a = a.Unmap().WithZone("")
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		peer, err := netip.ParseAddr(host)
		if err != nil || !isTrusted(peer) {
			next.ServeHTTP(w, r)
			return
		}
		var hops []string
		for _, v := range r.Header.Values("X-Forwarded-For") {
			hops = append(hops, strings.Split(v, ",")...)
		}
		for i := len(hops) - 1; i >= 0; i-- {
			a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
			if err != nil {
				break
			}
			if isTrusted(a) {
				continue
			}
			r2 := r.WithContext(r.Context())
			r2.RemoteAddr = netip.AddrPortFrom(a.Unmap(), 0).String()
			next.ServeHTTP(w, r2)
			return
		}
		next.ServeHTTP(w, r)
	})
}
