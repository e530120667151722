package auth_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/launchdir/launchdir/auth"
	"github.com/launchdir/launchdir/internal/netguard"
)

// The rules of a client ID metadata document, checked through /authorize,
// which resolves the client before anything else: the client_id URL, the
// document, the cache lifetime, the dial guard and the redirect policy.

// docTransport answers every metadata document request in the process with
// body (application/json and header), and records the URLs asked for.
type docTransport struct {
	mu     sync.Mutex
	urls   []string
	body   []byte
	header http.Header
}

func (d *docTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.urls = append(d.urls, r.URL.String())
	h := http.Header{"Content-Type": {"application/json"}}
	for k, v := range d.header {
		h[k] = v
	}
	return &http.Response{StatusCode: http.StatusOK, Header: h, Request: r,
		ContentLength: int64(len(d.body)), Body: io.NopCloser(bytes.NewReader(d.body))}, nil
}

func (d *docTransport) fetched() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.urls)
}

func (d *docTransport) serve(body string, header http.Header) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.body, d.header = []byte(body), header
}

// logBuffer keeps what the service logs.
type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// docEnv is the auth service whose metadata documents are fetched with
// client (nil: the service's own, guarded client) and whose log is kept.
func docEnv(t *testing.T, client *http.Client) (*env, *logBuffer) {
	log := &logBuffer{}
	e := newEnv(t, func(c *auth.Config) {
		c.MetadataClient = client
		c.Logger = slog.New(slog.NewTextHandler(log, nil))
	})
	return e, log
}

// authorizeClient asks /authorize for clientID and returns the page.
func (e *env) authorizeClient(clientID string) (*http.Response, string) {
	return e.asGet(e.browser(), "/authorize?"+asParams(clientID, "https://app.example/callback", "challenge-43-characters-long-aaaaaaaaaaaaaa").Encode())
}

// cimdDoc is a valid document for id.
func cimdDoc(id string) string {
	return `{"client_id":"` + id + `","client_name":"Example App","redirect_uris":["https://app.example/callback"]}`
}

// FuzzCIMD reads any client_id and any bytes as a client ID metadata
// document. Properties: nothing panics; a client_id URL fetched is https
// with a host and a path and no query, fragment or user information; a
// document refused gets the error page with a reason; a document accepted
// is stored as a public client ("none") whose id is the URL, with 1 to 10
// redirect URIs that are each absolute https, or http on a loopback host,
// without fragment or user information, a name of 1 to 200 characters
// without control characters or surrounding space, and a client_uri that
// is https or empty.
func FuzzCIMD(f *testing.F) {
	const id = "https://app.example/oauth/client.json"
	f.Add(id, []byte(`{"client_id":"`+id+`","client_name":"Example App","client_uri":"https://app.example",`+
		`"redirect_uris":["https://app.example/callback","http://127.0.0.1:33418/callback"],`+
		`"grant_types":["authorization_code","refresh_token"],"response_types":["code"],"token_endpoint_auth_method":"none"}`))
	f.Add(id, []byte(`{"client_id":"`+id+`","redirect_uris":["http://localhost/cb"],"client_secret":"s"}`))
	f.Add(id, []byte(`{"client_id":"`+id+`","client_name":"\u202eppA","redirect_uris":["https://a.example/cb#x"]}`))
	f.Add("https://app.example/", []byte(`{"client_id":"https://app.example/","redirect_uris":["javascript:alert(1)"]}`))
	f.Add("https://user@app.example/a/../b?x=1", []byte(`[]`))
	f.Add(id, []byte(`{"client_id":"`+id+`","redirect_uris":"https://a.example/cb"} {"x":1}`))
	f.Add(id, []byte(`{"client_id":"`+id+`","redirect_uris":["http://example.com/cb"]}`))
	f.Add(id, []byte(`{"client_id":"`+id+`","client_name":"\u202eppA","redirect_uris":["https://a.example/cb"]}`))
	f.Fuzz(func(t *testing.T, clientID string, body []byte) {
		d := &docTransport{body: body}
		e, _ := docEnv(t, &http.Client{Transport: d})
		resp, page := e.authorizeClient(clientID)
		if d.fetched() > 0 {
			u, err := url.Parse(clientID)
			if err != nil || u.Scheme != "https" || u.Hostname() == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Path == "" || u.Path == "/" {
				t.Fatalf("fetched client_id %q", clientID)
			}
		} else { // the URL was refused: read the body as the document at id
			clientID = id
			resp, page = e.authorizeClient(clientID)
			if d.fetched() != 1 {
				t.Fatalf("%s: fetched %d times", id, d.fetched())
			}
		}
		cl, err := e.store.ClientByID(context.Background(), clientID)
		if err != nil {
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(page, "could not be used: ") || strings.Contains(page, "could not be used: . ") {
				t.Fatalf("refused without a reason: %d %s", resp.StatusCode, page)
			}
			return
		}
		if cl.ID != clientID || cl.AuthMethod != "none" || cl.Kind != auth.ClientMetadata {
			t.Fatalf("client %+v for %q", cl, clientID)
		}
		if n := len(cl.RedirectURIs); n < 1 || n > 10 {
			t.Fatalf("%d redirect URIs", n)
		}
		for _, r := range cl.RedirectURIs {
			ru, err := url.Parse(r)
			loopback := ru != nil && (ru.Hostname() == "localhost" || ru.Hostname() == "127.0.0.1" || ru.Hostname() == "::1")
			if err != nil || !ru.IsAbs() || ru.Opaque != "" || ru.Hostname() == "" || ru.User != nil || strings.Contains(r, "#") ||
				!(ru.Scheme == "https" || ru.Scheme == "http" && loopback) {
				t.Fatalf("redirect URI %q accepted", r)
			}
		}
		if n := utf8.RuneCountInString(cl.Name); cl.Name == "" || n > 200 || strings.TrimSpace(cl.Name) != cl.Name ||
			strings.ContainsFunc(cl.Name, func(r rune) bool {
				return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == '\u2028' || r == '\u2029'
			}) {
			t.Fatalf("client name %q", cl.Name)
		}
		if cl.URI != "" {
			cu, err := url.Parse(cl.URI)
			if err != nil || cu.Scheme != "https" || cu.Host == "" || cu.User != nil {
				t.Fatalf("client_uri %q", cl.URI)
			}
		}
	})
}

// A client_id URL is fetched only when it is https with a host and a path
// other than "/", and has no query, fragment, user information or dot
// segment; the others get the error page before any request.
func TestCIMD_ClientIDURL(t *testing.T) {
	t.Parallel()
	d := &docTransport{}
	e, _ := docEnv(t, &http.Client{Transport: d})
	for _, ok := range []string{"https://app.test/client.json", "https://app.test:8443/a/b"} {
		d.serve(cimdDoc(ok), nil)
		before := d.fetched()
		if e.authorizeClient(ok); d.fetched() != before+1 {
			t.Errorf("%s: fetched %d times", ok, d.fetched()-before)
		}
		if _, err := e.store.ClientByID(context.Background(), ok); err != nil {
			t.Errorf("%s: not stored: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://app.test/c.json", "https://app.test", "https://app.test/", "https://app.test/c.json#f",
		"https://u@app.test/c.json", "https://app.test/a/../c.json", "https://app.test/./c.json", "https://app.test/%2e%2e/c.json",
		"https://app.test/c.json?x=1", "https:///c.json", "https:app.test/c.json"} {
		before := d.fetched()
		resp, page := e.authorizeClient(bad)
		if d.fetched() != before {
			t.Errorf("%s fetched", bad)
		}
		t.Run(url.PathEscape(bad), func(t *testing.T) { asErrorPage(t, resp, page) })
	}
}

// A fetched document is kept for its Cache-Control max-age, clamped to 30
// seconds .. 24 hours; 5 minutes without one (or with one that is not a
// number); no-store means the minimum.
func TestCIMD_CacheLifetime(t *testing.T) {
	t.Parallel()
	const id = "https://app.test/client.json"
	for cc, want := range map[string]time.Duration{
		"":                        5 * time.Minute,
		"max-age=1":               30 * time.Second,
		"max-age=600":             600 * time.Second,
		"public, max-age=9999999": 24 * time.Hour,
		"no-store":                30 * time.Second,
		"max-age=abc":             5 * time.Minute,
	} {
		t.Run(cc, func(t *testing.T) {
			t.Parallel()
			d := &docTransport{}
			h := http.Header{}
			if cc != "" {
				h.Set("Cache-Control", cc)
			}
			d.serve(cimdDoc(id), h)
			e, _ := docEnv(t, &http.Client{Transport: d})
			e.authorizeClient(id)
			e.advance(want - time.Second)
			e.authorizeClient(id)
			if n := d.fetched(); n != 1 {
				t.Fatalf("fetched %d times within %v, want 1", n, want)
			}
			e.advance(time.Second)
			e.authorizeClient(id)
			if n := d.fetched(); n != 2 {
				t.Errorf("fetched %d times at %v, want 2", n, want)
			}
		})
	}
}

// Without a MetadataClient the service's own client refuses non-public
// addresses when it dials (the log names the address; the page says only
// that the document could not be fetched).
func TestCIMD_GuardRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	for id, addr := range map[string]string{
		"https://127.0.0.1/c.json":          "127.0.0.1",
		"https://10.0.0.5/c.json":           "10.0.0.5",
		"https://169.254.169.254/c.json":    "169.254.169.254",
		"https://[::1]/c.json":              "::1",
		"https://[::ffff:127.0.0.1]/c.json": "127.0.0.1",
		"https://[fd00::1]/c.json":          "fd00::1",
		"https://100.64.0.1/c.json":         "100.64.0.1",
		"https://localhost/c.json":          "", // 127.0.0.1 or ::1
	} {
		t.Run(url.PathEscape(id), func(t *testing.T) {
			t.Parallel()
			e, log := docEnv(t, nil)
			resp, page := e.authorizeClient(id)
			asErrorPage(t, resp, page)
			if !strings.Contains(page, "could not be fetched") {
				t.Errorf("page: %s", page)
			}
			if l := log.String(); !strings.Contains(l, "refusing to connect to") || !strings.Contains(l, addr) {
				t.Errorf("log: %s", l)
			}
		})
	}
}

// A redirect to an internal address is refused too, and so is one to http,
// and at most 3 redirects are followed.
func TestCIMD_Redirects(t *testing.T) {
	t.Parallel()
	var loops atomic.Int64
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/loop/") {
			loops.Add(1)
		}
		switch {
		case strings.HasPrefix(r.URL.Path, "/internal/"):
			http.Redirect(w, r, "https://169.254.169.254/latest/meta-data", http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/http/"):
			http.Redirect(w, r, "http://example.com/c.json", http.StatusFound)
		default: // /loop/c.json, /loop/c.jsonx, ...
			http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
		}
	}))
	t.Cleanup(srv.Close)
	// the test server's client trusts its certificate; its dialer is the
	// guard's, but for the test server's own (loopback) address
	tr := srv.Client().Transport.(*http.Transport).Clone()
	srvAddr := srv.Listener.Addr().String()
	tr.DialContext = (&net.Dialer{Timeout: time.Second, Control: func(network, address string, c syscall.RawConn) error {
		if address == srvAddr {
			return nil
		}
		return netguard.Control(false)(network, address, c)
	}}).DialContext
	for path, want := range map[string]string{
		"/internal/": "refusing to connect to 169.254.169.254",
		"/http/":     "redirect to a URL that is not https",
		"/loop/":     "too many redirects",
	} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			e, log := docEnv(t, &http.Client{Transport: tr})
			resp, page := e.authorizeClient(srv.URL + path + "c.json")
			asErrorPage(t, resp, page)
			if l := log.String(); !strings.Contains(l, want) {
				t.Errorf("log lacks %q: %s", want, l)
			}
		})
	}
	t.Cleanup(func() {
		if n := loops.Load(); n != 1+3 {
			t.Errorf("the redirect loop was asked %d times, want the document and 3 redirects", n)
		}
	})
}
