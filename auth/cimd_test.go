package auth_test

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/launchdir/launchdir/auth"
)

// docServer serves client ID metadata documents over TLS on loopback.
type docServer struct {
	srv *httptest.Server
	mu  sync.Mutex
	// docs maps a path to a handler writing the document.
	docs map[string]http.HandlerFunc
	hits atomic.Int64
}

func newDocServer(t *testing.T) *docServer {
	d := &docServer{docs: map[string]http.HandlerFunc{}}
	d.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.hits.Add(1)
		d.mu.Lock()
		h := d.docs[r.URL.Path]
		d.mu.Unlock()
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(d.srv.Close)
	return d
}

// serve publishes doc (a JSON value, or a string body) at path.
func (d *docServer) serve(path string, doc any, header http.Header) string {
	body, ok := doc.(string)
	if !ok {
		b, _ := json.Marshal(doc)
		body = string(b)
	}
	d.mu.Lock()
	d.docs[path] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for k, v := range header {
			w.Header()[k] = v
		}
		w.Write([]byte(body))
	}
	d.mu.Unlock()
	return d.srv.URL + path
}

func cimdEnv(t *testing.T) (*env, *docServer) {
	d := newDocServer(t)
	e := newEnv(t, func(c *auth.Config) { c.MetadataClient = d.srv.Client() })
	return e, d
}

// #6 happy path: a metadata document client authorizes, consents (with its
// host shown and the local warning) and gets tokens.
func TestCIMDFlow(t *testing.T) {
	t.Parallel()
	e, d := cimdEnv(t)
	id := d.srv.URL + "/client.json"
	redirect := "http://127.0.0.1/callback"
	d.serve("/client.json", map[string]any{"client_id": id, "client_name": "Doc <Client>", "redirect_uris": []string{redirect},
		"token_endpoint_auth_method": "none"}, http.Header{"Cache-Control": {"max-age=600"}})
	b, _ := e.signedIn("ada@example.com")
	verifier, challenge := asPKCE()
	resp, body := e.asGet(b, "/authorize?"+asParams(id, "http://127.0.0.1:5555/callback", challenge).Encode())
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	host := strings.TrimPrefix(d.srv.URL, "https://")
	for _, want := range []string{"Doc &lt;Client&gt;", host, "127.0.0.1:5555", "not a website"} {
		if !strings.Contains(body, want) {
			t.Errorf("consent lacks %q", want)
		}
	}
	request, csrf := asConsentForm(t, body)
	resp, _ = e.asPost(b, "/authorize/decision", url.Values{"request": {request}, "csrf": {csrf}, "action": {"allow"}}, nil)
	code := asLocation(t, resp).Query().Get("code")
	resp2, m := e.asRedeem(id, "http://127.0.0.1:5555/callback", code, verifier)
	if resp2.StatusCode != 200 {
		t.Fatalf("%d %v", resp2.StatusCode, m)
	}
	c, err := e.auth.Verify(t.Context(), m["access_token"].(string), e.auth.MCPResource())
	if err != nil || c.ClientID != id || c.ClientName != "Doc <Client>" {
		t.Fatalf("%v %+v", err, c)
	}
	if d.hits.Load() != 1 {
		t.Errorf("fetched %d times within max-age, want 1", d.hits.Load())
	}
	// the cache expires with max-age (600 s)
	e.advance(601 * time.Second)
	e.asGet(b, "/authorize?"+asParams(id, redirect, challenge).Encode())
	if d.hits.Load() != 2 {
		t.Errorf("fetched %d times after max-age, want 2", d.hits.Load())
	}
}

// #6 documents that are refused: a 400 page at /authorize, never a redirect.
func TestCIMDRefused(t *testing.T) {
	t.Parallel()
	e, d := cimdEnv(t)
	b, _ := e.signedIn("ada@example.com")
	_, challenge := asPKCE()
	redirect := "https://app.test/cb"
	doc := func(path string, change func(m map[string]any)) string {
		m := map[string]any{"client_id": d.srv.URL + path, "client_name": "C", "redirect_uris": []string{redirect}}
		if change != nil {
			change(m)
		}
		return d.serve(path, m, nil)
	}
	cases := map[string]string{
		"mismatched client_id": doc("/mismatch.json", func(m map[string]any) { m["client_id"] = d.srv.URL + "/other.json" }),
		"secret":               doc("/secret.json", func(m map[string]any) { m["client_secret"] = "s" }),
		"secret auth":          doc("/basic.json", func(m map[string]any) { m["token_endpoint_auth_method"] = "client_secret_basic" }),
		"jwks":                 doc("/jwks.json", func(m map[string]any) { m["jwks"] = map[string]any{"keys": []any{}} }),
		"no redirect_uris":     doc("/noredirect.json", func(m map[string]any) { delete(m, "redirect_uris") }),
		"bad redirect_uri":     doc("/badredirect.json", func(m map[string]any) { m["redirect_uris"] = []string{"http://example.com/cb"} }),
		"other redirect":       doc("/otherredirect.json", func(m map[string]any) { m["redirect_uris"] = []string{"https://app.test/else"} }),
		"too large": doc("/large.json", func(m map[string]any) {
			m["client_uri"] = "https://app.test/" + strings.Repeat("a", 5*1024)
		}),
		"not an object": d.serve("/array.json", `[1,2]`, nil),
		"not JSON type": d.serve("/html.json", `{}`, http.Header{"Content-Type": {"text/html"}}),
		"404":           d.srv.URL + "/missing.json",
		"http":          strings.Replace(d.srv.URL, "https:", "http:", 1) + "/client.json",
		"fragment":      d.srv.URL + "/client.json#x",
		"query":         d.srv.URL + "/client.json?x=1",
		"no path":       d.srv.URL + "/",
		"dot segments":  d.srv.URL + "/a/../client.json",
		"userinfo":      strings.Replace(d.srv.URL, "https://", "https://u:p@", 1) + "/client.json",
	}
	for name, id := range cases {
		resp, body := e.asGet(b, "/authorize?"+asParams(id, redirect, challenge).Encode())
		t.Run(name, func(t *testing.T) { asErrorPage(t, resp, body) })
	}
	// at /token: invalid_client
	resp, m := e.asToken(url.Values{"grant_type": {"authorization_code"}, "client_id": {cases["secret"]}, "code": {"x"}}, nil)
	asOAuthError(t, resp, m, 401, "invalid_client")

	// errors are not cached: fixing the document works at once
	id := doc("/fixme.json", func(m map[string]any) { m["client_id"] = "https://wrong.test/x" })
	resp, body := e.asGet(b, "/authorize?"+asParams(id, redirect, challenge).Encode())
	asErrorPage(t, resp, body)
	doc("/fixme.json", nil)
	if resp, _ := e.asGet(b, "/authorize?"+asParams(id, redirect, challenge).Encode()); resp.StatusCode != 200 {
		t.Errorf("fixed document: %d", resp.StatusCode)
	}
}

// #6 the real (guarded) client refuses loopback before connecting.
func TestCIMDGuardRefusesLoopback(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil) // no MetadataClient: the SSRF guard
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// Every connection that reaches the listener is reported, in the order
	// the kernel queued it.
	from := make(chan string, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			from <- c.RemoteAddr().String()
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	b, _ := e.signedIn("ada@example.com")
	_, challenge := asPKCE()
	for _, host := range []string{"127.0.0.1", "localhost", "[::ffff:127.0.0.1]", "0x7f000001"} {
		id := "https://" + host + ":" + strconv.Itoa(port) + "/client.json"
		resp, body := e.asGet(b, "/authorize?"+asParams(id, "https://app.test/cb", challenge).Encode())
		t.Run(host, func(t *testing.T) { asErrorPage(t, resp, body) })
	}
	// A connection the guard let through was made before /authorize
	// answered, so it is queued ahead of this last one of the test's own:
	// everything accepted before it came from the service.
	mark, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer mark.Close()
	through := 0
	for addr := range from {
		if addr == mark.LocalAddr().String() {
			break
		}
		through++
	}
	if through != 0 {
		t.Fatalf("the guard let %d connections through to loopback", through)
	}
}

func itoa(n int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + func() string { b, _ := json.Marshal(n); return string(b) }())
}
