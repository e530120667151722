package tools

import (
	"bytes"
	"context"
	"net"
	"net/url"
	"strings"

	"github.com/launchdir/launchdir/domain"
)

// Every absolute URL of this service in an answer names the origin the
// request used. The origin of a request is chosen by
// domain.Origins.ForHost (auth.WithOrigins): on a loopback listener without
// --base-url, localhost, 127.0.0.1 and [::1] with the listener's port are
// all this server and each client gets its own; any other Host gets the
// default origin. Some URLs are built for the request (Site.In(ctx):
// checkout_url, account_url, get_site_info); others are built where no
// request is at hand, with the default origin, and some of those are kept
// in memory for every request (the summaries of search pages, storage's
// summaryCache) or replayed (idempotency). So the one place the transports
// meet, handle, writes the result at the request's origin: rebase.

// rebaseFrom are the origins that name this server as the origin to does
// and are not to: the default origin and, when to is a loopback origin,
// the other loopback names with its port. Empty when to is the default
// origin and no loopback name (a configured --base-url: nothing to do).
func rebaseFrom(def, to string) []string {
	var from []string
	if def != "" && def != to {
		from = append(from, def)
	}
	u, err := url.Parse(to)
	if err != nil || u.Scheme != "http" || u.Port() == "" || !loopbackName(u.Hostname()) {
		return from
	}
	for _, h := range []string{"127.0.0.1", "localhost", "::1"} {
		o := "http://" + net.JoinHostPort(h, u.Port())
		if o != to && o != def {
			from = append(from, o)
		}
	}
	return from
}

func loopbackName(h string) bool {
	return h == "localhost" || h == "127.0.0.1" || h == "::1"
}

// rebase is body with every URL at one of the origins rebaseFrom names
// written at the request's origin instead. An origin counts only where it
// ends (the next byte cannot continue a host or port), so
// http://127.0.0.1:8080 is not taken for the start of
// http://127.0.0.1:80800. body is not changed in place; it is returned as
// it is when nothing is to be rewritten.
func (s *Server) rebase(ctx context.Context, body []byte) []byte {
	to, ok := domain.OriginFrom(ctx)
	if !ok {
		return body
	}
	for _, from := range rebaseFrom(s.svc.Site.BaseURL, to) {
		body = replaceOrigin(body, []byte(from), []byte(to))
	}
	return body
}

// rebaseString is rebase for a string (a problem's detail).
func (s *Server) rebaseString(ctx context.Context, str string) string {
	if !strings.Contains(str, "://") {
		return str
	}
	return string(s.rebase(ctx, []byte(str)))
}

func replaceOrigin(b, from, to []byte) []byte {
	i := bytes.Index(b, from)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+len(to)-len(from))
	for i >= 0 {
		end := i + len(from)
		if end < len(b) && hostByte(b[end]) {
			out = append(out, b[:end]...) // a longer host or port: not this origin
		} else {
			out = append(out, b[:i]...)
			out = append(out, to...)
		}
		b = b[end:]
		i = bytes.Index(b, from)
	}
	return append(out, b...)
}

// hostByte says whether c may continue a host name or port.
func hostByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == ':' || c == '@' || c == '_'
}
